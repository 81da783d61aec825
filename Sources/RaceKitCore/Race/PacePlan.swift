/// How a target time is spread over the distance.
public enum PacingStrategy: Sendable, Equatable {
    /// The same pace all the way.
    case even
    /// The second half `percent` faster (in clock time) than the first.
    case negative(percent: Double)
    /// The second half `percent` slower (in clock time) than the first.
    case positive(percent: Double)
    /// Segments up to `untilMeters`, each at a fixed pace or at an effort
    /// multiplier of a base pace solved so the total meets the target.
    case custom([Segment])

    public struct Segment: Sendable, Equatable {
        public enum Intensity: Sendable, Equatable {
            /// Seconds per km.
            case pace(Double)
            /// Times the base pace (1.02 is 2% slower).
            case effort(Double)
        }
        public var untilMeters: Double
        public var intensity: Intensity
        public init(untilMeters: Double, intensity: Intensity) { self.untilMeters = untilMeters; self.intensity = intensity }
    }
}

/// Why a plan cannot be made.
public enum PacePlanError: Error, Sendable, Equatable, CustomStringConvertible {
    case impossibleTarget(String)
    case inconsistentPlan(String)

    public var description: String {
        switch self {
        case .impossibleTarget(let why), .inconsistentPlan(let why): return why
        }
    }
}

/// One row of a pace plan.
public struct PlanSplit: Sendable, Equatable {
    public var index: Int
    public var startMeters: Double
    public var endMeters: Double
    /// Whole seconds for this split.
    public var splitSeconds: Int
    /// Whole seconds from the start to the end of this split; the last equals the target.
    public var cumulativeSeconds: Int
    public var paceSecondsPerKm: Double
    public var partial: Bool
}

/// A pace plan: clock time as a function of distance, split at every unit.
///
/// Strategies are exact: `negative`/`positive` use a pace that changes linearly
/// with distance, pace(x) = a + b·x, solved so that the halves take
/// T/(2 ∓ p) and T(1 ∓ p)/(2 ∓ p) (p = percent/100) and the total is T.
/// Cumulative times are rounded to whole seconds at each boundary and split
/// times are their differences, so the last cumulative time is the target exactly.
public struct PacePlan: Sendable {
    public let distanceMeters: Double
    public let targetSeconds: Double
    /// Clock time at distance x (seconds), exact.
    let clock: @Sendable (Double) -> Double

    public init(distanceMeters d: Double, targetSeconds t: Double, strategy: PacingStrategy) throws {
        guard d > 0 else { throw PacePlanError.impossibleTarget("the distance must be positive") }
        guard t > 0 else { throw PacePlanError.impossibleTarget("the target time must be positive") }
        // Faster than 2:00/km over any distance is not a running target.
        guard t / (d / 1000) >= 120 else {
            throw PacePlanError.impossibleTarget("a target of \(Int(t)) s over \(Int(d)) m is faster than 2:00/km")
        }
        distanceMeters = d
        targetSeconds = t
        switch strategy {
        case .even:
            clock = { x in t * x / d }
        case .negative(let percent), .positive(let percent):
            guard (0..<20).contains(percent) else {
                throw PacePlanError.inconsistentPlan("split_percent must be at least 0 and below 20 (got \(percent))")
            }
            let p = (strategy == .negative(percent: percent) ? -1.0 : 1.0) * percent / 100
            let firstHalf = t / (2 + p), secondHalf = t * (1 + p) / (2 + p)
            let b = 4 * (secondHalf - firstHalf) / (d * d)       // s per m per m
            let a = (t - b * d * d / 2) / d                       // s per m at the start
            guard a > 0, a + b * d > 0 else { throw PacePlanError.impossibleTarget("the ramp would need a non-positive pace") }
            clock = { x in a * x + b * x * x / 2 }
        case .custom(let segments):
            clock = try Self.customClock(segments, distance: d, target: t)
        }
    }

    static func customClock(_ segments: [PacingStrategy.Segment], distance d: Double, target t: Double) throws
        -> @Sendable (Double) -> Double {
        guard !segments.isEmpty else { throw PacePlanError.inconsistentPlan("custom pacing needs at least one segment") }
        var previous = 0.0
        for s in segments {
            guard s.untilMeters > previous else {
                throw PacePlanError.inconsistentPlan("custom segments must end at increasing distances (\(Int(s.untilMeters)) m after \(Int(previous)) m)")
            }
            previous = s.untilMeters
        }
        guard abs(previous - d) < 0.5 else {
            throw PacePlanError.inconsistentPlan("custom segments end at \(Int(previous)) m but the race is \(Int(d)) m: they must cover the whole distance")
        }
        // Time of fixed-pace segments, and the multiplier-weighted length of the rest.
        var fixed = 0.0, weighted = 0.0, start = 0.0
        for s in segments {
            let length = s.untilMeters - start
            switch s.intensity {
            case .pace(let p):
                guard p > 0 else { throw PacePlanError.inconsistentPlan("a segment pace must be positive") }
                fixed += p * length / 1000
            case .effort(let m):
                guard m > 0 else { throw PacePlanError.inconsistentPlan("an effort multiplier must be positive") }
                weighted += m * length / 1000
            }
            start = s.untilMeters
        }
        let base: Double
        if weighted > 0 {
            base = (t - fixed) / weighted
            guard base > 0 else {
                throw PacePlanError.inconsistentPlan("the fixed-pace segments alone take \(Int(fixed)) s, more than the target \(Int(t)) s")
            }
        } else {
            guard abs(fixed - t) <= 1 else {
                throw PacePlanError.inconsistentPlan("the segment paces add up to \(Int(fixed.rounded())) s, not the target \(Int(t)) s")
            }
            base = 0
        }
        // Piecewise-linear clock, scaled so it ends exactly on the target.
        var bounds: [(start: Double, end: Double, pace: Double)] = []
        start = 0
        for s in segments {
            let pace: Double
            switch s.intensity {
            case .pace(let p): pace = p / 1000
            case .effort(let m): pace = base * m / 1000
            }
            bounds.append((start, s.untilMeters, pace))
            start = s.untilMeters
        }
        let total = bounds.reduce(0) { $0 + ($1.end - $1.start) * $1.pace }
        let scale = t / total
        let pieces = bounds
        return { x in
            var c = 0.0
            for p in pieces {
                if x <= p.start { break }
                c += (min(x, p.end) - p.start) * p.pace
            }
            return c * scale
        }
    }

    /// Clock time at a distance, in seconds (exact, not rounded).
    public func clockSeconds(at meters: Double) -> Double { clock(min(max(0, meters), distanceMeters)) }

    /// Splits at every `unitMeters` (or at the given checkpoints), the last partial.
    public func splits(everyMeters unit: Double = 1000, checkpoints: [Double]? = nil) -> [PlanSplit] {
        var ends = checkpoints?.filter { $0 > 0 && $0 < distanceMeters }.sorted() ?? []
        if checkpoints == nil {
            var x = unit
            while x < distanceMeters - 1e-6 { ends.append(x); x += unit }
        }
        ends.append(distanceMeters)
        var out: [PlanSplit] = []
        var start = 0.0, previous = 0
        let target = Int(targetSeconds.rounded())
        for (i, end) in ends.enumerated() {
            let cumulative = i == ends.count - 1 ? target : Int(clockSeconds(at: end).rounded())
            let seconds = cumulative - previous
            out.append(PlanSplit(index: i + 1, startMeters: start, endMeters: end, splitSeconds: seconds,
                                 cumulativeSeconds: cumulative, paceSecondsPerKm: Double(seconds) / ((end - start) / 1000),
                                 partial: checkpoints == nil && i == ends.count - 1 && end - start < unit - 1e-6))
            start = end
            previous = cumulative
        }
        return out
    }
}
