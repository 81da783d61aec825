import RaceKitMetrics
import RaceKitModel
import RaceKitOutput

/// A critical power in JSON (`athlete show`, `runs show`).
struct CriticalPowerJSON: Encodable {
    var watts: Double
    @Null var wPrimeJoules: Double?
    @Null var maxPowerWatts: Double?
    /// `2-parameter`, `3-parameter` or `set`.
    var model: String
    var efforts: Int
    /// How many runs the fitted efforts come from (0 when set).
    var runs: Int
    @Null var residualWatts: Double?
    /// When set by hand: the day it is in force from (ISO 8601); else null.
    @Null var setFrom: String?
    /// When fitted: the last moment of the 90 days of efforts (ISO 8601); else null.
    @Null var windowEnd: String?

    init(_ f: PowerHistory.InForce) {
        let v = f.value
        watts = TextFormat.round(v.watts, 1) ?? v.watts
        wPrimeJoules = TextFormat.round(v.wPrimeJoules, 0)
        maxPowerWatts = TextFormat.round(v.maxPowerWatts, 1)
        model = v.model.rawValue
        efforts = v.efforts
        runs = f.runs
        residualWatts = v.model == .set ? nil : TextFormat.round(v.residualWatts, 1)
        setFrom = f.setFrom.map(TextFormat.isoTime)
        windowEnd = f.windowEnd.map(TextFormat.isoTime)
    }
}

extension CriticalPowerJSON {
    /// `athlete show`'s entry for one sport.
    struct Sport: Encodable {
        var sport: String
        /// The moment it is told for: the newest power run or setting (ISO 8601).
        var at: String
        @Null var value: CriticalPowerJSON?
        /// The best efforts of the 90 days to `at`.
        var efforts: [Effort]

        struct Effort: Encodable {
            var seconds: Int
            var watts: Double
            var runId: String
        }

        init(_ c: PowerJobs.Current) {
            sport = c.sport.rawValue
            at = TextFormat.isoTime(c.at)
            value = c.inForce.map(CriticalPowerJSON.init)
            efforts = c.bests.map {
                Effort(seconds: $0.seconds, watts: TextFormat.round($0.watts, 1) ?? $0.watts, runId: $0.runID)
            }
        }
    }
}

extension RunDetail {
    /// The points of the power-duration curve `runs show` names.
    static let shownPeaks = [5, 60, 300, 1200, 3600]

    /// `runs show`'s lines after `Power`: intensity and stress against the
    /// critical power in force, and the run's best powers.
    var powerFacts: [(String, String)] {
        let m = record.metrics
        var facts: [(String, String)] = []
        if let cp = criticalPower {
            var text = "critical power \(Int(cp.value.watts.rounded())) W"
            text +=
                cp.setFrom != nil ? " (set by hand)" : " (\(cp.value.model.rawValue) fit of the 90 days to this run)"
            if let i = m[Metric.PowerIntensity.self] { text += " · intensity \(TextFormat.fixed(i, 2))" }
            if let s = m[Metric.PowerStressScore.self] { text += " · power stress \(TextFormat.fixed(s, 0))" }
            facts.append(("Intensity", text))
        } else if PowerHistory.sports.contains(record.sport) {
            let why = noCriticalPower ?? "no runs with power in its 90 days"
            facts.append(("Intensity", "unknown: no critical power for the run's day (\(why))"))
        }
        let peaks = zip(PeakPowerCurve.metrics, PeakPowerCurve.seconds).compactMap { metric, seconds in
            Self.shownPeaks.contains(seconds)
                ? m[metric].map { "\(PeakPowerCurve.spoken(seconds)) \(TextFormat.fixed($0, 0))" } : nil
        }
        if !peaks.isEmpty { facts.append(("Peak power", peaks.joined(separator: " · ") + " W")) }
        return facts
    }

    /// The power-zone table, after the heart-rate zones; empty without zones.
    var powerZoneLines: [String] {
        guard let zones = powerZones, let cp = criticalPower else { return [] }
        return [
            "", "Power zones (\(Int(cp.value.watts.rounded())) W critical power)",
            TextFormat.zoneTimes(unit: "W", zones.map { ($0.name, $0.lowWatts, $0.highWatts, $0.seconds) })
        ]
    }
}
