import RaceKitMetrics
import RaceKitModel
import RaceKitOutput

/// The Markdown report for the last week of an `AthleteWeeks`.
public enum WeeklyMarkdown {
    /// Warning thresholds (docs/weekly-reports.md).
    public static let distanceRampPercent = 10.0
    public static let distanceRampWeeks = 3
    public static let longRunShare = 0.4
    public static let acwrHigh = 1.5
    public static let fitnessRampHigh = 8.0
    public static let formLow = -30.0

    public static func render(_ w: AthleteWeeks, chartFile: String, stamp: String? = nil) -> String {
        guard let week = w.rows.last else { return "" }
        let runs = (w.runsByWeek[week.week] ?? []).sorted { $0.startedAt < $1.startedAt }
        let f = TextFormat.fixed
        var out: [String] = []
        out.append("# \(w.athleteName) · \(week.week)")
        out.append("")
        out.append(
            "Week of \(TextFormat.day(week.week.monday)) to \(TextFormat.day(week.week.sunday)) \(TimestampParser.civilFromDays(week.week.sunday).0) (\(w.timeZone)), running only.\(stamp.map { " Generated \($0)." } ?? "")"
        )
        out.append("")
        out.append("## This week")
        out.append("")
        out.append("| | |")
        out.append("|---|---|")
        func change(_ v: Double?) -> String {
            guard let v else { return "" }
            return " (\(v >= 0 ? "+" : "")\(f(v, 0))% on last week)"
        }
        var facts: [(String, String)] = [
            ("Runs", String(week.runs)),
            ("Distance", "\(f(week.distanceKm, 1)) km\(change(week.distanceChangePercent))"),
            ("Moving time", TextFormat.duration(week.movingSeconds)),
            ("Elevation gain", "\(f(week.elevationGainMeters, 0)) m"),
            ("Longest run", "\(f(week.longestRunKm, 1)) km"),
            ("Average pace", "\(TextFormat.pace(week.avgPaceSecondsPerKm)) /km"),
            (
                "Average heart rate",
                week.avgHeartRate.map {
                    "\(f($0, 0)) bpm (heart rate on \(f(week.heartRateCoveragePercent, 0))% of the time)"
                } ?? "no heart rate"
            ),
            (
                "Load",
                "\(f(week.load, 0))\(change(week.loadChangePercent))\(week.runsWithoutLoad > 0 ? ", \(week.runsWithoutLoad) runs without load" : "")"
            )
        ]
        if let stress = week.powerStress {
            let without = week.runs - week.runsWithPowerStress
            facts.append(
                (
                    "Power stress",
                    "\(f(stress, 0)) (against critical power; \(week.runsWithPowerStress) of \(week.runs) run\(week.runs == 1 ? "" : "s")\(without > 0 ? ": the others have no power or no critical power" : ""))"
                ))
        }
        facts += [
            (
                "Fitness / fatigue / form",
                "\(f(week.fitnessEnd, 1)) / \(f(week.fatigueEnd, 1)) / \(f(week.formEnd, 1))\(week.fitnessWarmup ? " (warming up)" : "")"
            ),
            ("Fitness ramp", "\(week.ramp7d >= 0 ? "+" : "")\(f(week.ramp7d, 1)) this week"),
            (
                "Acute:chronic load",
                week.acwr.map { f($0, 2) }
                    ?? (week.historyDays < LoadModel.chronicDays
                        ? "not enough history (\(max(0, week.historyDays)) of \(LoadModel.chronicDays) days)"
                        : TextFormat.unknown)
            ),
            ("Monotony / strain", week.monotony.map { "\(f($0, 2)) / \(f(week.strain, 0))" } ?? TextFormat.unknown)
        ]
        let zoneTotal = week.zoneSeconds.reduce(0, +)
        if zoneTotal > 0 {
            facts.append(
                (
                    "Time in HR zones",
                    zip(w.zoneNames, week.zoneSeconds).map { "Z\($0) \(f($1 / zoneTotal * 100, 0))%" }.joined(
                        separator: " · ")
                ))
        }
        for (k, v) in facts { out.append("| \(k) | \(v) |") }
        out.append("")
        out.append("![Weekly distance with fitness and fatigue](\(chartFile))")
        out.append("")

        out.append("## Trend")
        out.append("")
        out.append("| | trend | \(w.rows.first!.week) → \(week.week) |")
        out.append("|---|---|---|")
        // Each trend is drawn from the numbers printed beside it (rounded as
        // shown): twelve weeks printed as 0 are a flat line, not a decline.
        for (name, values) in [
            ("distance (km)", w.rows.map(\.distanceKm)), ("load", w.rows.map(\.load)),
            ("fitness", w.rows.map(\.fitnessEnd)), ("form", w.rows.map(\.formEnd))
        ] {
            let shown = values.map { f($0, 0) }
            out.append("| \(name) | \(sparkline(shown.map { Double($0) ?? .nan })) | \(shown.joined(separator: " ")) |")
        }
        out.append("")
        out.append("| week | runs | km | moving | load | fitness | fatigue | form |")
        out.append("|---|---:|---:|---:|---:|---:|---:|---:|")
        for r in w.rows.reversed() {
            out.append(
                "| \(r.week) | \(r.runs) | \(f(r.distanceKm, 1)) | \(TextFormat.duration(r.movingSeconds)) | \(f(r.load, 0)) | \(f(r.fitnessEnd, 1)) | \(f(r.fatigueEnd, 1)) | \(f(r.formEnd, 1)) |"
            )
        }
        out.append("")

        out += WeeklyWellness.section(w)
        out.append("## Highlights")
        out.append("")
        let highlights = self.highlights(runs, priorBest: w.priorBest)
        out += highlights.isEmpty ? ["- No runs this week."] : highlights.map { "- " + $0 }
        out.append("")
        out.append("## Warnings")
        out.append("")
        let warnings = self.warnings(w.rows, runs: runs)
        out += warnings.isEmpty ? ["- None."] : warnings.map { "- " + $0 }
        out.append("")
        // Names come from files and the store: no raw control character in the report.
        return DisplayText.escaped(out.joined(separator: "\n"))
    }

    /// ▁▂▃▄▅▆▇█ scaled between the series' minimum and maximum.
    public static func sparkline(_ values: [Double]) -> String {
        let blocks = Array("▁▂▃▄▅▆▇█")
        // Non-finite values take the lowest block; the scale is over the finite ones
        // (halved first, so that 1e308 - -1e308 stays finite).
        let finite = values.filter(\.isFinite)
        guard let lo = finite.min(), let hi = finite.max() else {
            return String(repeating: blocks[0], count: values.count)
        }
        return String(
            values.map { v in
                guard v.isFinite else { return blocks[0] }
                guard hi > lo else { return blocks[v > 0 ? 3 : 0] }
                let share = (v / 2 - lo / 2) / (hi / 2 - lo / 2)
                return blocks[Int((min(1, max(0, share.isFinite ? share : 0)) * 7).rounded())]
            })
    }

    static func runTitle(_ r: ReportRun) -> String {
        r.label ?? r.name ?? "run"
    }

    static func highlights(_ runs: [ReportRun], priorBest: [Double: Double]) -> [String] {
        let f = TextFormat.fixed
        var out: [String] = []
        if let longest = runs.max(by: { ($0.distanceMeters ?? 0) < ($1.distanceMeters ?? 0) }),
            let d = longest.distanceMeters, d > 0
        {
            let title = (longest.label ?? longest.name).map { "\($0), " } ?? ""
            out.append(
                "Longest run: \(f(d / 1000, 1)) km on \(TextFormat.day(longest.day)) (\(title)\(TextFormat.duration(longest.elapsedSeconds)))."
            )
        }
        for r in runs where r.isRace {
            guard let race = r.race else {
                out.append(
                    "Race: \(runTitle(r)) on \(TextFormat.day(r.day)), \(f((r.distanceMeters ?? 0) / 1000, 2)) km in \(TextFormat.duration(r.elapsedSeconds))."
                )
                continue
            }
            let actual = race.actualSeconds ?? r.elapsedSeconds
            let diff = actual - race.targetSeconds
            let against =
                abs(diff) < 0.5
                ? "exactly on the \(TextFormat.duration(race.targetSeconds)) target"
                : "\(TextFormat.duration(abs(diff))) \(diff > 0 ? "slower" : "faster") than the \(TextFormat.duration(race.targetSeconds)) target"
            out.append(
                "Race: \(race.name) on \(TextFormat.day(r.day)), \(f((r.distanceMeters ?? 0) / 1000, 2)) km in \(TextFormat.duration(actual)), \(against)"
                    + (race.reviewLink.map { " ([review](\($0)))" } ?? "") + ".")
        }
        var best: [Double: (Double, ReportRun)] = [:]
        for r in runs {
            for e in r.bestEfforts where e.elapsedSeconds < (best[e.distanceMeters]?.0 ?? .infinity) {
                best[e.distanceMeters] = (e.elapsedSeconds, r)
            }
        }
        var records: [String] = []
        var efforts: [String] = []
        for distance in best.keys.sorted() {
            let (t, _) = best[distance]!
            let name = BestEfforts.name(of: distance)
            if let prior = priorBest[distance] {
                if t < prior {
                    records.append("\(name) \(TextFormat.duration(t)) (was \(TextFormat.duration(prior)))")
                }
            } else {
                records.append("\(name) \(TextFormat.duration(t)) (first)")
            }
            efforts.append("\(name) \(TextFormat.duration(t))")
        }
        if !records.isEmpty { out.append("Personal records: " + records.joined(separator: ", ") + ".") }
        if !efforts.isEmpty { out.append("Best efforts this week: " + efforts.joined(separator: ", ") + ".") }
        return out
    }

    package static func warnings(_ rows: [WeekRow], runs: [ReportRun]) -> [String] {
        guard let week = rows.last else { return [] }
        let f = TextFormat.fixed
        var out: [String] = []
        let rising = rows.reversed().prefix { ($0.distanceChangePercent ?? 0) > distanceRampPercent }.count
        if rising >= distanceRampWeeks {
            out.append(
                "Distance up more than \(f(distanceRampPercent, 0))% on the week before for \(rising) weeks in a row: the usual advice is to hold or step back."
            )
        }
        // A race is not a long run: race week's share is the race's, as planned.
        let longRun = week.longestTrainingRunKm
        if week.runs >= 2, week.distanceKm > 0, longRun / week.distanceKm > longRunShare {
            out.append(
                "The long run is \(f(longRun / week.distanceKm * 100, 0))% of the week's distance (above \(f(longRunShare * 100, 0))%)."
            )
        }
        let withoutHR = runs.filter { $0.avgHeartRate == nil }.count
        if runs.count >= 2, withoutHR * 2 >= runs.count {
            out.append("\(withoutHR) of \(runs.count) runs have no heart rate: zones and load are incomplete.")
        }
        if week.runsWithoutLoad > 0 {
            out.append(
                "\(week.runsWithoutLoad) runs have no load (no heart rate and no threshold pace): set the athlete's threshold pace."
            )
        }
        if let acwr = week.acwr, acwr > acwrHigh {
            out.append(
                "Acute:chronic load ratio \(f(acwr, 2)) is above \(f(acwrHigh, 1)): a sharp rise in load (Gabbett 2016)."
            )
        }
        if week.ramp7d > fitnessRampHigh {
            out.append("Fitness rose \(f(week.ramp7d, 1)) this week (above \(f(fitnessRampHigh, 0)) per week).")
        }
        if week.formEnd < formLow {
            out.append("Form is \(f(week.formEnd, 1)): deep fatigue (below \(f(formLow, 0))).")
        }
        if week.fitnessWarmup {
            out.append(
                "Fitness is warming up: less than \(LoadModel.warmupDays) days of history, so fitness and form are underestimates."
            )
        }
        return out
    }
}
