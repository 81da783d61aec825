import RaceKitMetrics
import RaceKitModel
import RaceKitOutput

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
    /// A constant running power (docs/race-plans.md, "Power plans"): the
    /// course's even-effort pace at the flat speed the watts give. As a pace
    /// plan it is `even`; `RacePlanner` works out its time from the watts.
    case power(PowerTarget)

    /// A power plan's watts and the athlete's figures that turn them into pace.
    public struct PowerTarget: Sendable, Equatable {
        /// The watts to hold; nil: `cpPercent` of `criticalPowerWatts`.
        public var watts: Double?
        public var cpPercent: Double?
        /// The athlete's critical power (set in the setup, or from the store).
        public var criticalPowerWatts: Double?
        /// Watts per m/s of flat running (set in the setup, or from the store's runs).
        public var wattsPerMps: Double?
        /// Where `criticalPowerWatts` and `wattsPerMps` came from ("the setup",
        /// or what of the store), for the plan's summary.
        public var criticalPowerSource: String?
        public var wattsPerMpsSource: String?
        public init(
            watts: Double? = nil, cpPercent: Double? = nil, criticalPowerWatts: Double? = nil,
            wattsPerMps: Double? = nil
        ) {
            self.watts = watts; self.cpPercent = cpPercent; self.criticalPowerWatts = criticalPowerWatts
            self.wattsPerMps = wattsPerMps
        }

        /// The watts to hold, when they can be told.
        public var targetWatts: Double? {
            watts ?? cpPercent.flatMap { p in criticalPowerWatts.map { $0 * p / 100 } }
        }
    }

    public struct Segment: Sendable, Equatable {
        public enum Intensity: Sendable, Equatable {
            /// Seconds per km.
            case pace(Double)
            /// Times the base pace (1.02 is 2% slower).
            case effort(Double)
        }
        public var untilMeters: Double
        public var intensity: Intensity
        public init(untilMeters: Double, intensity: Intensity) {
            self.untilMeters = untilMeters; self.intensity = intensity
        }
    }
}

/// Why a plan cannot be made.
public enum PacePlanError: RaceKitError, Equatable {
    public var exitClass: ExitClass { .dataError }
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
/// Pace at distance x is s(x)·f(x): s is the strategy's pace and f the course's
/// cost factor (1 on the flat; see `CostProfile`), so a course spreads time
/// by effort and a strategy shapes it on top. Strategies are exact:
/// `negative`/`positive` use s(x) = a + b·x, with a and b solved from the two
/// linear equations that make the halves take T/(2 ∓ p) and T(1 ∓ p)/(2 ∓ p)
/// (p = percent/100) in clock time, course included.
/// Cumulative times are rounded to whole seconds at each boundary and split
/// times are their differences, so the last cumulative time is the target exactly.
public struct PacePlan: Sendable {
    /// The paces a race plan accepts, in seconds per km: 2:00/km (faster is no
    /// running target, over any distance) to 20:00/km (slower is walking slowly).
    public static let paceRange: ClosedRange<Double> = 120...1200
    /// The race distances a setup accepts, in metres: 400 m (one lap of a track)
    /// to 250 km (Spartathlon's 246 km, the longest of the classic road ultras).
    public static let distanceRange: ClosedRange<Double> = 400...250_000

    /// `123 s` for messages: whole seconds, never trapping on a huge value.
    static func seconds(_ v: Double) -> String { "\(TextFormat.fixed(v, 0)) s" }
    /// `42195 m` for messages: whole metres, never trapping on a huge value.
    static func meters(_ v: Double) -> String { "\(TextFormat.fixed(v, 0)) m" }

    public let distanceMeters: Double
    public let targetSeconds: Double
    /// Clock time at distance x (seconds), exact.
    let clock: @Sendable (Double) -> Double

    public init(
        distanceMeters d: Double, targetSeconds t: Double, strategy: PacingStrategy,
        cost: CostProfile? = nil
    ) throws {
        guard d > 0, d <= Self.distanceRange.upperBound else {
            throw PacePlanError.impossibleTarget(
                "the distance must be positive and at most 250 km (got \(Self.meters(d)))")
        }
        guard t > 0, t.isFinite else { throw PacePlanError.impossibleTarget("the target time must be positive") }
        // Faster than 2:00/km over any distance is not a running target; slower
        // than 20:00/km is walking slowly and no race plan needs it.
        let pace = t / (d / 1000)
        guard pace >= Self.paceRange.lowerBound else {
            throw PacePlanError.impossibleTarget(
                "a target of \(Self.seconds(t)) over \(Self.meters(d)) is faster than 2:00/km")
        }
        guard pace <= Self.paceRange.upperBound else {
            throw PacePlanError.impossibleTarget(
                "a target of \(Self.seconds(t)) over \(Self.meters(d)) is slower than 20:00/km")
        }
        let w = cost ?? CostProfile.flat(d)
        guard abs(w.length - d) < 0.5 else {
            throw PacePlanError.inconsistentPlan(
                "the course profile is \(Self.meters(w.length)) but the race is \(Self.meters(d))")
        }
        distanceMeters = d
        targetSeconds = t
        switch strategy {
        case .even, .power:
            let total = w.integrals(d).f
            clock = { x in t * w.integrals(x).f / total }
        case .negative(let percent), .positive(let percent):
            guard (0..<20).contains(percent) else {
                throw PacePlanError.inconsistentPlan("split_percent must be at least 0 and below 20 (got \(percent))")
            }
            let p = (strategy == .negative(percent: percent) ? -1.0 : 1.0) * percent / 100
            let firstHalf = t / (2 + p), secondHalf = t * (1 + p) / (2 + p)
            let h = w.integrals(d / 2), e = w.integrals(d)
            // a·F(h) + b·G(h) = T1 ;  a·(F(d) − F(h)) + b·(G(d) − G(h)) = T2
            let f1 = h.f, g1 = h.g, f2 = e.f - h.f, g2 = e.g - h.g
            let det = f1 * g2 - g1 * f2
            guard abs(det) > 0 else { throw PacePlanError.inconsistentPlan("the course profile is degenerate") }
            let a = (firstHalf * g2 - g1 * secondHalf) / det
            let b = (f1 * secondHalf - firstHalf * f2) / det
            guard a > 0, a + b * d > 0 else {
                throw PacePlanError.impossibleTarget("the ramp would need a non-positive pace")
            }
            clock = { x in
                let i = w.integrals(x)
                return a * i.f + b * i.g
            }
        case .custom(let segments):
            clock = try Self.customClock(segments, distance: d, target: t, cost: w)
        }
    }

    static func customClock(
        _ segments: [PacingStrategy.Segment], distance d: Double, target t: Double,
        cost w: CostProfile
    ) throws -> @Sendable (Double) -> Double {
        guard !segments.isEmpty else {
            throw PacePlanError.inconsistentPlan("custom pacing needs at least one segment")
        }
        var previous = 0.0
        for s in segments {
            guard s.untilMeters > previous else {
                throw PacePlanError.inconsistentPlan(
                    "custom segments must end at increasing distances (\(meters(s.untilMeters)) after \(meters(previous)))"
                )
            }
            previous = s.untilMeters
        }
        guard abs(previous - d) < 0.5 else {
            throw PacePlanError.inconsistentPlan(
                "custom segments end at \(meters(previous)) but the race is \(meters(d)): they must cover the whole distance"
            )
        }
        // A fixed-pace segment takes pace × length (its average pace over the
        // course); effort segments share the rest in proportion to multiplier × cost.
        var fixed = 0.0, weighted = 0.0, start = 0.0
        var spans: [(start: Double, startF: Double, work: Double)] = []
        for s in segments {
            let length = s.untilMeters - start
            let startF = w.integrals(start).f
            let work = w.integrals(min(s.untilMeters, d)).f - startF
            spans.append((start, startF, work))
            switch s.intensity {
            case .pace(let p):
                guard p > 0 else { throw PacePlanError.inconsistentPlan("a segment pace must be positive") }
                fixed += p * length / 1000
            case .effort(let m):
                guard m > 0 else { throw PacePlanError.inconsistentPlan("an effort multiplier must be positive") }
                weighted += m * work / 1000
            }
            start = s.untilMeters
        }
        let base: Double
        if weighted > 0 {
            base = (t - fixed) / weighted
            guard base > 0 else {
                throw PacePlanError.inconsistentPlan(
                    "the fixed-pace segments alone take \(seconds(fixed)), more than the target \(seconds(t))")
            }
        } else {
            guard abs(fixed - t) <= 1 else {
                throw PacePlanError.inconsistentPlan(
                    "the segment paces add up to \(seconds(fixed)), not the target \(seconds(t))")
            }
            base = 0
        }
        // Per segment, time per unit of cost-weighted distance.
        let pieces = zip(segments, spans).map {
            s, span -> (start: Double, end: Double, coefficient: Double, startF: Double) in
            let coefficient: Double
            switch s.intensity {
            case .pace(let p): coefficient = span.work > 0 ? p * (s.untilMeters - span.start) / 1000 / span.work : 0
            case .effort(let m): coefficient = base * m / 1000
            }
            return (span.start, s.untilMeters, coefficient, span.startF)
        }
        let raw: @Sendable (Double) -> Double = { x in
            var c = 0.0
            for p in pieces {
                if x <= p.start { break }
                c += (w.integrals(min(x, p.end)).f - p.startF) * p.coefficient
            }
            return c
        }
        let scale = t / raw(d)
        return { x in raw(x) * scale }
    }

    private init(distanceMeters: Double, targetSeconds: Double, clock: @escaping @Sendable (Double) -> Double) {
        self.distanceMeters = distanceMeters
        self.targetSeconds = targetSeconds
        self.clock = clock
    }

    /// This plan with every stretch's pace multiplied by `factor` of the clock
    /// time at which the runner reaches it (the heat of that hour): stepped
    /// every `stepMeters` from the start, each step's factor taken at its
    /// middle, so a plan that slows reaches each stretch later, in hotter air.
    /// The strategy's shape and the course's cost are kept, stretch by stretch;
    /// the finish moves to where the slowed paces add up to.
    public func slowed(stepMeters: Double = 10, by factor: (Double) -> Double) -> PacePlan {
        let steps = max(1, Int((distanceMeters / stepMeters).rounded(.up)))
        var meters = [0.0], times = [0.0]
        meters.reserveCapacity(steps + 1)
        times.reserveCapacity(steps + 1)
        var t = 0.0, before = 0.0
        for i in 1...steps {
            let x = min(distanceMeters, Double(i) * stepMeters)
            let base = clock(x) - before
            before += base
            t += base * factor(t + base * factor(t) / 2)
            meters.append(x)
            times.append(t)
        }
        let (xs, ts) = (meters, times)
        return PacePlan(distanceMeters: distanceMeters, targetSeconds: t) { x in
            guard x > 0 else { return 0 }
            var lo = 0, hi = xs.count - 1
            while hi - lo > 1 {
                let mid = (lo + hi) / 2
                if xs[mid] < x { lo = mid } else { hi = mid }
            }
            let f = xs[hi] > xs[lo] ? (x - xs[lo]) / (xs[hi] - xs[lo]) : 1
            return ts[lo] + (ts[hi] - ts[lo]) * min(1, f)
        }
    }

    /// Distance reached at clock time `seconds` (the inverse of `clockSeconds`).
    public func distance(atClock seconds: Double) -> Double {
        if seconds <= 0 { return 0 }
        if seconds >= targetSeconds { return distanceMeters }
        var lo = 0.0, hi = distanceMeters
        for _ in 0..<60 {
            let mid = (lo + hi) / 2
            if clock(mid) < seconds { lo = mid } else { hi = mid }
            if hi - lo < 1e-4 { break }
        }
        return (lo + hi) / 2
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
            out.append(
                PlanSplit(
                    index: i + 1, startMeters: start, endMeters: end, splitSeconds: seconds,
                    cumulativeSeconds: cumulative, paceSecondsPerKm: Double(seconds) / ((end - start) / 1000),
                    partial: checkpoints == nil && i == ends.count - 1 && end - start < unit - 1e-6))
            start = end
            previous = cumulative
        }
        return out
    }
}
