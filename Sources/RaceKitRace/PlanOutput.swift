import Foundation
import RaceKitCore

/// Renders a race plan as JSON (DESIGN.md "Machine-readable output"), a text
/// table, Markdown or CSV.
public enum PlanOutput {
    static func r(_ v: Double?, _ digits: Int) -> JSONValue {
        guard let v, v.isFinite else { return .null }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        return .number((v * scale).rounded() / scale)
    }

    /// The normalised setup: every value resolved to SI units, defaults filled in.
    public static func setupTree(_ s: RaceSetup) -> JSONTree {
        var pacing: [String: JSONTree] = [
            "strategy": .value(.string(strategyName(s.strategy))),
            "gradeModel": .value(.string(s.gradeModel.rawValue)),
            "smoothingMeters": .value(.number(s.smoothingMeters)),
        ]
        switch s.strategy {
        case .negative(let p), .positive(let p): pacing["splitPercent"] = .value(.number(p))
        case .custom(let segments):
            pacing["segments"] = .array(segments.map { seg in
                switch seg.intensity {
                case .pace(let p): return .object(["untilMeters": .value(r(seg.untilMeters, 1)), "paceSecondsPerKm": .value(r(p, 2))])
                case .effort(let e): return .object(["untilMeters": .value(r(seg.untilMeters, 1)), "effort": .value(.number(e))])
                }
            })
        case .even: break
        }
        var out: [String: JSONTree] = [
            "name": .value(.string(s.name)), "slug": .value(.string(s.slug)), "date": .value(JSONValue(s.date)),
            "startTime": .value(JSONValue(s.startTime)), "athlete": .value(JSONValue(s.athlete)),
            "distance": .value(.string(s.distanceText)), "distanceMeters": .value(r(s.distanceMeters, 3)),
            "targetSeconds": .value(.number(s.targetSeconds)), "pacing": .object(pacing),
            "course": .value(JSONValue(s.course)), "notes": .value(JSONValue(s.notes)),
            "checkpointsMeters": s.checkpointsMeters.map { .array($0.map { .value(r($0, 1)) }) } ?? .value(.null),
        ]
        if let f = s.fueling {
            var fueling: [String: JSONTree] = [
                "carbsPerHourGrams": .value(.number(f.carbsPerHourGrams)), "gelCarbsGrams": .value(.number(f.gelCarbsGrams)),
                "startAfterSeconds": .value(.number(f.startAfterSeconds)),
                "stopBeforeFinishSeconds": .value(.number(f.stopBeforeFinishSeconds)),
                "snapToleranceSeconds": .value(.number(f.snapToleranceSeconds)),
                "caffeine": .value(.null),
            ]
            if let c = f.caffeine {
                fueling["caffeine"] = .object(["milligrams": .value(.number(c.milligrams)), "afterSeconds": .value(.number(c.afterSeconds)),
                                               "everySeconds": .value(JSONValue(c.everySeconds))])
            }
            out["fueling"] = .object(fueling)
        } else { out["fueling"] = .value(.null) }
        if let h = s.hydration {
            out["hydration"] = .object([
                "mlPerHour": .value(.number(h.mlPerHour)), "sodiumMgPerHour": .value(JSONValue(h.sodiumMgPerHour)),
                "aidStationsMeters": .array(h.aidStationsMeters.map { .value(r($0, 1)) }),
                "everySeconds": .value(JSONValue(h.everySeconds)),
            ])
        } else { out["hydration"] = .value(.null) }
        out["script"] = .object(s.script.mapValues { .value(.string($0)) })
        return .object(out)
    }

    public static func strategyName(_ s: PacingStrategy) -> String {
        switch s {
        case .even: return "even"
        case .negative: return "negative"
        case .positive: return "positive"
        case .custom: return "custom"
        }
    }

    public static func cueTree(_ c: Cue) -> JSONTree {
        .object([
            "kind": .value(.string(c.kind.rawValue)), "number": .value(.number(Double(c.number))),
            "distanceMeters": .value(r(c.distanceMeters, 1)), "clockSeconds": .value(.number(Double(c.clockSeconds))),
            "carbsGrams": .value(JSONValue(c.carbsGrams)), "fluidMl": .value(JSONValue(c.fluidMl)),
            "sodiumMg": .value(JSONValue(c.sodiumMg)), "caffeineMg": .value(JSONValue(c.caffeineMg)),
            "atAidStation": .value(.bool(c.atAidStation)),
        ])
    }

    public static func json(_ plan: RacePlan) -> JSONTree {
        let splits: [JSONTree] = plan.splits.map { row in
            let s = row.split
            return .object([
                "index": .value(.number(Double(s.index))), "startMeters": .value(r(s.startMeters, 1)),
                "endMeters": .value(r(s.endMeters, 1)), "splitSeconds": .value(.number(Double(s.splitSeconds))),
                "cumulativeSeconds": .value(.number(Double(s.cumulativeSeconds))),
                "paceSecondsPerKm": .value(r(s.paceSecondsPerKm, 1)), "gradePercent": .value(r(row.gradePercent, 2)),
                "elevationMeters": .value(r(row.elevationMeters, 1)), "partial": .value(.bool(s.partial)),
            ])
        }
        let t = plan.cues.totals
        var out: [String: JSONTree] = [
            "race": setupTree(plan.setup), "targetSeconds": .value(.number(plan.setup.targetSeconds.rounded())),
            "distanceMeters": .value(r(plan.setup.distanceMeters, 3)),
            "unitMeters": .value(r(plan.unitMeters, 3)),
            "splits": .array(splits), "cues": .array(plan.cues.cues.map(cueTree)),
            "warnings": .array(plan.warnings.map { .value(.string($0)) }),
            "totals": .object([
                "gels": .value(.number(Double(t.gels))), "carbsGrams": .value(r(t.carbsGrams, 1)),
                "carbsPerHourGrams": .value(r(t.carbsPerHourGrams, 1)), "drinks": .value(.number(Double(t.drinks))),
                "fluidMl": .value(r(t.fluidMl, 0)), "sodiumMg": .value(r(t.sodiumMg, 0)), "caffeineMg": .value(r(t.caffeineMg, 0)),
            ]),
        ]
        if let c = plan.course {
            out["course"] = .object([
                "courseMeters": .value(r(c.courseMeters, 1)), "scale": .value(r(c.scale, 5)),
                "hasElevation": .value(.bool(c.hasElevation)),
                "rawClimbMeters": .value(r(c.rawClimbMeters, 1)), "rawDescentMeters": .value(r(c.rawDescentMeters, 1)),
                "climbMeters": .value(r(c.climbMeters, 1)), "descentMeters": .value(r(c.descentMeters, 1)),
                "smoothingMeters": .value(.number(c.smoothingMeters)), "gradeModel": .value(.string(plan.setup.gradeModel.rawValue)),
            ])
        } else { out["course"] = .value(.null) }
        return .object(out)
    }

    // MARK: text

    static func fixed(_ v: Double, _ d: Int) -> String { TextFormat.fixed(v, d) }

    /// Pace per unit from seconds per km.
    static func pace(_ secondsPerKm: Double, unitMeters: Double) -> String { TextFormat.pace(secondsPerKm * unitMeters / 1000) }

    public static func unitName(_ unitMeters: Double) -> String { unitMeters == 1000 ? "km" : "mi" }

    /// Header lines: the race, the strategy, the course.
    public static func summary(_ plan: RacePlan) -> [String] {
        let s = plan.setup
        let u = unitName(plan.unitMeters)
        var lines = ["\(s.name)\(s.date.map { " (\($0))" } ?? ""): \(fixed(s.distanceMeters / 1000, 3)) km in \(TextFormat.duration(s.targetSeconds)), "
            + "\(pace(s.targetSeconds / (s.distanceMeters / 1000), unitMeters: plan.unitMeters))/\(u) on average, \(PaceBand.describe(s.strategy)) pacing"]
        if let c = plan.course {
            var line = "Course \(s.course ?? ""): \(fixed(c.courseMeters / 1000, 3)) km"
            if abs(c.scale - 1) > 1e-6 { line += " (scaled x\(fixed(c.scale, 4)))" }
            if c.hasElevation {
                line += "; climb \(fixed(c.rawClimbMeters, 0)) m raw, \(fixed(c.climbMeters, 0)) m after \(fixed(c.smoothingMeters, 0)) m smoothing"
                    + " (descent \(fixed(c.descentMeters, 0)) m); grade model \(s.gradeModel.rawValue)"
            } else { line += "; no elevation" }
            lines.append(line)
        }
        return lines
    }

    static func splitRows(_ plan: RacePlan) -> (header: [String], rows: [[String]], right: Set<Int>) {
        let u = unitName(plan.unitMeters)
        let hasCourse = plan.splits.contains { $0.elevationMeters != nil }
        var header = [u, "split", "pace/\(u)", "clock"]
        if hasCourse { header += ["elev m", "grade"] }
        let rows = plan.splits.map { row -> [String] in
            let s = row.split
            var cells = [fixed(s.endMeters / plan.unitMeters, s.partial || plan.setup.checkpointsMeters != nil ? 2 : 0),
                         TextFormat.duration(Double(s.splitSeconds)), pace(s.paceSecondsPerKm, unitMeters: plan.unitMeters),
                         TextFormat.duration(Double(s.cumulativeSeconds))]
            if hasCourse {
                cells += [row.elevationMeters.map { fixed($0, 0) } ?? "-",
                          row.gradePercent.map { ($0 > 0.05 ? "+" : "") + fixed($0, 1) + "%" } ?? "-"]
            }
            return cells
        }
        return (header, rows, Set(0..<header.count))
    }

    static func cueRows(_ plan: RacePlan) -> [[String]] {
        plan.cues.cues.map { c in
            let what: String
            switch c.kind {
            case .aid: what = "aid station \(c.number)"
            case .drink:
                what = "drink \(c.number): \(fixed(c.fluidMl ?? 0, 0)) ml" + ((c.sodiumMg ?? 0) > 0 ? ", \(fixed(c.sodiumMg!, 0)) mg sodium" : "")
            case .gel, .caffeine:
                what = "gel \(c.number): \(fixed(c.carbsGrams ?? 0, 0)) g carbohydrate" + (c.caffeineMg.map { ", \(fixed($0, 0)) mg caffeine" } ?? "")
                    + (c.atAidStation ? " (at the aid station)" : "")
            }
            return [TextFormat.duration(Double(c.clockSeconds)), fixed(c.distanceMeters / plan.unitMeters, 2), what]
        }
    }

    static func totalsLine(_ plan: RacePlan) -> String? {
        let t = plan.cues.totals
        var parts: [String] = []
        if t.gels > 0 { parts.append("\(t.gels) gel\(t.gels == 1 ? "" : "s"), \(fixed(t.carbsGrams, 0)) g carbohydrate (\(fixed(t.carbsPerHourGrams, 0)) g/h over the race)") }
        if t.caffeineMg > 0 { parts.append("\(fixed(t.caffeineMg, 0)) mg caffeine") }
        if t.drinks > 0 { parts.append("\(t.drinks) drink\(t.drinks == 1 ? "" : "s"), \(fixed(t.fluidMl, 0)) ml" + (t.sodiumMg > 0 ? ", \(fixed(t.sodiumMg, 0)) mg sodium" : "")) }
        return parts.isEmpty ? nil : "Totals: " + parts.joined(separator: "; ")
    }

    /// Plain text tables.
    public static func text(_ plan: RacePlan, table: ([String], [[String]], Set<Int>) -> String) -> String {
        var out = summary(plan).joined(separator: "\n") + "\n\n"
        let s = splitRows(plan)
        out += table(s.header, s.rows, s.right) + "\n"
        if !plan.cues.cues.isEmpty {
            out += "\n" + table(["clock", unitName(plan.unitMeters), "cue"], cueRows(plan), [0, 1]) + "\n"
        }
        if let t = totalsLine(plan) { out += "\n" + t + "\n" }
        if !plan.warnings.isEmpty { out += "\nWarnings:\n" + plan.warnings.map { "  - " + $0 }.joined(separator: "\n") + "\n" }
        return out
    }

    /// Markdown: headings, pipe tables, warnings as a list.
    public static func markdown(_ plan: RacePlan) -> String {
        let lines = summary(plan)
        var out = "# \(plan.setup.name)\n\n" + lines.map { $0 + "  " }.joined(separator: "\n") + "\n"
        if let n = plan.setup.notes { out += "\n> \(n)\n" }
        out += "\n## Splits\n\n"
        let s = splitRows(plan)
        out += TextFormat.markdownTable(header: s.header, rows: s.rows, rightAligned: s.right) + "\n"
        if !plan.cues.cues.isEmpty {
            out += "\n## Fueling and hydration\n\n" + TextFormat.markdownTable(header: ["clock", unitName(plan.unitMeters), "cue"],
                                                                        rows: cueRows(plan), rightAligned: [0, 1]) + "\n"
        }
        if let t = totalsLine(plan) { out += "\n" + t + "\n" }
        if !plan.warnings.isEmpty { out += "\n## Warnings\n\n" + plan.warnings.map { "- " + $0 }.joined(separator: "\n") + "\n" }
        return out
    }

    static func csvNumber(_ v: Double?, _ digits: Int) -> String {
        guard let v, v.isFinite else { return "" }
        var t = fixed(v, digits)
        if t.contains(".") { while t.hasSuffix("0") { t.removeLast() }; if t.hasSuffix(".") { t.removeLast() } }
        return t
    }

    /// CSV of the splits (RFC 4180, snake_case headers with units).
    public static func splitsCSV(_ plan: RacePlan) -> String {
        let u = unitName(plan.unitMeters)
        var out = "index,start_km,end_km,split_time_s,cumulative_time_s,pace_s_per_\(u),elevation_m,grade_percent,partial\n"
        for row in plan.splits {
            let s = row.split
            out += [String(s.index), csvNumber(s.startMeters / 1000, 3), csvNumber(s.endMeters / 1000, 3), String(s.splitSeconds),
                    String(s.cumulativeSeconds), csvNumber(s.paceSecondsPerKm * plan.unitMeters / 1000, 1),
                    csvNumber(row.elevationMeters, 1), csvNumber(row.gradePercent, 2), s.partial ? "true" : "false"]
                .map(TextFormat.csvField).joined(separator: ",") + "\n"
        }
        return out
    }

    /// CSV of the cues.
    public static func cuesCSV(_ plan: RacePlan) -> String {
        var out = "kind,number,distance_km,clock_time_s,carbs_g,fluid_ml,sodium_mg,caffeine_mg,at_aid_station\n"
        for c in plan.cues.cues {
            out += [c.kind.rawValue, String(c.number), csvNumber(c.distanceMeters / 1000, 3), String(c.clockSeconds),
                    csvNumber(c.carbsGrams, 1), csvNumber(c.fluidMl, 0), csvNumber(c.sodiumMg, 0), csvNumber(c.caffeineMg, 0),
                    c.atAidStation ? "true" : "false"].joined(separator: ",") + "\n"
        }
        return out
    }
}
