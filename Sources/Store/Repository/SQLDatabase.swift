/// One connection to a store's database, as the repositories written once in
/// portable SQL see it (`SQLStore`): statements with `?` placeholders, values
/// as the declared columns hold them (`StoreValue`), rows read through the
/// table declarations (`DeclaredRow`). The backends adapt GRDB (SQLite) and
/// libpq (PostgreSQL) to it; what differs between them (placeholders, types)
/// is the `dialect`'s.
public protocol SQLConnection {
    var dialect: SQLDialect { get }
    /// Runs a statement that returns rows and gives each to `body` (a row is
    /// valid during its call only).
    func forEachRow(_ sql: String, _ arguments: [StoreValue], _ body: (any StoreRow) throws -> Void) throws
    /// Runs a statement; returns how many rows it inserted, changed or deleted.
    @discardableResult
    func execute(_ sql: String, _ arguments: [StoreValue]) throws -> Int
    /// Makes the transaction the one importer of `athleteID` until it ends, so
    /// that two importers never both store one activity (nothing to do where
    /// the write transaction already excludes every other writer), and tells
    /// whether the athlete is stored: one round trip for both.
    func beginImport(athleteID: String) throws -> Bool
    /// Runs writes whose rows and counts are not read, in order: a backend whose
    /// every statement is a round trip to a server sends them together
    /// (PostgreSQL's pipeline). The first error is thrown; nothing after it runs.
    func execute(all statements: [SQLStatement]) throws
}

/// A statement and its arguments, to run later (`SQLConnection.execute(all:)`).
public struct SQLStatement: Sendable {
    public var sql: String
    public var arguments: [StoreValue]

    public init(_ sql: String, _ arguments: [StoreValue]) {
        self.sql = sql
        self.arguments = arguments
    }
}

extension SQLConnection {
    /// One statement after another (a backend in the same process gains nothing by sending them together).
    public func execute(all statements: [SQLStatement]) throws {
        for s in statements { try execute(s.sql, s.arguments) }
    }

    /// Every row of a statement, each made by `make`.
    public func rows<T>(_ sql: String, _ arguments: [StoreValue] = [], _ make: (any StoreRow) throws -> T) throws
        -> [T]
    {
        var out: [T] = []
        try forEachRow(sql, arguments) { out.append(try make($0)) }
        return out
    }

    /// The first column of the first row (nil without a row, or NULL).
    public func value(_ sql: String, _ arguments: [StoreValue] = [], as type: ColumnType) throws -> StoreValue? {
        var found: StoreValue?
        try forEachRow(sql, arguments) { row in
            if found == nil { found = row.value(0, type) }
        }
        return found == .null ? nil : found
    }
}

/// A store's database: its reads and its write transactions, with the
/// backend's errors translated into the store's and a store opened to read
/// refusing to write.
public protocol SQLDatabase: Sendable {
    func reading<T: Sendable>(_ body: (any SQLConnection) throws -> T) throws -> T
    func writing<T: Sendable>(_ body: (any SQLConnection) throws -> T) throws -> T
}

/// A store whose repositories are the ones written once over `SQLDatabase`
/// (athletes, the reads of runs, race links, daily measurements, import
/// stamps: `SQLStore+*.swift`): a backend gives its database and its run
/// table's columns, and nothing else for them.
public protocol SQLStore {
    var database: any SQLDatabase { get }
    /// `RunColumns.of(registry)`, made once.
    var runColumns: [RunColumn] { get }
}

extension StoreValue {
    /// A real, or an integer where a backend kept a whole number as one; nil for anything else.
    public var number: Double? {
        switch self {
        case .real(let v): return v
        case .integer(let i): return Double(i)
        default: return nil
        }
    }
}

extension String {
    /// Whether this string comes before `other` in the order of their UTF-8
    /// bytes: a database's bytewise order of text (`SQLDialect.bytewise`),
    /// where Swift's `<` compares Unicode scalars by canonical equivalence.
    public func precedesBytewise(_ other: String) -> Bool { utf8.lexicographicallyPrecedes(other.utf8) }
}

extension SQLDialect {
    /// What makes an `ORDER BY` of text bytewise (SQLite's default; PostgreSQL's
    /// default collation is the locale's).
    public var bytewise: String { self == .postgres ? " COLLATE \"C\"" : "" }

    /// `sql` with its `?` placeholders in this dialect (PostgreSQL's `$1`,
    /// `$2`, ...); a `?` inside a quoted literal or name is left alone. In one
    /// pass over the bytes into a string made once: an import turns a few
    /// kilobytes of statements a run (a first version, a byte appended at a
    /// time, was 2.6% of a PostgreSQL import's CPU).
    public func statement(_ sql: String) -> String {
        guard self == .postgres else { return sql }
        var sql = sql
        return sql.withUTF8 { bytes in
            let marks = bytes.reduce(0) { $0 + ($1 == UInt8(ascii: "?") ? 1 : 0) }
            guard marks > 0 else { return String(decoding: bytes, as: UTF8.self) }
            // "$" and at most 10 digits in place of each "?".
            return String(unsafeUninitializedCapacity: bytes.count + 10 * marks) { out in
                var n = 0, k = 0
                var quote: UInt8?
                for c in bytes {
                    if let q = quote {
                        if c == q { quote = nil }
                    } else if c == UInt8(ascii: "'") || c == UInt8(ascii: "\"") {
                        quote = c
                    } else if c == UInt8(ascii: "?") {
                        n += 1
                        out[k] = UInt8(ascii: "$")
                        k += 1
                        var digits = 1, rest = n
                        while rest >= 10 { digits += 1; rest /= 10 }
                        rest = n
                        for d in stride(from: digits - 1, through: 0, by: -1) {
                            out[k + d] = UInt8(ascii: "0") + UInt8(rest % 10)
                            rest /= 10
                        }
                        k += digits
                        continue
                    }
                    out[k] = c
                    k += 1
                }
                return k
            }
        }
    }
}

/// A row that holds a table's declared columns in their declared order (a
/// `SELECT` of `columnList`): values are asked for by column name, never by a
/// hand-kept position. A missing or mistyped required value is a store error
/// naming the table, the row and the column.
public struct DeclaredRow {
    public let table: TableSpec
    public let row: any StoreRow
    /// What the error names the row by (its key).
    public var name = ""

    public init(_ table: TableSpec, _ row: any StoreRow) {
        self.table = table
        self.row = row
    }

    /// `a, b, c` (each after `prefix`, such as `l.`): the columns a `DeclaredRow` reads.
    public static func columnList(_ table: TableSpec, prefix: String = "") -> String {
        table.columns.map { prefix + $0.name }.joined(separator: ", ")
    }

    public func value(_ column: String) -> StoreValue {
        guard let i = table.columns.firstIndex(where: { $0.name == column }) else { return .null }
        return row.value(i, table.columns[i].type)
    }

    func missing(_ column: String) -> StoreError {
        .database("\(table.name)\(name.isEmpty ? "" : " " + name), column \(column): missing or of another type")
    }

    public func text(_ column: String) throws -> String {
        guard let s = optionalText(column) else { throw missing(column) }
        return s
    }

    public func optionalText(_ column: String) -> String? {
        if case .text(let s) = value(column) { return s }
        return nil
    }

    public func real(_ column: String) throws -> Double {
        guard let v = try optionalReal(column) else { throw missing(column) }
        return v
    }

    /// A real, or an integer where a backend kept a whole number as one; nil
    /// for NULL, and a value of another kind (text in a number's column) is an
    /// error, never read as missing.
    public func optionalReal(_ column: String) throws -> Double? {
        let v = value(column)
        if v == .null { return nil }
        guard let n = v.number else { throw missing(column) }
        return n
    }
}
