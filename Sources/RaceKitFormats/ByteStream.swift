@preconcurrency internal import CZlib
import RaceKitModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A pull-style source of document bytes: a file (plain or gzip), bytes in memory,
/// or an entry of an archive. Readers that are not XML (FIT) read through it, and
/// the XML reader reads archive entries through it.
public protocol ByteStream: AnyObject {
    /// The name messages give: a path, or `archive.zip: folder/entry.fit.gz`.
    var name: String { get }
    /// Reads up to `count` bytes into `buffer`: the number read, 0 at the end.
    /// Throws a `RaceKitError` naming `name` when the bytes cannot be read.
    func read(into buffer: UnsafeMutableRawPointer, count: Int) throws -> Int
}

/// A file on disk, plain or gzip (told by its magic bytes, whatever its name).
public final class FileByteStream: ByteStream {
    public let name: String
    private var file: gzFile?
    /// True when the file is gzip-compressed.
    public let isGzip: Bool

    public init(path: String) throws {
        name = path
        if let refusal = RegularFile.refusal(path) { throw FormatError.cannotOpen(file: path, reason: refusal) }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FormatError.cannotOpen(file: path, reason: String(cString: strerror(errno))) }
        guard let gz = gzdopen(fd, "rb") else {
            Glibc.close(fd)
            throw FormatError.cannotOpen(file: path, reason: "cannot open gzip stream")
        }
        self.fd = fd
        identity = FileIdentity(fd: fd)
        gzbuffer(gz, 128 * 1024)
        file = gz
        // gzdirect answers only once the first bytes were looked at.
        var byte: UInt8 = 0
        let n = gzread(gz, &byte, 1)
        isGzip = n >= 0 && gzdirect(gz) == 0
        if n == 1 { gzungetc(Int32(byte), gz) }
    }

    deinit { if let file { gzclose(file) } }

    private let fd: Int32
    private let identity: FileIdentity?

    /// Throws `FormatError.changedWhileRead` when the file was written since it
    /// was opened (see `FileIdentity`).
    public func checkUnchanged() throws {
        guard file != nil, let identity else { return }
        try identity.check(fd: fd, file: name)
    }

    /// A cut-off gzip stream (Z_BUF_ERROR) met by a read that still returned
    /// bytes: those bytes are handed over first, the error on the next read.
    private var pendingError: FormatError?

    public func read(into buffer: UnsafeMutableRawPointer, count: Int) throws -> Int {
        if let pendingError { throw pendingError }
        guard let file else { return 0 }
        let n = Int(gzread(file, buffer, UInt32(min(count, Int(Int32.max)))))
        var code: Int32 = 0
        let message = gzerror(file, &code)
        if n > 0, code == Z_BUF_ERROR, isGzip {
            var text = message.map { String(cString: $0) } ?? ""
            if text.hasPrefix(name + ": ") { text.removeFirst(name.count + 2) }
            pendingError = FormatError.corruptGzip(file: name, message: text.isEmpty ? "zlib error \(code)" : text)
            return n
        }
        if n < 0 || (code != Z_OK && code != Z_STREAM_END) {
            var text = message.map { String(cString: $0) } ?? ""
            if text.hasPrefix(name + ": ") { text.removeFirst(name.count + 2) }
            if isGzip { throw FormatError.corruptGzip(file: name, message: text.isEmpty ? "zlib error \(code)" : text) }
            throw FormatError.cannotOpen(file: name, reason: text.isEmpty ? "read error" : text)
        }
        if isGzip { try ratio.check(n, packed: Int64(gzoffset(file)), file: name) }
        return n
    }

    private var ratio = GzipRatioCheck()
}

/// The limits of an archive entry on gzip data (total size, and ratio once
/// `ratioFloorBytes` came out): one check for a `.gz` entry inside an archive
/// (`GunzipByteStream`, which refuses the archive) and a plain `.gz` file on disk
/// (a 3 MB `.gpx.gz` of 1 GiB of tiny elements kept the parser busy for minutes).
struct GzipRatioCheck {
    let limits: ArchiveLimits
    private(set) var unpacked: Int64 = 0

    init(limits: ArchiveLimits = .standard) { self.limits = limits }

    /// Counts `n` more unpacked bytes, `packed` compressed bytes read so far;
    /// returns why the data is refused once a limit is crossed, nil otherwise.
    mutating func count(_ n: Int, packed: Int64) -> String? {
        unpacked += Int64(n)
        if unpacked > limits.maxTotalBytes {
            return
                "unpacks to more than \(ByteCount.text(limits.maxTotalBytes)): refused as a likely archive bomb; RACEKIT_ARCHIVE_MAX_BYTES raises the limit"
        }
        if unpacked >= limits.ratioFloorBytes, unpacked > limits.maxRatio * max(packed, 1) {
            return
                "unpacks to more than \(limits.maxRatio) times its packed size (\(ByteCount.text(unpacked)) from \(ByteCount.text(packed)) so far): refused as a likely gzip bomb"
        }
        return nil
    }

    /// `count`, throwing the refusal as a file that is too large.
    mutating func check(_ n: Int, packed: Int64, file: String) throws(FormatError) {
        if let why = count(n, packed: packed) { throw FormatError.tooLarge(file: file, limit: "gzip data " + why) }
    }
}

/// Streams whose data may be gzip, told by its magic bytes.
public enum ByteStreams {
    /// `source`, decompressed on the fly when it starts with gzip's magic bytes
    /// (with an archive entry's limits: `ArchiveLimits.standard`).
    public static func decompressed(_ source: ByteStream) throws -> ByteStream {
        let peeked = try PeekedByteStream(source, peek: 2)
        guard peeked.head == [0x1f, 0x8b] else { return peeked }
        return try GunzipByteStream(peeked, limits: (ArchiveLimits.standard, root: source.name))
    }
}

/// Bytes already in memory (tests, small archive entries).
public final class MemoryByteStream: ByteStream {
    public let name: String
    private let bytes: [UInt8]
    private var offset = 0

    public init(name: String, bytes: [UInt8]) {
        self.name = name
        self.bytes = bytes
    }

    public func read(into buffer: UnsafeMutableRawPointer, count: Int) throws -> Int {
        let n = min(count, bytes.count - offset)
        guard n > 0 else { return 0 }
        bytes.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress! + offset, byteCount: n) }
        offset += n
        return n
    }
}
