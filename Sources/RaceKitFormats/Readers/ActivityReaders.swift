import RaceKitModel

/// The activity formats an import reads, in the order they are tried: the one
/// list the folder walk, archive entries, the choice of reader for a document
/// and the import's messages consult.
public struct ActivityReaders: Sendable {
    /// Every format RaceKit reads. A new format is one line here.
    public static let standard = ActivityReaders([
        GPXActivityReader(),
        TCXActivityReader(),
        FITActivityReader()
    ])

    /// The readers, in order.
    public let all: [any ActivityReader]
    let byteReaders: [any ByteActivityReader]
    let xmlReaders: [any XMLActivityReader]
    /// The most bytes any byte reader's header needs (0 without one).
    let headerLength: Int

    public init(_ readers: [any ActivityReader]) {
        all = readers
        byteReaders = readers.compactMap { $0 as? any ByteActivityReader }
        xmlReaders = readers.compactMap { $0 as? any XMLActivityReader }
        headerLength = byteReaders.map(\.headerLength).max() ?? 0
    }

    /// The file name endings folders and archives yield (case-insensitive): each
    /// reader's, then each of them with ".gz".
    public var fileExtensions: [String] {
        let plain = all.flatMap(\.fileExtensions)
        return plain + plain.map { $0 + ".gz" }
    }

    /// True when one of the readers claims the file name (case-insensitive).
    public func claims(fileName name: String) -> Bool {
        let lower = name.lowercased()
        return all.contains { $0.claims(lowercasedName: lower) }
    }

    /// The readers' names as a list ending in `last` ("GPX, TCX and FIT").
    public func names(last: String = "and") -> String { Self.listed(all.map(\.name), last: last) }

    /// The readers' names separated by commas ("GPX, TCX, FIT").
    public var nameList: String { all.map(\.name).joined(separator: ", ") }

    /// The readers' extensions as a list (".gpx, .tcx and .fit").
    public func extensionNames(last: String = "and") -> String {
        Self.listed(all.flatMap(\.fileExtensions), last: last)
    }

    /// The reader of runs stored as `format`, if it is one of these.
    public func reader(for format: SourceFormat) -> (any ActivityReader)? {
        all.first { $0.format == format }
    }

    /// Why a document of `format` holds no activity, when the document has no
    /// routes, courses, waypoints or notes to say so.
    public func noActivityReason(for format: SourceFormat) -> String {
        reader(for: format)?.noActivityReason ?? Self.noActivityReason
    }

    /// What `noActivityReason(for:)` says unless a reader says more.
    static let noActivityReason = "no tracks, routes or waypoints: no activity"

    /// The first byte reader whose extension `name` has.
    func byteReader(claimingName name: String) -> (any ByteActivityReader)? {
        let lower = name.lowercased()
        return byteReaders.first { $0.claims(lowercasedName: lower) }
    }

    /// The first byte reader whose header `head` (a document's first bytes) starts with.
    func byteReader(header head: [UInt8]) -> (any ByteActivityReader)? {
        head.withUnsafeBytes { bytes in
            byteReaders.first { reader in
                bytes.count >= reader.headerLength
                    && reader.isHeader(UnsafeRawBufferPointer(rebasing: bytes[..<reader.headerLength]))
            }
        }
    }

    /// The XML reader whose root element is `root`.
    func xmlReader(root: Local) -> (any XMLActivityReader)? {
        xmlReaders.first { $0.rootElement == root }
    }

    /// "a", "a or b", "a, b or c".
    static func listed(_ items: [String], last: String) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " \(last) " + items[items.count - 1]
    }
}
