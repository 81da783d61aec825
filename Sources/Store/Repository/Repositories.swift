import Foundation
import RaceKitMetrics
import RaceKitModel

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
    /// The metrics this store's run table holds (the standard list unless the
    /// store was opened with more).
    var registry: MetricRegistry { get }
    /// Stores the activities of one file in a single transaction, all or
    /// nothing: for each, the store fetches the candidates `DuplicatePolicy`
    /// needs and applies its decision in that transaction.
    /// `StoreError.unknownAthlete` when there is no such athlete.
    func insert(
        _ runs: [NewRun], athleteID: String, sourceFile: String, format: SourceFormat,
        sha256: String, allowDuplicates: Bool, importedAt: Double
    ) throws -> [InsertOutcome]
    /// Stores several files' activities in one transaction, each file in its own
    /// savepoint: a file that fails stores nothing of itself and the others go
    /// on (its result is the error). Throws when the transaction itself fails
    /// (then nothing of any file is stored). A store without savepoints gives
    /// each file its own transaction (the default).
    func insert(files: [FileInsert], importedAt: Double) throws -> [Result<[InsertOutcome], any Error>]

    /// Stored runs in the filter's order (oldest first by default), filtered, sorted
    /// and limited by the store.
    func runs(matching filter: RunFilter) throws -> [RunRecord]
    /// Number of stored runs (of one athlete when given).
    func runCount(athleteID: String?) throws -> Int
    /// The ids of an athlete's runs (only the ids: an import checks its stamps' runs against them).
    func runIDs(athleteID: String) throws -> Set<String>
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
    /// The stored samples of several runs, by run id, in one read (a run
    /// without samples is not in it): a recompute after an import read each
    /// run's apart, 3,000 round trips to a server for 3,000 runs.
    func storedSamples(runIDs: [String]) throws -> [String: StoreValue]
    /// The cleaned activity of a stored run, for analysis.
    func activity(of run: RunRecord) throws -> Activity
    /// A run's time in zones.
    func zones(runID: String) throws -> [ZoneTime]
    /// A run's best efforts, shortest distance first.
    func bestEfforts(runID: String) throws -> [BestEffort]
    /// Time in zones of an athlete's runs started at `since` (epoch seconds) or
    /// later and at `until` or earlier (either unbounded when nil), by run id.
    func zonesByRun(athleteID: String, since: Double?, until: Double?) throws -> [String: [ZoneTime]]
    /// Best efforts of an athlete's runs started at `since` or later and at
    /// `until` or earlier (either unbounded when nil), by run id.
    func bestEffortsByRun(athleteID: String, since: Double?, until: Double?) throws -> [String: [BestEffort]]
    /// The fastest effort per distance (metres to seconds) over an athlete's
    /// running runs started before `before` (epoch seconds): one row a distance,
    /// however long the history (the weekly report's earlier records; the
    /// estimates' history with `before` infinite).
    func fastestEfforts(athleteID: String, before: Double) throws -> [Double: Double]
    /// The fastest effort per standard distance (or the `limit` fastest over
    /// `distance`), over running runs (of `athleteID` and started at `since` or
    /// later, when given).
    func personalRecords(athleteID: String?, distance: Double?, limit: Int, since: Double?) throws
        -> [PersonalRecord]

    /// Stores a new analysis of an existing run (and its sport, when inferred anew).
    func saveAnalysis(runID: String, _ analysis: RunAnalysis, sport: Sport?) throws
    /// Stores new zones and load for runs whose physiology changed (the rest of
    /// their analyses stands), all in one transaction.
    func savePhysiologyResults(_ results: [PhysiologyResults]) throws
    /// Sets the values of `metrics` (registry metrics) on runs, all in one
    /// transaction: `values[i]` holds one value per metric, nil for unknown.
    /// A run deleted meanwhile is left out.
    func saveMetrics(_ metrics: [any RunMetric.Type], _ values: [(runID: String, values: [Double?])]) throws
    /// Applies an edit and returns the updated run; `StoreError.unknownRun` when there is none.
    func edit(runID: String, _ edit: RunEdit) throws -> RunRecord
    /// Deletes a run with its samples, zones and best efforts (its race links
    /// stay, without a run); `StoreError.unknownRun` when there is none.
    func delete(runID: String) throws
}

/// One file's activities to store (`RunRepository.insert(files:importedAt:)`).
public struct FileInsert: Sendable {
    public var runs: [NewRun]
    public var athleteID: String
    public var sourceFile: String
    public var format: SourceFormat
    public var sha256: String
    public var allowDuplicates: Bool

    public init(
        runs: [NewRun], athleteID: String, sourceFile: String, format: SourceFormat, sha256: String,
        allowDuplicates: Bool
    ) {
        self.runs = runs; self.athleteID = athleteID; self.sourceFile = sourceFile; self.format = format
        self.sha256 = sha256; self.allowDuplicates = allowDuplicates
    }
}

/// A run's zones and load under a new physiology (`Recompute`).
public struct PhysiologyResults: Sendable {
    public var runID: String
    public var model: ZoneModel?
    public var zones: [ZoneTime]?
    public var load: TrainingLoad?
    public var physiology: Physiology

    public init(runID: String, model: ZoneModel?, zones: [ZoneTime]?, load: TrainingLoad?, physiology: Physiology) {
        self.runID = runID; self.model = model; self.zones = zones; self.load = load; self.physiology = physiology
    }
}

extension RunRepository {
    /// Each file in its own transaction.
    public func insert(files: [FileInsert], importedAt: Double) throws -> [Result<[InsertOutcome], any Error>] {
        files.map { f in
            Result {
                try insert(
                    f.runs, athleteID: f.athleteID, sourceFile: f.sourceFile, format: f.format, sha256: f.sha256,
                    allowDuplicates: f.allowDuplicates, importedAt: importedAt)
            }
        }
    }

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
    /// Every link of the store (`store copy`, the content digest).
    func allRaceLinks() throws -> [RaceLink]
}

/// An athlete's daily measurements (`DailyMeasurement`): sleep, HRV, resting
/// heart rate, body mass. The SQL is `DailyMeasurement.SQL`'s, the same in both backends.
public protocol DailyRepository: Sendable {
    /// Stores the measurements not stored yet (same athlete, kind, source, start
    /// and end), in one transaction; returns how many were new.
    /// With `replacing`, one stored already takes the new value (a correction);
    /// returns how many were stored.
    @discardableResult
    func addMeasurements(_ measurements: [DailyMeasurement], replacing: Bool) throws -> Int
    /// The start of the athlete's newest measurement; nil without any.
    func newestMeasurementStart(athleteID: String) throws -> Double?
    /// The sources of an athlete's measurements, with their record counts.
    func measurementSources(athleteID: String) throws -> [String: Int]
    /// Deletes these measurements (by key), in one transaction; returns how many were stored.
    @discardableResult
    func removeMeasurements(_ measurements: [DailyMeasurement]) throws -> Int
    /// An athlete's measurements (of one kind when given) starting in
    /// `from...until` (either end open when nil), by start, kind and source.
    func measurements(athleteID: String, kind: String?, from: Double?, until: Double?) throws -> [DailyMeasurement]
}

/// What imports saw of the plain files they finished with (`FileStamp`): a
/// later import skips a file whose path, size, modification time and inode
/// are the same. Not data: no copy, no digest.
public protocol StampRepository: Sendable {
    /// The athlete's stamps.
    func stamps(athleteID: String) throws -> [FileStamp]
    /// Stores the stamps (each replacing the same athlete and path's), in one transaction.
    func recordStamps(_ stamps: [FileStamp]) throws
}

/// A whole store: what a command opens (`StoreLocation.open(access:)` in
/// RaceKitStoreOpener). A backend is one type conforming to this; the SQLite file
/// is `SQLiteStore`.
public protocol Store: AthleteRepository, RunRepository, RaceLinkRepository, DailyRepository, StampRepository {
    /// True when opening created the store (a `.create` open of a missing one).
    var created: Bool { get }
    /// How the store was opened: one opened to `.read` refuses every change.
    var access: StoreAccess { get }
    /// Checks the whole store: the backend's own integrity check, then every
    /// run's samples decode and hold as many points as the run says. Returns
    /// the number of runs and the problems found.
    func verify() throws -> (runs: Int, problems: [String])

    /// Up to `limit` runs exactly as stored (`StoredRun`), in the store's own
    /// order of ids, those after `id` (the last of the previous page; nil for
    /// the first page): a whole store is read a page at a time, never all its
    /// samples at once.
    func exportRuns(after id: String?, limit: Int) throws -> [StoredRun]
    /// Copies every athlete, run (`exportRuns`, `pageSize` runs at a time) and
    /// race link of `source` into this store, ids and bytes unchanged, in one
    /// transaction: all or nothing. The store must be empty (no run, no race
    /// link, no athlete but the default one, whose profile the source's
    /// replaces): else `StoreError.notEmpty`, checked in that transaction.
    /// Returns the number of runs copied.
    func importContents(of source: any Store, pageSize: Int) throws -> Int
}

/// One run as a store holds it, for moving it to another store unchanged:
/// every column, the packed samples and segment starts as stored (not
/// decoded), its zones (by zone) and best efforts (by distance).
public struct StoredRun: Sendable, Equatable {
    public var record: RunRecord
    /// The samples blob (`SampleCodec`) as stored; nil when the run has none.
    public var samples: [UInt8]?
    /// The segment starts as stored (JSON text); nil when the run has no samples.
    public var segments: String?
    public var zones: [ZoneTime]
    public var bestEfforts: [BestEffort]

    public init(
        record: RunRecord, samples: [UInt8]?, segments: String?, zones: [ZoneTime], bestEfforts: [BestEffort]
    ) {
        self.record = record; self.samples = samples; self.segments = segments
        self.zones = zones; self.bestEfforts = bestEfforts
    }
}

extension Store {
    /// Calls `body` with every run exactly as stored, `pageSize` runs at a time
    /// (`exportRuns`: one page's samples in memory at once); returns how many.
    @discardableResult
    public func forEachRunPage(pageSize: Int, _ body: ([StoredRun]) throws -> Void) throws -> Int {
        var after: String?
        var count = 0
        while true {
            let page = try exportRuns(after: after, limit: pageSize)
            guard let last = page.last else { return count }
            try body(page)
            count += page.count
            after = last.record.id
        }
    }

    /// True when the store holds nothing a copy would overwrite: no run, no
    /// race link, no athlete but the default one.
    public func isEmpty() throws -> Bool {
        try runCount() == 0 && allRaceLinks().isEmpty && athletes().allSatisfy { $0.id == Athlete.defaultID }
            && allMeasurements().isEmpty
    }
}

extension DailyRepository {
    /// Stores the measurements not stored yet; returns how many were new.
    @discardableResult
    public func addMeasurements(_ measurements: [DailyMeasurement]) throws -> Int {
        try addMeasurements(measurements, replacing: false)
    }
}

extension DailyRepository where Self: AthleteRepository {
    /// Every athlete's measurements (a copy, the digest).
    public func allMeasurements() throws -> [DailyMeasurement] {
        try athletes().flatMap { try measurements(athleteID: $0.id, kind: nil, from: nil, until: nil) }
    }
}

extension Dictionary where Key == Double, Value == Double {
    /// Fastest efforts (`fastestEfforts`) as (metres, seconds), shortest distance first.
    public var byDistance: [(meters: Double, seconds: Double)] {
        sorted { $0.key < $1.key }.map { (meters: $0.key, seconds: $0.value) }
    }
}

extension SampleCodec {
    /// A run's samples as stored (`blob`: its `data` column; nil when it has
    /// none), or the store error saying what is wrong with them.
    public static func decode(stored blob: StoreValue?, runID: String) throws -> SampleSeries? {
        guard let blob, blob != .null else { return nil }
        guard case .blob(let bytes) = blob else {
            throw StoreError.corruptSamples(runID: runID, reason: "the samples are not stored as bytes")
        }
        do { return try decode(bytes) } catch {
            throw StoreError.corruptSamples(runID: runID, reason: "\(error)")
        }
    }
}
