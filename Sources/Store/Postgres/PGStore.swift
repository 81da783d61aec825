import Foundation
import RaceKitMetrics
import RaceKitModel
import RaceKitStore

/// The store on a PostgreSQL server: the embedded store's data and behaviour
/// (same runs, summaries, samples in the same codec, athletes, race links), for
/// several machines at once. Every write is one transaction; the duplicate check
/// of an athlete's runs holds a transaction-scoped advisory lock on that athlete,
/// so importers on several machines store each activity once (two copies of one
/// activity in different files included), and a killed importer leaves nothing
/// half-written. One connection per store, used by one thread at a time.
public final class PGStore: Sendable {
    private let connection: Exclusive
    /// The server as messages name it (no password).
    public let location: String
    /// How the store was opened: `write` refuses changes to a store opened to read.
    public let access: StoreAccess
    /// True when opening created the schema (an empty database made a store).
    public let created: Bool
    /// The metrics of the run table (the standard list unless opened with more).
    public let registry: MetricRegistry
    /// The run table's declared columns (`RunColumns.of(registry)`).
    public let runColumns: [RunColumn]

    /// Connects to `conninfo` and checks the schema: a writer applies missing
    /// migrations (once, whoever comes first); a reader needs a current schema; a
    /// database a newer RaceKit wrote is refused; a database without RaceKit's
    /// tables is `StoreError.missing` for a command that does not create a store.
    public init(conninfo: String, access: StoreAccess, registry: MetricRegistry = .standard) throws {
        let c = try PGConnection(conninfo)
        location = c.location
        self.access = access
        self.registry = registry
        runColumns = RunColumns.of(registry)
        var state = try PGSchema.state(c, registry: registry)
        var created = false
        if case .newer(let id) = state {
            throw StoreError.newer(path: c.location, schema: id, known: PGSchema.latest(registry))
        }
        if case .older(let applied) = state {
            if applied == nil, access != .create { throw StoreError.missing(path: c.location) }
            guard access != .read else {
                throw StoreError.readOnly(
                    path: c.location, reason: "its schema is older than this racekit's; a writer upgrades it")
            }
            // Of several importers starting at once, only the one that made the
            // schema says "created store".
            state = try PGSchema.migrate(c, registry: registry, created: &created)
            if case .newer(let id) = state {
                throw StoreError.newer(path: c.location, schema: id, known: PGSchema.latest(registry))
            }
        }
        if case .unrecorded = state {
            throw StoreError.unrecordedSchema(path: c.location, ledger: "racekit_migrations")
        }
        // A reader's session cannot write, whatever a bug might try: the server refuses.
        if access == .read { try c.query("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY") }
        self.created = created
        connection = Exclusive(c)
    }

    /// Runs `body` with the connection (one thread at a time).
    func read<T: Sendable>(_ body: (PGConnection) throws -> T) throws -> T {
        try connection.use(body)
    }

    /// Runs `body` in a transaction (retried on serialisation failures and
    /// deadlocks); a store opened to read refuses.
    func write<T: Sendable>(_ body: (PGConnection) throws -> T) throws -> T {
        guard access != .read else { throw StoreError.readOnly(path: location, reason: "opened to read") }
        return try connection.use { c in try c.transaction(body) }
    }
}

/// The store's one connection, used by one thread at a time: the lock is held
/// for the whole of each use and the connection never leaves it, which is what
/// makes sharing it between threads safe (libpq's `PGconn` is not thread-safe).
private final class Exclusive: @unchecked Sendable {
    private let lock = NSLock()
    private let connection: PGConnection

    init(_ connection: PGConnection) { self.connection = connection }

    func use<T>(_ body: (PGConnection) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(connection)
    }
}

// MARK: Checks

extension PGStore {
    /// Every run's samples decode and hold as many points as the run says.
    public func verify() throws -> (runs: Int, problems: [String]) {
        var problems: [String] = []
        var runs = 0
        // In pages of 500 runs: a club's samples never sit in memory at once.
        var after = ""
        while true {
            let page: [(id: String, count: Int, data: [UInt8]?)] = try read { c in
                let r = try c.query(
                    """
                    SELECT r.id, r.point_count, s.data FROM run r LEFT JOIN run_samples s ON s.run_id = r.id
                    WHERE r.id > $1 ORDER BY r.id LIMIT 500
                    """, [.text(after)])
                return (0..<r.count).map { (r.string($0, 0) ?? "?", r.int($0, 1) ?? -1, r.bytes($0, 2)) }
            }
            guard let last = page.last else { break }
            after = last.id
            runs += page.count
            problems += page.compactMap { SampleCodec.problem(runID: $0.id, pointCount: $0.count, blob: $0.data) }
        }
        return (runs, problems)
    }
}

extension PGStore: Store {}
