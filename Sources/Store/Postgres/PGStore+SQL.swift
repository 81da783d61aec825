import RaceKitStore

/// libpq as the repositories written once see a connection (`SQLConnection`).
struct PGSQLConnection: SQLConnection {
    let connection: PGConnection
    /// What this transaction holds and has yet to send (one value made per transaction).
    private let state: State
    var dialect: SQLDialect { .postgres }

    /// `deferringWrites`: `execute(all:)` keeps its writes and sends them with
    /// the next statement, in one round trip (an import batch's: a file's
    /// writes go with the next file's first query); the owner calls `flush()`
    /// before the transaction ends. Without it they are sent at once.
    init(connection: PGConnection, deferringWrites: Bool = false) {
        self.connection = connection
        state = State(deferring: deferringWrites)
    }

    private final class State {
        let deferring: Bool
        /// The athletes whose import lock the transaction holds: a batch of
        /// one athlete's files asks the server once.
        var stored: [String: Bool] = [:]
        var pending: [(sql: String, parameters: [PGValue])] = []
        init(deferring: Bool) { self.deferring = deferring }
    }

    /// Writes kept beyond this many are sent (a pipeline's answers stay small).
    static let maxPending = 512

    /// Sends the writes kept back.
    func flush() throws {
        guard !state.pending.isEmpty else { return }
        let pending = state.pending
        state.pending = []
        try connection.run(all: pending)
    }

    /// `sql`'s rows, sent with the writes kept back.
    private func query(_ sql: String, _ arguments: [StoreValue]) throws -> PGRows {
        let pending = state.pending
        state.pending = []
        return try connection.query(sql, arguments.map(\.pgValue), after: pending)
    }

    func forEachRow(_ sql: String, _ arguments: [StoreValue], _ body: (any StoreRow) throws -> Void) throws {
        let r = try query(sql, arguments)
        for i in 0..<r.count { try body(r.view(i)) }
    }

    @discardableResult
    func execute(_ sql: String, _ arguments: [StoreValue]) throws -> Int {
        try query(sql, arguments).affected
    }

    func execute(all statements: [SQLStatement]) throws {
        state.pending += statements.map { ($0.sql, $0.arguments.map(\.pgValue)) }
        if !state.deferring || state.pending.count >= Self.maxPending { try flush() }
    }

    /// One importer at a time per athlete decides what is new: the lock is the
    /// database's (held to the end of this transaction), so importers on other
    /// machines wait here instead of both storing one activity. The commit does
    /// not wait for the server's disk (as the embedded store's WAL commits do
    /// not): a server crash may lose the last moment's files, never half of one,
    /// and the next import stores them again. One round trip for the three,
    /// none for an athlete whose lock the transaction holds already.
    func beginImport(athleteID: String) throws -> Bool {
        if let stored = state.stored[athleteID] { return stored }
        let r = try query(
            """
            SELECT set_config('synchronous_commit', 'off', true), pg_advisory_xact_lock(hashtextextended($1, $2)),
                EXISTS (SELECT 1 FROM athlete WHERE id = $1)
            """, [.text(athleteID), .integer(Int(Self.athleteLockSpace))])
        let stored = r.bool(0, 2) == true
        state.stored[athleteID] = stored
        return stored
    }

    /// The seed of the per-athlete import lock's key (a hash of the athlete id): "RKAT".
    static let athleteLockSpace: Int64 = 0x524B_4154
}

/// The PostgreSQL store's database: reads on its connection, and transactions
/// retried on serialisation failures and deadlocks (refused for a store opened to read).
struct PGDatabase: SQLDatabase {
    let store: PGStore

    func reading<T: Sendable>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try store.read { try body(PGSQLConnection(connection: $0)) }
    }

    func writing<T: Sendable>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try store.write { try body(PGSQLConnection(connection: $0)) }
    }
}

extension PGStore: SQLStore {
    public var database: any SQLDatabase { PGDatabase(store: self) }
}

extension PGStore {
    /// Several files in one transaction (an import's batch, one athlete's
    /// files): one BEGIN and one COMMIT for them all, where each file took its
    /// own. A file that fails rolls the batch back, and each file is stored
    /// again in a transaction of its own, so that a file fails for its own
    /// reason only and the others are kept. (A savepoint per file would cost
    /// the two round trips a batch saves; a file the store refuses is rare.)
    public func insert(files: [FileInsert], importedAt: Double) throws -> [Result<[InsertOutcome], any Error>] {
        func stored(_ files: [FileInsert]) throws -> [Result<[InsertOutcome], any Error>] {
            try write { c in
                let connection = PGSQLConnection(connection: c, deferringWrites: true)
                let results = try files.map { file in
                    Result<[InsertOutcome], any Error>.success(try insert(connection, file, importedAt: importedAt))
                }
                try connection.flush()
                return results
            }
        }
        do {
            return try stored(files)
        } catch {
            guard files.count > 1 else { return [.failure(error)] }
            return files.map { file in Result { try stored([file])[0].get() } }
        }
    }
}
