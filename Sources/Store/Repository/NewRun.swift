import RaceKitMetrics
import RaceKitModel

/// One activity ready to be stored, with its analysis and its encoded samples
/// (encoded before the write transaction, so the store's lock is held briefly).
public struct NewRun: Sendable {
    /// The activity without its samples: they live on, packed, in `encodedSamples`
    /// (holding both would double a large run's memory while it waits for the store).
    public var activity: Activity
    /// The analysis's figures (its series released, see `RunAnalysis.dropSeries`).
    public var analysis: RunAnalysis
    public var activityIndex: Int
    /// A label and notes the source gave (Strava's activities.csv), nil otherwise.
    public var label: String?
    public var notes: String?
    /// `SampleCodec.encode(activity.samples)`.
    public var encodedSamples: [UInt8]
    public var summary: RunSummary { analysis.summary }
    public init(activity: Activity, analysis: RunAnalysis, activityIndex: Int, encodedSamples: [UInt8]? = nil) {
        self.activity = activity; self.analysis = analysis; self.activityIndex = activityIndex
        self.encodedSamples = encodedSamples ?? SampleCodec.encode(activity.samples)
        self.activity.samples = SampleSeries()
        self.analysis.dropSeries()
    }
}

/// What happened to one activity offered to the store.
public enum InsertOutcome: Sendable, Equatable {
    case inserted(runID: String)
    /// Already stored: the same bytes, or the same activity in another file
    /// (its clock shifted by `clockShiftSeconds`, `ShiftedCopy`, when not nil).
    case duplicate(existingRunID: String, sameBytes: Bool, clockShiftSeconds: Double? = nil)
    /// The same activity, richer than the stored copy: its samples and summary
    /// replaced the stored ones, keeping the run's id and what the user set.
    case upgraded(runID: String)
}
