import Foundation
import RaceKitModel

#if canImport(Glibc)
import Glibc
#endif

/// Why an output file could not be written.
public enum OutputError: RaceKitError, Equatable {
    /// Another run holds the lock.
    case busy(lockFile: String, waitedSeconds: Double)
    /// The output folder, or a file that must not be overwritten, cannot be created.
    case cannotCreate(path: String, reason: String)
    /// A file cannot be written.
    case cannotWrite(path: String, reason: String)
    /// A file that is only overwritten when asked exists.
    case exists(path: String, hint: String)

    public var exitClass: ExitClass {
        switch self {
        case .busy: return .busy
        case .cannotCreate, .exists: return .cannotCreate
        case .cannotWrite: return .ioError
        }
    }

    public var description: String {
        switch self {
        case .busy(let lock, let waited):
            return "another report run holds \(lock); gave up after \(TextFormat.fixed(waited, 1)) s (try again later)"
        case .cannotCreate(let path, let reason): return "\(path): cannot create the folder: \(reason)"
        case .cannotWrite(let path, let reason): return "\(path): cannot write: \(reason)"
        case .exists(let path, let hint): return "\(path) already exists (\(hint))"
        }
    }
}

/// A `flock` on a file in an output folder, so two overlapping runs (cron) never
/// interleave their writes: exclusive, or shared among runs that write disjoint
/// files (the shards of one job) while still excluding an exclusive holder.
public final class OutputLock {
    private let fd: Int32
    public let path: String

    /// Waits up to `waitSeconds` for the lock (exclusive, or `shared`), then
    /// throws `OutputError.busy`.
    public init(
        directory: String, name: String = ".racekit-report.lock", shared: Bool = false, waitSeconds: Double
    ) throws {
        path = (directory as NSString).appendingPathComponent(name)
        // Never through a symbolic link: a link in the lock's place (to a missing
        // path, or another user's file) would have the lock file created there.
        fd = open(path, O_CREAT | O_RDWR | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else { throw OutputError.cannotWrite(path: path, reason: AtomicFile.openFailure(errno)) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw OutputError.cannotWrite(
                path: path, reason: "it is not a regular file (\(AtomicFile.kind(st.st_mode)))")
        }
        let deadline = Date().addingTimeInterval(waitSeconds)
        while flock(fd, (shared ? LOCK_SH : LOCK_EX) | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, Date() < deadline else {
                close(fd)
                throw OutputError.busy(lockFile: path, waitedSeconds: waitSeconds)
            }
            usleep(50_000)
        }
    }

    deinit {
        flock(fd, LOCK_UN)
        close(fd)
    }
}

/// Writes files atomically: a temporary file in the same folder, flushed to
/// disk, then renamed over the target, so a reader never sees half a file.
public enum AtomicFile {
    /// Creates the folder `path` (and its parents) when missing. A folder the
    /// user names may be a symbolic link to a folder; a link to nothing, or a
    /// file or device in its place, is refused saying so.
    public static func createDirectory(_ path: String) throws {
        var st = stat()
        if stat(path, &st) == 0 {
            guard st.st_mode & S_IFMT == S_IFDIR else {
                throw OutputError.cannotCreate(
                    path: path, reason: "it exists and is not a folder (\(kind(st.st_mode)))")
            }
            return
        }
        if lstat(path, &st) == 0, st.st_mode & S_IFMT == S_IFLNK {
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
            throw OutputError.cannotCreate(
                path: path, reason: "it is a symbolic link to \(target), which does not exist or cannot be reached")
        }
        do { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) } catch {
            throw OutputError.cannotCreate(path: path, reason: (error as NSError).localizedDescription)
        }
    }

    /// Creates `path`, a folder RaceKit names inside an output folder (an
    /// athlete's report folder), when missing: unlike a folder the user names,
    /// it must be a real folder, never a symbolic link that would send the
    /// files elsewhere.
    public static func createSubdirectory(_ path: String) throws {
        var st = stat()
        if lstat(path, &st) == 0 {
            guard st.st_mode & S_IFMT == S_IFDIR else {
                throw OutputError.cannotCreate(
                    path: path,
                    reason:
                        "it exists and is not a folder (\(kind(st.st_mode))): RaceKit writes only into real folders there"
                )
            }
            return
        }
        guard mkdir(path, 0o755) == 0 || errno == EEXIST else {
            throw OutputError.cannotCreate(path: path, reason: String(cString: strerror(errno)))
        }
        guard lstat(path, &st) == 0, st.st_mode & S_IFMT == S_IFDIR else {
            throw OutputError.cannotCreate(path: path, reason: "it was replaced by something that is not a folder")
        }
    }

    /// What a file's mode says it is, for a message.
    static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFREG: return "a file"
        case S_IFLNK: return "a symbolic link"
        case S_IFIFO: return "a named pipe"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        default: return "not a folder"
        }
    }

    /// `strerror` of a failed `open`, with ELOOP (O_NOFOLLOW met a link) said plainly.
    public static func openFailure(_ code: Int32) -> String {
        code == ELOOP
            ? "it is a symbolic link, and RaceKit does not write through one" : String(cString: strerror(code))
    }

    public static func write(_ text: String, to path: String) throws {
        try write(Array(text.utf8), to: path)
    }

    public static func write(_ bytes: [UInt8], to path: String) throws {
        try stream(to: path) { sink in try bytes.withUnsafeBytes { try sink.write($0) } }
    }

    /// Where `stream(to:_:)` writes: the temporary file, a block at a time.
    public struct Sink {
        let fd: Int32
        let path: String

        /// Writes every byte of `bytes` (a failure is `OutputError.cannotWrite` of the final path).
        public func write(_ bytes: UnsafeRawBufferPointer) throws {
            var offset = 0
            while offset < bytes.count {
                let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                guard n > 0 else { throw OutputError.cannotWrite(path: path, reason: String(cString: strerror(errno))) }
                offset += n
            }
        }
    }

    /// Writes `path` from what `body` gives its sink, through a temporary file
    /// beside it renamed into place: a reader sees the old file or the whole new
    /// one, and memory stays what `body` holds. A throwing `body` leaves `path` as it was.
    public static func stream(to path: String, _ body: (Sink) throws -> Void) throws {
        let dir = (path as NSString).deletingLastPathComponent
        // At most 200 bytes of the name, so the temporary name of a file whose
        // own name is near the 255-byte limit is still a name.
        var stem = (path as NSString).lastPathComponent
        while stem.utf8.count > 200 { stem.removeLast() }
        let temp = ((dir.isEmpty ? "." : dir) as NSString).appendingPathComponent(".\(stem).\(getpid()).tmp")
        // A new file of our own: never through a link (or onto a FIFO) left in the
        // temporary name's place; one left by a killed run is removed first.
        var fd = open(temp, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC | O_NOFOLLOW, 0o644)
        if fd < 0, errno == EEXIST, unlink(temp) == 0 {
            fd = open(temp, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC | O_NOFOLLOW, 0o644)
        }
        guard fd >= 0 else { throw OutputError.cannotWrite(path: path, reason: openFailure(errno)) }
        do {
            try body(Sink(fd: fd, path: path))
            guard fsync(fd) == 0 else {
                throw OutputError.cannotWrite(path: path, reason: String(cString: strerror(errno)))
            }
            close(fd)
            fd = -1
            guard rename(temp, path) == 0 else {
                throw OutputError.cannotWrite(path: path, reason: String(cString: strerror(errno)))
            }
        } catch {
            if fd >= 0 { close(fd) }
            unlink(temp)
            throw error
        }
    }
}

/// Reads a whole (small) input file: setups, scripts, personalities.
public enum InputFile {
    /// The file's bytes, nil when it cannot be opened. Through a file handle:
    /// Foundation's `FileManager.contents(atPath:)` leaks a 4 KB buffer on an
    /// empty file (LeakSanitizer, swift-foundation on this toolchain).
    /// Only a regular file is read (a link to one too): a FIFO would block
    /// forever, a device never end; `RegularFile.refusal` says why not.
    public static func read(_ path: String) -> Data? { regularFile(path, flags: 0) }

    /// `read(_:)` of at most `limit + 1` bytes: more than `limit` means the file
    /// is larger, and it was not read whole (memory stays bounded by `limit`).
    public static func read(_ path: String, limit: Int) -> Data? { regularFile(path, flags: 0, limit: limit) }

    /// The bytes of `path` when it is a regular file reached without a symbolic
    /// link, nil otherwise: for files RaceKit wrote itself into a folder it owns
    /// (the audio folder's clips and manifest), where a FIFO would block the
    /// read forever and a link would read what is elsewhere. Such a file is
    /// then written anew (renamed over), never read.
    public static func readRegular(_ path: String) -> Data? { regularFile(path, flags: O_NOFOLLOW) }

    /// The bytes of a regular file opened with `flags` as well, without blocking
    /// on what is not one (checked on the open descriptor, not the path).
    private static func regularFile(_ path: String, flags: Int32, limit: Int? = nil) -> Data? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | flags)
        guard fd >= 0 else { return nil }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            return nil
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        do {
            if let limit { return try handle.read(upToCount: limit + 1) ?? Data() }
            return try handle.readToEnd() ?? Data()
        } catch { return nil }
    }
}

/// Names that become one path component: a script's `race`, an athlete's report folder.
public enum PathComponent {
    /// True for a name that is safe as one path component: 1 to 100 ASCII letters,
    /// digits, '-', '_' and '.', not starting with '.' (so never '.', '..' or hidden).
    public static func isSafe(_ s: String) -> Bool {
        guard (1...100).contains(s.utf8.count), s.first != "." else { return false }
        return s.unicodeScalars.allSatisfy {
            $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-_.".unicodeScalars.contains($0))
        }
    }
}
