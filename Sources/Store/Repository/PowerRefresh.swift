import RaceKitMetrics
import RaceKitModel

/// The stored side of `PowerHistory`: an athlete's power runs and hand-set
/// critical powers, and the refresh that keeps each run's intensity and stress
/// at the critical power in force on its day.
///
/// A run's intensity depends on the other runs of its 90 days (and on what was
/// set by hand), so it is not final when the run is analysed: every command
/// that adds, analyses again or deletes runs, or sets a critical power, ends
/// with `PowerRefresh.run`, which writes only the values that changed.
public enum PowerRefresh {
    /// The metrics the refresh owns.
    public static let metrics: [any RunMetric.Type] = [Metric.PowerIntensity.self, Metric.PowerStressScore.self]

    /// The daily-measurement kinds of a critical power set by hand, and of its W′.
    public static func kinds(_ sport: Sport) -> (cp: String, wPrime: String) {
        ("critical_power_\(sport.rawValue)", "w_prime_\(sport.rawValue)")
    }

    /// What is set by hand, from the athlete's measurements.
    public static func settings(_ store: any DailyRepository, athleteID: String) throws -> [PowerHistory.Setting] {
        var out: [PowerHistory.Setting] = []
        for sport in PowerHistory.sports {
            let (cpKind, wKind) = kinds(sport)
            let wPrimes = try store.measurements(athleteID: athleteID, kind: wKind, from: nil, until: nil)
            let wByStart = Dictionary(
                wPrimes.filter { CriticalPower.plausibleWPrime.contains($0.value) }.map { ($0.start, $0.value) },
                uniquingKeysWith: { a, _ in a })
            // Values outside the ranges `athlete set` takes (a store edited by hand) are left out.
            for m in try store.measurements(athleteID: athleteID, kind: cpKind, from: nil, until: nil)
            where CriticalPower.plausibleWatts.contains(m.value) {
                out.append(
                    PowerHistory.Setting(from: m.start, sport: sport, watts: m.value, wPrimeJoules: wByStart[m.start]))
            }
        }
        return out
    }

    /// Whether a run has power figures (its normalized power is known): the
    /// runs the power history reads.
    public static func hasPower(_ r: RunRecord) -> Bool { r.metrics[Metric.NormalizedPower.self] != nil }

    /// The athlete's power history and their runs with power (oldest first);
    /// with `before`, only the runs of the 90 days up to it (enough for the
    /// critical power in force then).
    public static func history(
        _ store: any RunRepository & DailyRepository, athleteID: String, before: Double? = nil
    ) throws -> (history: PowerHistory, runs: [RunRecord]) {
        var filter = RunFilter()
        filter.athleteID = athleteID
        filter.having = [Metric.NormalizedPower.self]
        if let before {
            filter.since = before - PowerHistory.windowDays * 86_400
            filter.until = before
        }
        let runs = try store.runs(matching: filter)
        let curve = PeakPowerCurve.metrics
        let powered = runs.compactMap { r -> PowerHistory.Run? in
            guard PowerHistory.sports.contains(r.sport) else { return nil }
            let peaks = curve.map { r.metrics[$0] }
            return peaks.contains { $0 != nil }
                ? PowerHistory.Run(id: r.id, start: r.startedAt, sport: r.sport, peaks: peaks) : nil
        }
        return (PowerHistory(runs: powered, settings: try settings(store, athleteID: athleteID)), runs)
    }

    /// A run's intensity and stress at `history`: nil for a run without power
    /// or without a critical power in force.
    public static func values(_ r: RunRecord, _ history: PowerHistory) -> [Double?] {
        guard let np = r.metrics[Metric.NormalizedPower.self], let seconds = r.metrics[Metric.PowerSeconds.self],
            let cp = history.criticalPower(r.sport, at: r.startedAt)?.value.watts
        else { return [nil, nil] }
        let both = [
            PowerStress.intensity(normalized: np, criticalPower: cp),
            PowerStress.stress(seconds: seconds, normalized: np, criticalPower: cp)
        ]
        // Both or neither: a stress whose intensity is out of range is no stress.
        for (m, v) in zip(metrics, both) { guard let v, m.plausible.contains(v) else { return [nil, nil] } }
        return both
    }

    /// Brings the athlete's runs to their intensity and stress; returns how many runs changed.
    @discardableResult
    public static func run(_ store: any RunRepository & DailyRepository, athleteID: String) throws -> Int {
        let (history, runs) = try history(store, athleteID: athleteID)
        var changed: [(runID: String, values: [Double?])] = []
        for r in runs {
            let now = values(r, history)
            if now != metrics.map({ r.metrics[$0] }) { changed.append((r.id, now)) }
        }
        try store.saveMetrics(metrics, changed)
        return changed.count
    }
}
