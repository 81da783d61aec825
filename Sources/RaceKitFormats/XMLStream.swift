@preconcurrency internal import CLibXML2

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

/// The node types of libxml2's xmlTextReader that RaceKit handles.
enum XMLNodeType: Int32 {
    case element = 1, text = 3, cdata = 4, entityReference = 5, processingInstruction = 7, comment = 8
    case documentType = 10
    case whitespace = 13, significantWhitespace = 14, endElement = 15
}

/// A thin, allocation-free wrapper over one `xmlTextReader`.
///
/// Element names come back as pointers into the reader's dictionary and are
/// compared against interned pointers (`Vocabulary`), namespaces by their URI
/// against the last one seen (`NamespaceCache`): no String per node.
final class XMLStream: NodeStream {
    /// Parse options: no network, CDATA as text, drop blank-only text nodes, keep
    /// short text inside its node (one allocation less per value). Never
    /// NOENT (entity substitution), DTDLOAD or HUGE.
    static let options = Int32(
        XML_PARSE_NONET.rawValue | XML_PARSE_NOCDATA.rawValue | XML_PARSE_NOBLANKS.rawValue | XML_PARSE_COMPACT.rawValue
    )

    let path: String
    /// Set by the reader once the vocabulary exists.
    var vocabulary: Vocabulary!
    private let input: InputSource
    private let reader: xmlTextReaderPtr
    private var firstError: (line: Int, message: String)?

    convenience init(path: String) throws {
        try self.init(input: InputSource(path: path))
    }

    init(input: InputSource) throws {
        _ = LibXML.ready
        self.path = input.path
        self.input = input
        let context = Unmanaged.passUnretained(input).toOpaque()
        guard
            let r = xmlReaderForIO(
                { ctx, buffer, len in
                    guard let ctx, let buffer else { return -1 }
                    return Unmanaged<InputSource>.fromOpaque(ctx).takeUnretainedValue().read(
                        into: buffer, count: Int(len))
                }, nil, context, path, nil, XMLStream.options)
        else {
            throw FormatError.cannotOpen(file: path, reason: "libxml2 could not create a reader")
        }
        reader = r
        xmlTextReaderSetStructuredErrorHandler(
            reader,
            { ctx, error in
                guard let ctx, let error else { return }
                let stream = Unmanaged<XMLStream>.fromOpaque(ctx).takeUnretainedValue()
                stream.record(error.pointee)
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        xmlFreeTextReader(reader)
        input.close()
    }

    /// Line of a DOCTYPE declaration seen before parsing, if any.
    var doctypeLine: Int? { input.doctypeLine }
    /// The first characters when the document does not start with `<`.
    var nonXMLStart: String? { input.nonXMLStart }

    /// A capacity guess for the sample arrays: about one point per 200 bytes of
    /// file (gzip: eight times the compressed size), at most 4 million.
    var expectedPoints: Int { max(64, min(4_000_000, expectedBytes / 200)) }
    /// The document's size: the file's, or eight times it for gzip.
    var expectedBytes: Int { input.isGzip ? input.fileSize * 8 : input.fileSize }

    /// True when the document is empty or blank.
    var isBlank: Bool { input.isBlank }
    /// True once the whole input was read.
    var reachedEnd: Bool { input.reachedEnd && input.readError == nil }

    /// True when the input is gzip data.
    var isGzip: Bool { input.isGzip }

    /// SHA-256 (hex) of the whole document, hashed as it was read; reads what the
    /// parser left.
    func finishDigest() throws -> String { try input.finishDigest() }

    /// Leaves the hashing to someone else (see `InputSource.stopHashing`).
    func stopHashing() { input.stopHashing() }

    /// Decompressed bytes read so far.
    var bytesRead: Int { input.totalBytes }

    private func record(_ error: xmlError) {
        guard firstError == nil, error.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
        var message = error.message.map { String(cString: $0) } ?? "XML error \(error.code)"
        while message.last == "\n" || message.last == " " { message.removeLast() }
        firstError = (Int(error.line), message)
    }

    /// An interned copy of `name` in this reader's dictionary.
    func intern(_ name: String) -> UnsafeRawPointer {
        UnsafeRawPointer(xmlTextReaderConstString(reader, name)!)
    }

    /// Advances to the next node; false at the end of the document.
    func next() throws -> Bool {
        let result = xmlTextReaderRead(reader)
        if result == 1 { return true }
        if result == 0, firstError == nil, input.readError == nil { return false }
        if let error = input.streamError { throw error }
        throw currentError()
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
        return .malformedXML(file: path, line: currentLine, message: "the XML could not be parsed")
    }

    var nodeType: Int32 { xmlTextReaderNodeType(reader) }
    var isEmptyElement: Bool { xmlTextReaderIsEmptyElement(reader) == 1 }
    var localName: UnsafeRawPointer? { xmlTextReaderConstLocalName(reader).map { UnsafeRawPointer($0) } }
    /// The current element's namespace, read from the node itself: the reader's
    /// own accessor interns the URI in its dictionary (hashing ~50 bytes) on every
    /// call, where one comparison with the last URI seen usually settles it.
    var namespace: Namespace {
        guard let node = xmlTextReaderCurrentNode(reader), let ns = node.pointee.ns,
            let href = ns.pointee.href
        else { return .none }
        return namespaces.namespace(of: UnsafeRawPointer(href))
    }
    private let namespaces = NamespaceCache()
    var currentLine: Int? { adjustedLine(rawLine) }
    /// The parser's line, before adding the lines dropped from the start.
    var rawLine: Int { Int(xmlTextReaderGetParserLineNumber(reader)) }
    /// A parser line as a line of the file.
    func adjustedLine(_ raw: Int) -> Int? { raw > 0 ? raw + input.strippedNewlines : nil }

    /// The local name of the current node as a String (for messages).
    var localNameString: String {
        xmlTextReaderConstLocalName(reader).map { String(cString: $0) } ?? "?"
    }

    /// The current text node's bytes, without copying.
    @inline(__always)
    func withValue<T>(_ body: (UnsafeRawBufferPointer) -> T) -> T {
        guard let value = xmlTextReaderConstValue(reader) else {
            return body(UnsafeRawBufferPointer(start: nil, count: 0))
        }
        return body(UnsafeRawBufferPointer(start: value, count: strlen(value)))
    }

    /// Calls `body` with each attribute's interned local name and value bytes.
    /// Reads the element's attribute list in place (each value one text node, as
    /// the parser leaves it unless the value holds an entity reference); otherwise
    /// walks the attributes with the reader, as before. Namespace declarations are
    /// not attributes and are left out either way.
    func forEachAttribute(_ body: (UnsafeRawPointer, UnsafeRawBufferPointer) -> Void) {
        guard let node = xmlTextReaderCurrentNode(reader), node.pointee.type == XML_ELEMENT_NODE else { return }
        var simple = true
        var attribute = node.pointee.properties
        while let a = attribute {
            if a.pointee.name == nil
                || (a.pointee.children != nil
                    && (a.pointee.children.pointee.next != nil
                        || a.pointee.children.pointee.type != XML_TEXT_NODE))
            {
                simple = false
                break
            }
            attribute = a.pointee.next
        }
        if simple {
            attribute = node.pointee.properties
            while let a = attribute {
                if let text = a.pointee.children?.pointee.content {
                    body(UnsafeRawPointer(a.pointee.name), UnsafeRawBufferPointer(start: text, count: strlen(text)))
                } else {
                    body(UnsafeRawPointer(a.pointee.name), UnsafeRawBufferPointer(start: nil, count: 0))
                }
                attribute = a.pointee.next
            }
            return
        }
        guard xmlTextReaderHasAttributes(reader) == 1 else { return }
        var more = xmlTextReaderMoveToFirstAttribute(reader)
        while more == 1 {
            if xmlTextReaderIsNamespaceDecl(reader) != 1, let name = xmlTextReaderConstLocalName(reader) {
                withValue { body(UnsafeRawPointer(name), $0) }
            }
            more = xmlTextReaderMoveToNextAttribute(reader)
        }
        xmlTextReaderMoveToElement(reader)
    }
}

@inline(__always)
private func strlen(_ p: UnsafePointer<xmlChar>) -> Int {
    Glibc.strlen(UnsafeRawPointer(p).assumingMemoryBound(to: CChar.self))
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
