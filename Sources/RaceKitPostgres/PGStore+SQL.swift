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
