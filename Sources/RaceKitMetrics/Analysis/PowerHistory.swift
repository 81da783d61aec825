import RaceKitModel

/// An athlete's power over time: each power run's curve and the critical
/// powers set by hand, from which the critical power in force on any day
/// follows (docs/numbers.md, "Critical power").
///
/// On a day, the critical power of a sport is the one last set by hand on or
/// before it; without one, the fit of the best efforts of the 90 days up to
/// and including it (`CriticalPower.fit`).
public struct PowerHistory: Sendable {
    /// The sports a critical power is kept for: running and cycling power are
    /// not comparable (a run's watts are not a ride's).
    public static let sports: [Sport] = [.running, .cycling]
    /// Days of efforts a fit uses.
    public static let windowDays = 90.0

    /// A run's power-duration curve: best watts per `PeakPowerCurve.seconds`.
    public struct Run: Sendable {
        public var id: String
        public var start: Double
        public var sport: Sport
        public var peaks: [Double?]
        public init(id: String, start: Double, sport: Sport, peaks: [Double?]) {
            self.id = id; self.start = start; self.sport = sport; self.peaks = peaks
        }
    }

    /// A critical power set by hand, in force from `from` (epoch seconds).
    public struct Setting: Sendable, Equatable {
        public var from: Double
        public var sport: Sport
        public var watts: Double
        public var wPrimeJoules: Double?
        public init(from: Double, sport: Sport, watts: Double, wPrimeJoules: Double?) {
            self.from = from; self.sport = sport; self.watts = watts; self.wPrimeJoules = wPrimeJoules
        }
    }

    /// The critical power in force on a day, and where it comes from.
    public struct InForce: Sendable, Equatable {
        public var value: CriticalPower
        /// When set by hand: the setting's start.
        public var setFrom: Double?
        /// When fitted: the last day of its 90 days (the efforts' window ends there).
        public var windowEnd: Double?
        /// When fitted: how many runs its efforts come from.
        public var runs = 0
    }

    /// A point of the curve and the run that holds it.
    public struct Best: Sendable, Equatable {
        public var seconds: Int
        public var watts: Double
        public var runID: String
        public var start: Double
    }

    let runs: [Sport: [Run]]   // by start
    let settings: [Sport: [Setting]]   // by start

    public init(runs: [Run], settings: [Setting]) {
        self.runs = Dictionary(grouping: runs.filter { $0.peaks.contains { $0 != nil } }, by: \.sport)
            .mapValues { $0.sorted { $0.start < $1.start } }
        self.settings = Dictionary(grouping: settings, by: \.sport).mapValues { $0.sorted { $0.from < $1.from } }
    }

    /// The best efforts of the runs of `sport` started in `window`, one per
    /// curve duration with any.
    public func bests(_ sport: Sport, in window: ClosedRange<Double>) -> [Best] {
        let list = runs[sport] ?? []
        var lo = 0, hi = list.count   // the first run at or after the window's start
        while lo < hi {
            let mid = (lo + hi) / 2
            if list[mid].start < window.lowerBound { lo = mid + 1 } else { hi = mid }
        }
        var best: [Best?] = Array(repeating: nil, count: PeakPowerCurve.seconds.count)
        var i = lo
        while i < list.count, list[i].start <= window.upperBound {
            let run = list[i]
            for (k, w) in run.peaks.enumerated() where k < best.count {
                if let w, w > (best[k]?.watts ?? -1) {
                    best[k] = Best(seconds: PeakPowerCurve.seconds[k], watts: w, runID: run.id, start: run.start)
                }
            }
            i += 1
        }
        return best.compactMap { $0 }
    }

    /// The best efforts of the 90 days up to and including `date`.
    public func recentBests(_ sport: Sport, at date: Double) -> [Best] {
        bests(sport, in: (date - Self.windowDays * 86_400)...date)
    }

    /// The critical power of `sport` in force at `date` (epoch seconds); nil
    /// when none was set and the efforts do not allow a fit.
    public func criticalPower(_ sport: Sport, at date: Double) -> InForce? {
        guard Self.sports.contains(sport) else { return nil }
        if let set = settings[sport]?.last(where: { $0.from <= date }) {
            return InForce(
                value: CriticalPower(watts: set.watts, wPrimeJoules: set.wPrimeJoules, model: .set), setFrom: set.from)
        }
        let bests = recentBests(sport, at: date)
        let curve = bests.map { (seconds: Double($0.seconds), watts: $0.watts) }
        return CriticalPower.fit(curve).map { fit in
            // The runs of the efforts the model used.
            let range =
                fit.model == .threeParameter ? CriticalPower.threeParameterSeconds : CriticalPower.twoParameterSeconds
            let used = Set(bests.filter { range.contains(Double($0.seconds)) }.map(\.runID))
            return InForce(value: fit, windowEnd: date, runs: used.count)
        }
    }
}

/// Intensity and stress against critical power (docs/numbers.md, "Intensity and
/// power stress"): the same arithmetic as the well-known training-stress score,
/// named neutrally, with critical power in the place of functional threshold power.
public enum PowerStress {
    /// Normalized power over critical power.
    public static func intensity(normalized: Double, criticalPower: Double) -> Double? {
        guard criticalPower > 0, normalized >= 0 else { return nil }
        return normalized / criticalPower
    }

    /// 100 for an hour at critical power: hours with power x intensity² x 100.
    public static func stress(seconds: Double, normalized: Double, criticalPower: Double) -> Double? {
        guard seconds >= 0, let i = intensity(normalized: normalized, criticalPower: criticalPower) else { return nil }
        return seconds / 3600 * i * i * 100
    }
}
