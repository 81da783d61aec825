@preconcurrency internal import CLibArchive
import Foundation
import RaceKitModel
import RaceKitOutput

#if canImport(Glibc)
import Glibc
#endif

/// Limits that keep a hostile archive (a zip bomb, a million empty entries, zips
/// nested without end) from filling memory or time. An archive that crosses one
/// is refused as a whole: nothing from it is kept.
public struct ArchiveLimits: Sendable, Equatable {
    /// Most bytes all entries of one archive may unpack to, nested archives included.
    /// 64 GiB: the largest real exports (an Apple Health export of about 4 GB with
    /// its routes, a Garmin export of ten years) stay far below. Environment:
    /// `RACEKIT_ARCHIVE_MAX_BYTES`.
    public var maxTotalBytes: Int64
    /// Most unpacked bytes per packed byte within one entry, checked once the entry
    /// gave `ratioFloorBytes`. Deflate cannot pass about 1,030; real exports stay
    /// below 30 (XML and CSV compress best, FIT about 3). Zip bombs sit near 1,000.
    public var maxRatio: Int64
    /// Below this many unpacked bytes an entry's ratio is not judged (a small,
    /// repetitive file may compress very well and harms no one).
    public var ratioFloorBytes: Int64
    /// Most entries one archive may hold, nested archives included.
    public var maxEntries: Int
    /// Most levels of archives inside archives: 3 is a Garmin export (zip of zips)
    /// with one level to spare.
    public var maxDepth: Int

    public init(
        maxTotalBytes: Int64 = 64 << 30, maxRatio: Int64 = 200, ratioFloorBytes: Int64 = 16 << 20,
        maxEntries: Int = 200_000, maxDepth: Int = 3
    ) {
        self.maxTotalBytes = maxTotalBytes; self.maxRatio = maxRatio; self.ratioFloorBytes = ratioFloorBytes
        self.maxEntries = maxEntries; self.maxDepth = maxDepth
    }

    /// The defaults, with `RACEKIT_ARCHIVE_MAX_BYTES` applied when set to a positive integer.
    public static let standard: ArchiveLimits = {
        var limits = ArchiveLimits()
        if let text = ProcessInfo.processInfo.environment["RACEKIT_ARCHIVE_MAX_BYTES"], let n = Int64(text), n > 0 {
            limits.maxTotalBytes = n
        }
        return limits
    }()
}

/// Why an archive or one of its entries could not be read. `refused` means the
/// whole archive is refused (a limit); the others concern one entry or the rest.
public struct ArchiveError: RaceKitError, Equatable {
    public enum Kind: Sendable, Equatable {
        /// A limit was crossed: the archive is refused as a whole.
        case refused
        /// The archive cannot be read from this point on (corrupt, truncated, not an archive).
        case unreadable
        /// One entry cannot be read; the next ones may be.
        case entry
    }
    public var kind: Kind
    /// The archive or the entry (`outer.zip!inner/path`).
    public var name: String
    public var message: String
    public var exitClass: ExitClass { .dataError }
    public var description: String { "\(name): \(message)" }
    public init(_ kind: Kind, _ name: String, _ message: String) {
        self.kind = kind; self.name = name; self.message = message
    }
}

/// What one archive, nested ones included, has used of its limits. Shared by an
/// archive and the archives inside it; used from one thread.
public final class ArchiveBudget {
    public let limits: ArchiveLimits
    /// The outermost archive, for messages.
    public let root: String
    public private(set) var totalBytes: Int64 = 0
    public private(set) var entries = 0
    /// The refusal, once a limit was crossed: every later read fails with it.
    public private(set) var refusal: ArchiveError?

    public init(root: String, limits: ArchiveLimits = .standard) {
        self.root = root; self.limits = limits
    }

    func countEntry(_ name: String) throws {
        try check()
        entries += 1
        if entries > limits.maxEntries {
            try refuse("more than \(limits.maxEntries) entries (at \(name)): refused as a likely archive bomb")
        }
    }

    func countBytes(_ n: Int, entry: String, entryBytes: Int64, packedBytes: Int64) throws {
        try check()
        totalBytes += Int64(n)
        if totalBytes > limits.maxTotalBytes {
            try refuse(
                "unpacks to more than \(ByteCount.text(limits.maxTotalBytes)) (at \(entry)): refused as a likely archive bomb; RACEKIT_ARCHIVE_MAX_BYTES raises the limit"
            )
        }
        if entryBytes >= limits.ratioFloorBytes, entryBytes > limits.maxRatio * max(packedBytes, 1) {
            try refuse(
                "\(entry) unpacks to more than \(limits.maxRatio) times its packed size (\(ByteCount.text(entryBytes)) from \(ByteCount.text(packedBytes)) so far): refused as a likely zip bomb"
            )
        }
    }

    func refuseDepth(_ name: String) throws {
        try refuse("archives nested more than \(limits.maxDepth) deep (at \(name)): refused")
    }

    private func check() throws { if let refusal { throw refusal } }

    private func refuse(_ message: String) throws -> Never {
        let error = ArchiveError(.refused, root, message)
        refusal = error
        throw error
    }
}

/// Byte counts in words.
enum ByteCount {
    static func text(_ bytes: Int64) -> String {
        let units = ["bytes", "KB", "MB", "GB", "TB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1024, unit < units.count - 1 { value /= 1024; unit += 1 }
        return unit == 0 ? "\(bytes) bytes" : "\(TextFormat.fixed(value, 1)) \(units[unit])"
    }
}

/// One archive (zip, tar, tar.gz ...) read entry by entry with libarchive, never
/// unpacked to disk: an entry's bytes come through `entryStream()`, pulled as the
/// reader needs them. A zip on disk is read through its central directory (so
/// skipping an entry costs a seek); a nested archive is read as a stream.
public final class ArchiveReader {
    /// The archive as messages name it: a path, or `outer.zip!inner.zip`.
    public let name: String
    /// 1 for an archive on disk, 2 for one inside it, ...
    public let depth: Int
    public let budget: ArchiveBudget
    private var handle: OpaquePointer?
    /// The stream a nested archive is read from (kept alive while it is read).
    private let parent: ByteStream?
    private let callbackBuffer: UnsafeMutableRawPointer?
    private static let callbackBufferSize = 64 * 1024
    /// The entry `entryStream()` reads.
    public private(set) var current: Entry?
    private var packedAtEntryStart: Int64 = 0
    private var entryBytes: Int64 = 0
    /// An error the parent stream threw inside libarchive's read callback.
    fileprivate var parentError: (any Error)?

    /// An entry: a regular file inside the archive.
    public struct Entry: Sendable, Equatable {
        /// Its path inside the archive, as stored.
        public var path: String
        /// `archive!path`, the name every message gives.
        public var displayName: String
        /// The size the archive declares, when it declares one.
        public var declaredSize: Int64?
        /// The file name (last path component).
        public var fileName: String { path.split(separator: "/").last.map(String.init) ?? path }
    }

    /// Opens the archive at `path`.
    public convenience init(path: String, limits: ArchiveLimits = .standard) throws {
        try self.init(path: path, budget: ArchiveBudget(root: path, limits: limits))
    }

    /// Opens the archive at `path`, counting against `budget`.
    public init(path: String, budget: ArchiveBudget) throws {
        name = path
        depth = 1
        self.budget = budget
        parent = nil
        callbackBuffer = nil
        handle = Self.newHandle()
        guard let handle else { throw ArchiveError(.unreadable, path, "libarchive could not start") }
        if archive_read_open_filename(handle, path, 128 * 1024) != ARCHIVE_OK {
            let message = Self.message(handle)
            throw ArchiveError(.unreadable, path, Self.unreadableText(message))
        }
    }

    /// Opens the archive whose bytes `stream` gives (an entry of `outer`).
    public init(nested stream: ByteStream, name: String, inside outer: ArchiveReader) throws {
        self.name = name
        depth = outer.depth + 1
        budget = outer.budget
        parent = stream
        callbackBuffer = .allocate(byteCount: Self.callbackBufferSize, alignment: 16)
        if depth > budget.limits.maxDepth { try budget.refuseDepth(name) }
        handle = Self.newHandle()
        guard let handle else { throw ArchiveError(.unreadable, name, "libarchive could not start") }
        let context = Unmanaged.passUnretained(self).toOpaque()
        let status = archive_read_open2(
            handle, context, nil,
            { _, context, buffer in
                guard let context, let buffer else { return -1 }
                let reader = Unmanaged<ArchiveReader>.fromOpaque(context).takeUnretainedValue()
                return reader.fillFromParent(buffer)
            }, nil, nil)
        if status != ARCHIVE_OK {
            if let error = parentError { throw error }
            throw ArchiveError(.unreadable, name, Self.unreadableText(Self.message(handle)))
        }
    }

    deinit {
        if let handle { archive_read_free(handle) }
        callbackBuffer?.deallocate()
    }

    /// libarchive converts entry names through the process's character type: in
    /// the "C" locale a name such as "ä ü.gpx" has no readable form at all. The
    /// character type (only: numbers and messages keep "C") is UTF-8 once an
    /// archive is read.
    private static let utf8Names: Bool = {
        let current = setlocale(LC_CTYPE, nil).map { String(cString: $0) } ?? "C"
        guard current == "C" || current == "POSIX" else { return true }
        return setlocale(LC_CTYPE, "C.UTF-8") != nil
    }()

    private static func newHandle() -> OpaquePointer? {
        guard let handle = archive_read_new() else { return nil }
        archive_read_support_format_zip(handle)
        archive_read_support_format_tar(handle)
        archive_read_support_format_gnutar(handle)
        archive_read_support_filter_all(handle)
        _ = utf8Names
        return handle
    }

    private func fillFromParent(_ buffer: UnsafeMutablePointer<UnsafeRawPointer?>) -> Int {
        guard let parent, let callbackBuffer else { return -1 }
        do {
            let n = try parent.read(into: callbackBuffer, count: Self.callbackBufferSize)
            buffer.pointee = UnsafeRawPointer(callbackBuffer)
            return n
        } catch {
            parentError = error
            return -1
        }
    }

    private static func message(_ handle: OpaquePointer) -> String {
        archive_error_string(handle).map { String(cString: $0) } ?? "unknown libarchive error"
    }

    private static func unreadableText(_ message: String) -> String {
        if message.contains("Unrecognized archive format") {
            return "not a zip or tar archive (libarchive: \(message))"
        }
        return "cannot read the archive: \(message)"
    }

    /// Bytes libarchive has taken from the packed source so far.
    private var packedBytes: Int64 { handle.map { archive_filter_bytes($0, -1) } ?? 0 }

    /// The next regular-file entry (directories, links and macOS metadata are
    /// passed over), or nil at the end. An entry with an unsafe name (absolute, or
    /// with a `..` part) is returned with `unsafeName` set: nothing is ever written
    /// to disk, but such a name marks a hostile archive and is reported.
    public func nextEntry() throws -> Entry? {
        guard let handle else { return nil }
        current = nil
        while true {
            var entry: OpaquePointer?
            let status = archive_read_next_header(handle, &entry)
            if status == ARCHIVE_EOF { return nil }
            if let error = parentError { throw error }
            if let refusal = budget.refusal { throw refusal }
            guard status == ARCHIVE_OK || status == ARCHIVE_WARN, let entry else {
                throw ArchiveError(.unreadable, name, "cannot read the next entry: \(Self.message(handle))")
            }
            let path =
                (archive_entry_pathname_utf8(entry) ?? archive_entry_pathname(entry)).map { String(cString: $0) }
                ?? "(unnamed entry)"
            // AE_IFREG: a cast macro Swift cannot import.
            guard archive_entry_filetype(entry) == 0o100000 else { continue }
            if Self.isMetadata(path) { continue }
            let display = "\(name)!\(path)"
            try budget.countEntry(display)
            let size: Int64? = archive_entry_size_is_set(entry) != 0 ? archive_entry_size(entry) : nil
            let found = Entry(path: path, displayName: display, declaredSize: size)
            current = found
            packedAtEntryStart = packedBytes
            entryBytes = 0
            return found
        }
    }

    /// True for a name that must never be trusted as a path: absolute, or with a `..` part.
    public static func isUnsafe(_ path: String) -> Bool {
        path.hasPrefix("/") || path.hasPrefix("\\")
            || path.split(whereSeparator: { $0 == "/" || $0 == "\\" }).contains("..")
    }

    /// macOS resource forks and Finder files that zips made on a Mac carry.
    static func isMetadata(_ path: String) -> Bool {
        path.hasPrefix("__MACOSX/") || path.contains("/__MACOSX/") || path.hasSuffix(".DS_Store")
            || (path.split(separator: "/").last?.hasPrefix("._") ?? false)
    }

    /// Reads up to `count` bytes of the current entry; 0 at its end.
    fileprivate func readEntry(into buffer: UnsafeMutableRawPointer, count: Int, entry: Entry) throws -> Int {
        guard let handle, current == entry else { return 0 }
        let n = archive_read_data(handle, buffer, count)
        if let error = parentError { throw error }
        if n < 0 {
            if let refusal = budget.refusal { throw refusal }
            throw ArchiveError(.entry, entry.displayName, "cannot unpack: \(Self.message(handle))")
        }
        entryBytes += Int64(n)
        try budget.countBytes(
            n, entry: entry.displayName, entryBytes: entryBytes, packedBytes: packedBytes - packedAtEntryStart)
        return n
    }

    /// The current entry's bytes, valid until `nextEntry()` is called again.
    public func entryStream() -> ByteStream? {
        guard let current else { return nil }
        return ArchiveEntryStream(reader: self, entry: current)
    }

    /// The whole current entry in memory; refuses more than `limit` bytes.
    public func readEntry(limit: Int) throws -> [UInt8] {
        guard let current, let stream = entryStream() else { return [] }
        var bytes: [UInt8] = []
        if let size = current.declaredSize, size > 0, size <= Int64(limit) { bytes.reserveCapacity(Int(size)) }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = try chunk.withUnsafeMutableBytes { try stream.read(into: $0.baseAddress!, count: $0.count) }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
            if bytes.count > limit {
                throw ArchiveError(.entry, current.displayName, "larger than \(ByteCount.text(Int64(limit)))")
            }
        }
        return bytes
    }
}

/// The bytes of one archive entry, pulled from libarchive as they are read.
final class ArchiveEntryStream: ByteStream {
    let name: String
    private let reader: ArchiveReader
    private let entry: ArchiveReader.Entry

    init(reader: ArchiveReader, entry: ArchiveReader.Entry) {
        self.reader = reader; self.entry = entry; name = entry.displayName
    }

    func read(into buffer: UnsafeMutableRawPointer, count: Int) throws -> Int {
        try reader.readEntry(into: buffer, count: count, entry: entry)
    }
}

/// Writes a zip archive with libarchive (tests, `racekit-gen` exports and the
/// benchmark's archives). Entries are deflated unless `stored`.
public final class ZipWriter {
    private let handle: OpaquePointer
    private let path: String

    public init(path: String) throws {
        self.path = path
        guard let handle = archive_write_new() else {
            throw ArchiveError(.unreadable, path, "libarchive could not start")
        }
        self.handle = handle
        archive_write_set_format_zip(handle)
        guard archive_write_open_filename(handle, path) == ARCHIVE_OK else {
            let message = archive_error_string(handle).map { String(cString: $0) } ?? "cannot create"
            archive_write_free(handle)
            throw ArchiveError(.unreadable, path, message)
        }
    }

    deinit { archive_write_free(handle) }

    /// Adds an entry named `name` (any name: tests write hostile ones) holding `bytes`.
    public func add(_ name: String, _ bytes: [UInt8], stored: Bool = false) throws {
        try add(name, size: bytes.count, stored: stored) { write in try write(bytes) }
    }

    /// Adds an entry of `size` bytes whose content `body` writes in pieces.
    public func add(
        _ name: String, size: Int, stored: Bool = false, _ body: ((([UInt8]) throws -> Void)) throws -> Void
    ) throws {
        guard let entry = archive_entry_new() else { throw ArchiveError(.unreadable, path, "no memory") }
        defer { archive_entry_free(entry) }
        archive_entry_set_pathname(entry, name)
        archive_entry_set_size(entry, Int64(size))
        archive_entry_set_filetype(entry, 0o100000)
        archive_entry_set_perm(entry, 0o644)
        archive_entry_set_mtime(entry, 1_700_000_000, 0)
        _ = stored ? archive_write_zip_set_compression_store(handle) : archive_write_zip_set_compression_deflate(handle)
        try check(archive_write_header(handle, entry))
        try body { bytes in
            guard !bytes.isEmpty else { return }
            let n = bytes.withUnsafeBytes { archive_write_data(handle, $0.baseAddress, $0.count) }
            if n < 0 { try check(Int32(n)) }
        }
        try check(archive_write_finish_entry(handle))
    }

    /// Writes the central directory and closes the file.
    public func close() throws { try check(archive_write_close(handle)) }

    private func check(_ status: Int32) throws {
        if status < ARCHIVE_WARN {
            let message = archive_error_string(handle).map { String(cString: $0) } ?? "write error \(status)"
            throw ArchiveError(.unreadable, path, message)
        }
    }
}
