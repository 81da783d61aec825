import RaceKitMetrics
import RaceKitModel

/// What the duplicate rule looks at in an activity offered to the store.
public struct DuplicateKeys: Sendable, Equatable {
    /// The source document's digest (`RunRecord.sourceSHA256`) and the
    /// activity's position in it: the same pair is the same bytes imported again.
    public var sha256: String
    public var activityIndex: Int
    /// Seconds since the epoch.
    public var startedAt: Double
    public var endedAt: Double
    public var distanceMeters: Double?
    public var sport: Sport
    /// The file named the sport (not inferred).
    public var sportDeclared: Bool
    public var hasHeartRate: Bool
    public var hasCadence: Bool
    public var hasElevation: Bool
    /// No positions (a treadmill, an indoor recording).
    public var isIndoor: Bool
    public var pointCount: Int
    /// Power figures, and the device's own timer (a watch's file over an export of its track).
    public var hasPower = false
    public var hasDeviceTimer = false

    public init(
        sha256: String, activityIndex: Int, startedAt: Double, endedAt: Double, distanceMeters: Double?,
        sport: Sport = .running, sportDeclared: Bool = true, hasHeartRate: Bool = false, hasCadence: Bool = false,
        hasElevation: Bool = false, isIndoor: Bool = false, pointCount: Int = 0
    ) {
        self.sha256 = sha256; self.activityIndex = activityIndex; self.startedAt = startedAt
        self.endedAt = endedAt; self.distanceMeters = distanceMeters; self.sport = sport
        self.sportDeclared = sportDeclared; self.hasHeartRate = hasHeartRate; self.hasCadence = hasCadence
        self.hasElevation = hasElevation; self.isIndoor = isIndoor; self.pointCount = pointCount
    }

    /// The keys of `run`, from a document whose digest is `sha256`.
    public init(_ run: NewRun, sha256: String) {
        let s = run.summary
        self.init(
            sha256: sha256, activityIndex: run.activityIndex, startedAt: s.startedAt, endedAt: s.endedAt,
            distanceMeters: s.distanceMeters, sport: run.activity.sport, sportDeclared: run.activity.sportDeclared,
            hasHeartRate: s.avgHeartRate != nil, hasCadence: s.avgCadence != nil, hasElevation: s.ascentMeters != nil,
            isIndoor: run.activity.isIndoor, pointCount: s.pointCount)
        hasPower = run.analysis.metrics[Metric.AvgPower.self] != nil
        hasDeviceTimer = run.analysis.metrics[Metric.TimerSeconds.self] != nil
    }
}

/// What the store does with an activity offered to it.
public enum DuplicateDecision: Sendable, Equatable {
    /// A new activity: store it.
    case insert
    /// Already stored as `runID`: the same bytes, or the same activity from
    /// another file or device, no richer than the stored copy; with its clock
    /// shifted by `clockShiftSeconds` (`ShiftedCopy`) when not nil.
    case duplicate(runID: String, sameBytes: Bool, clockShiftSeconds: Double? = nil)
    /// The same activity, richer than `stored`: replace its source, samples and
    /// analysis, keeping its id and what the user set on it.
    case replace(stored: RunRecord)
}

/// Which stored run an incoming activity duplicates, and what to do about it.
/// Pure: every backend fetches the candidates (`candidateWindow`) inside its
/// write transaction, calls `decide`, and applies the decision in the same
/// transaction.
public enum DuplicatePolicy {
    /// Same athlete, start within this many seconds and distance within
    /// `distanceRatio`: the same activity exported twice.
    public static let startToleranceSeconds = 60.0
    public static let distanceRatio = 0.02
    /// A duplicate this many times the stored run's points, with the same
    /// channels, is richer (a 1 s recording of what was stored as smart recording).
    public static let richerPointRatio = 1.5

    /// The start times (inclusive, seconds since the epoch) of the stored runs
    /// that may be the same activity as one starting at `startedAt` (a pair,
    /// not a range: a range traps on a NaN start).
    public static func candidateWindow(startedAt: Double) -> (earliest: Double, latest: Double) {
        (startedAt - startToleranceSeconds, startedAt + startToleranceSeconds)
    }

    /// The decision for `incoming` among `candidates`: the athlete's stored runs
    /// with the same digest and activity index, and those that started in
    /// `candidateWindow` (in any order; a run in both may come twice).
    /// - The same bytes are a duplicate, even with `allowDuplicates`.
    /// - Otherwise, unless `allowDuplicates`, the candidate nearest in start time
    ///   that is the same activity (`isSameActivity`) is replaced when the
    ///   incoming copy is richer (`isRicher`), else it is a duplicate.
    /// - Anything else is inserted.
    public static func decide(
        _ incoming: DuplicateKeys, candidates: [RunRecord], allowDuplicates: Bool
    ) -> DuplicateDecision {
        if let same = candidates.first(where: {
            $0.sourceSHA256 == incoming.sha256 && $0.activityIndex == incoming.activityIndex
        }) {
            return .duplicate(runID: same.id, sameBytes: true)
        }
        if allowDuplicates { return .insert }
        let window = candidateWindow(startedAt: incoming.startedAt)
        let nearestFirst = candidates.enumerated()
            .filter { $0.element.startedAt >= window.earliest && $0.element.startedAt <= window.latest }
            .sorted {
                (abs($0.element.startedAt - incoming.startedAt), $0.offset)
                    < (abs($1.element.startedAt - incoming.startedAt), $1.offset)
            }
            .map(\.element)
        guard let stored = nearestFirst.first(where: { isSameActivity(incoming, $0) }) else { return .insert }
        return isRicher(incoming, than: stored)
            ? .replace(stored: stored) : .duplicate(runID: stored.id, sameBytes: false)
    }

    /// `decide`, then, for an activity it would insert, the shifted copies:
    /// `shifted` gives the stored runs started within `ShiftedCopy.window` whose
    /// elapsed time is within its tolerance, with their samples, and the
    /// incoming samples (asked only then). A shifted copy is a duplicate, said
    /// with its shift; the stored run stays (which clock is right is not known).
    public static func decide(
        _ incoming: DuplicateKeys, candidates: [RunRecord], allowDuplicates: Bool,
        shifted: () throws -> (candidates: [(RunRecord, SampleSeries)], samples: SampleSeries)
    ) rethrows -> DuplicateDecision {
        let decision = decide(incoming, candidates: candidates, allowDuplicates: allowDuplicates)
        guard decision == .insert, !allowDuplicates else { return decision }
        let (stored, samples) = try shifted()
        guard let copy = ShiftedCopy.find(incoming, samples: samples, among: stored) else { return .insert }
        return .duplicate(runID: copy.run.id, sameBytes: false, clockShiftSeconds: copy.shiftSeconds)
    }

    /// Whether `stored`, which started within the window, is the same activity:
    /// it ended within `startToleranceSeconds` too (whatever the distances say: a
    /// watch's device distance and a GPS track's differ by a few percent), both
    /// lack a distance, the distances are within `distanceRatio`, or one is a
    /// cut-off copy of the other (it ends first and covers no more distance).
    public static func isSameActivity(_ incoming: DuplicateKeys, _ stored: RunRecord) -> Bool {
        if abs(stored.endedAt - incoming.endedAt) <= startToleranceSeconds { return true }
        switch (incoming.distanceMeters, stored.distanceMeters) {
        case (nil, nil):
            return true
        case (let a?, let b?):
            let reference = max(a, b)
            if reference == 0 || abs(a - b) <= distanceRatio * reference { return true }
            // A cut-off copy (a watch that died mid-run, a truncated file): it
            // ends first and covers less distance than the whole one.
            let (shortEnd, longEnd) = (min(stored.endedAt, incoming.endedAt), max(stored.endedAt, incoming.endedAt))
            let (shortDistance, longDistance) = stored.endedAt < incoming.endedAt ? (b, a) : (a, b)
            return shortEnd < longEnd && shortDistance <= longDistance * (1 + distanceRatio)
        default:
            return false
        }
    }

    /// Whether a duplicate should replace the stored copy: it brings a channel the
    /// stored run lacks (heart rate, cadence, elevation, positions, power, the
    /// device's timer) and loses none
    /// of the stored ones, or it has the same channels and `richerPointRatio` times
    /// the points.
    public static func isRicher(_ incoming: DuplicateKeys, than stored: RunRecord) -> Bool {
        // Two files that declare different sports for one activity (a triathlon's
        // swim from the watch, "Workout" from another app): the stored one stays.
        if incoming.sportDeclared, stored.sportDeclared, incoming.sport != stored.sport { return false }
        let new = [
            incoming.hasHeartRate, incoming.hasCadence, incoming.hasElevation, !incoming.isIndoor, incoming.hasPower,
            incoming.hasDeviceTimer
        ]
        let old = [
            stored.avgHeartRate != nil, stored.avgCadence != nil, stored.ascentMeters != nil,
            stored.runType != .treadmill, stored.metrics[Metric.AvgPower.self] != nil,
            stored.metrics[Metric.TimerSeconds.self] != nil
        ]
        if zip(new, old).contains(where: { !$0 && $1 }) { return false }
        if zip(new, old).contains(where: { $0 && !$1 }) { return true }
        return Double(incoming.pointCount) >= richerPointRatio * Double(stored.pointCount)
    }
}
