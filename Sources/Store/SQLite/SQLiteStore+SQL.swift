import GRDB
internal import GRDBSQLite
import RaceKitStore

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
        let statement = try SQLiteStore.cached(db, sql)
        if arguments.contains(where: \.isBlob) {
            try Self.executeInPlace(db, statement.sqliteStatement, arguments)
        } else {
            try statement.execute(arguments: StatementArguments(arguments.map(\.databaseValue)))
        }
        return db.changesCount
    }

    /// SQLite's write transaction already excludes every other writer: only
    /// whether the athlete is stored.
    func beginImport(athleteID: String) throws -> Bool {
        try Bool.fetchOne(
            SQLiteStore.cached(db, "SELECT EXISTS (SELECT 1 FROM athlete WHERE id = ?)"), arguments: [athleteID])
            == true
    }

    /// Runs a statement with its values bound in place (a blob with
    /// SQLITE_STATIC, inside the scope that keeps its bytes), so that SQLite
    /// copies a run's samples once, into the record; GRDB's `Data` binding
    /// would copy them twice more. The statement (GRDB's cached one) is left
    /// reset and unbound.
    static func executeInPlace(_ db: Database, _ statement: SQLiteStatement, _ arguments: [StoreValue]) throws {
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        // Binds argument `k` and the ones after it, then steps (blobs nest their scopes).
        func bind(from k: Int) -> Int32 {
            guard k < arguments.count else { return sqlite3_step(statement) }
            let i = Int32(k + 1)
            var code: Int32
            switch arguments[k] {
            case .null: code = sqlite3_bind_null(statement, i)
            case .text(let s):
                // The whole text, a NUL inside it included (SQLite copies it).
                code = sqlite3_bind_text64(statement, i, s, sqlite3_uint64(s.utf8.count), transient, UInt8(SQLITE_UTF8))
            case .real(let v): code = sqlite3_bind_double(statement, i, v)
            case .integer(let n): code = sqlite3_bind_int64(statement, i, Int64(n))
            case .boolean(let b): code = sqlite3_bind_int64(statement, i, b ? 1 : 0)
            case .blob(let bytes):
                return bytes.withUnsafeBytes { raw in
                    let base = raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1)
                    let bound = sqlite3_bind_blob64(statement, i, base, sqlite3_uint64(raw.count), nil)
                    return bound == SQLITE_OK ? bind(from: k + 1) : bound
                }
            }
            return code == SQLITE_OK ? bind(from: k + 1) : code
        }
        let code = bind(from: 0)
        guard code == SQLITE_DONE else {
            let message = String(cString: sqlite3_errmsg(db.sqliteConnection))
            let what = String(String(cString: sqlite3_sql(statement)).prefix(40))
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "\(message) (\(what) ...)")
        }
    }
}

extension StoreValue {
    var isBlob: Bool {
        if case .blob = self { return true }
        return false
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
