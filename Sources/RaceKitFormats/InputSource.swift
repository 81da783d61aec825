@preconcurrency internal import CZlib
import RaceKitModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Bytes of one activity file for libxml2's reader: plain or gzip (detected by its
/// magic bytes, whatever the extension), with two safe repairs at the start:
/// a UTF-8 byte-order mark followed by blanks before `<?xml`, and blanks before
/// `<?xml` (real Polar exports have them; XML forbids anything before the
/// declaration). Lines removed that way are added back to reported line numbers.
final class InputSource {
    private enum Backend {
        case plain(UnsafeMutablePointer<FILE>)
        case gzip(gzFile)
        /// An archive entry (already decompressed when it was gzip).
        case stream(ByteStream)
    }

    let path: String
    private var backend: Backend?
    private var prefix: [UInt8] = []
    private var prefixOffset = 0
    /// Newlines dropped from the start of the document.
    private(set) var strippedNewlines = 0
    /// A read error (e.g. corrupt gzip data), reported after the parse stops.
    private(set) var readError: String?
    private(set) var isGzip = false
    /// True for a plain file (not gzip, not an archive entry).
    private(set) var isFile = false
    /// True when the document holds nothing but blanks (or nothing at all).
    private(set) var isBlank = false
    /// Line of a `<!DOCTYPE` found in the first 64 KB, refused before parsing.
    private(set) var doctypeLine: Int?
    /// What the document looks like when it does not start with `<` (not XML).
    private(set) var nonXMLStart: String?
    private var hasher = ContentDigest()
    /// Document bytes read from the file so far (after gzip decompression).
    private(set) var totalBytes = 0

    /// Size of the file on disk in bytes.
    private(set) var fileSize = 0
    /// The document's size: the file's, or eight times it for gzip.
    var expectedBytes: Int { isGzip ? fileSize * 8 : fileSize }

    /// stdio buffer of a plain file (see `init`), freed after the file is closed.
    static let plainBufferSize = 64 * 1024
    private var stdioBuffer: UnsafeMutablePointer<CChar>?

    init(path: String) throws {
        self.path = path
        var info = stat()
        if stat(path, &info) == 0 { fileSize = Int(info.st_size) }
        if let refusal = RegularFile.refusal(path) { throw FormatError.cannotOpen(file: path, reason: refusal) }
        guard let file = fopen(path, "rb") else {
            throw FormatError.cannotOpen(file: path, reason: String(cString: strerror(errno)))
        }
        // The reader asks for about 4 KB at a time: with stdio's default 4 KB
        // buffer that is one read(2) per request (5,000 for a 20 MB file). Set
        // before any other use of the stream; glibc ignores the size unless it is
        // given the buffer.
        stdioBuffer = .allocate(capacity: Self.plainBufferSize)
        setvbuf(file, stdioBuffer, _IOFBF, Self.plainBufferSize)
        fd = fileno(file)
        identity = FileIdentity(fd: fd)
        var magic = [UInt8](repeating: 0, count: 2)
        let n = fread(&magic, 1, 2, file)
        if n == 2, magic[0] == 0x1f, magic[1] == 0x8b {
            // zlib reads the very file opened here (its descriptor, not the path again).
            let gzfd = dup(fd)
            fclose(file)
            stdioBuffer?.deallocate()
            stdioBuffer = nil
            fd = gzfd
            guard gzfd >= 0, lseek(gzfd, 0, SEEK_SET) == 0, let gz = gzdopen(gzfd, "rb") else {
                if gzfd >= 0 { Glibc.close(gzfd) }
                fd = -1
                throw FormatError.cannotOpen(file: path, reason: "cannot open gzip stream")
            }
            gzbuffer(gz, 128 * 1024)
            backend = .gzip(gz)
            isGzip = true
        } else {
            rewind(file)
            backend = .plain(file)
            isFile = true
        }
        try readPrefix()
    }

    /// The document `stream` gives (an archive entry); `expectedSize` is its
    /// declared size when known (a capacity hint only).
    init(stream: ByteStream, expectedSize: Int = 0) throws {
        path = stream.name
        fileSize = expectedSize
        backend = .stream(stream)
        try readPrefix()
    }

    deinit {
        close()
        stdioBuffer?.deallocate()
    }

    /// The descriptor of a file on disk (plain or gzip), -1 for an archive entry.
    private(set) var fd: Int32 = -1
    /// What the file on disk was when it was opened.
    private var identity: FileIdentity?

    /// Throws `FormatError.changedWhileRead` when the file on disk was written
    /// since it was opened (call once everything was read and hashed).
    func checkUnchanged() throws {
        guard fd >= 0, let identity else { return }
        try identity.check(fd: fd, file: path)
    }

    func close() {
        fd = -1
        switch backend {
        case .plain(let f): fclose(f)
        case .gzip(let gz): gzclose(gz)
        case .stream, nil: break
        }
        backend = nil
    }

    /// True once the end of the file was reached.
    private(set) var reachedEnd = false

    /// Reads the next bytes for the parser: hashed (all of them), then as the
    /// guards let through (`guarded`). After a NUL byte the parser's document
    /// has ended; the rest of the file is still read for the digest.
    private func rawRead(_ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        if endedAtNUL { return 0 }
        if utf16 != nil { return wideRead(buffer, count) }
        let n = hashedRead(buffer, count)
        guard n > 0 else { return n }
        if totalBytes == n, n >= 4, Self.isUTF32(UnsafeRawBufferPointer(start: buffer, count: 4)) {
            streamError = FormatError.malformedXML(
                file: path, line: nil, message: "UTF-32 text (by its first bytes) is not read: save the file as UTF-8")
            readError = "UTF-32"
            return -1
        }
        if totalBytes == n, n >= 2,
            let bigEndian = UTF16Transcoder.byteOrder(
                buffer.load(as: UInt8.self), buffer.load(fromByteOffset: 1, as: UInt8.self))
        {
            // A UTF-16 document: from here on handed over as UTF-8.
            var transcoder = UTF16Transcoder(bigEndian: bigEndian)
            guard transcoder.transcode(UnsafeRawBufferPointer(start: buffer, count: n), into: &wideOut) else {
                return badUTF16(transcoder)
            }
            utf16 = transcoder
            return wideRead(buffer, count)
        }
        return guarded(buffer, n)
    }

    /// Whether a document starting with these four bytes is UTF-32: a
    /// byte-order mark, or `<` as its first character.
    static func isUTF32(_ b: UnsafeRawBufferPointer) -> Bool {
        let head = (b[0], b[1], b[2], b[3])
        return head == (0x3C, 0, 0, 0) || head == (0, 0, 0, 0x3C) || head == (0xFF, 0xFE, 0, 0)
            || head == (0, 0, 0xFE, 0xFF)
    }

    /// The transcoder of a UTF-16 document, nil for any other.
    private var utf16: UTF16Transcoder?
    /// UTF-8 of a UTF-16 document not handed over yet, from `wideOffset`.
    private var wideOut: [UInt8] = []
    private var wideOffset = 0
    private var wideIn: [UInt8] = []

    /// A UTF-16 document's next bytes, as UTF-8.
    private func wideRead(_ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        while wideOffset == wideOut.count {
            wideOut.removeAll(keepingCapacity: true)
            wideOffset = 0
            if wideIn.isEmpty { wideIn = [UInt8](repeating: 0, count: 32 * 1024) }
            let n = wideIn.withUnsafeMutableBytes { hashedRead($0.baseAddress!, $0.count) }
            if n < 0 { return n }
            if n == 0 {
                guard utf16!.isComplete else { return badUTF16(utf16!) }
                return 0
            }
            let ok = wideIn.withUnsafeBytes {
                utf16!.transcode(UnsafeRawBufferPointer(rebasing: $0[..<n]), into: &wideOut)
            }
            guard ok else { return badUTF16(utf16!) }
        }
        let k = min(count, wideOut.count - wideOffset)
        wideOut.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress! + wideOffset, byteCount: k) }
        wideOffset += k
        return guarded(buffer, k)
    }

    private func badUTF16(_ t: UTF16Transcoder) -> Int {
        streamError = FormatError.malformedXML(
            file: path, line: nil,
            message:
                "not valid UTF-16 (the file is UTF-16 by its first bytes): a lone surrogate or a cut character after \(t.units) characters"
        )
        readError = "invalid UTF-16"
        return -1
    }

    /// Reads the next bytes from the file, hashing them (the digest is of every
    /// byte of the file, whatever the parser was given).
    private func hashedRead(_ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        let n = backendRead(buffer, count)
        if n == 0 { reachedEnd = true }
        if n > 0 {
            if hashing { hasher.update(UnsafeRawBufferPointer(start: buffer, count: n)) }
            totalBytes += n
        }
        return n
    }

    /// True once a NUL byte was met: libxml2's pull parser takes one for the end
    /// of its input, its push parser for an error, so a file would import plain
    /// and fail gzipped. Here a NUL ends the document for every parser (padding
    /// after the root, as a device's pre-allocated file has, is then ignored; a
    /// NUL inside the root ends it inside an open element).
    private(set) var endedAtNUL = false
    /// True for a document in UTF-16 (told by its first bytes), handed to the
    /// parser as UTF-8.
    var isUTF16: Bool { utf16 != nil }
    private var probe = StartTagProbe()

    /// The `n` bytes just read, past the guards: cut at a NUL; a comment bomb or
    /// a start tag past `StartTagProbe.maximumBytes` is an error (-1).
    private func guarded(_ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        var n = count
        if let zero = memchr(buffer, 0, n) {
            n = buffer.distance(to: zero)
            endedAtNUL = true
        }
        let kept = UnsafeRawBufferPointer(start: buffer, count: n)
        if countMarkup(kept) > ActivityFileReader.maxComments {
            streamError = FormatError.tooLarge(
                file: path,
                limit:
                    "more than \(ActivityFileReader.maxComments) comments or processing instructions: activity files hold a handful, so this is refused as a comment bomb"
            )
            readError = "comment bomb"
            return -1
        }
        if probe.scan(kept) {
            streamError = FormatError.tooLarge(
                file: path,
                limit:
                    "a start tag (an element's name and attributes) of more than \(StartTagProbe.maximumBytes / 1024) KB, starting at byte \(probe.longTagOffset + 1) of the document: real files' are under 1 KB"
            )
            readError = "start tag too long"
            return -1
        }
        return n
    }

    /// Comments and processing instructions seen so far (`<!-` and `<?`). libxml2's
    /// reader keeps such nodes in memory until their parent element ends, and
    /// parses ahead of the node it returns, so they are counted in the bytes,
    /// before the parser sees them: a file of nothing but comments (a few bytes
    /// each, about 170 bytes of memory each) is refused with bounded memory.
    private var markupCount = 0
    /// The last two bytes of the previous chunk, for a marker split across reads.
    private var previous: (UInt8, UInt8) = (0, 0)

    private func countMarkup(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return markupCount }
        // `!` and `?` are rare in activity files: find them, then look around.
        func byte(_ i: Int) -> UInt8 {
            if i >= 0 { return i < bytes.count ? bytes[i] : 0 }
            return i == -1 ? previous.1 : previous.0
        }
        for mark in [UInt8(ascii: "!"), UInt8(ascii: "?")] {
            var from = 0
            while from < bytes.count, let hit = memchr(base + from, Int32(mark), bytes.count - from) {
                let i = base.distance(to: UnsafeRawPointer(hit))
                if byte(i - 1) == UInt8(ascii: "<"), mark == UInt8(ascii: "?") || byte(i + 1) == UInt8(ascii: "-") {
                    markupCount += 1
                }
                from = i + 1
            }
        }
        previous = (bytes.count > 1 ? bytes[bytes.count - 2] : previous.1, bytes[bytes.count - 1])
        return markupCount
    }

    /// Whether the bytes are hashed as they are read (see `stopHashing`).
    private(set) var hashing = true

    /// Leaves the hashing to someone else (a plain file read ahead is hashed by
    /// the handler thread while it waits for nodes).
    func stopHashing() { hashing = false }

    /// Reads whatever the parser left unread, then returns the SHA-256 (hex) of all
    /// the document's bytes (after gzip decompression, before any repair), hashed
    /// as they were read: the file is read once.
    func finishDigest() throws -> String {
        precondition(hashing, "finishDigest after stopHashing")
        if reachedEnd, readError == nil { return hasher.finish() }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = buffer.withUnsafeMutableBytes { hashedRead($0.baseAddress!, $0.count) }
            if n < 0 {
                if let streamError { throw streamError }
                if isGzip { throw FormatError.corruptGzip(file: path, message: readError ?? "unreadable") }
                throw FormatError.cannotOpen(file: path, reason: readError ?? "read error")
            }
            if n == 0 { break }
        }
        return hasher.finish()
    }

    private func backendRead(_ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        switch backend {
        case .plain(let f):
            let n = fread(buffer, 1, count, f)
            if n < count, ferror(f) != 0 { readError = String(cString: strerror(errno)); return -1 }
            return n
        case .gzip(let gz):
            let n = Int(gzread(gz, buffer, UInt32(count)))
            var code: Int32 = 0
            let message = gzerror(gz, &code)
            if n < 0 || (code != Z_OK && code != Z_STREAM_END) {
                var text = message.map { String(cString: $0) } ?? ""
                if text.hasPrefix(path + ": ") { text.removeFirst(path.count + 2) }
                readError = text.isEmpty ? "zlib error \(code)" : text
                return -1
            }
            return checkGzipRatio(n, packed: Int64(gzoffset(gz)))
        case .stream(let stream):
            do {
                return try stream.read(into: buffer, count: count)
            } catch {
                streamError = error
                readError = "\(error)"
                return -1
            }
        case nil:
            return 0
        }
    }

    /// The limits of a plain `.gz` file on disk.
    private var gzipRatio = GzipRatioCheck()

    /// `n`, or -1 (with the error set) once a gzip file on disk unpacks past the
    /// limits (`GzipRatioCheck`).
    private func checkGzipRatio(_ n: Int, packed: Int64) -> Int {
        do { try gzipRatio.check(n, packed: packed, file: path) } catch {
            streamError = error
            readError = error.description
            return -1
        }
        return n
    }

    /// The error an archive entry's stream threw (a refused archive, a corrupt
    /// entry), rethrown as it is rather than as a parse error.
    private(set) var streamError: (any Error)?

    private func readPrefix() throws {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        // Fill the whole prefix: a stream may give fewer bytes per read than asked.
        var n = 0
        while n < buffer.count {
            let got = buffer.withUnsafeMutableBytes { rawRead($0.baseAddress! + n, $0.count - n) }
            if got <= 0 {
                if got < 0 { n = -1 }
                break
            }
            n += got
        }
        if n < 0 {
            if let streamError { throw streamError }
            if isGzip { throw FormatError.corruptGzip(file: path, message: readError ?? "unreadable") }
            throw FormatError.cannotOpen(file: path, reason: readError ?? "read error")
        }
        buffer.removeSubrange(n...)
        var start = 0
        if buffer.count >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF { start = 3 }
        var k = start
        var newlines = 0
        while k < buffer.count, buffer[k] == 32 || buffer[k] == 9 || buffer[k] == 10 || buffer[k] == 13 {
            if buffer[k] == 10 { newlines += 1 }
            k += 1
        }
        if k == buffer.count {
            isBlank = true
        } else if buffer[k] != UInt8(ascii: "<") {
            nonXMLStart = Self.guessKind(Array(buffer[k..<min(buffer.count, k + 8)]))
        } else if k > start, buffer.count - k >= 5, buffer[k] == 0x3C, buffer[k + 1] == 0x3F, buffer[k + 2] == 0x78,
            buffer[k + 3] == 0x6D, buffer[k + 4] == 0x6C
        {   // "<?xml"
            strippedNewlines = newlines
            start = k
        }
        prefix = Array(buffer[start...])
        if isUTF16 { Self.declareUTF8(&prefix) }
        // "<!DOCTYPE": found from each "!" (rare in activity files) with memchr.
        let rest = Array("DOCTYPE".utf8)
        let found: Int? = prefix.withUnsafeBytes { hay in
            guard let base = hay.baseAddress else { return nil }
            var from = 1
            while from < hay.count, let hit = memchr(base + from, 0x21, hay.count - from) {
                let i = base.distance(to: UnsafeRawPointer(hit))
                if hay[i - 1] == 0x3C, hay.count - i > rest.count,
                    rest.withUnsafeBytes({ memcmp(base + i + 1, $0.baseAddress!, rest.count) }) == 0
                {
                    return i - 1
                }
                from = i + 1
            }
            return nil
        }
        if let at = found {
            doctypeLine = 1 + strippedNewlines + prefix[..<at].reduce(0) { $0 + ($1 == 10 ? 1 : 0) }
        }
    }

    /// The XML declaration at the start of `bytes` made to say `encoding="UTF-8"`
    /// (a UTF-16 document, handed over as UTF-8: libxml2 refuses UTF-8 bytes
    /// labelled UTF-16). No line changes.
    static func declareUTF8(_ bytes: inout [UInt8]) {
        guard bytes.starts(with: Array("<?xml".utf8)),
            let end = (0..<min(bytes.count, 512)).first(where: {
                bytes[$0] == UInt8(ascii: "?") && $0 + 1 < bytes.count
                    && bytes[$0 + 1] == UInt8(ascii: ">")
            })
        else { return }
        let declaration = String(decoding: bytes[..<end], as: UTF8.self)
        guard let key = declaration.range(of: "encoding") else { return }
        let rest = declaration[key.upperBound...].drop(while: { $0 == " " || $0 == "=" || $0 == "\t" })
        guard let quote = rest.first, quote == "\"" || quote == "'",
            let close = rest.dropFirst().firstIndex(of: quote)
        else { return }
        let rewritten =
            declaration[..<rest.startIndex] + "\(quote)UTF-8\(quote)" + declaration[declaration.index(after: close)...]
        bytes.replaceSubrange(..<end, with: Array(rewritten.utf8))
    }

    /// What a document that is not XML looks like, by its first bytes, without
    /// quoting them (a setup's `course:` may point anywhere, so its bytes are
    /// never echoed).
    static func guessKind(_ head: [UInt8]) -> String {
        let known: [([UInt8], String)] = [
            (Array("PK".utf8), "a zip archive"), (Array("%PDF".utf8), "a PDF"), (Array("{".utf8), "JSON"),
            (Array("[".utf8), "JSON"), ([0x89, 0x50, 0x4E, 0x47], "a PNG image"), ([0xFF, 0xD8, 0xFF], "a JPEG image"),
            ([0x7F, 0x45, 0x4C, 0x46], "a program (ELF)")
        ]
        if let kind = known.first(where: { head.starts(with: $0.0) }) { return kind.1 }
        let text = head.allSatisfy { $0 == 9 || $0 == 10 || $0 == 13 || (32..<127).contains($0) || $0 >= 0xC0 }
        return text ? "text" : "binary data"
    }

    /// Fills `buffer` with up to `count` bytes; 0 at the end, -1 on error.
    func read(into buffer: UnsafeMutablePointer<CChar>, count: Int) -> Int32 {
        if prefixOffset < prefix.count {
            let n = min(count, prefix.count - prefixOffset)
            prefix.withUnsafeBytes { src in
                UnsafeMutableRawPointer(buffer).copyMemory(from: src.baseAddress! + prefixOffset, byteCount: n)
            }
            prefixOffset += n
            if prefixOffset == prefix.count { prefix = []; prefixOffset = 0 }
            return Int32(n)
        }
        let n = rawRead(UnsafeMutableRawPointer(buffer), count)
        return Int32(n)
    }
}
