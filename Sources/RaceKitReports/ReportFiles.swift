import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Why reports could not be written (sysexits in the CLI).
public enum ReportError: Error, Sendable, CustomStringConvertible {
    /// Another report run holds the lock (exit 75).
    case busy(lockFile: String, waitedSeconds: Double)
    /// The output folder cannot be created (exit 73).
    case cannotCreate(path: String, reason: String)
    /// A file cannot be written (exit 74).
    case cannotWrite(path: String, reason: String)
    case unknownAthlete(String)

    public var description: String {
        switch self {
        case .busy(let lock, let waited):
            return "another report run holds \(lock); gave up after \(ReportFormat.fixed(waited, 1)) s (try again later)"
        case .cannotCreate(let path, let reason): return "\(path): cannot create the folder: \(reason)"
        case .cannotWrite(let path, let reason): return "\(path): cannot write: \(reason)"
        case .unknownAthlete(let id): return "unknown athlete '\(id)'"
        }
    }
}

/// An exclusive `flock` on a file in the output folder, so two overlapping
/// report runs (cron) never interleave their writes.
public final class ReportLock {
    private let fd: Int32
    public let path: String

    /// Waits up to `waitSeconds` for the lock, then throws `ReportError.busy`.
    public init(directory: String, waitSeconds: Double) throws {
        path = (directory as NSString).appendingPathComponent(".racekit-report.lock")
        fd = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw ReportError.cannotWrite(path: path, reason: String(cString: strerror(errno))) }
        let deadline = Date().addingTimeInterval(waitSeconds)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, Date() < deadline else {
                close(fd)
                throw ReportError.busy(lockFile: path, waitedSeconds: waitSeconds)
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
/// disk, then renamed over the target, so a reader never sees half a report.
public enum AtomicFile {
    public static func createDirectory(_ path: String) throws {
        do { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) } catch {
            throw ReportError.cannotCreate(path: path, reason: (error as NSError).localizedDescription)
        }
    }

    public static func write(_ text: String, to path: String) throws {
        let dir = (path as NSString).deletingLastPathComponent
        let temp = (dir as NSString).appendingPathComponent(".\((path as NSString).lastPathComponent).\(getpid()).tmp")
        let fd = open(temp, O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw ReportError.cannotWrite(path: path, reason: String(cString: strerror(errno))) }
        var failure: String?
        let bytes = Array(text.utf8)
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
            throw ReportError.cannotWrite(path: path, reason: failure)
        }
    }
}
