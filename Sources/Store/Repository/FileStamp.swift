import Foundation
import RaceKitMetrics
import RaceKitModel

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
    /// The change time (ctime), nanoseconds since the epoch.
    public var changedNanoseconds: Int
    /// The racekit and analysis that read the file (`FileStamp.reader`): a
    /// stamp of another one is not used (a newer reader may read what an older
    /// one skipped).
    public var reader: String
    /// What the import said: imported, upgraded and duplicate files are kept
    /// with their runs (`runIDs`), skipped ones with why.
    public var status: String
    public var reason: String?
    /// JSON list of the file's runs.
    public var runIDs: String
    public var recordedAt: Double

    public init(
        athleteID: String, path: String, size: Int, modifiedNanoseconds: Int, inode: Int, changedNanoseconds: Int,
        reader: String, status: String, reason: String?, runIDs: [String], recordedAt: Double
    ) {
        self.athleteID = athleteID; self.path = path; self.size = size
        self.modifiedNanoseconds = modifiedNanoseconds; self.inode = inode
        self.changedNanoseconds = changedNanoseconds; self.reader = reader; self.status = status
        self.reason = reason; self.runIDs = StoredJSON.text(runIDs); self.recordedAt = recordedAt
    }

    /// The same file as far as the facts tell.
    public func matches(size: Int, modifiedNanoseconds: Int, inode: Int, changedNanoseconds: Int) -> Bool {
        self.size == size && self.modifiedNanoseconds == modifiedNanoseconds && self.inode == inode
            && self.changedNanoseconds == changedNanoseconds
    }

    /// The racekit and analysis version of an import with `registry`.
    public static func reader(_ registry: MetricRegistry) -> String {
        "racekit \(RaceKitVersion.current), analysis \(RunAnalyzer.version(registry))"
    }

    public var runIDList: [String] {
        (try? JSONDecoder().decode([String].self, from: Data(runIDs.utf8))) ?? []
    }

    public static let table = TableSpec(
        name: "import_stamp",
        columns: [
            ColumnSpec("athlete_id", .text, references: StoreSchema.ref("athlete")), ColumnSpec("path", .text),
            ColumnSpec("size", .integer), ColumnSpec("modified_ns", .integer), ColumnSpec("inode", .integer),
            ColumnSpec("changed_ns", .integer), ColumnSpec("reader", .text), ColumnSpec("status", .text),
            ColumnSpec("reason", .text, nullable: true), ColumnSpec("run_ids", .text),
            ColumnSpec("recorded_at", .real)
        ],
        primaryKey: ["athlete_id", "path"])

    public static let columns = table.columns.map(\.name)

    public var storeValues: [StoreValue] {
        [
            .text(athleteID), .text(path), .integer(size), .integer(modifiedNanoseconds), .integer(inode),
            .integer(changedNanoseconds), .text(reader), .text(status), reason.map(StoreValue.text) ?? .null,
            .text(runIDs), .real(recordedAt)
        ]
    }

    public init(row: some StoreRow) throws {
        let rowName: String
        if case .text(let p) = row.value(1, .text) { rowName = " \(p.prefix(200))" } else { rowName = "" }
        func fail(_ k: Int) -> StoreError {
            .database("import_stamp\(rowName), column \(Self.columns[k]): missing or of another type")
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
        inode = try integer(4); changedNanoseconds = try integer(5); reader = try text(6); status = try text(7)
        if case .text(let s) = row.value(8, .text) { reason = s } else { reason = nil }
        runIDs = try text(9)
        switch row.value(10, .real) {
        case .real(let v): recordedAt = v
        case .integer(let i): recordedAt = Double(i)
        default: throw fail(10)
        }
    }

    /// The statements both backends run, in their dialect.
    public enum SQL {
        public static func upsert(_ d: SQLDialect) -> String {
            d.statement(table.insert(.update(key: table.primaryKey)))
        }

        public static func select(_ d: SQLDialect) -> String {
            "SELECT \(columns.joined(separator: ", ")) FROM import_stamp WHERE athlete_id = \(d.placeholder(1))"
        }
    }
}
