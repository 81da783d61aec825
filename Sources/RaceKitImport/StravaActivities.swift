import RaceKitCore

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
    public static let maxRows = 1_000_000

    public enum ParseError: RaceKitError, Equatable {
        case missingColumn(file: String, column: String)
        case unterminatedQuote(file: String, line: Int)
        public var exitClass: ExitClass { .dataError }
        public var description: String {
            switch self {
            case .missingColumn(let file, let column):
                return "\(file): no \"\(column)\" column in the header: not Strava's activities.csv"
            case .unterminatedQuote(let file, let line):
                return "\(file):\(line): a quoted field is never closed"
            }
        }
    }

    public init() {}

    /// Parses the CSV `bytes` of the file named `name` (for messages).
    public init(csv bytes: [UInt8], name: String) throws {
        var rows = try Self.rows(bytes, name: name)
        guard !rows.isEmpty else { return }
        let header = rows.removeFirst().map { $0.trimmingBlanks() }
        func column(_ title: String) -> Int? { header.firstIndex(of: title) }
        guard let file = column("Filename") else { throw ParseError.missingColumn(file: name, column: "Filename") }
        let title = column("Activity Name"), type = column("Activity Type"), about = column("Activity Description")
        for row in rows.prefix(Self.maxRows) where file < row.count {
            let path = row[file].trimmingBlanks()
            guard !path.isEmpty else { continue }
            func field(_ i: Int?) -> String? {
                guard let i, i < row.count else { return nil }
                let value = row[i].trimmingBlanks()
                return value.isEmpty ? nil : value
            }
            byFile[Self.key(path)] = ActivityMetadata(name: field(title), sport: field(type), description: field(about))
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
        var rows: [[String]] = []
        var row: [String] = []
        var field: [UInt8] = []
        var quoted = false, wasQuoted = false
        var line = 1, quoteLine = 1
        var i = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        func endField() {
            row.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
            wasQuoted = false
        }
        while i < bytes.count {
            let b = bytes[i]
            if quoted {
                if b == UInt8(ascii: "\"") {
                    if i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "\"") {
                        field.append(b)
                        i += 1
                    } else {
                        quoted = false
                    }
                } else {
                    if b == 10 { line += 1 }
                    field.append(b)
                }
            } else if b == UInt8(ascii: "\"") && field.isEmpty && !wasQuoted {
                quoted = true
                wasQuoted = true
                quoteLine = line
            } else if b == UInt8(ascii: ",") {
                endField()
            } else if b == 10 || b == 13 {
                if b == 13, i + 1 < bytes.count, bytes[i + 1] == 10 { i += 1 }
                line += 1
                endField()
                if !(row.count == 1 && row[0].isEmpty) { rows.append(row) }
                row = []
                if rows.count > maxRows { return rows }
            } else {
                field.append(b)
            }
            i += 1
        }
        if quoted { throw ParseError.unterminatedQuote(file: name, line: quoteLine) }
        if !field.isEmpty || !row.isEmpty {
            endField()
            rows.append(row)
        }
        return rows
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
            // No activities.csv (InputFile.read gives nil): not a Strava export.
            if let data = InputFile.read(csv) {
                do {
                    loaded = try StravaActivities(csv: [UInt8](data), name: csv)
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
