import Foundation

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
        fd = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw OutputError.cannotWrite(path: path, reason: String(cString: strerror(errno))) }
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
    public static func createDirectory(_ path: String) throws {
        do { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) } catch {
            throw OutputError.cannotCreate(path: path, reason: (error as NSError).localizedDescription)
        }
    }

    public static func write(_ text: String, to path: String) throws {
        try write(Array(text.utf8), to: path)
    }

    public static func write(_ bytes: [UInt8], to path: String) throws {
        let dir = (path as NSString).deletingLastPathComponent
        // At most 200 bytes of the name, so the temporary name of a file whose
        // own name is near the 255-byte limit is still a name.
        var stem = (path as NSString).lastPathComponent
        while stem.utf8.count > 200 { stem.removeLast() }
        let temp = ((dir.isEmpty ? "." : dir) as NSString).appendingPathComponent(".\(stem).\(getpid()).tmp")
        let fd = open(temp, O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw OutputError.cannotWrite(path: path, reason: String(cString: strerror(errno))) }
        var failure: String?
        var offset = 0
        while offset < bytes.count, failure == nil {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n <= 0 { failure = String(cString: strerror(errno)) } else { offset += n }
        }
        if failure == nil, fsync(fd) != 0 { failure = String(cString: strerror(errno)) }
        close(fd)
        if failure == nil, rename(temp, path) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(temp)
            throw OutputError.cannotWrite(path: path, reason: failure)
        }
    }
}

/// Reads a whole (small) input file: setups, scripts, personalities.
public enum InputFile {
    /// The file's bytes, nil when it cannot be opened. Through a file handle:
    /// Foundation's `FileManager.contents(atPath:)` leaks a 4 KB buffer on an
    /// empty file (LeakSanitizer, swift-foundation on this toolchain).
    public static func read(_ path: String) -> Data? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        do { return try handle.readToEnd() ?? Data() } catch { return nil }
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
