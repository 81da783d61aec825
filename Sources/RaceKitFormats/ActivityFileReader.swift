import Foundation
import RaceKitModel

/// What reading a file gave.
public enum ReadOutcome: Sendable {
    /// The document, with its activities, courses and waypoints.
    case document(ParsedDocument)
    /// The file holds no bytes, or only blanks.
    case empty
}

/// A read file: what it held, the SHA-256 of its bytes and their count.
public struct ReadResult: Sendable {
    public var outcome: ReadOutcome
    /// Hex SHA-256 of the document bytes (after gzip decompression).
    public var sha256: String
    /// Document bytes (after gzip decompression).
    public var byteCount: Int
}

/// Reads one activity document (plain or gzip) with the reader its content picks
/// from an `ActivityReaders` list: a byte reader (FIT) by its name or its header
/// after gzip, otherwise XML on libxml2's SAX2 push parser (`XMLStream`), whose root
/// element picks the XML reader (GPX, TCX). Memory stays bounded by the samples
/// kept, never the file size, and no DOM is ever built.
public enum ActivityFileReader {
    /// Most points one file may hold (all its activities and courses). Every point
    /// of a run is kept in memory while it is repaired, analysed and stored (about
    /// 140 bytes a point at the peak with every channel: 2,000,000 points took
    /// 294 MB to import and 328 MB to show), so this bounds a command near 170 MB.
    /// 1,000,000 points is 11.5 days at one point a second (a 4-day ultra is
    /// 350,000). `RACEKIT_MAX_POINTS` lowers or raises it.
    public static let maxPoints: Int = {
        if let text = ProcessInfo.processInfo.environment["RACEKIT_MAX_POINTS"], let n = Int(text), n > 0 { return n }
        return 1_000_000
    }()

    /// When the libxml2 reader runs on a thread of its own, ahead of the handler.
    public enum ReadAhead: Sendable {
        /// Never: one thread (when every core already parses a file of its own).
        case never
        /// For documents of `readAheadMinimumBytes` or more (a spare core helps).
        case largeFiles
        /// Always (tests).
        case always
    }

    /// Most comments and processing instructions one document may hold (real
    /// files have a few; a file of nothing else is a comment bomb, refused as such).
    public static let maxComments = 100_000

    /// Most activities, courses, routes, laps, tracks and segments one document may
    /// hold (each costs memory even when empty; a Garmin history export of
    /// several years holds a few thousand laps).
    public static let maxParts = 100_000

    /// Below this document size a second thread costs more than it saves.
    public static let readAheadMinimumBytes = 1 << 20

    /// Whether a document of about `documentBytes` gets a reading thread under
    /// `mode`. A document parsed whole (`XMLStream.parsesWhole`) is parsed
    /// before its first node is handled, so only tests read it ahead.
    static func readsAhead(_ mode: ReadAhead, documentBytes: Int, wholeDocument: Bool = false) -> Bool {
        switch mode {
        case .never: return false
        case .largeFiles: return !wholeDocument && documentBytes >= readAheadMinimumBytes
        case .always: return true
        }
    }

    /// Reads the file at `path` with the reader of `readers` its name or content
    /// picks; throws `FormatError` (or the reader's error) naming the file (and line).
    public static func read(
        path: String, readAhead: ReadAhead = .never, readers: ActivityReaders = .standard
    ) throws -> ReadResult {
        try read(path: path, readAhead: readAhead, pointLimit: maxPoints, readers: readers)
    }

    /// Which of libxml2's parsers reads a plain XML file.
    public enum Parsing: Sendable {
        /// The pull parser for a small file, whole (`XMLStream.parsesWhole`); the push parser otherwise.
        case bySize
        /// Always the push parser, a chunk at a time (tests).
        case pushOnly
    }

    /// `read(path:readAhead:)` with the parser `parsing` picks (the fuzz target's
    /// differential: the pull parser must read what the push parser reads).
    public static func read(path: String, readAhead: ReadAhead, parsing: Parsing) throws -> ReadResult {
        try read(path: path, readAhead: readAhead, pointLimit: maxPoints, parsing: parsing)
    }

    /// `read(path:readAhead:)` with another point limit or parser (tests).
    static func read(
        path: String, readAhead: ReadAhead, pointLimit: Int, readers: ActivityReaders = .standard,
        parsing: Parsing = .bySize
    ) throws -> ReadResult {
        if let refusal = RegularFile.refusal(path) { throw FormatError.cannotOpen(file: path, reason: refusal) }
        let limits = ReadLimits(points: pointLimit)
        if let (reader, bytes) = try sniff(path: path, readers) {
            let result = try reader.read(bytes, limits: limits)
            try (bytes as? FileByteStream)?.checkUnchanged()
            return result
        }
        do {
            return try readXML(path: path, readAhead: readAhead, limits: limits, readers: readers, parsing: parsing)
        } catch is XMLStream.TooDenseToParseWhole {
            return try readXML(path: path, readAhead: readAhead, limits: limits, readers: readers, parsing: .pushOnly)
        }
    }

    /// Reads the XML file at `path`. Parsed whole, a file denser in nodes than any
    /// activity file throws `TooDenseToParseWhole` before its first node is
    /// handled, to be read again with the push parser.
    private static func readXML(
        path: String, readAhead: ReadAhead, limits: ReadLimits, readers: ActivityReaders, parsing: Parsing
    ) throws -> ReadResult {
        let input = try InputSource(path: path)
        let whole = parsing == .bySize && XMLStream.parsesWhole(input)
        let ahead = readsAhead(readAhead, documentBytes: input.expectedBytes, wholeDocument: whole)
        // A plain file read ahead gets the pull parser on a thread of its own;
        // gzip (and any file with `.pushOnly`) the push parser, read ahead by a
        // `ReadAheadStream`.
        let mode: XMLStream.Mode =
            whole ? .whole : ahead && parsing == .bySize && input.isFile && !input.isGzip ? .ahead : .chunks
        let stream = try XMLStream(input: input, mode: mode)
        // A plain file read ahead is hashed by the handler thread while it waits
        // for nodes (the reading thread is the one that sets the pace). Everything
        // else is hashed as the parser reads it, so the file is read once: on a
        // core of its own, a file under 1 MB hashes in well under a millisecond.
        let idleDigest = !stream.isGzip && ahead ? IncrementalDigest(path: path, fd: stream.fileDescriptor) : nil
        if idleDigest != nil { stream.stopHashing() }
        let idle = idleDigest.map { d in { d.step() } } ?? { false }
        stream.idle = idle
        let outcome = try read(stream, readers, readAhead: ahead, limits: limits, idle: idle)
        let digest = try idleDigest?.value() ?? stream.finishDigest()
        // What was parsed and what was hashed are the file as it was opened.
        try stream.checkUnchanged()
        return ReadResult(outcome: outcome, sha256: digest, byteCount: stream.bytesRead)
    }

    /// Reads a document from `source` (an archive entry): gzip is told by its magic
    /// bytes and decompressed on the fly, a byte reader (FIT) by its header or the
    /// name, anything else is XML; the SHA-256 is of the decompressed bytes,
    /// as for a file. `declaredSize` (0 when unknown) only sizes buffers.
    /// `archiveLimits`: the limits of the archive the entry came from and its name,
    /// which a gzip entry's decompression counts against too.
    public static func read(
        stream source: ByteStream, declaredSize: Int = 0, archiveLimits: (ArchiveLimits, root: String)? = nil,
        readers: ActivityReaders = .standard
    ) throws -> ReadResult {
        var source = source
        var size = declaredSize
        let peeked = try PeekedByteStream(source, peek: 2)
        source = peeked
        if peeked.head == [0x1f, 0x8b] {
            source = try GunzipByteStream(peeked, limits: archiveLimits)
            size *= 8
        }
        // A byte format is told by its header (the name may say nothing: Garmin's
        // `_ACTIVITY` FIT files), or by a name that says it (its reader then says
        // what is wrong).
        if readers.headerLength > 0 {
            let head = try PeekedByteStream(source, peek: readers.headerLength)
            let named = head.head.isEmpty ? nil : readers.byteReader(claimingName: source.name)
            if let reader = readers.byteReader(header: head.head) ?? named {
                return try reader.read(head, limits: .standard)
            }
            source = head
        }
        let stream = try XMLStream(input: InputSource(stream: source, expectedSize: size))
        let outcome = try read(stream, readers, readAhead: false, limits: .standard, idle: { false })
        return ReadResult(outcome: outcome, sha256: try stream.finishDigest(), byteCount: stream.bytesRead)
    }

    /// The byte reader (FIT) of the file and a stream over it, when one claims
    /// its name (`.fit` or `.fit.gz` in any case) or the header it starts with
    /// after gzip; nil for XML.
    static func sniff(path: String, _ readers: ActivityReaders) throws -> (any ByteActivityReader, ByteStream)? {
        if let named = readers.byteReader(claimingName: path) {
            // An empty file is empty, whatever its name says (the XML path says so).
            var info = stat()
            if stat(path, &info) == 0, info.st_size == 0 { return nil }
            return (named, try FileByteStream(path: path))
        }
        let length = readers.headerLength
        guard length > 0 else { return nil }
        // The first bytes as they are on disk (cheap: no zlib buffers for every
        // GPX and TCX file); only a gzip file is opened through zlib to look inside.
        var raw = [UInt8](repeating: 0, count: length)
        guard let file = fopen(path, "rb") else { return nil }   // the XML reader reports it
        let got = fread(&raw, 1, length, file)
        fclose(file)
        let isGzip = got >= 2 && raw[0] == 0x1F && raw[1] == 0x8B
        if !isGzip {
            guard let reader = readers.byteReader(header: Array(raw.prefix(got))) else { return nil }
            return (reader, try FileByteStream(path: path))
        }
        let stream = try FileByteStream(path: path)
        var head = [UInt8](repeating: 0, count: length)
        var n = 0
        while n < length {
            // A read error here (corrupt gzip) is left to the XML reader to report.
            guard
                let got = try? head.withUnsafeMutableBytes({
                    try stream.read(into: $0.baseAddress! + n, count: length - n)
                }),
                got > 0
            else { break }
            n += got
        }
        head.removeSubrange(n...)
        guard let reader = readers.byteReader(header: head) else { return nil }
        return (reader, PeekedByteStream(stream, head: head))
    }

    private static func read(
        _ stream: XMLStream, _ readers: ActivityReaders, readAhead: Bool, limits: ReadLimits,
        idle: @escaping () -> Bool
    ) throws -> ReadOutcome {
        let path = stream.path
        if stream.isBlank { return .empty }
        if let line = stream.doctypeLine { throw FormatError.doctypeRefused(file: path, line: line) }
        if let start = stream.nonXMLStart {
            throw FormatError.malformedXML(
                file: path, line: 1,
                message: "not XML: the file holds \(start), not '<' at its start")
        }
        let vocabulary = Vocabulary(stream: stream)
        stream.vocabulary = vocabulary
        // Find the root element; refuse any DTD before it.
        while try stream.next() {
            switch XMLNodeType(rawValue: stream.nodeType) {
            case .documentType:
                throw FormatError.doctypeRefused(file: path, line: stream.currentLine)
            case .element:
                guard let reader = readers.xmlReader(root: vocabulary.local(stream.localName)) else {
                    throw FormatError.notAnActivityFile(file: path, root: stream.localNameString)
                }
                let document = XMLActivityDocument(
                    stream: stream, vocabulary: vocabulary, readAhead: readAhead, idle: idle)
                return .document(try reader.read(document, limits: limits))
            default:
                continue
            }
        }
        return .empty
    }

    /// Feeds every node from the root element (the current node) to the end.
    static func drive<H: ElementHandler>(
        _ stream: XMLStream, _ handler: H, _ vocabulary: Vocabulary,
        readAhead: Bool, pointLimit: Int, idle: @escaping () -> Bool
    ) throws {
        do {
            if readAhead && !stream.readsAheadItself {
                let ahead = ReadAheadStream(stream, idle: idle)
                defer { ahead.stop() }   // before `stream` is looked at again
                try feed(ahead, handler, vocabulary, pointLimit)
            } else {
                try feed(stream, handler, vocabulary, pointLimit)
            }
        } catch FormatError.malformedXML(let file, let line, let message)
            where stream.failedAtEndOfInput && handler.openElements > 0
        {
            // libxml2's reader reports a cut-off file as "Extra content at the end of
            // the document"; say what happened instead.
            let what =
                stream.endedAtNUL
                ? "a NUL byte ends the document inside an open element (a file overwritten or padded with zeros?)"
                : "the file ends inside an open element (truncated download or copy?)"
            throw FormatError.malformedXML(file: file, line: line, message: "\(what); libxml2: \(message)")
        }
    }

    /// " (at line N)", or nothing when the reader does not know the line.
    private static func atLine(_ line: Int?) -> String {
        guard let line, line > 0 else { return "" }
        return " (at line \(line))"
    }

    private static func feed<H: ElementHandler, S: NodeStream>(
        _ stream: S, _ handler: H, _ vocabulary: Vocabulary,
        _ limit: Int
    ) throws {
        var atCurrent = true
        var commentCount = 0
        while true {
            if !atCurrent { guard try stream.next() else { break } }
            atCurrent = false
            switch XMLNodeType(rawValue: stream.nodeType) {
            case .comment, .processingInstruction:
                // Real files hold a few of these nodes: a file of nothing but
                // comments is a comment bomb.
                commentCount += 1
                if commentCount > maxComments {
                    throw FormatError.tooLarge(
                        file: stream.path,
                        limit:
                            "more than \(maxComments) comments or processing instructions\(atLine(stream.currentLine)): activity files hold a handful, so this is refused as a comment bomb"
                    )
                }
            case .element:
                handler.start(vocabulary.local(stream.localName), stream)
                if handler.partCount > maxParts {
                    throw FormatError.tooLarge(
                        file: stream.path,
                        limit:
                            "more than \(maxParts) activities, laps, tracks, segments and routes\(atLine(stream.currentLine)): a real file holds a few hundred at most"
                    )
                }
            case .endElement:
                handler.end()
                if handler.pointCount > limit {
                    throw FormatError.tooLarge(
                        file: stream.path,
                        limit:
                            "more than \(limit) points\(atLine(stream.currentLine)); RaceKit keeps a run's points in memory, so split the file or raise RACEKIT_MAX_POINTS"
                    )
                }
            case .text:
                if handler.wantsText { stream.withValue { handler.text($0) } }
            case .documentType:
                throw FormatError.doctypeRefused(file: stream.path, line: stream.currentLine)
            default:
                continue
            }
        }
    }
}

/// Receives the element events of one document.
protocol ElementHandler: AnyObject {
    /// An element starts; `stream.namespace` gives its namespace, to be asked only
    /// where `Local.namespaceMatters(under:)` holds.
    func start<S: NodeStream>(_ local: Local, _ stream: S)
    func end()
    var wantsText: Bool { get }
    func text(_ bytes: UnsafeRawBufferPointer)
    /// Elements started and not yet ended.
    var openElements: Int { get }
    /// Points read so far (activities and courses).
    var pointCount: Int { get }
    /// Activities, courses, routes, laps, tracks and segments started so far:
    /// each holds memory of its own, even without points.
    var partCount: Int { get }
}

/// Text collection and value parsing shared by the GPX and TCX handlers.
struct TextCollector {
    private(set) var bytes: [UInt8] = []
    init() { bytes.reserveCapacity(64) }

    mutating func append(_ more: UnsafeRawBufferPointer) { bytes.append(contentsOf: more) }
    mutating func reset() { bytes.removeAll(keepingCapacity: true) }

    /// The collected text as a number; counts a non-empty, non-numeric value.
    func number(_ issues: inout ReadIssues) -> Double {
        bytes.withUnsafeBytes { buf in
            if let v = NumberParser.parseDouble(buf) { return v }
            if buf.contains(where: { !TimestampParser.isBlankByte($0) }) { issues.nonNumericValues += 1 }
            return .nan
        }
    }

    /// The collected text as a timestamp; counts unparseable and zone-less values.
    func time(_ issues: inout ReadIssues) -> Double {
        bytes.withUnsafeBytes { buf in
            guard let t = TimestampParser.parse(buf) else {
                if buf.contains(where: { !TimestampParser.isBlankByte($0) }) { issues.unparseableTimes += 1 }
                return .nan
            }
            if t.hadNoZone { issues.timesWithoutZone += 1 }
            return t.secondsSinceEpoch
        }
    }

    /// The collected text as a trimmed string, nil when blank.
    var string: String? {
        let s = String(decoding: bytes, as: UTF8.self).trimmingBlanks()
        return s.isEmpty ? nil : s
    }
}

/// Parses an attribute value as a number, counting non-numeric values.
func parseNumber(_ bytes: UnsafeRawBufferPointer, _ issues: inout ReadIssues) -> Double {
    if let v = NumberParser.parseDouble(bytes) { return v }
    issues.nonNumericValues += 1
    return .nan
}

/// The open elements of a document with what each one captures, and the text
/// collected for the innermost capture: the bookkeeping both handlers share.
struct ElementStack<Capture: Equatable> {
    private struct Frame { var local: Local; var capture: Capture }
    private var frames: [Frame] = []
    private let none: Capture
    /// What the innermost open element captures.
    private(set) var capture: Capture
    /// Text collected for it.
    private(set) var text = TextCollector()

    init(none: Capture) {
        self.none = none
        capture = none
        frames.reserveCapacity(16)
    }

    /// The innermost open element.
    var parent: Local { frames.last?.local ?? .other }
    var depth: Int { frames.count }
    var wantsText: Bool { capture != none }

    mutating func push(_ local: Local, capture: Capture) {
        frames.append(Frame(local: local, capture: capture))
        self.capture = capture
    }

    mutating func append(_ bytes: UnsafeRawBufferPointer) { text.append(bytes) }

    /// Closes the innermost element; its capture is what `text` holds until `clearText()`.
    mutating func pop() -> (local: Local, capture: Capture)? {
        guard let frame = frames.popLast() else { return nil }
        capture = none
        return (frame.local, frame.capture)
    }

    mutating func clearText() { text.reset() }

    // The collected text, read in place. Mutating although they only read: a
    // handler keeps its stack in a stored property of a class, and a
    // non-mutating call there copies the stack out (a retain and a release of
    // both of its arrays) for every value read: 2% of a folder import's time.
    mutating func number(_ issues: inout ReadIssues) -> Double { text.number(&issues) }
    mutating func time(_ issues: inout ReadIssues) -> Double { text.time(&issues) }
    var string: String? { text.string }
}
