import RaceKitMetrics
import RaceKitModel

/// What `RunRepository.runs(matching:)` orders by, each key in its own
/// direction; runs that tie stay in start order (oldest first, then by id).
public enum RunOrder: Sendable, CaseIterable {
    /// Oldest first.
    case startedAt
    /// Longest first; runs without a distance last.
    case distance
    /// Longest elapsed time first.
    case elapsedTime
    /// Fastest first: moving time (elapsed when unknown) per km; runs without a pace last.
    case pace
    /// Highest load first; runs without a load last.
    case load
}

/// Filters for `RunRepository.runs(matching:)`; the store filters, sorts and limits.
public struct RunFilter: Sendable {
    public var athleteID: String?
    public var sport: Sport?
    /// Seconds since the epoch, inclusive.
    public var since: Double?
    public var until: Double?
    /// Only runs with a value of each of these metrics (a column not null).
    public var having: [any RunMetric.Type] = []
    /// At most this many runs, the first ones in the order.
    public var limit: Int?
    public var order = RunOrder.startedAt
    /// The whole order reversed, ties included (`.startedAt` reversed: newest first).
    public var reversed = false
    public init() {}
}

/// What a user may change on a run (`RunRepository.edit`): nil leaves a field
/// as it is, `.some(nil)` clears an optional one.
public struct RunEdit: Sendable {
    public var label: String??
    public var mode: RunMode?
    public var runType: RunType?
    public var perceivedEffort: Int??
    public var notes: String??
    /// A sport set by the user: stored as declared (never inferred again).
    public var sport: Sport?
    public init() {}
}

/// A personal record: the fastest effort over one distance and its run.
public struct PersonalRecord: Sendable {
    public var distanceMeters: Double
    public var elapsedSeconds: Double
    public var startOffsetSeconds: Double
    public var run: RunRecord

    public init(distanceMeters: Double, elapsedSeconds: Double, startOffsetSeconds: Double, run: RunRecord) {
        self.distanceMeters = distanceMeters; self.elapsedSeconds = elapsedSeconds
        self.startOffsetSeconds = startOffsetSeconds; self.run = run
    }
}
