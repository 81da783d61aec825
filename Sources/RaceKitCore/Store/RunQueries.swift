/// Filters for `RunRepository.runs(matching:)`; the store filters, sorts and limits.
public struct RunFilter: Sendable {
    public var athleteID: String?
    public var sport: Sport?
    /// Seconds since the epoch, inclusive.
    public var since: Double?
    public var until: Double?
    public var limit: Int?
    public var newestFirst = false
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
