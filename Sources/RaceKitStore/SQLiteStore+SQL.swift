import GRDB
import RaceKitCore

/// GRDB as the repositories written once see a connection (`SQLConnection`):
/// every statement prepared once per connection (GRDB's cache).
struct GRDBConnection: SQLConnection {
    let db: Database
    var dialect: SQLDialect { .sqlite }

    func forEachRow(_ sql: String, _ arguments: [StoreValue], _ body: (any StoreRow) throws -> Void) throws {
        let cursor = try Row.fetchCursor(
            try SQLiteStore.cached(db, sql), arguments: StatementArguments(arguments.map(\.databaseValue)))
        while let row = try cursor.next() { try body(GRDBStoreRow(row: row)) }
    }

    @discardableResult
    func execute(_ sql: String, _ arguments: [StoreValue]) throws -> Int {
        try SQLiteStore.cached(db, sql).execute(arguments: StatementArguments(arguments.map(\.databaseValue)))
        return db.changesCount
    }
}

/// The SQLite store's database: GRDB's reads, and its write transactions
/// (refused for a store opened to read), its errors the store's.
struct GRDBDatabase: SQLDatabase {
    let store: SQLiteStore

    func reading<T: Sendable>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try store.wrap { try store.writer.read { try body(GRDBConnection(db: $0)) } }
    }

    func writing<T: Sendable>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try store.wrap { try store.write { try body(GRDBConnection(db: $0)) } }
    }
}

extension SQLiteStore: SQLStore {
    public var database: any SQLDatabase { GRDBDatabase(store: self) }
}
