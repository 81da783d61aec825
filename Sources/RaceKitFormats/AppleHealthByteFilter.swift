import RaceKitModel

/// The bytes of an Apple Health `export.xml` as libxml2 gets them: a `ByteStream`
/// over another one that makes two repairs and one refusal, before any parser
/// sees the document.
///
/// 1. The document type declaration at the start (`<!DOCTYPE HealthData [ ... ]>`)
///    is checked and then blanked out, newlines kept (line numbers stay right).
///    Apple's internal subset declares elements and attributes only, and since
///    iOS 16 one `ATTLIST` lacks its closing `>`, so no XML parser can read it;
///    RaceKit needs none of it. Refused: any `<!ENTITY` (general or parameter),
///    a parameter-entity reference (`%name;`), and an external subset
///    (`SYSTEM`/`PUBLIC`): the document is then refused as a whole.
/// 2. Bytes that XML 1.0 forbids (C0 controls other than tab, newline and
///    carriage return, e.g. the stray `\x0b` of real exports) become a space.
///    None of them can occur inside a UTF-8 multi-byte sequence.
public final class AppleHealthByteFilter: ByteStream {
    public var name: String { source.name }
    private let source: any ByteStream
    private var prolog: [UInt8] = []
    private var prologOffset = 0
    private var started = false
    /// Bytes replaced by a space (rule 2).
    public private(set) var replacedBytes = 0
    /// True when a document type declaration was found and blanked.
    public private(set) var blankedDoctype = false

    /// Longest prolog (XML declaration, comments, DTD) looked at: Apple's is ~12 KB.
    public static let prologLimit = 4 << 20

    public init(_ source: any ByteStream) { self.source = source }

    public func read(into buffer: UnsafeMutableRawPointer, count: Int) throws -> Int {
        if !started {
            try readProlog()
            started = true
        }
        if prologOffset < prolog.count {
            let n = min(count, prolog.count - prologOffset)
            prolog.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress! + prologOffset, byteCount: n) }
            prologOffset += n
            if prologOffset == prolog.count { prolog = [] }
            return n
        }
        let n = try source.read(into: buffer, count: count)
        if n > 0 { replacedBytes += Self.replaceIllegal(buffer.assumingMemoryBound(to: UInt8.self), n) }
        return n
    }

    /// Reads until the prolog is delimited, checks and blanks its DOCTYPE.
    private func readProlog() throws {
        var atEnd = false
        var want = 64 * 1024
        while true {
            while !atEnd, prolog.count < want {
                let old = prolog.count
                prolog.append(contentsOf: repeatElement(0, count: want - old))
                let n = try prolog.withUnsafeMutableBytes {
                    try source.read(into: $0.baseAddress! + old, count: want - old)
                }
                prolog.removeLast(want - old - n)
                if n == 0 { atEnd = true }
            }
            var scanner = PrologScanner(bytes: prolog, complete: atEnd || prolog.count >= Self.prologLimit, file: name)
            switch try scanner.scan() {
            case .needMore:
                want *= 2
                continue
            case .noDoctype:
                break
            case .doctype(let range):
                for k in range where prolog[k] != 10 && prolog[k] != 13 { prolog[k] = 32 }
                blankedDoctype = true
            }
            break
        }
        replacedBytes += prolog.withUnsafeMutableBufferPointer { Self.replaceIllegal($0.baseAddress!, $0.count) }
    }

    /// Replaces the bytes XML 1.0 forbids by a space; returns how many.
    @inline(__always)
    static func replaceIllegal(_ p: UnsafeMutablePointer<UInt8>, _ n: Int) -> Int {
        var replaced = 0
        var k = 0
        // Eight bytes at a time: a word with no byte below 0x20 needs no look.
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        while k + 8 <= n {
            let word = UnsafeRawPointer(p + k).loadUnaligned(as: UInt64.self)
            if (word &- ones &* 0x20) & ~word & highs == 0 {
                k += 8
                continue
            }
            for j in k..<k + 8 where isIllegal(p[j]) {
                p[j] = 32
                replaced += 1
            }
            k += 8
        }
        while k < n {
            if isIllegal(p[k]) {
                p[k] = 32
                replaced += 1
            }
            k += 1
        }
        return replaced
    }

    @inline(__always)
    static func isIllegal(_ c: UInt8) -> Bool { c < 0x20 && c != 9 && c != 10 && c != 13 }
}

/// Finds the document type declaration in the prolog of a document and checks it.
struct PrologScanner {
    enum Result: Equatable {
        /// The bytes end before the prolog does.
        case needMore
        case noDoctype
        /// The declaration, from `<` to its closing `>`.
        case doctype(ClosedRange<Int>)
    }

    let bytes: [UInt8]
    /// True when no more bytes will come.
    let complete: Bool
    let file: String
    private var i = 0

    init(bytes: [UInt8], complete: Bool, file: String) {
        self.bytes = bytes
        self.complete = complete
        self.file = file
    }

    private func line(_ at: Int) -> Int { 1 + bytes[..<min(at, bytes.count)].reduce(0) { $0 + ($1 == 10 ? 1 : 0) } }

    private func has(_ text: StaticString, at k: Int, ignoringCase: Bool = false) -> Bool {
        let n = text.utf8CodeUnitCount
        guard k + n <= bytes.count else { return false }
        let p = text.utf8Start
        for j in 0..<n {
            var c = bytes[k + j]
            if ignoringCase, c >= 97, c <= 122 { c -= 32 }
            if c != p[j] { return false }
        }
        return true
    }

    /// The first index of `text` at or after `from`.
    private func find(_ text: StaticString, from: Int) -> Int? {
        var k = from
        while k + text.utf8CodeUnitCount <= bytes.count {
            if has(text, at: k) { return k }
            k += 1
        }
        return nil
    }

    private static func isBlank(_ c: UInt8) -> Bool { c == 32 || c == 9 || c == 10 || c == 13 }

    private mutating func skipBlanks() { while i < bytes.count, Self.isBlank(bytes[i]) { i += 1 } }

    mutating func scan() throws -> Result {
        if has("\u{FEFF}", at: 0) { i = 3 }
        while true {
            skipBlanks()
            // Enough bytes to tell what comes next.
            if !complete, i + 9 > bytes.count { return .needMore }
            guard i < bytes.count, bytes[i] == UInt8(ascii: "<") else { return .noDoctype }
            if has("<?", at: i) {
                guard let end = find("?>", from: i + 2) else { return complete ? .noDoctype : .needMore }
                i = end + 2
            } else if has("<!--", at: i) {
                guard let end = find("-->", from: i + 4) else { return complete ? .noDoctype : .needMore }
                i = end + 3
            } else if has("<!DOCTYPE", at: i) {
                return try doctype()
            } else {
                return .noDoctype
            }
        }
    }

    private mutating func doctype() throws -> Result {
        let start = i
        i += 9
        skipBlanks()
        while i < bytes.count, !Self.isBlank(bytes[i]), bytes[i] != UInt8(ascii: "["), bytes[i] != UInt8(ascii: ">") {
            i += 1
        }
        skipBlanks()
        if !complete, i + 6 > bytes.count { return .needMore }
        if has("SYSTEM", at: i) || has("PUBLIC", at: i) {
            throw HealthExportError.externalSubset(file: file, line: line(i))
        }
        guard i < bytes.count else { return try unterminated(start) }
        if bytes[i] == UInt8(ascii: ">") { return .doctype(start...i) }
        guard bytes[i] == UInt8(ascii: "[") else {
            throw HealthExportError.malformedDoctype(
                file: file, line: line(i), message: "expected '[' or '>' after the document type's name")
        }
        i += 1
        var quote: UInt8?
        while i < bytes.count {
            if !complete, i + 9 > bytes.count { return .needMore }
            let c = bytes[i]
            if let q = quote {
                if c == q { quote = nil }
                i += 1
                continue
            }
            switch c {
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                quote = c
            case UInt8(ascii: "<") where has("<!--", at: i):
                guard let end = find("-->", from: i + 4) else { return try unterminated(start) }
                i = end + 3
                continue
            case UInt8(ascii: "<") where has("<!ENTITY", at: i, ignoringCase: true):
                throw HealthExportError.entityDeclared(file: file, line: line(i))
            case UInt8(ascii: "%"):
                // A parameter-entity reference: it needs an entity declaration.
                throw HealthExportError.entityDeclared(file: file, line: line(i))
            case UInt8(ascii: "]"):
                i += 1
                skipBlanks()
                if !complete, i >= bytes.count { return .needMore }
                guard i < bytes.count, bytes[i] == UInt8(ascii: ">") else {
                    throw HealthExportError.malformedDoctype(
                        file: file, line: line(i), message: "the internal subset's ']' is not followed by '>'")
                }
                return .doctype(start...i)
            default:
                break
            }
            i += 1
        }
        return try unterminated(start)
    }

    private func unterminated(_ start: Int) throws -> Result {
        if !complete { return .needMore }
        let limit = bytes.count >= AppleHealthByteFilter.prologLimit ? " in its first 4 MB" : ""
        throw HealthExportError.malformedDoctype(
            file: file, line: line(start), message: "the declaration never ends\(limit)")
    }
}
