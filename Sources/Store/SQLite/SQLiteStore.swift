import Foundation
import GRDB
import RaceKitMetrics
import RaceKitModel
import RaceKitStore

/// The name the SQLite store had before the store seam (tests use it).
public typealias RunStore = SQLiteStore

/// The embedded SQLite store (GRDB, WAL): the `Store` of a `.sqlite` location.
/// Every file's runs go in one transaction.
public final class SQLiteStore: Store {
    /// Version of the stored analysis; `runs recompute` redoes older rows.
    public static var analysisVersion: Int { RunAnalyzer.version }
    /// The names callers used before the store seam (`RunStore.RunFilter()`);
    /// new code uses RaceKitStore's `RunFilter`, `RunEdit`, `PersonalRecord`.
    public typealias RunFilter = RaceKitStore.RunFilter
    public typealias RunEdit = RaceKitStore.RunEdit
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
        do { return try body() } catch { throw converted(error) }
    }

    /// RaceKit's own errors (another store's, in a copy) keep their message and
    /// exit class; the database's become `StoreError.database`, or `.busy` when
    /// another process held the store past GRDB's wait (`busyMode`).
    func converted(_ error: any Error) -> any Error { Self.converted(error, path: path) }

    static func converted(_ error: any Error, path: String) -> any Error {
        if error is any RaceKitError { return error }
        if let db = error as? DatabaseError, isBusy(db) { return StoreError.busy(path: path, reason: describe(db)) }
        return StoreError.database(describe(error))
    }

    /// SQLite's busy or locked: another connection held the store past GRDB's wait.
    static func isBusy(_ error: DatabaseError) -> Bool {
        [.SQLITE_BUSY, .SQLITE_LOCKED].contains(error.resultCode.primaryResultCode)
    }

    // MARK: Runs

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
                            outcomes = try insert(GRDBConnection(db: db), file, importedAt: importedAt)
                            return .commit
                        }
                        return .success(outcomes)
                    } catch {
                        // Some errors (a full disk, I/O, RAISE(ROLLBACK)) roll the whole
                        // transaction back, the files before this one too: the batch fails
                        // as a whole, and the caller stores its files one by one.
                        guard db.isInsideTransaction else { throw error }
                        return .failure(self.converted(error))
                    }
                }
            }
        }
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
