import RaceKitCore

/// libpq as the repositories written once see a connection (`SQLConnection`).
struct PGSQLConnection: SQLConnection {
    let connection: PGConnection
    var dialect: SQLDialect { .postgres }

    func forEachRow(_ sql: String, _ arguments: [StoreValue], _ body: (any StoreRow) throws -> Void) throws {
        let r = try connection.query(sql, arguments.map(\.pgValue))
        for i in 0..<r.count { try body(r.view(i)) }
    }

    @discardableResult
    func execute(_ sql: String, _ arguments: [StoreValue]) throws -> Int {
        try connection.query(sql, arguments.map(\.pgValue)).affected
    }

    /// One importer at a time per athlete decides what is new: the lock is the
    /// database's (held to the end of this transaction), so importers on other
    /// machines wait here instead of both storing one activity. The commit does
    /// not wait for the server's disk (as the embedded store's WAL commits do
    /// not): a server crash may lose the last moment's files, never half of one,
    /// and the next import stores them again. One round trip for the three.
    func beginImport(athleteID: String) throws -> Bool {
        let r = try connection.query(
            """
            SELECT set_config('synchronous_commit', 'off', true), pg_advisory_xact_lock(hashtextextended($1, $2)),
                EXISTS (SELECT 1 FROM athlete WHERE id = $1)
            """, [.text(athleteID), .int(Self.athleteLockSpace)])
        return r.bool(0, 2) == true
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
