import RaceKitOutput
import RaceKitPlan

/// One thing the review found, with the numbers behind it; the verdict is
/// these findings in words, nothing else.
public enum ReviewFinding: Sendable, Equatable {
    /// Finish clock against the plan's time: the target, or (`coolTargetSeconds`
    /// not nil) the setup's target slowed for the heat.
    case finish(actualSeconds: Double, targetSeconds: Double, coolTargetSeconds: Double? = nil, cause: String = "heat")
    /// Running gap at halfway (positive: behind).
    case halfway(gapSeconds: Double)
    /// The plan broke here; from there to the finish the runner lost this many
    /// seconds on the plan, `percent` of its time for that stretch (stops left out).
    case broke(atMeters: Double, lostSeconds: Double, percent: Double)
    /// No split started a loss the runner never won back.
    case held(splitSharePercent: Double)
    /// Last quarter against the first three, relative to the plan.
    case fade(percent: Double)
    /// Stops seen in the samples: how many, seconds in all, the longest and where.
    case stops(count: Int, seconds: Double, longestSeconds: Double, longestAtMeters: Double)
    /// Gels (caffeine included) reached from `earliest` to `latest` seconds
    /// against their planned clock times (positive: late).
    case fuel(gels: Int, earliestSeconds: Double, latestSeconds: Double)
    /// Average heart rate over the first and the second half.
    case heartRate(firstHalf: Double, secondHalf: Double)
    /// The temperature the race was run in and what the heat cost.
    case conditions(ReviewConditions)

    /// The sentence a coach would write, distances in the review's unit
    /// (`unitMeters`: 1000 or a mile).
    public func sentence(unitMeters: Double = 1000) -> String {
        let d = TextFormat.duration
        func at(_ m: Double) -> String {
            "\(TextFormat.fixed(m / unitMeters, 1)) \(PlanOutput.unitName(unitMeters))"
        }
        func gap(_ s: Double) -> String {
            abs(s) < 0.5 ? "exactly on" : "\(d(abs(s))) \(s > 0 ? "behind" : "ahead of")"
        }
        switch self {
        case .finish(let a, let t, let cool, let cause):
            let pct = TextFormat.fixed(abs(a / t - 1) * 100, 1)
            let target = cool.map { "plan's \(d(t)) (the \(d($0)) target slowed for the \(cause))" } ?? "\(d(t)) target"
            return abs(a - t) < 0.5
                ? "Finished in \(d(a)), exactly on the \(target)."
                : "Finished in \(d(a)), \(d(abs(a - t))) \(a > t ? "slower" : "faster") than the \(target) (\(pct)%)."
        case .halfway(let g):
            return "Went through halfway \(gap(g)) plan."
        case .broke(let m, let lost, let pct):
            return
                "The plan broke at \(at(m)): from there to the finish \(d(lost)) was lost on the plan "
                + "(\(TextFormat.fixed(pct, 1))% slower, stops left out), and never won back."
        case .held(let share):
            return
                "The plan held: no split lost more than \(TextFormat.fixed(share, 0))% of its planned time for good."
        case .fade(let p):
            let pct = TextFormat.fixed(abs(p), 1)
            if p >= ReviewFindings.fadeNoticeablePercent {
                return "Faded over the last quarter: \(pct)% slower against the plan than over the first three."
            }
            if p <= -ReviewFindings.fadeNoticeablePercent {
                return "Finished strongly: the last quarter \(pct)% faster against the plan than the first three."
            }
            return "Held the pace over the last quarter (\(TextFormat.fixed(p, 1))% against the first three)."
        case .stops(let n, let s, let longest, let place):
            return n == 1
                ? "Stopped once, for \(Int(s.rounded())) s at \(at(place))."
                : "Stopped \(n) times for \(Int(s.rounded())) s in all, the longest \(Int(longest.rounded())) s at \(at(place))."
        case .fuel(let n, let early, let late):
            func off(_ s: Double) -> String {
                abs(s) < 0.5 ? "on time" : "\(d(abs(s))) \(s > 0 ? "late" : "early")"
            }
            if n == 1 { return "The gel came \(off(late)) against the plan's clock." }
            if abs(early) < 0.5, abs(late) < 0.5 { return "The \(n) gels all came on time against the plan's clock." }
            return "The \(n) gels came from \(off(early)) to \(off(late)) against the plan's clock."
        case .conditions(let c):
            return c.sentence
        case .heartRate(let a, let b):
            return
                "Heart rate averaged \(Int(a.rounded())) bpm over the first half and \(Int(b.rounded())) over the second (\(b >= a ? "+" : "")\(Int(b.rounded()) - Int(a.rounded())))."
        }
    }
}

/// The rules that find where a plan broke and how the runner faded (docs/review.md,
/// "Race review"); thresholds are the named constants here.
public enum ReviewFindings {
    /// A split starts a break when it loses more than this share of its
    /// planned time (stops left out).
    public static let breakSplitShare = 0.02
    /// ... and, from that split on, the runner's time over every stretch to a
    /// later split's end stays more than this share above the plan's: the loss
    /// was never won back.
    public static let breakHoldShare = 0.01
    /// ... and the runner lost at least this many seconds from that split to
    /// the finish (a second of noise over the last metres is no break); the
    /// short last split never starts one.
    public static let breakMinimumSeconds = 10.0
    /// The last quarter of the distance is where the fade is measured.
    public static let fadeFromShare = 0.75
    /// A fade (or a strong finish) below this, in percent, is holding the pace.
    public static let fadeNoticeablePercent = 2.0

    /// The start of the first full split that lost more than `breakSplitShare`
    /// of its plan and after which the runner stayed more than `breakHoldShare`
    /// behind the plan's time for every stretch to the finish, losing at least
    /// `breakMinimumSeconds` in all; nil when none.
    public static func brokeAt(_ splits: [ReviewSplit]) -> Double? {
        for k in splits.indices {
            let s = splits[k]
            guard !s.partial,
                s.actualSeconds - s.stoppedSeconds - s.plannedSeconds > breakSplitShare * s.plannedSeconds
            else { continue }
            var run = 0.0, plan = 0.0, held = true
            for j in k..<splits.count {
                run += splits[j].actualSeconds - splits[j].stoppedSeconds
                plan += splits[j].plannedSeconds
                if run <= (1 + breakHoldShare) * plan { held = false; break }
            }
            if held, run - plan >= breakMinimumSeconds { return s.startMeters }
        }
        return nil
    }

    /// Where, inside the split starting at `start` that `brokeAt` found, the
    /// loss began: the last point (every 10 m) where the runner's time against
    /// the plan's, stops left out, was at its lowest in the split (within
    /// `lossStartSeconds`, so that rounding noise on a flat stretch does not
    /// pick an earlier point). A split boundary depends on the unit (a mile split from
    /// 9.0 mi holds a stop at 15 km); where the loss began does not.
    static func lossStart(
        splitFrom start: Double, to end: Double, plan: RacePlan, line: ReviewTimeline, stops: [ReviewStop]
    ) -> Double {
        let points = stride(from: start, through: end, by: 10).map { m in
            let stopped = stops.filter { $0.atMeters < m }.reduce(0) { $0 + $1.seconds }
            return (m, line.time(at: m) - stopped - plan.pacePlan.clockSeconds(at: m))
        }
        guard let lowest = points.map(\.1).min() else { return start }
        return points.last { $0.1 <= lowest + lossStartSeconds }?.0 ?? start
    }

    /// How close to the split's lowest gap counts as the lowest, seconds.
    public static let lossStartSeconds = 0.05

    /// Percent by which the last quarter was slower against the plan than the
    /// first three quarters (negative: faster); stops left out of both.
    static func fade(_ plan: RacePlan, line: ReviewTimeline, stops: [ReviewStop]) -> Double {
        let race = plan.setup.distanceMeters, q = race * fadeFromShare
        let stoppedBefore = stops.filter { $0.atMeters < q }.reduce(0) { $0 + $1.seconds }
        let stoppedAfter = stops.filter { $0.atMeters >= q }.reduce(0) { $0 + $1.seconds }
        let firstPlan = plan.pacePlan.clockSeconds(at: q)
        let lastPlan = plan.pacePlan.clockSeconds(at: race) - firstPlan
        let firstRun = line.time(at: q) - stoppedBefore
        let lastRun = line.time(at: race) - line.time(at: q) - stoppedAfter
        guard firstPlan > 0, lastPlan > 0, firstRun > 0, lastRun > 0 else { return 0 }
        return ((lastRun / lastPlan) / (firstRun / firstPlan) - 1) * 100
    }

    /// The findings, in the order a coach tells them.
    static func findings(_ r: RaceReview, line: ReviewTimeline) -> [ReviewFinding] {
        let race = r.plan.setup.distanceMeters
        let cool = r.plan.setup.targetSeconds
        var out: [ReviewFinding] = [
            .finish(
                actualSeconds: r.actualSeconds, targetSeconds: r.targetSeconds,
                coolTargetSeconds: r.targetSeconds.rounded() != cool.rounded() ? cool : nil,
                cause: r.plan.heat?.cause ?? "heat")
        ]
        if let c = r.conditions { out.append(.conditions(c)) }
        let half = line.time(at: race / 2)
        out.append(.halfway(gapSeconds: half - r.plan.pacePlan.clockSeconds(at: race / 2)))
        if let m = r.brokeAtMeters {
            let stopped = r.stops.filter { $0.atMeters >= m }.reduce(0) { $0 + $1.seconds }
            let run = r.actualSeconds - line.time(at: m) - stopped
            // The plan's clock as its table says it: rounded once to the whole second.
            let plan = r.plan.pacePlan.clockSeconds(at: race).rounded() - r.plan.pacePlan.clockSeconds(at: m).rounded()
            out.append(.broke(atMeters: m, lostSeconds: run - plan, percent: (run / plan - 1) * 100))
        } else {
            out.append(.held(splitSharePercent: breakSplitShare * 100))
        }
        out.append(.fade(percent: r.fadePercent))
        if let longest = r.stops.max(by: { $0.seconds < $1.seconds }) {
            out.append(
                .stops(
                    count: r.stops.count, seconds: r.stops.reduce(0) { $0 + $1.seconds },
                    longestSeconds: longest.seconds, longestAtMeters: longest.atMeters))
        }
        let gels = r.cues.filter { $0.kind == .gel || $0.kind == .caffeine }
            .map { $0.actualClockSeconds - $0.plannedClockSeconds }
        if let lo = gels.min(), let hi = gels.max() {
            out.append(.fuel(gels: gels.count, earliestSeconds: lo, latestSeconds: hi))
        }
        if let a = line.averageHeartRate(from: 0, to: half),
            let b = line.averageHeartRate(from: half, to: r.actualSeconds)
        {
            out.append(.heartRate(firstHalf: a, secondHalf: b))
        }
        return out
    }
}
