import Foundation
import RaceKitFormats
import RaceKitMetrics
import RaceKitModel

/// Strava's bulk export index, `activities.csv`: one row per activity with the
/// name, sport and description the athlete gave it, and the file it came from
/// (`activities/123.fit.gz`). Some column names appear twice (Elapsed Time,
/// Distance): the first one is used. Fields are RFC 4180 (quoted, with commas and
/// newlines inside).
public struct StravaActivities: Sendable, Equatable {
    /// Metadata by the file's path as written in the `Filename` column.
    public private(set) var byFile: [String: ActivityMetadata] = [:]

    /// Most rows read: a real export of twenty years of daily activities holds
    /// under 20,000.
    public static let maxRows = 200_000
    /// Longest record (a row, quoted newlines included): Strava's rows are about
    /// 1-2 KB (some 90 columns); a description may be long, never a megabyte.
    public static let maxRecordBytes = 1 << 20
    /// Most bytes the file may hold: twenty years of rows are under 50 MB.
    public static let maxFileBytes: Int64 = 256 << 20
    /// Most bytes of names, sports and descriptions kept from the file: the index
    /// stays in memory while the export imports.
    public static let maxKeptBytes = 64 << 20

    public enum ParseError: RaceKitError, Equatable {
        case missingColumn(file: String, column: String)
        case unterminatedQuote(file: String, line: Int)
        /// A limit was crossed (`what` names it and its value).
        case tooLarge(file: String, line: Int, what: String)
        public var exitClass: ExitClass { .dataError }
        public var description: String {
            switch self {
            case .missingColumn(let file, let column):
                return "\(file): no \"\(column)\" column in the header: not Strava's activities.csv"
            case .unterminatedQuote(let file, let line):
                return "\(file):\(line): a quoted field is never closed"
            case .tooLarge(let file, let line, let what):
                return "\(file):\(line): too large: \(what)"
            }
        }
    }

    public init() {}

    /// Parses the CSV `bytes` of the file named `name` (for messages).
    public init(csv bytes: [UInt8], name: String) throws {
        try self.init(csv: MemoryByteStream(name: name, bytes: bytes))
    }

    /// Parses the CSV read from `stream`, one record at a time: memory holds one
    /// record and the metadata kept, whatever the file's size (`maxRecordBytes`,
    /// `maxFileBytes`, `maxRows`, `maxKeptBytes`).
    public init(csv stream: ByteStream) throws {
        var records = Self.records(stream)
        guard let first = try Self.next(&records) else { return }
        let header = first.map { $0.trimmingBlanks() }
        let name = stream.name
        func column(_ title: String) -> Int? { header.firstIndex(of: title) }
        guard let file = column("Filename") else { throw ParseError.missingColumn(file: name, column: "Filename") }
        let title = column("Activity Name"), type = column("Activity Type"), about = column("Activity Description")
        var kept = 0
        while let row = try Self.next(&records) {
            guard file < row.count else { continue }
            let path = row[file].trimmingBlanks()
            guard !path.isEmpty else { continue }
            func field(_ i: Int?) -> String? {
                guard let i, i < row.count else { return nil }
                let value = row[i].trimmingBlanks()
                return value.isEmpty ? nil : value
            }
            let metadata = ActivityMetadata(name: field(title), sport: field(type), description: field(about))
            kept +=
                path.utf8.count
                + [metadata.name, metadata.sport, metadata.description].reduce(0) {
                    $0 + ($1?.utf8.count ?? 0)
                }
            if kept > Self.maxKeptBytes {
                throw ParseError.tooLarge(
                    file: name, line: records.line,
                    what: "more than \(Self.maxKeptBytes >> 20) MB of names and descriptions")
            }
            byFile[Self.key(path)] = metadata
        }
    }

    /// The metadata of the archive entry at `entryPath` (the export may sit in a
    /// folder of its own inside the archive, so the entry's path ends with the
    /// CSV's `Filename`).
    public func metadata(forEntry entryPath: String) -> ActivityMetadata? {
        if byFile.isEmpty { return nil }
        let parts = entryPath.split(separator: "/")
        // activities/123.gpx.gz is two parts; try the shortest suffixes first.
        for count in 1...min(parts.count, 4) {
            let suffix = parts.suffix(count).joined(separator: "/")
            if let found = byFile[Self.key(suffix)] { return found }
        }
        return nil
    }

    private static func key(_ path: String) -> String {
        var p = Substring(path)
        while p.hasPrefix("./") || p.hasPrefix("/") { p = p.drop(while: { $0 == "." || $0 == "/" }) }
        return String(p)
    }

    /// RFC 4180 records (CRLF or LF line ends, quotes doubled inside quoted fields).
    static func rows(_ bytes: [UInt8], name: String) throws -> [[String]] {
        var records = Self.records(MemoryByteStream(name: name, bytes: bytes))
        var rows: [[String]] = []
        while let row = try Self.next(&records) { rows.append(row) }
        return rows
    }

    /// The file's records, with this index's limits.
    static func records(_ stream: ByteStream) -> CSVRecords {
        CSVRecords(stream, maxRecordBytes: maxRecordBytes, maxFileBytes: maxFileBytes, maxRecords: maxRows + 1)
    }

    /// The next record; the reader's errors as this index's.
    static func next(_ records: inout CSVRecords) throws -> [String]? {
        do { return try records.next() } catch let error as CSVError {
            switch error {
            case .unterminatedQuote(let file, let line): throw ParseError.unterminatedQuote(file: file, line: line)
            case .tooLarge(let file, let line, let what): throw ParseError.tooLarge(file: file, line: line, what: what)
            }
        }
    }
}

/// Strava's `activities.csv` beside an unpacked export's `activities/` folder,
/// read once per export: a file at `EXPORT/activities/123.gpx.gz` gets the name,
/// sport and description `EXPORT/activities.csv` gives it, as inside the zip.
final class StravaFolderIndex: Sendable {
    private let cache = Locked<[String: StravaActivities]>([:])

    /// The metadata for the file at `path` (nil when no index names it), and what
    /// was wrong with the index when this call was the one that read it (the files
    /// then import with their own names; the problem is said once).
    func metadata(for path: String) -> (ActivityMetadata?, problem: String?) {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 3, parts[parts.count - 2] == "activities" else { return (nil, nil) }
        let root = parts.dropLast(2).joined(separator: "/")
        var problem: String?
        let index = cache.withLock { cache -> StravaActivities in
            if let known = cache[root] { return known }
            let csv = (root.isEmpty ? "" : root + "/") + "activities.csv"
            var loaded = StravaActivities()
            // No activities.csv: not a Strava export.
            if FileManager.default.fileExists(atPath: csv) {
                do {
                    if let refusal = RegularFile.refusal(csv) {
                        throw FormatError.cannotOpen(file: csv, reason: refusal)
                    }
                    loaded = try StravaActivities(csv: FileByteStream(path: csv))
                } catch {
                    problem = "\(error); the activities import with the names and sports in their files"
                }
            }
            cache[root] = loaded
            return loaded
        }
        return (index.metadata(forEntry: parts.suffix(2).joined(separator: "/")), problem)
    }
}
