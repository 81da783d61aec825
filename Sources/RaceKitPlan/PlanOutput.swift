import Foundation
import RaceKitMetrics
import RaceKitOutput

/// Renders a race plan as JSON (docs/contracts/json.md, "Race plans"), a text
/// table, Markdown or CSV.
public enum PlanOutput {
    static func r(_ v: Double?, _ digits: Int) -> Double? { TextFormat.round(v, digits) }

    /// `race plan --format json` (docs/contracts/json.md, "Race plans").
    public struct PlanJSON: Encodable, Sendable {
        public var race: SetupJSON
        public var targetSeconds: Double
        @Null public var distanceMeters: Double?
        @Null public var unitMeters: Double?
        public var splits: [SplitJSON]
        public var cues: [CueJSON]
        public var warnings: [String]
        public var totals: TotalsJSON
        @Null public var course: CourseJSON?
        /// The plan's finish: the target, or the target slowed for the heat.
        public var plannedSeconds: Double
        @Null public var heat: HeatJSON?
        /// A power plan's watts and times (absent for other strategies).
        public var power: PowerPlanJSON? = nil
    }

    /// What a power plan holds: the watts worked out (before the heat), the
    /// watts per m/s used, the time they give on a cool day, and the setup's
    /// `target_time` it is compared with.
    public struct PowerPlanJSON: Encodable, Sendable {
        public var watts: Double
        public var wattsPerMps: Double
        public var seconds: Double
        public var targetTimeSeconds: Double
    }

    /// The normalised setup: every value resolved to SI units, defaults filled in.
    public struct SetupJSON: Encodable, Sendable {
        public var name: String
        public var slug: String
        @Null public var date: String?
        @Null public var startTime: String?
        @Null public var athlete: String?
        public var distance: String
        @Null public var distanceMeters: Double?
        public var targetSeconds: Double
        public var pacing: PacingJSON
        @Null public var course: String?
        @Null public var notes: String?
        @Null public var checkpointsMeters: [Double?]?
        @Null public var fueling: FuelingJSON?
        @Null public var hydration: HydrationJSON?
        /// Only when the setup has one (absent, not null: a script's plan digest
        /// of a setup without weather stays what it was).
        public var weather: WeatherJSON?
        public var script: [String: String]
    }

    public struct WeatherJSON: Encodable, Sendable {
        public var readings: [ReadingJSON]
        public var sun: String
        @Null public var windKmh: Double?
        public var model: String
        public var adjust: String
    }

    /// `secondsOfDay` is null for the one forecast at the start.
    public struct ReadingJSON: Encodable, Sendable {
        @Null public var secondsOfDay: Double?
        public var temperatureC: Double
        public var dewPointC: Double
        @Null public var humidityPercent: Double?
    }

    /// What the weather costs the plan.
    public struct HeatJSON: Encodable, Sendable {
        public var model: String
        public var adjust: String
        public var targetSeconds: Double
        public var heatSeconds: Double
        public var slowdownPercent: Double
        public var wbgtStartC: Double
        public var wbgtFinishC: Double
        public var wbgtMaxC: Double
        @Null public var coolEquivalentSeconds: Double?
        public var beyondData: Bool
    }

    public struct PacingJSON: Encodable, Sendable {
        public var strategy: String
        public var gradeModel: String
        public var smoothingMeters: Double
        public var splitPercent: Double?
        public var segments: [SegmentJSON]?
        /// A power plan's settings (absent for other strategies).
        public var power: PowerJSON?
    }

    public struct PowerJSON: Encodable, Sendable {
        @Null public var watts: Double?
        @Null public var cpPercent: Double?
        @Null public var criticalPowerWatts: Double?
        @Null public var wattsPerMps: Double?
    }

    public struct SegmentJSON: Encodable, Sendable {
        @Null public var untilMeters: Double?
        public var paceSecondsPerKm: Double??
        public var effort: Double?

        public func encode(to encoder: any Encoder) throws {
            enum Keys: String, CodingKey { case untilMeters, paceSecondsPerKm, effort }
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(_untilMeters, forKey: .untilMeters)
            if let pace = paceSecondsPerKm { try c.encode(Null(wrappedValue: pace), forKey: .paceSecondsPerKm) }
            try c.encodeIfPresent(effort, forKey: .effort)
        }
    }

    public struct FuelingJSON: Encodable, Sendable {
        public var carbsPerHourGrams, gelCarbsGrams, startAfterSeconds, stopBeforeFinishSeconds,
            snapToleranceSeconds: Double
        @Null public var caffeine: CaffeineJSON?
    }

    public struct CaffeineJSON: Encodable, Sendable {
        public var milligrams, afterSeconds: Double
        @Null public var everySeconds: Double?
    }

    public struct HydrationJSON: Encodable, Sendable {
        public var mlPerHour: Double
        @Null public var sodiumMgPerHour: Double?
        public var aidStationsMeters: [Double?]
        @Null public var everySeconds: Double?
        /// Only when given (absent, not null, as `weather`); `mlPerHour` is then
        /// the planned rate and `askedMlPerHour` the ask.
        public var sweatRateLPerHour: Double?
        public var bodyMassKg: Double?
        public var askedMlPerHour: Double?
    }

    public struct SplitJSON: Encodable, Sendable {
        public var index: Int
        @Null public var startMeters: Double?
        @Null public var endMeters: Double?
        public var splitSeconds: Int
        public var cumulativeSeconds: Int
        @Null public var paceSecondsPerKm: Double?
        @Null public var gradePercent: Double?
        @Null public var elevationMeters: Double?
        public var partial: Bool
        /// A power plan's watts over the split (absent for other strategies).
        public var powerWatts: Double?
    }

    public struct CueJSON: Encodable, Sendable {
        public var kind: String
        public var number: Int
        @Null public var distanceMeters: Double?
        public var clockSeconds: Int
        @Null public var carbsGrams: Double?
        @Null public var fluidMl: Double?
        @Null public var sodiumMg: Double?
        @Null public var caffeineMg: Double?
        public var atAidStation: Bool
    }

    public struct TotalsJSON: Encodable, Sendable {
        public var gels: Int
        @Null public var carbsGrams: Double?
        @Null public var carbsPerHourGrams: Double?
        public var drinks: Int
        @Null public var fluidMl: Double?
        @Null public var sodiumMg: Double?
        @Null public var caffeineMg: Double?
    }

    public struct CourseJSON: Encodable, Sendable {
        @Null public var courseMeters: Double?
        @Null public var scale: Double?
        public var hasElevation: Bool
        @Null public var rawClimbMeters: Double?
        @Null public var rawDescentMeters: Double?
        @Null public var climbMeters: Double?
        @Null public var descentMeters: Double?
        public var smoothingMeters: Double
        public var gradeModel: String
    }

    public static func setup(_ s: RaceSetup) -> SetupJSON {
        var pacing = PacingJSON(
            strategy: strategyName(s.strategy), gradeModel: s.gradeModel.rawValue, smoothingMeters: s.smoothingMeters)
        switch s.strategy {
        case .negative(let p), .positive(let p): pacing.splitPercent = p
        case .custom(let segments):
            pacing.segments = segments.map { seg in
                switch seg.intensity {
                case .pace(let p):
                    return SegmentJSON(
                        untilMeters: r(seg.untilMeters, 1), paceSecondsPerKm: .some(r(p, 2)), effort: nil)
                case .effort(let e):
                    return SegmentJSON(untilMeters: r(seg.untilMeters, 1), paceSecondsPerKm: nil, effort: e)
                }
            }
        case .power(let p):
            pacing.power = PowerJSON(
                watts: p.watts, cpPercent: p.cpPercent, criticalPowerWatts: p.criticalPowerWatts,
                wattsPerMps: p.wattsPerMps.map { r($0, 2) ?? $0 })
        case .even: break
        }
        let fueling = s.fueling.map { f in
            FuelingJSON(
                carbsPerHourGrams: f.carbsPerHourGrams, gelCarbsGrams: f.gelCarbsGrams,
                startAfterSeconds: f.startAfterSeconds,
                stopBeforeFinishSeconds: f.stopBeforeFinishSeconds, snapToleranceSeconds: f.snapToleranceSeconds,
                caffeine: f.caffeine.map {
                    CaffeineJSON(
                        milligrams: $0.milligrams, afterSeconds: $0.afterSeconds, everySeconds: $0.everySeconds)
                })
        }
        let hydration = s.hydration.map { h in
            HydrationJSON(
                mlPerHour: h.mlPerHour, sodiumMgPerHour: h.sodiumMgPerHour,
                aidStationsMeters: h.aidStationsMeters.map { r($0, 1) },
                everySeconds: h.everySeconds, sweatRateLPerHour: h.sweatRateLPerHour, bodyMassKg: h.bodyMassKg,
                askedMlPerHour: h.sweatRateLPerHour == nil ? nil : h.askedMlPerHour)
        }
        let weather = s.weather.map { w in
            WeatherJSON(
                readings: w.readings.map {
                    ReadingJSON(
                        secondsOfDay: $0.secondsOfDay, temperatureC: $0.temperatureC, dewPointC: r($0.dewPointC, 2)!,
                        humidityPercent: $0.humidityPercent)
                }, sun: w.sun.rawValue, windKmh: w.windKmh, model: w.model.rawValue, adjust: w.adjust.rawValue)
        }
        return SetupJSON(
            name: s.name, slug: s.slug, date: s.date, startTime: s.startTime, athlete: s.athlete,
            distance: s.distanceText,
            distanceMeters: r(s.distanceMeters, 3), targetSeconds: s.targetSeconds, pacing: pacing, course: s.course,
            notes: s.notes, checkpointsMeters: s.checkpointsMeters.map { $0.map { r($0, 1) } },
            fueling: fueling, hydration: hydration, weather: weather, script: s.script)
    }

    public static func strategyName(_ s: PacingStrategy) -> String {
        switch s {
        case .even: return "even"
        case .negative: return "negative"
        case .positive: return "positive"
        case .custom: return "custom"
        case .power: return "power"
        }
    }

    public static func cue(_ c: Cue) -> CueJSON {
        CueJSON(
            kind: c.kind.rawValue, number: c.number, distanceMeters: r(c.distanceMeters, 1),
            clockSeconds: c.clockSeconds,
            carbsGrams: c.carbsGrams, fluidMl: c.fluidMl, sodiumMg: c.sodiumMg, caffeineMg: c.caffeineMg,
            atAidStation: c.atAidStation)
    }

    public static func json(_ plan: RacePlan) -> PlanJSON {
        let splits = plan.splits.map { row in
            let s = row.split
            return SplitJSON(
                index: s.index, startMeters: r(s.startMeters, 1), endMeters: r(s.endMeters, 1),
                splitSeconds: s.splitSeconds,
                cumulativeSeconds: s.cumulativeSeconds, paceSecondsPerKm: r(s.paceSecondsPerKm, 1),
                gradePercent: r(row.gradePercent, 2), elevationMeters: r(row.elevationMeters, 1), partial: s.partial,
                powerWatts: r(row.powerWatts, 0))
        }
        let t = plan.cues.totals
        let totals = TotalsJSON(
            gels: t.gels, carbsGrams: r(t.carbsGrams, 1), carbsPerHourGrams: r(t.carbsPerHourGrams, 1),
            drinks: t.drinks, fluidMl: r(t.fluidMl, 0), sodiumMg: r(t.sodiumMg, 0), caffeineMg: r(t.caffeineMg, 0))
        let course = plan.course.map { c in
            CourseJSON(
                courseMeters: r(c.courseMeters, 1), scale: r(c.scale, 5), hasElevation: c.hasElevation,
                rawClimbMeters: r(c.rawClimbMeters, 1), rawDescentMeters: r(c.rawDescentMeters, 1),
                climbMeters: r(c.climbMeters, 1), descentMeters: r(c.descentMeters, 1),
                smoothingMeters: c.smoothingMeters, gradeModel: plan.setup.gradeModel.rawValue)
        }
        return PlanJSON(
            race: setup(plan.setup), targetSeconds: plan.setup.targetSeconds.rounded(),
            distanceMeters: r(plan.setup.distanceMeters, 3), unitMeters: r(plan.unitMeters, 3),
            splits: splits, cues: plan.cues.cues.map(cue), warnings: plan.warnings, totals: totals, course: course,
            plannedSeconds: plan.pacePlan.targetSeconds.rounded(),
            heat: plan.heat.map { h in
                HeatJSON(
                    model: h.model.rawValue, adjust: h.adjust.rawValue, targetSeconds: h.targetSeconds.rounded(),
                    heatSeconds: h.heatSeconds.rounded(), slowdownPercent: r(h.percent, 2)!,
                    wbgtStartC: r(h.wbgtStart, 2)!, wbgtFinishC: r(h.wbgtFinish, 2)!, wbgtMaxC: r(h.wbgtMax, 2)!,
                    coolEquivalentSeconds: h.coolEquivalentSeconds.map { $0.rounded() }, beyondData: h.beyondData)
            },
            power: plan.power.map { p in
                PowerPlanJSON(
                    watts: r(p.watts, 1) ?? p.watts, wattsPerMps: r(p.wattsPerMps, 2) ?? p.wattsPerMps,
                    seconds: p.seconds.rounded(), targetTimeSeconds: p.targetTimeSeconds)
            })
    }

    /// What a race script is generated from, as values: the normalised setup,
    /// the split unit, the planned clock every 10 m, the splits and the cues,
    /// compact and key-sorted at full precision (independent of how plans print).
    public static func canonical(_ plan: RacePlan) -> String {
        struct Inputs: Encodable {
            var setup: SetupJSON
            var unitMeters: Double
            var clockEvery10m: [Double]
            var splitSeconds: [Int]
            var cues: [CueJSON]
        }
        var clocks: [Double] = []
        var x = 0.0
        while x < plan.setup.distanceMeters {
            clocks.append(TextFormat.rounded(plan.pacePlan.clockSeconds(at: x), 3)); x += 10
        }
        let inputs = Inputs(
            setup: setup(plan.setup), unitMeters: plan.unitMeters, clockEvery10m: clocks,
            splitSeconds: plan.splits.map(\.split.splitSeconds), cues: plan.cues.cues.map(cue))
        // Every number in it is finite (the setup is range-checked and the plan is
        // built from it), so encoding cannot fail; the description is a fallback.
        return (try? JSONOutput.canonical(inputs)) ?? "\(inputs)"
    }

    // MARK: text

    static func fixed(_ v: Double, _ d: Int) -> String { TextFormat.fixed(v, d) }

    /// Pace per unit from seconds per km.
    static func pace(_ secondsPerKm: Double, unitMeters: Double) -> String {
        TextFormat.pace(secondsPerKm * unitMeters / 1000)
    }

    public static func unitName(_ unitMeters: Double) -> String { unitMeters == 1000 ? "km" : "mi" }

    /// Header lines: the race, the strategy, the course.
    public static func summary(_ plan: RacePlan) -> [String] {
        let s = plan.setup
        let u = unitName(plan.unitMeters)
        let planned = plan.pacePlan.targetSeconds
        let slowed =
            abs(planned - s.targetSeconds) >= 0.5
            ? " (\(TextFormat.duration(s.targetSeconds)) on a cool day, slowed for the \(plan.heat?.cause ?? "heat"))"
            : ""
        var lines = [
            "\(s.name)\(s.date.map { " (\($0))" } ?? ""): \(fixed(s.distanceMeters / 1000, 3)) km in \(TextFormat.duration(planned))\(slowed), "
                + "\(pace(planned / (s.distanceMeters / 1000), unitMeters: plan.unitMeters))/\(u) on average, \(PaceBand.describe(s.strategy)) pacing"
        ]
        if let c = plan.course {
            var line = "Course \(s.course ?? ""): \(fixed(c.courseMeters / 1000, 3)) km"
            if abs(c.scale - 1) > 1e-6 { line += " (scaled x\(fixed(c.scale, 4)))" }
            if c.hasElevation {
                line +=
                    "; climb \(fixed(c.rawClimbMeters, 0)) m raw, \(fixed(c.climbMeters, 0)) m after \(fixed(c.smoothingMeters, 0)) m smoothing"
                    + " (descent \(fixed(c.descentMeters, 0)) m); grade model \(s.gradeModel.rawValue)"
            } else {
                line += "; no elevation"
            }
            lines.append(line)
        }
        if let w = s.weather { lines.append(weatherLine(w, start: s.startSecondsOfDay)) }
        return lines + plan.notes
    }

    /// "Weather: 24 °C, dew point 18 °C (69%), full sun" or the hourly range.
    static func weatherLine(_ w: WeatherSettings, start: Double?) -> String {
        func one(_ r: WeatherSettings.Reading) -> String {
            "\(fixed(r.temperatureC, 1)) °C, dew point \(fixed(r.dewPointC, 1)) °C, humidity \(fixed(Heat.humidity(celsius: r.temperatureC, dewPoint: r.dewPointC), 0))%"
        }
        var s = "Weather: "
        if w.isHourly, let first = w.readings.first, let last = w.readings.last {
            s +=
                "hourly from \(WeatherSettings.clock(first.secondsOfDay!)) (\(one(first))) to \(WeatherSettings.clock(last.secondsOfDay!)) (\(one(last)))"
            if let start { s += ", start at \(WeatherSettings.clock(start))" }
        } else {
            s += one(w.readings[0])
        }
        s += ", \(w.sun == .none ? "no" : w.sun.rawValue) sun"
        if let wind = w.windKmh { s += ", wind \(fixed(wind, 0)) km/h" }
        return s
    }

    static func splitRows(_ plan: RacePlan) -> (header: [String], rows: [[String]], right: Set<Int>) {
        let u = unitName(plan.unitMeters)
        let hasCourse = plan.splits.contains { $0.elevationMeters != nil }
        var header = [u, "split", "pace/\(u)", "clock"]
        if hasCourse { header += ["elev m", "grade"] }
        if plan.power != nil { header.append("W") }
        let rows = plan.splits.map { row -> [String] in
            let s = row.split
            var cells = [
                fixed(s.endMeters / plan.unitMeters, s.partial || plan.setup.checkpointsMeters != nil ? 2 : 0),
                TextFormat.duration(Double(s.splitSeconds)), pace(s.paceSecondsPerKm, unitMeters: plan.unitMeters),
                TextFormat.duration(Double(s.cumulativeSeconds))
            ]
            if hasCourse {
                cells += [
                    row.elevationMeters.map { fixed($0, 0) } ?? TextFormat.unknown,
                    row.gradePercent.map { ($0 > 0.05 ? "+" : "") + fixed($0, 1) + "%" } ?? TextFormat.unknown
                ]
            }
            if plan.power != nil { cells.append(row.powerWatts.map { fixed($0, 0) } ?? TextFormat.unknown) }
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
                what =
                    "drink \(c.number): \(fixed(c.fluidMl ?? 0, 0)) ml"
                    + ((c.sodiumMg ?? 0) > 0 ? ", \(fixed(c.sodiumMg!, 0)) mg sodium" : "")
            case .gel, .caffeine:
                what =
                    "gel \(c.number): \(fixed(c.carbsGrams ?? 0, 0)) g carbohydrate"
                    + (c.caffeineMg.map { ", \(fixed($0, 0)) mg caffeine" } ?? "")
                    + (c.atAidStation ? " (at the aid station)" : "")
            }
            return [TextFormat.duration(Double(c.clockSeconds)), fixed(c.distanceMeters / plan.unitMeters, 2), what]
        }
    }

    static func totalsLine(_ plan: RacePlan) -> String? {
        let t = plan.cues.totals
        var parts: [String] = []
        if t.gels > 0 {
            parts.append(
                "\(t.gels) gel\(t.gels == 1 ? "" : "s"), \(fixed(t.carbsGrams, 0)) g carbohydrate (\(fixed(t.carbsPerHourGrams, 0)) g/h over the race)"
            )
        }
        if t.caffeineMg > 0 { parts.append("\(fixed(t.caffeineMg, 0)) mg caffeine") }
        if t.drinks > 0 {
            parts.append(
                "\(t.drinks) drink\(t.drinks == 1 ? "" : "s"), \(fixed(t.fluidMl, 0)) ml"
                    + (t.sodiumMg > 0 ? ", \(fixed(t.sodiumMg, 0)) mg sodium" : ""))
        }
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
        if !plan.warnings.isEmpty {
            out += "\nWarnings:\n" + plan.warnings.map { "  - " + $0 }.joined(separator: "\n") + "\n"
        }
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
            out +=
                "\n## Fueling and hydration\n\n"
                + TextFormat.markdownTable(
                    header: ["clock", unitName(plan.unitMeters), "cue"],
                    rows: cueRows(plan), rightAligned: [0, 1]) + "\n"
        }
        if let t = totalsLine(plan) { out += "\n" + t + "\n" }
        if !plan.warnings.isEmpty {
            out += "\n## Warnings\n\n" + plan.warnings.map { "- " + $0 }.joined(separator: "\n") + "\n"
        }
        // Names and notes come from the setup file: no raw control character in the document.
        return DisplayText.escaped(out)
    }

    /// CSV of the splits (`CSV`: RFC 4180, CRLF records; snake_case headers with units).
    public static func splitsCSV(_ plan: RacePlan) -> String {
        let u = unitName(plan.unitMeters)
        return CSV.document(
            header: [
                "index", "start_km", "end_km", "split_time_s", "cumulative_time_s", "pace_s_per_\(u)", "elevation_m",
                "grade_percent", "partial", "power_w"
            ],
            rows: plan.splits.map { row in
                let s = row.split
                return [
                    .integer(s.index), .number(s.startMeters / 1000, digits: 3), .number(s.endMeters / 1000, digits: 3),
                    .integer(s.splitSeconds), .integer(s.cumulativeSeconds),
                    .number(s.paceSecondsPerKm * plan.unitMeters / 1000, digits: 1),
                    .number(row.elevationMeters, digits: 1), .number(row.gradePercent, digits: 2), .bool(s.partial),
                    .number(row.powerWatts, digits: 0)
                ]
            })
    }

    /// CSV of the cues.
    public static func cuesCSV(_ plan: RacePlan) -> String {
        CSV.document(
            header: [
                "kind", "number", "distance_km", "clock_time_s", "carbs_g", "fluid_ml", "sodium_mg", "caffeine_mg",
                "at_aid_station"
            ],
            rows: plan.cues.cues.map { c in
                [
                    .text(c.kind.rawValue), .integer(c.number), .number(c.distanceMeters / 1000, digits: 3),
                    .integer(c.clockSeconds), .number(c.carbsGrams, digits: 1), .number(c.fluidMl, digits: 0),
                    .number(c.sodiumMg, digits: 0), .number(c.caffeineMg, digits: 0), .bool(c.atAidStation)
                ]
            })
    }
}
