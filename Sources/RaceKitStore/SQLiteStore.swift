import Foundation
import GRDB
internal import GRDBSQLite
import RaceKitCore

/// The name the SQLite store had before the store seam (tests use it).
public typealias RunStore = SQLiteStore

/// The embedded SQLite store (GRDB, WAL): the `Store` of a `.sqlite` location.
/// Every file's runs go in one transaction.
public final class SQLiteStore: Store {
    /// Version of the stored analysis; `runs recompute` redoes older rows.
    public static var analysisVersion: Int { RunAnalyzer.version }
    /// The names callers used before the store seam (`RunStore.RunFilter()`);
    /// new code uses RaceKitCore's `RunFilter`, `RunEdit`, `PersonalRecord`.
    public typealias RunFilter = RaceKitCore.RunFilter
    public typealias RunEdit = RaceKitCore.RunEdit
    public typealias Record = PersonalRecord

    let writer: any DatabaseWriter
    /// True when opening created the store file (a `.create` open of a missing store).
    public let created: Bool
    /// How the store was opened; `write` refuses changes to a store opened to read.
    public let access: StoreAccess
    /// The store file's path, ":memory:" for an in-memory store.
    public let path: String
    /// The metrics of the run table (the standard list unless opened with more).
    public let registry: MetricRegistry
    /// The run table's declared columns (`RunColumns.of(registry)`).
    public let runColumns: [RunColumn]

    /// Opens the store at `path` as `access` allows (see `StoreAccess`): WAL
    /// and a busy timeout for writers, migrated to this build's schema; a store
    /// written by a newer RaceKit is refused (`StoreError.newer`).
    public init(path: String, access: StoreAccess, registry: MetricRegistry = .standard) throws {
        (writer, created) = try StoreOpener.open(path: path, access: access, registry: registry)
        (self.access, self.path) = (access, path)
        self.registry = registry
        runColumns = RunColumns.of(registry)
    }

    /// Opens the store at `path`, creating it (and its folder) when needed.
    public convenience init(path: String, registry: MetricRegistry = .standard) throws {
        try self.init(path: path, access: .create, registry: registry)
    }

    /// An in-memory store (tests).
    public init(registry: MetricRegistry = .standard) throws {
        var config = Configuration()
        config.foreignKeysEnabled = true
        writer = try DatabaseQueue(configuration: config)
        (created, access, path) = (true, .create, ":memory:")
        self.registry = registry
        runColumns = RunColumns.of(registry)
        try Migrations.migrator(registry).migrate(writer)
    }

    /// A statement prepared once per connection (GRDB's cache): an import runs
    /// the same few statements for every file, and preparing one (parsing, and
    /// GRDB's authorizer called for every column it reads) cost more than running it.
    static func cached(_ db: Database, _ sql: String) throws -> Statement {
        try db.cachedStatement(sql: sql)
    }

    static func describe(_ error: any Error) -> String {
        if let db = error as? DatabaseError { return db.message ?? "\(db.resultCode)" }
        if let d = error as? DecodingError {
            // A stored value Codable could not read: name its column.
            let context: DecodingError.Context
            switch d {
            case .dataCorrupted(let c), .typeMismatch(_, let c), .valueNotFound(_, let c), .keyNotFound(_, let c):
                context = c
            @unknown default: return "\(error)"
            }
            let field =
                context.codingPath.first.flatMap { $0.intValue == nil ? $0 : nil }.map {
                    "the stored \($0.stringValue) is"
                } ?? "a stored field is"
            return "\(field) damaged (\(context.debugDescription.prefix(120)))"
        }
        return "\(error)"
    }

    /// Runs `updates` in a write transaction. A store opened to read refuses:
    /// its connection may be a read-write one (see `StoreOpener.readQueue`),
    /// which GRDB keeps from writing only inside its `read` blocks.
    func write<T>(_ updates: (Database) throws -> T) throws -> T {
        guard access != .read else { throw StoreError.readOnly(path: path, reason: "opened to read") }
        return try writer.write(updates)
    }

    func wrap<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch { throw Self.converted(error) }
    }

    /// RaceKit's own errors (another store's, in a copy) keep their message and
    /// exit class; the database's become `StoreError.database`.
    static func converted(_ error: any Error) -> any Error {
        error is any RaceKitError ? error : StoreError.database(describe(error))
    }

    // MARK: Runs

    /// Stores the activities of one file in a single transaction: all or nothing.
    public func insert(
        _ runs: [NewRun], athleteID: String, sourceFile: String, format: SourceFormat,
        sha256: String, allowDuplicates: Bool, importedAt: Double
    )
        throws -> [InsertOutcome]
    {
        let file = FileInsert(
            runs: runs, athleteID: athleteID, sourceFile: sourceFile, format: format, sha256: sha256,
            allowDuplicates: allowDuplicates)
        return try wrap { try write { db in try insert(db, file, importedAt: importedAt) } }
    }

    /// Several files in one transaction, each in a savepoint (rolled back alone
    /// when its file fails): an import of many small files spent more in one
    /// transaction per file than in the writes themselves.
    public func insert(files: [FileInsert], importedAt: Double) throws -> [Result<[InsertOutcome], any Error>] {
        try wrap {
            try write { db in
                try files.map { file in
                    do {
                        var outcomes: [InsertOutcome] = []
                        try db.inSavepoint {
                            outcomes = try insert(db, file, importedAt: importedAt)
                            return .commit
                        }
                        return .success(outcomes)
                    } catch {
                        // Some errors (a full disk, I/O, RAISE(ROLLBACK)) roll the whole
                        // transaction back, the files before this one too: the batch fails
                        // as a whole, and the caller stores its files one by one.
                        guard db.isInsideTransaction else { throw error }
                        return .failure(Self.converted(error))
                    }
                }
            }
        }
    }

    private func insert(_ db: Database, _ file: FileInsert, importedAt: Double) throws -> [InsertOutcome] {
        let athleteID = file.athleteID, sha256 = file.sha256
        guard
            try Bool.fetchOne(
                Self.cached(db, "SELECT EXISTS (SELECT 1 FROM athlete WHERE id = ?)"), arguments: [athleteID]) == true
        else {
            throw StoreError.unknownAthlete(athleteID)
        }
        var outcomes: [InsertOutcome] = []
        for run in file.runs {
            let keys = DuplicateKeys(run, sha256: sha256)
            let candidates = try duplicateCandidates(db, keys, athleteID: athleteID)
            let decision = try DuplicatePolicy.decide(
                keys, candidates: candidates, allowDuplicates: file.allowDuplicates
            ) { try shiftedCandidates(db, keys, run, athleteID: athleteID) }
            switch decision {
            case .duplicate(let id, let sameBytes, let shift):
                outcomes.append(.duplicate(existingRunID: id, sameBytes: sameBytes, clockShiftSeconds: shift))
            case .replace(let stored):
                try upgrade(
                    db, stored, with: run, sourceFile: file.sourceFile, format: file.format, sha256: sha256,
                    importedAt: importedAt)
                outcomes.append(.upgraded(runID: stored.id))
            case .insert:
                let record = RunRecord(
                    run, athleteID: athleteID, sourceFile: file.sourceFile, format: file.format, sha256: sha256,
                    importedAt: importedAt)
                try insertRun(db, record)
                try Self.insertSamples(
                    db, runID: record.id, blob: run.encodedSamples, segments: Self.json(run.activity.segmentStarts))
                try Self.writeDetails(db, runID: record.id, analysis: run.analysis, fresh: true)
                outcomes.append(.inserted(runID: record.id))
            }
        }
        return outcomes
    }

    /// Writes a run's packed samples with the bytes bound in place
    /// (SQLITE_STATIC: `blob` outlives the statement), so SQLite copies them once,
    /// into the record; GRDB's `Data` binding would copy them twice more.
    static func insertSamples(_ db: Database, runID: String, blob: [UInt8], segments: String) throws {
        // GRDB's cached statement, bound and stepped here; left reset and unbound
        // (`blob` is not kept past this call).
        let statement = try cached(db, "INSERT INTO run_samples (run_id, segments, data) VALUES (?, ?, ?)")
            .sqliteStatement
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        var code = SQLITE_OK
        if code == SQLITE_OK { code = sqlite3_bind_text(statement, 1, runID, -1, transient) }
        if code == SQLITE_OK { code = sqlite3_bind_text(statement, 2, segments, -1, transient) }
        if code == SQLITE_OK {
            code = blob.withUnsafeBytes {
                sqlite3_bind_blob64(statement, 3, $0.baseAddress, sqlite3_uint64($0.count), nil)
            }
        }
        if code == SQLITE_OK { code = sqlite3_step(statement) }
        guard code == SQLITE_DONE else {
            let message = String(cString: sqlite3_errmsg(db.sqliteConnection))
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code), message: "writing the samples of run \(runID): \(message)")
        }
    }

    /// Replaces a stored run's source, samples and analysis with a richer copy's,
    /// keeping its id and what the user set (label, mode, run type, effort, notes,
    /// and a sport the user chose).
    private func upgrade(
        _ db: Database, _ stored: RunRecord, with run: NewRun, sourceFile: String, format: SourceFormat,
        sha256: String, importedAt: Double
    ) throws {
        var record = RunRecord(
            run, athleteID: stored.athleteID, sourceFile: sourceFile, format: format, sha256: sha256,
            importedAt: importedAt)
        record.keepWhatTheUserSet(on: stored)
        try updateRun(db, record)
        try SamplesRecord.deleteOne(db, key: stored.id)
        try Self.insertSamples(
            db, runID: stored.id, blob: run.encodedSamples, segments: Self.json(run.activity.segmentStarts))
        try Self.writeDetails(db, runID: stored.id, analysis: run.analysis)
    }

    /// What `DuplicatePolicy.decide` chooses from: the athlete's run stored from
    /// the same bytes, then those started in the policy's window, nearest first.
    private func duplicateCandidates(_ db: Database, _ keys: DuplicateKeys, athleteID: String) throws -> [RunRecord] {
        let window = DuplicatePolicy.candidateWindow(startedAt: keys.startedAt)
        let sameBytes = try fetchRuns(
            db, runSelect("WHERE athlete_id = ? AND source_sha256 = ? AND activity_index = ?"),
            [athleteID, keys.sha256, keys.activityIndex])
        let nearby = try fetchRuns(
            db, runSelect("WHERE athlete_id = ? AND started_at BETWEEN ? AND ? ORDER BY abs(started_at - ?)"),
            [athleteID, window.earliest, window.latest, keys.startedAt])
        return sameBytes + nearby
    }

    /// What `ShiftedCopy` compares: the athlete's runs started within its
    /// window whose elapsed time is within its tolerance, with their samples,
    /// and the incoming run's samples.
    private func shiftedCandidates(_ db: Database, _ keys: DuplicateKeys, _ run: NewRun, athleteID: String) throws
        -> (candidates: [(RunRecord, SampleSeries)], samples: SampleSeries)
    {
        let window = ShiftedCopy.window(startedAt: keys.startedAt)
        let runs = try fetchRuns(
            db,
            runSelect("WHERE athlete_id = ? AND started_at BETWEEN ? AND ? AND abs((ended_at - started_at) - ?) <= ?"),
            [
                athleteID, window.earliest, window.latest, keys.endedAt - keys.startedAt,
                ShiftedCopy.elapsedToleranceSeconds
            ]
        ).filter { ShiftedCopy.mayBeCopy(keys, $0) }
        guard !runs.isEmpty else { return ([], SampleSeries()) }
        let stored = try runs.compactMap { r -> (RunRecord, SampleSeries)? in
            guard let blob = try SamplesRecord.fetchOne(db, key: r.id) else { return nil }
            return (try? SampleCodec.decode([UInt8](blob.data))).map { (r, $0) }
        }
        return (stored, (try? SampleCodec.decode(run.encodedSamples)) ?? SampleSeries())
    }

    /// Runs `PRAGMA integrity_check`; "ok" when the file is sound.
    public func integrityCheck() throws -> String {
        try wrap { try writer.read { try String.fetchOne($0, sql: "PRAGMA integrity_check") ?? "?" } }
    }

    /// Checks the whole store: SQLite's integrity check, then every run's samples
    /// decode and hold as many points as the run says. Returns the problems found.
    public func verify() throws -> (runs: Int, problems: [String]) {
        var problems: [String] = []
        let integrity = try integrityCheck()
        if integrity != "ok" { problems.append("integrity_check: \(integrity)") }
        // In pages of 500 runs: a club's samples never sit in memory at once.
        var runs = 0
        var after = ""
        while true {
            let page: [(id: String, count: Int, data: Data?)] = try wrap {
                try writer.read { db in
                    try Row.fetchAll(
                        db,
                        sql: """
                            SELECT r.id, r.point_count, s.data FROM run r LEFT JOIN run_samples s ON s.run_id = r.id
                            WHERE r.id > ? ORDER BY r.id LIMIT 500
                            """, arguments: [after]
                    ).map { ($0[0], $0[1], $0[2]) }
                }
            }
            guard let last = page.last else { break }
            after = last.id
            runs += page.count
            problems += page.compactMap {
                SampleCodec.problem(runID: $0.id, pointCount: $0.count, blob: $0.data.map { [UInt8]($0) })
            }
        }
        return (runs, problems)
    }
}

extension JSONEncoder {
    static var sorted: JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        return e
    }
}
