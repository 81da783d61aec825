import Foundation
import RaceKitMetrics
import RaceKitOutput
import RaceKitPlan
import RaceKitScript

/// Renders a race review as JSON (docs/contracts/json.md, "Race reviews"), a text
/// table, Markdown or CSV.
public enum ReviewOutput {
    static func r(_ v: Double?, _ digits: Int) -> Double? { TextFormat.round(v, digits) }

    /// `race review --format json`; `Run` is the run summary of `runs list --format json`.
    public struct ReviewJSON<Run: Encodable & Sendable>: Encodable, Sendable {
        public var race: PlanOutput.SetupJSON
        public var run: Run
        public var targetSeconds: Double
        @Null public var actualSeconds: Double?
        public var splits: [SplitJSON]
        @Null public var brokeAtMeters: Double?
        @Null public var fadePercent: Double?
        public var cues: [CueJSON]
        public var stops: [StopJSON]
        @Null public var script: ScriptReplay.Report.Summary?
        public var verdict: [String]
        /// The conditions it was run in (docs/review.md, "Conditions"); null when unknown.
        @Null public var conditions: ConditionsJSON?
        /// What makes the review doubtful (a run off the course); empty when nothing.
        public var warnings: [String]
    }

    public struct SplitJSON: Encodable, Sendable {
        public var index: Int
        @Null public var startMeters: Double?
        @Null public var endMeters: Double?
        @Null public var plannedSeconds: Double?
        @Null public var actualSeconds: Double?
        @Null public var gapSeconds: Double?
        @Null public var plannedPaceSecondsPerKm: Double?
        @Null public var actualPaceSecondsPerKm: Double?
        @Null public var gradeAdjustedPaceSecondsPerKm: Double?
        @Null public var gradePercent: Double?
        @Null public var avgHeartRate: Double?
        @Null public var avgPowerWatts: Double?
        public var partial: Bool
    }

    /// A cue: the keys of docs/contracts/json.md, `metersAtPlannedClock` and `slowdownSeconds` included.
    public struct CueJSON: Encodable, Sendable {
        public var kind: String
        public var number: Int
        @Null public var plannedMeters: Double?
        @Null public var plannedClockSeconds: Double?
        @Null public var actualClockSeconds: Double?
        @Null public var metersAtPlannedClock: Double?
        @Null public var stopSeconds: Double?
        @Null public var slowdownSeconds: Double?
    }

    public struct ConditionsJSON: Encodable, Sendable {
        public var source, sun, model: String
        public var minC, maxC, meanC: Double
        @Null public var dewPointC: Double?
        public var meanWBGTC, slowdownPercent, coolEquivalentSeconds: Double

        init(_ c: ReviewConditions) {
            (source, sun, model) = (c.source.rawValue, c.sun.rawValue, c.model.rawValue)
            (minC, maxC, meanC) = (r(c.minC, 1)!, r(c.maxC, 1)!, r(c.meanC, 1)!)
            dewPointC = r(c.dewPointC, 1)
            (meanWBGTC, slowdownPercent) = (r(c.meanWBGTC, 1)!, r(c.slowdownPercent, 2)!)
            coolEquivalentSeconds = c.coolEquivalentSeconds.rounded()
        }
    }

    public struct StopJSON: Encodable, Sendable {
        @Null public var atMeters: Double?
        @Null public var seconds: Double?
    }

    public static func json<Run: Encodable & Sendable>(_ v: RaceReview, run: Run) -> ReviewJSON<Run> {
        ReviewJSON(
            race: PlanOutput.setup(v.plan.setup), run: run, targetSeconds: v.targetSeconds,
            actualSeconds: r(v.actualSeconds, 1),
            splits: v.splits.map { s in
                SplitJSON(
                    index: s.index, startMeters: r(s.startMeters, 1), endMeters: r(s.endMeters, 1),
                    plannedSeconds: r(s.plannedSeconds, 1), actualSeconds: r(s.actualSeconds, 1),
                    gapSeconds: r(s.gapSeconds, 1), plannedPaceSecondsPerKm: r(s.plannedPaceSecondsPerKm, 1),
                    actualPaceSecondsPerKm: r(s.actualPaceSecondsPerKm, 1),
                    gradeAdjustedPaceSecondsPerKm: r(s.gradeAdjustedPaceSecondsPerKm, 1),
                    gradePercent: r(s.gradePercent, 2), avgHeartRate: r(s.avgHeartRate, 1),
                    avgPowerWatts: r(s.avgPowerWatts, 0), partial: s.partial)
            },
            brokeAtMeters: r(v.brokeAtMeters, 1), fadePercent: r(v.fadePercent, 2),
            cues: v.cues.map { c in
                CueJSON(
                    kind: c.kind.rawValue, number: c.number, plannedMeters: r(c.plannedMeters, 1),
                    plannedClockSeconds: r(c.plannedClockSeconds, 1), actualClockSeconds: r(c.actualClockSeconds, 1),
                    metersAtPlannedClock: r(c.metersAtPlannedClock, 1), stopSeconds: r(c.stopSeconds, 1),
                    slowdownSeconds: r(c.slowdownSeconds, 1))
            },
            stops: v.stops.map { StopJSON(atMeters: r($0.atMeters, 1), seconds: r($0.seconds, 1)) },
            script: v.script?.report.summary, verdict: v.verdict, conditions: v.conditions.map(ConditionsJSON.init),
            warnings: v.warnings)
    }

    static func unit(_ v: RaceReview) -> String { PlanOutput.unitName(v.plan.unitMeters) }

    /// A distance in the review's unit (`--unit`): "9.3 mi", "15.00 km".
    static func distance(_ meters: Double, _ v: RaceReview, _ digits: Int) -> String {
        "\(TextFormat.fixed(meters / v.plan.unitMeters, digits)) \(unit(v))"
    }

    /// "+1:05" (behind), "-0:12" (ahead), "0:00".
    public static func signed(_ s: Double) -> String {
        let text = TextFormat.duration(abs(s))
        return text == "0:00" || !s.isFinite ? text : (s > 0 ? "+" : "-") + text
    }

    static func pace(_ v: Double?, _ review: RaceReview) -> String {
        v.map { TextFormat.pace($0 * review.plan.unitMeters / 1000) } ?? TextFormat.unknown
    }

    /// The heading lines.
    public static func summary(_ v: RaceReview, withID: Bool = true) -> [String] {
        let s = v.plan.setup
        let diff = v.actualSeconds - v.targetSeconds
        let run = withID || v.runName.isEmpty ? "run \(v.runID)" : v.runName
        return [
            "\(s.name)\(s.date.map { " (\($0))" } ?? ""): \(run), \(distance(v.recordedMeters, v, 2)) on the watch, aligned on the course's \(distance(s.distanceMeters, v, 3)) (x\(TextFormat.fixed(v.scale, 4)))",
            "Target \(TextFormat.duration(v.targetSeconds)), finished in \(TextFormat.duration(v.actualSeconds)) (\(signed(diff)) on the target; + is behind)"
        ]
    }

    static func splitRows(_ v: RaceReview) -> (header: [String], rows: [[String]], right: Set<Int>) {
        let u = unit(v)
        // A W column (average power) where a split has power.
        let power = v.splits.contains { $0.avgPowerWatts != nil }
        let header =
            [u, "plan", "run", "behind", "plan/\(u)", "run/\(u)", "GAP/\(u)", "grade", "HR"] + (power ? ["W"] : [])
            + ["stop"]
        let rows = v.splits.map { s in
            let watts = power ? [s.avgPowerWatts.map { TextFormat.fixed($0, 0) } ?? TextFormat.unknown] : []
            return [
                TextFormat.fixed(s.endMeters / v.plan.unitMeters, s.partial ? 2 : 0),
                TextFormat.duration(s.plannedSeconds), TextFormat.duration(s.actualSeconds), signed(s.gapSeconds),
                pace(s.plannedPaceSecondsPerKm, v), pace(s.actualPaceSecondsPerKm, v),
                pace(s.gradeAdjustedPaceSecondsPerKm, v),
                s.gradePercent.map { ($0 >= 0.05 ? "+" : "") + TextFormat.fixed($0, 1) + "%" } ?? TextFormat.unknown,
                s.avgHeartRate.map { TextFormat.fixed($0, 0) } ?? TextFormat.unknown
            ] + watts + [s.stoppedSeconds > 0 ? "\(TextFormat.fixed(s.stoppedSeconds, 0)) s" : ""]
        }
        return (header, rows, Set(0..<header.count))
    }

    static func cueRows(_ v: RaceReview) -> [[String]] {
        v.cues.map { c in
            let seen =
                c.stopSeconds > 0
                ? "stopped \(TextFormat.fixed(c.stopSeconds, 0)) s"
                : (c.slowdownSeconds >= ReviewAnalyzer.slowdownNoticeSeconds
                    ? "slowed, \(TextFormat.fixed(c.slowdownSeconds, 0)) s lost" : "ran through")
            return [
                "\(c.kind.rawValue) \(c.number)", TextFormat.fixed(c.plannedMeters / v.plan.unitMeters, 2),
                TextFormat.duration(c.plannedClockSeconds), TextFormat.duration(c.actualClockSeconds),
                signed(c.actualClockSeconds - c.plannedClockSeconds),
                TextFormat.fixed(c.metersAtPlannedClock / v.plan.unitMeters, 2), seen
            ]
        }
    }

    static func cueHeader(_ v: RaceReview) -> [String] {
        ["cue", unit(v), "planned", "reached", "late", "\(unit(v)) at planned clock", "seen"]
    }

    static func breakLines(_ v: RaceReview) -> [String] {
        var out: [String] = []
        if let m = v.brokeAtMeters {
            out.append("Where it broke: \(distance(m, v, 1))")
        } else {
            out.append("Where it broke: nowhere")
        }
        out.append(
            "Fade over the last quarter: \(TextFormat.fixed(v.fadePercent, 1))% (against the plan, the first three quarters = 0)"
        )
        if !v.stops.isEmpty {
            out.append(
                "Stops: "
                    + v.stops.map {
                        "\(TextFormat.fixed($0.seconds, 0)) s at \(distance($0.atMeters, v, 2)) (\(TextFormat.duration($0.clockSeconds)))"
                    }.joined(separator: ", "))
        }
        return out
    }

    static func scriptLine(_ v: RaceReview) -> String? {
        guard let s = v.script else { return nil }
        var line = "Race script (\(v.plan.setup.personality ?? "calm_coach")): \(s.report.summaryLine)"
        line += "; pace lines \(s.ahead) ahead, \(s.onPlan) on plan, \(s.behind) behind"
        if !s.conditions.isEmpty {
            line +=
                "; "
                + s.conditions.map { "\($0.role) at \(distance($0.meters, v, 1))" }
                .joined(separator: ", ")
        }
        return line
    }

    /// Plain text tables.
    public static func text(_ v: RaceReview, table: ([String], [[String]], Set<Int>) -> String) -> String {
        var out = summary(v).joined(separator: "\n") + "\n\n"
        for w in v.warnings { out += "Warning: \(w)\n\n" }
        let s = splitRows(v)
        out += table(s.header, s.rows, s.right) + "\n\n"
        out += breakLines(v).joined(separator: "\n") + "\n"
        if !v.cues.isEmpty { out += "\n" + table(cueHeader(v), cueRows(v), [1, 2, 3, 4, 5]) + "\n" }
        if let line = scriptLine(v) { out += "\n" + line + "\n" }
        out += "\nVerdict:\n" + v.verdict.map { "  - " + $0 }.joined(separator: "\n") + "\n"
        return out
    }

    /// Markdown with the chart (`chart`: the SVG's file name beside it).
    public static func markdown(_ v: RaceReview, chart: String?) -> String {
        var out =
            "# Race review: \(v.plan.setup.name)\n\n"
            + summary(v, withID: false).map { $0 + "  " }.joined(separator: "\n")
        for w in v.warnings { out += "\n\n> **Warning:** \(w)" }
        out += "\n\n## Verdict\n\n" + v.verdict.map { "- " + $0 }.joined(separator: "\n") + "\n"
        if let chart {
            out +=
                "\n![Gap to the plan over the distance, the course profile below, cues marked](\(chart))\n"
        }
        out += "\n## Splits\n\n"
        let s = splitRows(v)
        out += TextFormat.markdownTable(header: s.header, rows: s.rows, rightAligned: s.right) + "\n"
        out += "\n## Where it broke\n\n" + breakLines(v).map { "- " + $0 }.joined(separator: "\n") + "\n"
        if !v.cues.isEmpty {
            out +=
                "\n## Fueling and drinks\n\n"
                + TextFormat.markdownTable(header: cueHeader(v), rows: cueRows(v), rightAligned: [1, 2, 3, 4, 5]) + "\n"
        }
        if let line = scriptLine(v) { out += "\n## What the race script would have said\n\n" + line + "\n" }
        // Names and notes come from files: no raw control character in the report.
        return DisplayText.escaped(out)
    }

    /// CSV of the splits (`CSV`: RFC 4180, CRLF records; snake_case headers with units).
    public static func splitsCSV(_ v: RaceReview) -> String {
        let u = unit(v), k = v.plan.unitMeters / 1000
        return CSV.document(
            header: [
                "index", "start_km", "end_km", "planned_time_s", "actual_time_s", "behind_plan_s",
                "planned_pace_s_per_\(u)", "actual_pace_s_per_\(u)", "gap_pace_s_per_\(u)", "grade_percent",
                "avg_hr_bpm", "stopped_s", "partial", "avg_power_w"
            ],
            rows: v.splits.map { s in
                [
                    .integer(s.index), .number(s.startMeters / 1000, digits: 3), .number(s.endMeters / 1000, digits: 3),
                    .number(s.plannedSeconds, digits: 1), .number(s.actualSeconds, digits: 1),
                    .number(s.gapSeconds, digits: 1), .number(s.plannedPaceSecondsPerKm * k, digits: 1),
                    .number(s.actualPaceSecondsPerKm * k, digits: 1),
                    .number(s.gradeAdjustedPaceSecondsPerKm.map { $0 * k }, digits: 1),
                    .number(s.gradePercent, digits: 2), .number(s.avgHeartRate, digits: 1),
                    .number(s.stoppedSeconds, digits: 1), .bool(s.partial), .number(s.avgPowerWatts, digits: 0)
                ]
            })
    }
}

/// `race review --out DIR`: `STEM-review.md` and `STEM-review.svg` (STEM: the
/// setup file's name without `.yaml`), written atomically.
public enum ReviewFiles {
    /// The paths `write` writes to (Markdown first).
    public static func paths(_ setup: RaceSetup, in directory: String) -> (markdown: String, chart: String) {
        let base = directory as NSString
        return (
            base.appendingPathComponent("\(setup.fileStem)-review.md"),
            base.appendingPathComponent("\(setup.fileStem)-review.svg")
        )
    }

    /// Writes both files; returns their paths (Markdown first).
    public static func write(_ v: RaceReview, to directory: String) throws -> (markdown: String, chart: String) {
        try AtomicFile.createDirectory(directory)
        let (markdown, chart) = paths(v.plan.setup, in: directory)
        let chartName = (chart as NSString).lastPathComponent
        try AtomicFile.write(ReviewChart.render(v), to: chart)
        try AtomicFile.write(ReviewOutput.markdown(v, chart: chartName), to: markdown)
        return (markdown, chart)
    }
}
