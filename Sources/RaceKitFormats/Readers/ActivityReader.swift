import RaceKitModel

/// One activity file format: the format its runs are stored as, the file names
/// it claims, and how one document is read. A format is one conforming type in
/// a file of its own, listed once in `ActivityReaders.standard`; the import
/// (folder walks, archive entries, the choice of reader, its messages) asks
/// that list and never names a format itself.
///
/// A format is recognised one of two ways, each a protocol refining this one:
/// by its first bytes (`ByteActivityReader`: FIT, or any binary or text format)
/// or, for XML, by its root element (`XMLActivityReader`: GPX, TCX). The reader
/// is picked once per document; the per-point loop inside it is never reached
/// through the protocol.
public protocol ActivityReader: Sendable {
    /// What the runs it reads are stored as.
    var format: SourceFormat { get }
    /// Its name in help texts and messages ("GPX").
    var name: String { get }
    /// File name endings it claims, lowercase with their dot (".gpx"); each is
    /// claimed with ".gz" after it too. Folders and archives yield these files.
    var fileExtensions: [String] { get }
    /// Why a document it read holds no activity, when the document has no
    /// routes, courses, waypoints or notes of its reader to say so.
    var noActivityReason: String { get }
}

extension ActivityReader {
    public var noActivityReason: String { ActivityReaders.noActivityReason }

    /// True when `lowercasedName` ends in one of `fileExtensions`, plain or `.gz`.
    func claims(lowercasedName name: String) -> Bool {
        fileExtensions.contains { name.hasSuffix($0) || name.hasSuffix($0 + ".gz") }
    }
}

/// A format told by its first bytes and read from a byte stream. A document
/// goes to it when its first `headerLength` bytes (gzip undone) pass
/// `isHeader`, or when its name has one of `fileExtensions` (the reader then
/// says what is wrong with it).
public protocol ByteActivityReader: ActivityReader {
    /// Bytes `isHeader` needs.
    var headerLength: Int { get }
    /// True when a document's first `headerLength` bytes are this format's.
    func isHeader(_ bytes: UnsafeRawBufferPointer) -> Bool
    /// Reads one document from its first byte (gzip undone); `stream.name`
    /// names it in messages. The result carries the SHA-256 and the count of
    /// the bytes read (`ContentDigest`); what cannot be read throws a
    /// `RaceKitError` naming the document, and no more than `limits.points`
    /// points are kept.
    func read(_ stream: any ByteStream, limits: ReadLimits) throws -> ReadResult
}

/// The limits every reader keeps to.
public struct ReadLimits: Sendable {
    /// Most points one document may hold (all its activities and courses).
    public var points: Int

    public init(points: Int = ActivityFileReader.maxPoints) { self.points = points }

    /// `ActivityFileReader.maxPoints` (`RACEKIT_MAX_POINTS`).
    public static var standard: ReadLimits { ReadLimits() }
}

/// An XML format told by its root element and read on libxml2's streaming
/// reader, which every XML format shares (`ActivityFileReader` refuses DTDs,
/// comment bombs and cut-off files for all of them). Its handler matches the
/// element names it acts on as interned `Local` values, so a new XML format
/// also lists those names in `Vocabulary.swift`.
protocol XMLActivityReader: ActivityReader {
    /// The root element that tells the format (its local name; any namespace).
    var rootElement: Local { get }
    /// Reads the document from its root element (the current node) to its end.
    func read(_ document: XMLActivityDocument, limits: ReadLimits) throws -> ParsedDocument
}

/// An XML document at its root element, handed to the reader its root picked.
struct XMLActivityDocument {
    let stream: XMLStream
    let vocabulary: Vocabulary
    /// True when libxml2 reads on a thread of its own, ahead of the handler.
    let readAhead: Bool
    /// Work for the handler thread while it waits for nodes (hashing the file).
    let idle: () -> Bool

    /// Feeds every node from the root element to the end to `handler`.
    func drive<H: ElementHandler>(_ handler: H, limits: ReadLimits) throws {
        try ActivityFileReader.drive(
            stream, handler, vocabulary, readAhead: readAhead, pointLimit: limits.points, idle: idle)
    }
}

extension Local {
    /// The element name as written in documents.
    var spelling: String { Local.spellings.first { $0.1 == self }?.0 ?? "\(self)" }
}
