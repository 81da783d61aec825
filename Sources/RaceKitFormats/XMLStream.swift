@preconcurrency internal import CLibXML2
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// One-time libxml2 set-up: `xmlInitParser` before any thread parses, and an
/// external-entity loader that refuses everything, so no file or URL named in a
/// document is ever read (no XXE), whatever the parse options.
enum LibXML {
    static let ready: Bool = {
        xmlInitParser()
        xmlSetExternalEntityLoader { _, _, _ in nil }
        return true
    }()
}

extension LibXML {
    /// Frees a SAX parser context and the document libxml2 makes behind the
    /// callbacks' back: an entity declaration in SAX mode goes into a made-up
    /// document with a made-up DTD ("for expat compatibility"), which
    /// `xmlFreeParserCtxt` leaves (LeakSanitizer found it on a refused DOCTYPE).
    static func free(_ context: xmlParserCtxtPtr) {
        if let doc = context.pointee.myDoc {
            xmlFreeDoc(doc)
            context.pointee.myDoc = nil
        }
        xmlFreeParserCtxt(context)
    }
}

/// The nodes the SAX callbacks deliver (an empty element comes as a start and
/// an end; CDATA as text), numbered as libxml2's reader numbers them.
enum XMLNodeType: Int32 {
    case element = 1, text = 3, processingInstruction = 7, comment = 8, documentType = 10, endElement = 15
}

/// The nodes of one XML document, from libxml2's SAX2 push parser: no node
/// objects and no tree. Each chunk of bytes the parser takes calls back once per
/// start tag, end tag and piece of text, and the callbacks copy what the
/// handlers may look at into a `NodeBatch` (the same buffers the read-ahead
/// thread hands over): element names as pointers into the parser's dictionary
/// (compared against interned pointers, `Vocabulary`), namespaces resolved by
/// URI where they matter (`NamespaceCache`), attributes and text as bytes. No
/// String per node. (libxml2's `xmlTextReader`, which `xmllint --stream` uses,
/// builds and frees a node object per element on top of the same parser.)
final class XMLStream: NodeStream {
    /// The handler side's batch and node (see `Cursor`): the first field, a
    /// cache line away from the parsing state below, which the reading thread
    /// writes for every node (`.ahead`) while the handler thread reads this.
    private let cursor: Cursor
    private let cursorPadding = CacheLinePadding()

    /// Parse options: no network, CDATA as text, blank-only text between
    /// elements dropped. Never NOENT (entity substitution), DTDLOAD or HUGE.
    static let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOCDATA.rawValue | XML_PARSE_NOBLANKS.rawValue)
    /// Bytes handed to the parser at a time: a chunk's nodes fill a fraction of a batch.
    static let chunkSize = 128 * 1024
    /// Longest text node (libxml2's own limit without XML_PARSE_HUGE, which
    /// its tree builder enforces and these callbacks take over).
    static let maxTextBytes = 10_000_000

    let path: String
    /// Set by the reader once the vocabulary exists, before the first node.
    var vocabulary: Vocabulary! {
        didSet { words = vocabulary.map { Unmanaged.passUnretained($0) } }
    }
    /// `vocabulary` for the callbacks, without reference counting.
    private var words: Unmanaged<Vocabulary>?
    private let input: InputSource
    private var context: xmlParserCtxtPtr?
    private var firstError: (line: Int, message: String)?
    /// The error a failed batch ends with, as thrown (an archive's limits are not FormatErrors).
    private var failure: (any Error)?
    private let chunk = UnsafeMutablePointer<CChar>.allocate(capacity: XMLStream.chunkSize)
    private var terminated = false
    private var parsed = false
    /// How the document is parsed (see `Mode`).
    let mode: Mode
    private var wholeDocument: Bool { mode == .whole }
    /// The pull parser (`.whole`, `.ahead`) reads through `pull`; the push parser is given chunks.
    private var pulls: Bool { mode != .chunks }
    private let namespaces = NamespaceCache()
    /// The local names of the open elements (libxml2 refuses nesting deeper than
    /// 256 without XML_PARSE_HUGE; deeper ones share the last slot).
    private let parents = UnsafeMutablePointer<Local>.allocate(capacity: XMLStream.maxDepth)
    private var depth = 0
    static let maxDepth = 1024
    /// Elements nested deeper than this are refused (libxml2's limit without
    /// XML_PARSE_HUGE), whichever parser reads the document.
    static let maxNesting = 256
    /// Elements with more attributes than this are refused, whichever parser
    /// reads the document (a start tag is also at most `StartTagProbe.maximumBytes`).
    static let maxAttributes = 1000
    /// The batch the callbacks append to, while `filling` (`fill` holds it),
    /// without reference counting.
    private var target: Unmanaged<NodeBatch>
    private var filling = false
    /// The last node of `target` is text the parser may still be adding to.
    private var textOpen = false
    /// The text goes on from the last event (in this batch or the one before), and its length so far.
    private var textContinues = false
    private var textBytes = 0
    /// Blanks that began a text node, held back until the next event: dropped
    /// when a tag follows (the indentation between elements, half the nodes of
    /// a TCX file, which no handler reads), handed on as the text's start when
    /// more text, a comment or a processing instruction follows.
    private let blank = UnsafeMutableRawPointer.allocate(byteCount: XMLStream.blankCapacity, alignment: 1)
    private var blankCount = 0
    static let blankCapacity = 256

    private var own: NodeBatch {
        get { cursor.own }
        set { cursor.own = newValue }
    }
    private var index: Int {
        get { cursor.index }
        set { cursor.index = newValue }
    }
    private var current: UnsafeMutablePointer<BufferedNode> {
        get { cursor.current }
        set { cursor.current = newValue }
    }

    convenience init(path: String) throws {
        try self.init(input: InputSource(path: path))
    }

    /// Plain documents up to this size are parsed whole by libxml2's pull
    /// parser (`wholeDocument`): its loop costs a tenth less than the push
    /// parser's state machine, and the nodes of a 4 MB document fit in memory (a
    /// real one takes 8 MB; at worst, 20 bytes of node per byte of `<a/>`, 80 MB).
    static let wholeDocumentMaximumBytes = 4 << 20

    /// True when `input` is parsed whole: a plain file of at most
    /// `wholeDocumentMaximumBytes`. Decided by the document alone, so that a
    /// file gets the same parser, and libxml2's same messages, however it is
    /// imported (the two parsers word some errors differently: a cut file is
    /// "Premature end of data in tag trkseg" to one, "Extra content at the end
    /// of the document" to the other).
    static func parsesWhole(_ input: InputSource) -> Bool {
        !input.isGzip && input.isFile && input.fileSize <= wholeDocumentMaximumBytes
    }

    /// Thrown by a whole-document parse of a file with more nodes and
    /// attributes than an eighth of its bytes (the densest activity files hold
    /// one per 12 bytes; `<a/>` is two nodes in 4 bytes, 20 bytes of memory
    /// per byte of file), before any node is handed out: the file is then read
    /// with the push parser, whose memory does not grow with the file.
    struct TooDenseToParseWhole: Error {}

    /// Most nodes and attributes a whole-document parse of this file may make.
    private let wholeBudget: Int

    /// How a document is parsed.
    enum Mode: Sendable {
        /// libxml2's push parser, given a chunk at a time by `fill` until a batch is
        /// full (on this thread, or on `ReadAheadStream`'s).
        case chunks
        /// The pull parser, on the first `fill`, into one batch (which grows to hold
        /// the document): for small files (`parsesWhole`).
        case whole
        /// The pull parser on a thread of its own from the first `next()`, handing
        /// each batch over as it fills (`NodePipe`): for large plain files when a
        /// core is spare. (The push parser cannot be paused and resumed by another
        /// parser: reading ahead of it needs its own thread from the first node.)
        case ahead
    }

    /// Work for the moments `next()` waits for the reading thread (`.ahead`):
    /// hashing the file. Set before the first `next()`.
    var idle: () -> Bool = { false }
    /// `.ahead`: the hand-over from the reading thread, and whether it started.
    private let pipe: NodePipe?
    private var reading: Bool {
        get { cursor.reading }
        set { cursor.reading = newValue }
    }
    /// `.ahead`, on the reading thread: the batch the callbacks fill.
    private var aheadBatch: NodeBatch?

    /// True when the stream reads ahead on a thread of its own (`.ahead`), so no
    /// `ReadAheadStream` is needed.
    var readsAheadItself: Bool { mode == .ahead }

    init(input: InputSource, mode: Mode = .chunks) throws {
        _ = LibXML.ready
        self.path = input.path
        self.input = input
        self.mode = mode
        pipe = mode == .ahead ? NodePipe() : nil
        wholeBudget = max(1 << 16, input.fileSize / 8)
        cursor = Cursor(mode == .whole ? NodeBatch.lend(documentBytes: input.fileSize) : NodeBatch())
        target = Unmanaged.passUnretained(cursor.own)
        var sax = xmlSAXHandler()
        sax.initialized = UInt32(XML_SAX2_MAGIC)
        sax.startElementNs = { ctx, localname, _, uri, _, _, count, _, attributes in
            guard let ctx, let localname else { return }
            XMLStream.with(ctx) { $0.startElement(localname, uri, Int(count), attributes) }
        }
        sax.endElementNs = { ctx, _, _, _ in
            guard let ctx else { return }
            XMLStream.with(ctx) { $0.endElement() }
        }
        sax.characters = { ctx, bytes, count in
            guard let ctx, let bytes else { return }
            XMLStream.with(ctx) { $0.characters(UnsafeRawBufferPointer(start: bytes, count: Int(count))) }
        }
        sax.comment = { ctx, _ in
            guard let ctx else { return }
            XMLStream.with(ctx) { $0.other(.comment) }
        }
        sax.processingInstruction = { ctx, _, _ in
            guard let ctx else { return }
            XMLStream.with(ctx) { $0.other(.processingInstruction) }
        }
        sax.internalSubset = { ctx, _, _, _ in
            guard let ctx else { return }
            XMLStream.with(ctx) { $0.other(.documentType) }
        }
        sax.serror = { ctx, error in
            guard let ctx, let error else { return }
            XMLStream.with(ctx) { $0.record(error.pointee) }
        }
        let me = Unmanaged.passUnretained(self).toOpaque()
        let created =
            pulls
            ? xmlCreateIOParserCtxt(
                &sax, me,
                { ctx, buffer, count in
                    guard let ctx, let buffer else { return -1 }
                    return Unmanaged<XMLStream>.fromOpaque(ctx)._withUnsafeGuaranteedRef { $0.pull(buffer, Int(count)) }
                }, nil, me, XML_CHAR_ENCODING_NONE)
            : xmlCreatePushParserCtxt(&sax, me, nil, 0, path)
        guard let ctxt = created else {
            // Fully initialised: deinit frees the buffers.
            throw FormatError.cannotOpen(file: path, reason: "libxml2 could not create a parser")
        }
        xmlCtxtUseOptions(ctxt, XMLStream.options)
        context = ctxt
    }

    deinit {
        // The reading thread uses the parser until it is told to stop.
        if reading { pipe?.stopAndWait() }
        if let context { LibXML.free(context) }
        if wholeDocument { NodeBatch.giveBack(own) }
        chunk.deallocate()
        blank.deallocate()
        parents.deallocate()
        input.close()
    }

    /// The stream a callback's context points to, without reference counting
    /// (the stream outlives its parser: a retain and a release per node were a
    /// quarter of an import's time).
    @inline(__always)
    private static func with(_ ctx: UnsafeMutableRawPointer, _ body: (XMLStream) -> Void) {
        Unmanaged<XMLStream>.fromOpaque(ctx)._withUnsafeGuaranteedRef(body)
    }

    /// Line of a DOCTYPE declaration seen before parsing, if any.
    var doctypeLine: Int? { input.doctypeLine }
    /// The first characters when the document does not start with `<`.
    var nonXMLStart: String? { input.nonXMLStart }

    /// A capacity guess for the sample arrays: about one point per 200 bytes of
    /// file (gzip: eight times the compressed size), at most 4 million.
    var expectedPoints: Int { max(64, min(4_000_000, expectedBytes / 200)) }
    /// The document's size: the file's, or eight times it for gzip.
    var expectedBytes: Int { input.expectedBytes }

    /// True when the document is empty or blank.
    var isBlank: Bool { input.isBlank }
    /// True once the whole input was read.
    var reachedEnd: Bool { input.reachedEnd && input.readError == nil }
    /// True when the parser's first error came once it was told the input had
    /// ended (a cut-off file), not from bytes it had in hand: a small file is
    /// read whole before the parser meets an error in its middle.
    var failedAtEndOfInput: Bool { firstErrorAtEnd && (reachedEnd || input.endedAtNUL) }
    /// True when a NUL byte ended the document (`InputSource.endedAtNUL`).
    var endedAtNUL: Bool { input.endedAtNUL }
    private var firstErrorAtEnd = false

    /// True when the input is gzip data.
    var isGzip: Bool { input.isGzip }

    /// SHA-256 (hex) of the whole document, hashed as it was read; reads what the
    /// parser left.
    func finishDigest() throws -> String { try input.finishDigest() }
    /// The descriptor of the file on disk, -1 for an archive entry.
    var fileDescriptor: Int32 { input.fd }
    /// See `InputSource.checkUnchanged`.
    func checkUnchanged() throws { try input.checkUnchanged() }

    /// Leaves the hashing to someone else (see `InputSource.stopHashing`).
    func stopHashing() { input.stopHashing() }

    /// Decompressed bytes read so far.
    var bytesRead: Int { input.totalBytes }

    /// An interned copy of `name` in the parser's dictionary (where the
    /// callbacks' names come from).
    func intern(_ name: String) -> UnsafeRawPointer {
        UnsafeRawPointer(xmlDictLookup(context!.pointee.dict, name, -1)!)
    }

    // MARK: Parsing into batches

    /// Parses chunks into `batch` until it is full, the document ends (`end`
    /// set to success) or fails (`end` set to the error; `failure` holds it as
    /// thrown). Nodes before an error are delivered before it.
    func fill(_ batch: NodeBatch) {
        target = Unmanaged.passUnretained(batch)
        filling = true
        textOpen = false
        defer { filling = false }
        if wholeDocument { return fillWhole(batch) }
        while !batch.isFull, batch.end == nil {
            guard let context, !terminated else {
                batch.end = .success(())
                return
            }
            let n = input.read(into: chunk, count: XMLStream.chunkSize)
            guard n >= 0 else { return fail(batch, readFailure()) }
            terminated = n == 0
            let code = xmlParseChunk(context, chunk, n, terminated ? 1 : 0)
            if let failure { return fail(batch, failure) }
            if code != 0 || (terminated && firstError != nil) {
                return fail(batch, input.streamError ?? currentError())
            }
        }
    }

    /// The whole document into `batch`, with the pull parser reading through `pull`.
    private func fillWhole(_ batch: NodeBatch) {
        guard let context, !parsed else {
            batch.end = .success(())
            return
        }
        parsed = true
        let code = xmlParseDocument(context)
        if let failure {
            // Too dense: no node is handed out, the file is read again.
            if failure is TooDenseToParseWhole { batch.reset() }
            return fail(batch, failure)
        }
        if code != 0 || firstError != nil { return fail(batch, input.streamError ?? currentError()) }
        terminated = true
        batch.end = .success(())
    }

    /// `.ahead`, on the reading thread: parses the whole document, the callbacks
    /// handing each batch over as it fills (`handOver`), the last one with the
    /// end or the error, unless the handler side stopped first.
    private func parseAhead(_ pipe: NodePipe) {
        defer { pipe.finish() }
        guard let first = pipe.emptyBatch(), let context else { return }
        aheadBatch = first
        target = Unmanaged.passUnretained(first)
        filling = true
        textOpen = false
        let code = xmlParseDocument(context)
        guard filling, let batch = aheadBatch else { return }   // stopped by the handler side
        filling = false
        if let failure {
            fail(batch, failure)
        } else if code != 0 || firstError != nil {
            fail(batch, input.streamError ?? currentError())
        } else {
            terminated = true
            batch.end = .success(())
        }
        aheadBatch = nil
        pipe.send(batch)
    }

    /// `.ahead`, on the reading thread, between two nodes: a full batch goes to the
    /// handler side and an empty one takes its place; when the handler side has
    /// stopped, the parser stops too.
    @inline(__always)
    private func handOverIfFull(_ batch: NodeBatch) {
        guard let pipe, batch.isFull else { return }
        pipe.send(batch)
        guard let next = pipe.emptyBatch() else {
            aheadBatch = nil
            filling = false
            if let context { xmlStopParser(context) }
            return
        }
        aheadBatch = next
        target = Unmanaged.passUnretained(next)
        textOpen = false
    }

    /// `.ahead`: starts the reading thread (on the first `next()`, after the
    /// vocabulary was interned into the parser's dictionary).
    private func startReading(_ pipe: NodePipe) {
        reading = true
        let me = Unmanaged.passUnretained(self)
        // The stream outlives the thread: its deinit waits for it (`stopAndWait`).
        nonisolated(unsafe) let stream = me
        let thread = Thread { stream._withUnsafeGuaranteedRef { $0.parseAhead(pipe) } }
        thread.name = "racekit-read-ahead"
        thread.start()
    }

    /// The pull parser's read: up to `count` bytes; 0 at the end, -1 on error.
    /// The end counts as met once a read finds it (an error after that is one at
    /// the end of the input, as when the push parser is told the input ended).
    /// A file that grows past twice `wholeDocumentMaximumBytes` while it is
    /// read is refused (its nodes are all kept).
    private func pull(_ buffer: UnsafeMutablePointer<CChar>, _ count: Int) -> Int32 {
        guard mode != .whole || input.totalBytes <= 2 * XMLStream.wholeDocumentMaximumBytes else {
            failure = FormatError.cannotOpen(file: path, reason: "the file grew while it was read")
            return -1
        }
        let n = input.read(into: buffer, count: count)
        if n == 0 { terminated = true }
        return n
    }

    private func fail(_ batch: NodeBatch, _ error: any Error) {
        failure = error
        terminated = true
        batch.end = .failure(
            error as? FormatError ?? .malformedXML(file: path, line: nil, message: "\(error)"))
    }

    private func readFailure() -> any Error {
        input.streamError ?? currentError()
    }

    /// Bytes the parser holds and has not parsed yet.
    private var bytesInHand: Int {
        guard let input = context?.pointee.input, let cur = input.pointee.cur, let end = input.pointee.end else {
            return 0
        }
        return end - cur
    }

    private var lineNow: Int32 {
        guard let input = context?.pointee.input else { return 0 }
        return Int32(truncatingIfNeeded: input.pointee.line)
    }

    private func startElement(
        _ localname: UnsafePointer<xmlChar>, _ uri: UnsafePointer<xmlChar>?, _ count: Int,
        _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) {
        guard filling else { return }
        target._withUnsafeGuaranteedRef { startElement(into: $0, localname, uri, count, attributes) }
    }

    private func startElement(
        into batch: NodeBatch, _ localname: UnsafePointer<xmlChar>, _ uri: UnsafePointer<xmlChar>?, _ count: Int,
        _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) {
        textOpen = false
        textContinues = false
        blankCount = 0
        if depth >= XMLStream.maxNesting {
            // The pull parser refuses this element itself, before this callback;
            // the push parser of libxml2 2.9 does not: refused the same way here.
            failure = FormatError.malformedXML(
                file: path, line: adjustedLine(Int(lineNow)),
                message: "Excessive depth in document: \(XMLStream.maxNesting) use XML_PARSE_HUGE option")
            if let context { xmlStopParser(context) }
            return
        }
        if count > XMLStream.maxAttributes {
            let name = String(cString: localname).prefix(40)
            failure = FormatError.tooLarge(
                file: path,
                limit:
                    "<\(name)> at line \(adjustedLine(Int(lineNow)).map(String.init) ?? "?") has \(count) attributes, more than \(XMLStream.maxAttributes): real elements have a handful"
            )
            if let context { xmlStopParser(context) }
            return
        }
        var n = BufferedNode()
        n.type = XMLNodeType.element.rawValue
        n.localName = UnsafeRawPointer(localname)
        n.line = lineNow
        let local = words?._withUnsafeGuaranteedRef { $0.local(n.localName) } ?? .other
        if depth == 0 || local.namespaceMatters(under: parents[min(depth, XMLStream.maxDepth) - 1]) {
            n.namespace = uri.map { namespaces.namespace(of: UnsafeRawPointer($0)) } ?? .none
            n.hasNamespace = true
        }
        parents[min(depth, XMLStream.maxDepth - 1)] = local
        depth += 1
        n.attributeStart = Int32(batch.attributeCount)
        if let attributes {
            for k in 0..<count {
                guard let name = attributes[5 * k] else { continue }
                let start = attributes[5 * k + 3], end = attributes[5 * k + 4]
                let value =
                    start.flatMap { s in end.map { UnsafeRawBufferPointer(start: s, count: $0 - s) } }
                    ?? UnsafeRawBufferPointer(start: nil, count: 0)
                if value.contains(UInt8(ascii: "&")) {
                    // Without entity substitution the parser writes an `&` of the
                    // value back as `&#38;` (the tree builder would decode it).
                    Self.unescapingAmpersands(value) { batch.appendAttribute(name: UnsafeRawPointer(name), value: $0) }
                } else {
                    batch.appendAttribute(name: UnsafeRawPointer(name), value: value)
                }
            }
        }
        n.attributeCount = Int32(batch.attributeCount) - n.attributeStart
        batch.append(n)
        if wholeDocument { checkDensity(batch) }
        if mode == .ahead { handOverIfFull(batch) }
    }

    /// Stops a whole-document parse that outgrows `wholeBudget` (each start
    /// tag, comment and processing instruction checks: at most one text node
    /// and one end tag come between two checks).
    @inline(__always)
    private func checkDensity(_ batch: NodeBatch) {
        guard batch.nodeCount + batch.attributeCount > wholeBudget, failure == nil else { return }
        failure = TooDenseToParseWhole()
        if let context { xmlStopParser(context) }
    }

    /// `value` with each `&#38;` as `&`.
    static func unescapingAmpersands(_ value: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Void) {
        let escape = Array("&#38;".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(value.count)
        var k = 0
        while k < value.count {
            if value[k] == escape[0], k + escape.count <= value.count,
                (0..<escape.count).allSatisfy({ value[k + $0] == escape[$0] })
            {
                out.append(UInt8(ascii: "&"))
                k += escape.count
            } else {
                out.append(value[k])
                k += 1
            }
        }
        out.withUnsafeBytes(body)
    }

    private func endElement() {
        guard filling else { return }
        target._withUnsafeGuaranteedRef { endElement(into: $0) }
    }

    private func endElement(into batch: NodeBatch) {
        textOpen = false
        textContinues = false
        blankCount = 0
        depth = max(0, depth - 1)
        var n = BufferedNode()
        n.type = XMLNodeType.endElement.rawValue
        n.line = lineNow
        batch.append(n)
        if mode == .ahead { handOverIfFull(batch) }
    }

    private func characters(_ bytes: UnsafeRawBufferPointer) {
        guard filling else { return }
        target._withUnsafeGuaranteedRef { characters(into: $0, bytes) }
    }

    private func characters(into batch: NodeBatch, _ bytes: UnsafeRawBufferPointer) {
        if !textContinues, bytes.count <= XMLStream.blankCapacity, Self.isBlank(bytes) {
            if let base = bytes.baseAddress { blank.copyMemory(from: base, byteCount: bytes.count) }
            blankCount = bytes.count
            textBytes = bytes.count
            textContinues = true
            return
        }
        if blankCount > 0 { releaseBlank(into: batch) }
        // One text node goes on over batches (the handler appends the pieces):
        // its length counts from the event before it.
        textBytes = textContinues ? textBytes + bytes.count : bytes.count
        textContinues = true
        if textOpen {
            batch.extendLastText(bytes)
        } else {
            var n = BufferedNode()
            n.type = XMLNodeType.text.rawValue
            (n.valueStart, n.valueCount) = batch.store(bytes)
            batch.append(n)
            textOpen = true
        }
        if textBytes > XMLStream.maxTextBytes {
            failure = FormatError.malformedXML(
                file: path, line: adjustedLine(Int(lineNow)), message: "xmlSAX2Characters: huge text node")
            if let context { xmlStopParser(context) }
        }
    }

    /// True when `bytes` are XML blanks only (libxml2 gives line ends as LF).
    @inline(__always)
    private static func isBlank(_ bytes: UnsafeRawBufferPointer) -> Bool {
        for b in bytes where b != 0x20 && b != 0x0A && b != 0x09 && b != 0x0D { return false }
        return true
    }

    /// The held-back blanks as the start of a text node (in `batch`: the text
    /// may have begun in the batch before).
    private func releaseBlank(into batch: NodeBatch) {
        var n = BufferedNode()
        n.type = XMLNodeType.text.rawValue
        (n.valueStart, n.valueCount) = batch.store(UnsafeRawBufferPointer(start: blank, count: blankCount))
        batch.append(n)
        textOpen = true
        blankCount = 0
    }

    /// A comment, processing instruction or DOCTYPE: counted or refused by the node loop.
    private func other(_ type: XMLNodeType) {
        guard filling else { return }
        target._withUnsafeGuaranteedRef { other(into: $0, type) }
    }

    private func other(into batch: NodeBatch, _ type: XMLNodeType) {
        if blankCount > 0 { releaseBlank(into: batch) }
        textOpen = false
        textContinues = false
        var n = BufferedNode()
        n.type = type.rawValue
        n.line = lineNow
        batch.append(n)
        if wholeDocument { checkDensity(batch) }
        if type == .documentType {
            // Refused: the parser stops before it reads a declaration of the
            // subset (an entity bomb past the first 64 KB is never parsed).
            failure = FormatError.doctypeRefused(file: path, line: adjustedLine(Int(n.line)))
            if let context { xmlStopParser(context) }
        } else if mode == .ahead {
            handOverIfFull(batch)
        }
    }

    private func record(_ error: xmlError) {
        guard firstError == nil, error.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
        var message = error.message.map { String(cString: $0) } ?? "XML error \(error.code)"
        while message.last == "\n" || message.last == " " { message.removeLast() }
        firstError = (Int(error.line), message)
        // The pull parser knows the end from its first read there; what it had
        // in hand by then is all parsed before this error only when the error is
        // at the very end, and a complete end tag that does not match is no cut.
        firstErrorAtEnd =
            pulls
            ? terminated && bytesInHand == 0 && error.code != Int32(XML_ERR_TAG_NAME_MISMATCH.rawValue)
            : terminated
        // The pull parser would go on past its first error to the end of the
        // file (a 63 MB file broken at line 103 was read to the end, and refused
        // for a text node of 10 MB that the broken tag made): stop it here, as
        // the push parser stops at the end of the chunk.
        if pulls, let context { xmlStopParser(context) }
    }

    private func currentError() -> FormatError {
        if let message = input.readError {
            return input.isGzip
                ? .corruptGzip(file: path, message: message)
                : .cannotOpen(file: path, reason: message)
        }
        if let firstError {
            let line = firstError.line > 0 ? firstError.line + input.strippedNewlines : nil
            return .malformedXML(file: path, line: line, message: firstError.message)
        }
        return .malformedXML(file: path, line: adjustedLine(Int(lineNow)), message: "the XML could not be parsed")
    }

    // MARK: Single-thread reading (NodeStream)

    /// Advances to the next node; false at the end of the document.
    func next() throws -> Bool {
        while true {
            if index + 1 < own.nodeCount {
                index += 1
                current = own.nodes + index
                return true
            }
            if let end = own.end {
                // The reading thread has sent its last batch: wait until it is gone.
                if reading { pipe?.stopAndWait(); reading = false }
                if case .failure(let error) = end { throw failure ?? error }
                return false
            }
            if let pipe {
                if !reading { startReading(pipe) } else { pipe.recycle(own) }
                own = pipe.receive(idle: idle)
                index = -1
                continue
            }
            own.reset()
            index = -1
            fill(own)
        }
    }

    /// Hands the rest of the nodes over (the current one first): the batch and
    /// the current node's index in it. This stream's own reading stops there;
    /// `fill` goes on into other batches (`ReadAheadStream`).
    func takeRemaining() -> (NodeBatch, Int) {
        let rest = (own, index)
        own = NodeBatch()
        index = -1
        current = own.nodes
        return rest
    }

    var nodeType: Int32 { current.pointee.type }
    var localName: UnsafeRawPointer? { current.pointee.localName }
    /// The current element's namespace (resolved for the root and wherever
    /// `Local.namespaceMatters(under:)` holds).
    var namespace: Namespace {
        assert(current.pointee.hasNamespace, "namespace asked of an element whose namespace was not resolved")
        return current.pointee.namespace
    }
    var currentLine: Int? { adjustedLine(rawLine) }
    /// The parser's line at the current node, before adding the lines dropped from the start.
    var rawLine: Int { Int(current.pointee.line) }
    /// A parser line as a line of the file.
    func adjustedLine(_ raw: Int) -> Int? { raw > 0 ? raw + input.strippedNewlines : nil }

    /// The local name of the current node as a String (for messages).
    var localNameString: String {
        current.pointee.localName.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? "?"
    }

    /// The current text node's bytes, without copying.
    @inline(__always)
    func withValue<T>(_ body: (UnsafeRawBufferPointer) -> T) -> T {
        body(own.value(current.pointee.valueStart, current.pointee.valueCount))
    }

    /// Calls `body` with each attribute's interned local name and value bytes
    /// (namespace declarations are not attributes).
    func forEachAttribute(_ body: (UnsafeRawPointer, UnsafeRawBufferPointer) -> Void) {
        let n = current.pointee
        for k in Int(n.attributeStart)..<Int(n.attributeStart + n.attributeCount) {
            let a = own.attributes[k]
            body(a.name, own.value(a.valueStart, a.valueCount))
        }
    }
}

/// Namespace URIs (NUL-terminated bytes) to `Namespace`, remembering the last
/// match: a document uses one or two extension namespaces, over and over.
final class NamespaceCache {
    private let known: [(bytes: [UInt8], namespace: Namespace)] =
        Namespace.uris.map { (Array($0.0.utf8) + [0], $0.1) }
    private var last = -1

    func namespace(of uri: UnsafeRawPointer) -> Namespace {
        let text = uri.assumingMemoryBound(to: CChar.self)
        if last >= 0, matches(text, known[last].bytes) { return known[last].namespace }
        for (k, entry) in known.enumerated() where matches(text, entry.bytes) {
            last = k
            return entry.namespace
        }
        return .other
    }

    @inline(__always)
    private func matches(_ text: UnsafePointer<CChar>, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { b in
            b.baseAddress!.withMemoryRebound(to: CChar.self, capacity: b.count) { strcmp(text, $0) == 0 }
        }
    }
}

/// Where the handler side of an `XMLStream` is in its nodes: the batch it
/// reads, the node, whether a reading thread runs. An object of its own, padded
/// on both sides: with `.ahead`, the handler thread writes here for every node
/// while the reading thread writes the stream's parsing state for every node,
/// and sharing cache lines made both threads a quarter slower (a 55 MB import
/// 0.45 s instead of 0.37).
private final class Cursor {
    private let before = CacheLinePadding()
    var own: NodeBatch
    var index = -1
    var current: UnsafeMutablePointer<BufferedNode>
    var reading = false
    private let after = CacheLinePadding()

    init(_ batch: NodeBatch) {
        own = batch
        current = batch.nodes
    }
}

/// A cache line's worth of nothing, between fields two threads write.
private struct CacheLinePadding {
    let bytes: (Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64) = (0, 0, 0, 0, 0, 0, 0, 0)
}
