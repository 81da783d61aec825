import Foundation

/// What an import saw of a plain file it finished with: its path, size,
/// modification time and inode, and what became of it. A later import of the
/// same athlete skips a file whose four facts are the same (a cron job
/// re-importing the same folder every night reads only what changed); the
/// content digest stays the authority for everything else. Not data: neither
/// copied by `store copy` nor part of the content digest.
public struct FileStamp: Sendable, Equatable {
    public var athleteID: String
    /// The absolute path.
    public var path: String
    public var size: Int
    /// Nanoseconds since the epoch.
    public var modifiedNanoseconds: Int
    public var inode: Int
    /// What the import said: imported, upgraded and duplicate files are kept
    /// with their runs (`runIDs`), skipped ones with why.
    public var status: String
    public var reason: String?
    /// JSON list of the file's runs.
    public var runIDs: String
    public var recordedAt: Double

    public init(
        athleteID: String, path: String, size: Int, modifiedNanoseconds: Int, inode: Int, status: String,
        reason: String?, runIDs: [String], recordedAt: Double
    ) {
        self.athleteID = athleteID; self.path = path; self.size = size
        self.modifiedNanoseconds = modifiedNanoseconds; self.inode = inode; self.status = status
        self.reason = reason; self.runIDs = StoredJSON.text(runIDs); self.recordedAt = recordedAt
    }

    /// The same file as far as the four facts tell.
    public func matches(size: Int, modifiedNanoseconds: Int, inode: Int) -> Bool {
        self.size == size && self.modifiedNanoseconds == modifiedNanoseconds && self.inode == inode
    }

    public var runIDList: [String] {
        (try? JSONDecoder().decode([String].self, from: Data(runIDs.utf8))) ?? []
    }

    public static let table = TableSpec(
        name: "import_stamp",
        columns: [
            ColumnSpec("athlete_id", .text, references: StoreSchema.ref("athlete")), ColumnSpec("path", .text),
            ColumnSpec("size", .integer), ColumnSpec("modified_ns", .integer), ColumnSpec("inode", .integer),
            ColumnSpec("status", .text), ColumnSpec("reason", .text, nullable: true), ColumnSpec("run_ids", .text),
            ColumnSpec("recorded_at", .real)
        ],
        primaryKey: ["athlete_id", "path"])

    public static let columns = table.columns.map(\.name)

    public var storeValues: [StoreValue] {
        [
            .text(athleteID), .text(path), .integer(size), .integer(modifiedNanoseconds), .integer(inode),
            .text(status), reason.map(StoreValue.text) ?? .null, .text(runIDs), .real(recordedAt)
        ]
    }

    public init(row: some StoreRow) throws {
        func fail(_ k: Int) -> StoreError {
            .database("import_stamp, column \(Self.columns[k]): missing or of another type")
        }
        func text(_ k: Int) throws -> String {
            guard case .text(let s) = row.value(k, .text) else { throw fail(k) }
            return s
        }
        func integer(_ k: Int) throws -> Int {
            guard case .integer(let i) = row.value(k, .integer) else { throw fail(k) }
            return i
        }
        athleteID = try text(0); path = try text(1); size = try integer(2); modifiedNanoseconds = try integer(3)
        inode = try integer(4); status = try text(5)
        if case .text(let s) = row.value(6, .text) { reason = s } else { reason = nil }
        runIDs = try text(7)
        switch row.value(8, .real) {
        case .real(let v): recordedAt = v
        case .integer(let i): recordedAt = Double(i)
        default: throw fail(8)
        }
    }

    /// The statements both backends run, in their dialect.
    public enum SQL {
        public static func upsert(_ d: SQLDialect) -> String {
            let marks = (1...columns.count).map(d.placeholder).joined(separator: ", ")
            let sets = columns.dropFirst(2).map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
            return "INSERT INTO import_stamp (\(columns.joined(separator: ", "))) VALUES (\(marks)) "
                + "ON CONFLICT (athlete_id, path) DO UPDATE SET \(sets)"
        }

        public static func select(_ d: SQLDialect) -> String {
            "SELECT \(columns.joined(separator: ", ")) FROM import_stamp WHERE athlete_id = \(d.placeholder(1))"
        }
    }
}
