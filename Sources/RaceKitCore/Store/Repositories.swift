import Foundation

/// The athletes of a store. Every method throws `StoreError`.
public protocol AthleteRepository: Sendable {
    /// All athletes, by id.
    func athletes() throws -> [Athlete]
    func athlete(id: String) throws -> Athlete?
    /// Adds an athlete; `StoreError.athleteExists` when the id is taken.
    func addAthlete(_ athlete: Athlete) throws
    /// Replaces an athlete's profile; `StoreError.unknownAthlete` when there is none.
    func updateAthlete(_ athlete: Athlete) throws
    /// What the athlete's running history says (for estimates): the highest
    /// maximum HR and the fastest effort per distance of their running runs.
    func history(athleteID: String) throws -> Physiology.History
}

extension AthleteRepository {
    /// The athlete's physiology, with unset values estimated from the history.
    public func physiology(athleteID: String) throws -> Physiology {
        guard let athlete = try athlete(id: athleteID) else { throw StoreError.unknownAthlete(athleteID) }
        return athlete.physiology.completed(with: try history(athleteID: athleteID))
    }
}

/// The runs of a store, their samples and analysis details. Every method
/// throws `StoreError`.
public protocol RunRepository: Sendable {
    /// Stores the activities of one file in a single transaction, all or
    /// nothing: for each, the store fetches the candidates `DuplicatePolicy`
    /// needs and applies its decision in that transaction.
    /// `StoreError.unknownAthlete` when there is no such athlete.
    func insert(
        _ runs: [NewRun], athleteID: String, sourceFile: String, format: SourceFormat,
        sha256: String, allowDuplicates: Bool, importedAt: Double
    ) throws -> [InsertOutcome]

    /// Stored runs in the filter's order (oldest first by default), filtered, sorted
    /// and limited by the store.
    func runs(matching filter: RunFilter) throws -> [RunRecord]
    /// Number of stored runs (of one athlete when given).
    func runCount(athleteID: String?) throws -> Int
    /// A stored run.
    func run(id: String) throws -> RunRecord?
    /// Up to five runs whose id starts with `prefix`, any case (a unique prefix names a run).
    func runs(idPrefix prefix: String) throws -> [RunRecord]
    /// Runs analysed by an older version or with another physiology than the
    /// athlete's current one (`Physiology.profileKey`; all of them with
    /// `force`), oldest first.
    func staleRuns(athleteID: String, currentProfile: String, force: Bool) throws -> [RunRecord]

    /// The samples of a run, nil when none are stored.
    func samples(runID: String) throws -> SampleSeries?
    /// The cleaned activity of a stored run, for analysis.
    func activity(of run: RunRecord) throws -> Activity
    /// A run's time in zones.
    func zones(runID: String) throws -> [ZoneTime]
    /// A run's best efforts, shortest distance first.
    func bestEfforts(runID: String) throws -> [BestEffort]
    /// Time in zones of all of an athlete's runs, by run id.
    func zonesByRun(athleteID: String) throws -> [String: [ZoneTime]]
    /// Best efforts of all of an athlete's runs, by run id.
    func bestEffortsByRun(athleteID: String) throws -> [String: [BestEffort]]
    /// The fastest effort per standard distance (or the `limit` fastest over
    /// `distance`), over running runs (of `athleteID` and started at `since` or
    /// later, when given).
    func personalRecords(athleteID: String?, distance: Double?, limit: Int, since: Double?) throws
        -> [PersonalRecord]

    /// Stores a new analysis of an existing run (and its sport, when inferred anew).
    func saveAnalysis(runID: String, _ analysis: RunAnalysis, sport: Sport?) throws
    /// Stores new zones and load for a run whose physiology changed (the rest of
    /// its analysis stands).
    func savePhysiologyResults(
        runID: String, model: ZoneModel?, zones: [ZoneTime]?, load: TrainingLoad?, physiology: Physiology
    ) throws
    /// Applies an edit and returns the updated run; `StoreError.unknownRun` when there is none.
    func edit(runID: String, _ edit: RunEdit) throws -> RunRecord
    /// Deletes a run with its samples, zones and best efforts (its race links
    /// stay, without a run); `StoreError.unknownRun` when there is none.
    func delete(runID: String) throws
}

extension RunRepository {
    /// `insert` at the current time.
    public func insert(
        _ runs: [NewRun], athleteID: String, sourceFile: String, format: SourceFormat,
        sha256: String, allowDuplicates: Bool
    ) throws -> [InsertOutcome] {
        try insert(
            runs, athleteID: athleteID, sourceFile: sourceFile, format: format, sha256: sha256,
            allowDuplicates: allowDuplicates, importedAt: Date().timeIntervalSince1970)
    }

    /// Every stored run, oldest first.
    public func runs() throws -> [RunRecord] { try runs(matching: RunFilter()) }

    /// Number of stored runs.
    public func runCount() throws -> Int { try runCount(athleteID: nil) }

    /// The samples of a stored run (for recomputing zones and load).
    public func samples(of run: RunRecord) throws -> SampleSeries {
        guard let s = try samples(runID: run.id) else {
            throw StoreError.corruptSamples(runID: run.id, reason: "no samples stored")
        }
        return s
    }

    /// Stores a new analysis of an existing run, keeping its sport.
    public func saveAnalysis(runID: String, _ analysis: RunAnalysis) throws {
        try saveAnalysis(runID: runID, analysis, sport: nil)
    }

    /// The ten fastest efforts over `distance`, or the fastest per standard
    /// distance when it is nil.
    public func personalRecords(athleteID: String?, distance: Double?, limit: Int = 10) throws -> [PersonalRecord] {
        try personalRecords(athleteID: athleteID, distance: distance, limit: limit, since: nil)
    }

    /// The athlete's record of a mile or more with the best VDOT: the
    /// performance predictions and target suggestions start from.
    /// `since` (epoch seconds): only runs started then or later.
    public func bestPerformance(athleteID: String, since: Double? = nil) throws -> PersonalRecord? {
        let records = try personalRecords(athleteID: athleteID, distance: nil, limit: 10, since: since)
            .filter { $0.distanceMeters >= RacePredictor.shortestFittedMeters - 0.5 }
        return records.max(by: {
            RacePredictor.vdot(meters: $0.distanceMeters, seconds: $0.elapsedSeconds)
                < RacePredictor.vdot(meters: $1.distanceMeters, seconds: $1.elapsedSeconds)
        })
    }
}

/// The links from race setup files to their runs (`race review`). Every method
/// throws `StoreError`.
public protocol RaceLinkRepository: Sendable {
    /// The link of a setup file (`RaceLink.key(setupFile:)`), if it was ever
    /// reviewed; else a link made before links were per file for its slug.
    func raceLink(setupKey: String, slug: String) throws -> RaceLink?
    /// Stores (or replaces) a setup file's link; a link of its slug made before
    /// links were per file is replaced by it.
    func saveRaceLink(_ link: RaceLink) throws
    /// Forgets a setup file's link (or the legacy link of its slug); false when there was none.
    func unlinkRace(setupKey: String, slug: String) throws -> Bool
    /// The links whose review Markdown is `path` (absolute), by setup key.
    func raceLinks(reviewPath path: String) throws -> [RaceLink]
    /// Stores a link's review path (nil: its review was overwritten by another setup's).
    func setReviewPath(_ path: String?, setupKey: String) throws
    /// The races a run is linked to, by slug then setup key.
    func raceLinks(runID: String) throws -> [RaceLink]
    /// Every linked race of an athlete's runs, by run id (the first by slug when several).
    func raceLinksByRun(athleteID: String) throws -> [String: RaceLink]
}

/// A whole store: what a command opens (`StoreLocation.open(access:)` in
/// RaceKitStore). A backend is one type conforming to this; the SQLite file
/// is `SQLiteStore`.
public protocol Store: AthleteRepository, RunRepository, RaceLinkRepository {
    /// True when opening created the store (a `.create` open of a missing one).
    var created: Bool { get }
    /// How the store was opened: one opened to `.read` refuses every change.
    var access: StoreAccess { get }
    /// Checks the whole store: the backend's own integrity check, then every
    /// run's samples decode and hold as many points as the run says. Returns
    /// the number of runs and the problems found.
    func verify() throws -> (runs: Int, problems: [String])
}
