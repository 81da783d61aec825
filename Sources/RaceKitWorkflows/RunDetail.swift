import Foundation
import RaceKitMetrics
import RaceKitModel
import RaceKitOutput
import RaceKitReview
import RaceKitStore

/// A stored run with its analysis, for `show` and `splits`.
public struct RunDetail {
    public var record: RunRecord
    public var athlete: Athlete?
    public var analysis: RunAnalysis
    public var zones: [ZoneTime]
    public var efforts: [BestEffort]
    /// The race setups this run is linked to (`race review`).
    public var races: [RaceLink] = []
    /// The critical power in force on the run's day for its sport, and the time in power zones it gives.
    public var criticalPower: PowerHistory.InForce?
    public var powerZones: [PowerZones.Time]?
    /// Why there is no critical power on the run's day (`CriticalPower.refusal` of its 90 days).
    public var noCriticalPower: String?

    /// The run of `id` (or a unique prefix, `RunLookup`) with its analysis, zones, efforts and race links.
    public static func load(_ store: any Store, id: String) throws -> RunDetail {
        let record = try RunLookup.find(store, id)
        let athlete = try store.athlete(id: record.athleteID)
        // The analysis is only needed for splits (which do not depend on the
        // physiology); zones, load and efforts shown are the stored ones.
        let analysis = RunAnalyzer.analyse(
            try store.activity(of: record), physiology: athlete?.physiology ?? Physiology())
        var detail = RunDetail(
            record: record, athlete: athlete, analysis: analysis,
            zones: try store.zones(runID: record.id), efforts: try store.bestEfforts(runID: record.id),
            races: try store.raceLinks(runID: record.id))
        if PowerRefresh.hasPower(record), PowerHistory.sports.contains(record.sport) {
            let history = try PowerRefresh.history(store, athleteID: record.athleteID, before: record.startedAt).history
            detail.criticalPower = history.criticalPower(record.sport, at: record.startedAt)
            if detail.criticalPower == nil {
                let curve = history.recentBests(record.sport, at: record.startedAt)
                detail.noCriticalPower = CriticalPower.refusal(curve.map { (Double($0.seconds), $0.watts) })
            }
            detail.powerZones = detail.criticalPower.flatMap {
                PowerZones.time(analysis.powerSeries, sport: record.sport, criticalPower: $0.value.watts)
            }
        }
        return detail
    }

    public func json(splits: [Split], unit: DistanceUnit) throws -> RunDetailJSON {
        RunDetailJSON(
            run: RunView(record).json, splits: splits.map(SplitTable.json), splitUnit: unit.rawValue,
            heartRateZones: zones.map { z in
                RunDetailJSON.Zone(
                    zone: z.zone, name: z.name, lowBpm: z.lowBpm, highBpm: z.highBpm,
                    seconds: TextFormat.round(z.seconds, 1))
            },
            zoneModel: record.zoneModel,
            bestEfforts: efforts.map { e in
                RunDetailJSON.Effort(
                    distanceMeters: e.distanceMeters, elapsedSeconds: TextFormat.round(e.elapsedSeconds, 1),
                    startOffsetSeconds: TextFormat.round(e.startOffsetSeconds, 1))
            },
            loadEstimated: try record.estimatedLoadInputs(),
            channels: analysis.channelSummaries.map { c in
                RunDetailJSON.Channel(
                    key: c.key, unit: c.unit, average: TextFormat.round(c.average, 2) ?? c.average,
                    maximum: TextFormat.round(c.maximum, 2) ?? c.maximum)
            },
            races: races.map { l in
                RunDetailJSON.Race(
                    slug: l.setupSlug, name: l.raceName, file: l.setupFile,
                    targetSeconds: TextFormat.round(l.targetSeconds, 1),
                    actualSeconds: TextFormat.round(l.actualSeconds, 1), review: l.reviewPath)
            }, criticalPower: criticalPower.map(CriticalPowerJSON.init),
            powerZones: (powerZones ?? []).map { z in
                RunDetailJSON.PowerZone(
                    zone: z.zone, name: z.name, lowWatts: z.lowWatts, highWatts: z.highWatts, seconds: z.seconds)
            })
    }

    /// Why a run has no grade-adjusted pace, as far as the stored run tells:
    /// no elevation, or no distance covered moving (a track whose every step
    /// was too fast to be running has elevation and still no pace).
    static func unknownGAP(_ r: RunRecord) -> String {
        if r.ascentMeters == nil { return "unknown (no elevation)" }
        if !((r.distanceMeters ?? 0) > 0 && (r.movingSeconds ?? 0) > 0) {
            return "unknown (no distance covered moving)"
        }
        return "unknown"
    }

    /// "Avg pace 5:10 /km" for a run, "Avg speed 28.4 km/h" for a ride, "Avg pace
    /// 1:52 /100 m" for a swim.
    static func averageSpeed(_ r: RunRecord, pace: Double?, unit: DistanceUnit) -> (String, String) {
        let display = SportDisplay(r.sport)
        let text = display.speedText(
            meters: r.distanceMeters, seconds: r.movingSeconds ?? r.elapsedSeconds, unitMeters: unit.meters,
            unitName: unit.rawValue)
        switch display.speed {
        case .speed: return ("Avg speed", text)
        case .pacePer100m: return ("Avg pace", text.replacingOccurrences(of: "/100m", with: " /100 m"))
        case .pacePerUnit: return ("Avg pace", "\(TextFormat.pace(pace, unit)) /\(unit.rawValue)")
        }
    }

    /// "ground contact 248 ms (50.8% left) · vertical oscillation 10.6 cm · ratio 8.1% ·
    /// stride 1.21 m", nil without running dynamics.
    static func dynamicsText(_ m: RunMetrics) -> String? {
        var parts: [String] = []
        if let gct = m[Metric.GroundContact.self] {
            let balance = m[Metric.GroundContactBalance.self].map { " (\(TextFormat.fixed($0, 1))% left)" } ?? ""
            parts.append("ground contact \(TextFormat.fixed(gct, 0)) ms\(balance)")
        }
        if let vo = m[Metric.VerticalOscillation.self] {
            parts.append("vertical oscillation \(TextFormat.fixed(vo / 10, 1)) cm")
        }
        if let ratio = m[Metric.VerticalRatio.self] { parts.append("ratio \(TextFormat.fixed(ratio, 1))%") }
        if let stride = m[Metric.StrideLength.self] { parts.append("stride \(TextFormat.fixed(stride, 2)) m") }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }

    /// A channel's value with the digits its size needs (3 significant, at most 2 decimals).
    static func short(_ v: Double) -> String {
        let digits = abs(v) >= 100 ? 0 : abs(v) >= 10 ? 1 : 2
        return TextFormat.fixed(v, digits)
    }

    public func text(splits: [Split], unit: DistanceUnit) throws -> String {
        let r = record
        let tz = athlete?.timeZone ?? "UTC"
        var lines: [String] = []
        let nouns: [Sport: String] = [
            .running: "Run", .cycling: "Ride", .walking: "Walk", .hiking: "Hike", .swimming: "Swim"
        ]
        // The title, file and creator come from the file: each stays on its line.
        let title = DisplayText.line(r.label ?? r.name ?? nouns[r.sport] ?? "Activity")
        let sport = r.sportDeclared ? r.sport.rawValue : "\(r.sport.rawValue) (inferred: the file names no sport)"
        lines.append(
            "\(title) · \(TextFormat.localTime(r.startedAt, timeZone: tz)) \(tz) · \(sport) · \(r.mode.rawValue)")
        lines.append(
            DisplayText.line("\(r.id) · \(r.sourceFile)\(r.creator.map { " · \($0)" } ?? "") · athlete \(r.athleteID)"))
        lines.append("")
        let pace = RunView(r).avgPaceSecondsPerKm
        var facts: [(String, String)] = [
            ("Distance", "\(TextFormat.distance(r.distanceMeters, unit)) \(unit.rawValue)"),
            ("Elapsed", TextFormat.duration(r.elapsedSeconds)),
            ("Moving", TextFormat.duration(r.movingSeconds)),
            Self.averageSpeed(r, pace: pace, unit: unit),
            (
                "GAP",
                r.gradeAdjustedPaceSecondsPerKm == nil
                    ? Self.unknownGAP(r)
                    : "\(TextFormat.pace(r.gradeAdjustedPaceSecondsPerKm, unit)) /\(unit.rawValue) (grade-adjusted)"
            ),
            (
                "Elevation",
                r.ascentMeters == nil
                    ? "unknown"
                    : "+\(TextFormat.fixed(r.ascentMeters, 0)) m / -\(TextFormat.fixed(r.descentMeters, 0)) m"
            ),
            (
                "Heart rate",
                r.avgHeartRate == nil
                    ? "none"
                    : "avg \(TextFormat.fixed(r.avgHeartRate, 0)) · max \(TextFormat.fixed(r.maxHeartRate, 0)) bpm (\(TextFormat.fixed(r.heartRateCoveragePercent, 0))% of the time)"
            ),
            (
                "Cadence",
                r.avgCadence == nil
                    ? "none" : "\(TextFormat.fixed(r.avgCadence, 0)) \(SportDisplay(r.sport).cadenceUnit)"
            )
        ]
        let m = r.metrics
        if let timer = m[Metric.TimerSeconds.self] {
            facts.insert(("Timer", "\(TextFormat.duration(timer)) (the device's)"), at: 3)
        }
        if let avg = m[Metric.AvgPower.self] {
            var power = "avg \(TextFormat.fixed(avg, 0))"
            if let np = m[Metric.NormalizedPower.self] { power += " · normalized \(TextFormat.fixed(np, 0))" }
            if let max = m[Metric.MaxPower.self] { power += " · max \(TextFormat.fixed(max, 0))" }
            power += " W"
            if let vi = m[Metric.VariabilityIndex.self] { power += " · variability \(TextFormat.fixed(vi, 2))" }
            facts.append(("Power", power))
            facts += powerFacts
        }
        if let kcal = m[Metric.EnergyKcal.self] {
            facts.append(("Energy", "\(TextFormat.fixed(kcal, 0)) kcal (the device's)"))
        }
        if let dynamics = Self.dynamicsText(m) { facts.append(("Dynamics", dynamics)) }
        let developer = analysis.channelSummaries.filter { $0.developerName != nil }
        if !developer.isEmpty {
            facts.append(
                (
                    "Developer",
                    // The names and units come from the file: one line, whatever they hold.
                    DisplayText.line(
                        developer.map { c in
                            let unit = c.unit.map { " \($0)" } ?? ""
                            return
                                "\(c.developerName ?? c.key) avg \(Self.short(c.average)) · max \(Self.short(c.maximum))\(unit)"
                        }.joined(separator: "; "))
                ))
        }
        let estimated = try r.estimatedLoadInputs()
        facts.append(
            (
                "Load",
                r.load == nil
                    ? "unknown (no heart rate, and no threshold pace)"
                    : "\(TextFormat.fixed(r.load, 0)) (\(r.loadSource?.rawValue ?? "?")\(estimated.isEmpty ? "" : "; estimated: \(estimated.joined(separator: ", "))"))"
            ))
        if let rpe = r.perceivedEffort { facts.append(("Effort", "\(rpe)/10")) }
        for l in races {
            let result = l.actualSeconds.map { a in
                ", finished in \(TextFormat.duration(a)) (\(ReviewOutput.signed(a - l.targetSeconds)) on the target)"
            }
            facts.append(
                (
                    "Race",
                    "\(l.raceName) (\(l.setupFile)): target \(TextFormat.duration(l.targetSeconds))\(result ?? "")"
                ))
        }
        if let notes = r.notes { facts.append(("Notes", notes)) }
        for (k, v) in facts { lines.append(k.padding(toLength: 12, withPad: " ", startingAt: 0) + v) }
        if !splits.isEmpty {
            lines += ["", "Splits (\(unit.rawValue))", SplitTable.text(splits, unit: unit)]
        }
        if !zones.isEmpty {
            lines += ["", "Heart-rate zones (\(r.zoneModel?.rawValue ?? "?"))"]
            lines.append(TextFormat.zoneTimes(unit: "bpm", zones.map { ($0.name, $0.lowBpm, $0.highBpm, $0.seconds) }))
        }
        lines += powerZoneLines
        if !efforts.isEmpty {
            lines += ["", "Best efforts"]
            lines.append(
                TextFormat.table(
                    header: ["distance", "time", "pace/\(unit.rawValue)", "from"],
                    rows: efforts.map { e in
                        [
                            BestEfforts.name(of: e.distanceMeters), TextFormat.duration(e.elapsedSeconds),
                            TextFormat.pace(e.elapsedSeconds / (e.distanceMeters / 1000), unit),
                            TextFormat.duration(e.startOffsetSeconds)
                        ]
                    }, rightAligned: [1, 2, 3]))
        }
        return lines.joined(separator: "\n")
    }
}

/// Split rendering shared by `show` and `splits`.
public enum SplitTable {
    public static func json(_ s: Split) -> SplitJSON {
        SplitJSON(
            index: s.index, startMeters: TextFormat.round(s.startMeters, 2),
            endMeters: TextFormat.round(s.endMeters, 2),
            elapsedSeconds: TextFormat.round(s.elapsedSeconds, 2), movingSeconds: TextFormat.round(s.movingSeconds, 2),
            paceSecondsPerKm: TextFormat.round(s.paceSecondsPerKm, 1),
            gradeAdjustedPaceSecondsPerKm: TextFormat.round(s.gradeAdjustedPaceSecondsPerKm, 1),
            ascentMeters: TextFormat.round(s.ascentMeters, 1),
            descentMeters: TextFormat.round(s.descentMeters, 1), avgHeartRate: TextFormat.round(s.avgHeartRate, 1),
            avgCadence: TextFormat.round(s.avgCadence, 1), avgPowerWatts: TextFormat.round(s.avgPowerWatts, 0),
            partial: s.partial)
    }

    /// The splits' table; a `W` column (average power) when any split has power.
    public static func text(_ splits: [Split], unit: DistanceUnit) -> String {
        let power = splits.contains { $0.avgPowerWatts != nil }
        return TextFormat.table(
            header: ["#", unit.rawValue, "time", "moving", "pace", "GAP", "elev +/-", "HR", "cad"]
                + (power ? ["W"] : []),
            rows: splits.map { s in
                let length = (s.endMeters - s.startMeters) / unit.meters
                return [
                    "\(s.index)\(s.partial ? "*" : "")", TextFormat.fixed(length, 2),
                    TextFormat.duration(s.elapsedSeconds),
                    TextFormat.duration(s.movingSeconds), TextFormat.pace(s.paceSecondsPerKm, unit),
                    TextFormat.pace(s.gradeAdjustedPaceSecondsPerKm, unit),
                    s.ascentMeters == nil
                        ? TextFormat.unknown
                        : "+\(TextFormat.fixed(s.ascentMeters, 0))/-\(TextFormat.fixed(s.descentMeters, 0))",
                    TextFormat.fixed(s.avgHeartRate, 0), TextFormat.fixed(s.avgCadence, 0)
                ] + (power ? [TextFormat.fixed(s.avgPowerWatts, 0)] : [])
            }, rightAligned: [1, 2, 3, 4, 5, 6, 7, 8, 9]) + (splits.last?.partial == true ? "\n* partial split" : "")
    }

    /// The splits as CSV (`CSV`: CRLF records).
    public static func csv(_ splits: [Split], unit: DistanceUnit) -> String {
        let u = unit.rawValue
        let header = [
            "index", "start_km", "end_km", "elapsed_time_s", "moving_time_s", "pace_s_per_\(u)", "gap_pace_s_per_\(u)",
            "ascent_m", "descent_m", "avg_hr_bpm", "avg_cadence_spm", "partial", "avg_power_w"
        ]
        return CSV.document(header: header, rows: splits.map { csvCells($0, unit: unit) })
    }

    /// One split as a CSV record.
    static func csvCells(_ s: Split, unit: DistanceUnit) -> [CSV.Cell] {
        let perUnit = unit.meters / 1000
        return [
            .integer(s.index), .number(s.startMeters / 1000, digits: 3), .number(s.endMeters / 1000, digits: 3),
            .number(s.elapsedSeconds, digits: 2), .number(s.movingSeconds, digits: 2),
            .number(s.paceSecondsPerKm.map { $0 * perUnit }, digits: 1),
            .number(s.gradeAdjustedPaceSecondsPerKm.map { $0 * perUnit }, digits: 1),
            .number(s.ascentMeters, digits: 1), .number(s.descentMeters, digits: 1),
            .number(s.avgHeartRate, digits: 1), .number(s.avgCadence, digits: 1), .bool(s.partial),
            .number(s.avgPowerWatts, digits: 0)
        ]
    }
}

/// A split in `runs show` and `runs splits --format json`.
public struct SplitJSON: Encodable {
    var index: Int
    @Null var startMeters: Double?
    @Null var endMeters: Double?
    @Null var elapsedSeconds: Double?
    @Null var movingSeconds: Double?
    @Null var paceSecondsPerKm: Double?
    @Null var gradeAdjustedPaceSecondsPerKm: Double?
    @Null var ascentMeters: Double?
    @Null var descentMeters: Double?
    @Null var avgHeartRate: Double?
    @Null var avgCadence: Double?
    @Null var avgPowerWatts: Double?
    var partial: Bool
}

/// `runs show --format json`: the run's keys, then its splits, zones and efforts.
public struct RunDetailJSON: Encodable {
    struct Zone: Encodable {
        var zone: Int
        var name: String
        var lowBpm: Double
        @Null var highBpm: Double?
        @Null var seconds: Double?
    }

    struct Effort: Encodable {
        var distanceMeters: Double
        @Null var elapsedSeconds: Double?
        @Null var startOffsetSeconds: Double?
    }

    var run: RunJSON
    var splits: [SplitJSON]
    var splitUnit: String
    var heartRateZones: [Zone]
    @Null var zoneModel: ZoneModel?
    var bestEfforts: [Effort]
    var loadEstimated: [String]
    /// The run's extra channels: running dynamics and developer fields, summarised.
    var channels: [Channel]
    /// The race setups linked to the run (`race review`).
    var races: [Race]
    /// The critical power in force on the run's day; null without one (or without power).
    @Null var criticalPower: CriticalPowerJSON?
    /// Time in power zones against it; empty without.
    var powerZones: [PowerZone]

    struct PowerZone: Encodable {
        var zone: Int
        var name: String
        var lowWatts: Double
        @Null var highWatts: Double?
        var seconds: Double
    }

    struct Channel: Encodable {
        var key: String
        @Null var unit: String?
        var average: Double
        var maximum: Double
    }

    struct Race: Encodable {
        var slug, name, file: String
        @Null var targetSeconds: Double?
        @Null var actualSeconds: Double?
        @Null var review: String?
    }

    enum CodingKeys: String, CodingKey {
        case splits, splitUnit, heartRateZones, zoneModel, bestEfforts, loadEstimated, channels, races
        case criticalPower, powerZones
    }

    /// The run's keys at the top level, beside the detail's.
    public func encode(to encoder: any Encoder) throws {
        try run.encode(to: encoder)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(splits, forKey: .splits)
        try c.encode(splitUnit, forKey: .splitUnit)
        try c.encode(heartRateZones, forKey: .heartRateZones)
        try c.encode(_zoneModel, forKey: .zoneModel)
        try c.encode(bestEfforts, forKey: .bestEfforts)
        try c.encode(loadEstimated, forKey: .loadEstimated)
        try c.encode(channels, forKey: .channels)
        try c.encode(races, forKey: .races)
        try c.encode(_criticalPower, forKey: .criticalPower)
        try c.encode(powerZones, forKey: .powerZones)
    }
}
