import Foundation
import RaceKitCore

#if canImport(Glibc)
import Glibc
#endif

/// What `stat` says of a file an import is about to read: the four facts a
/// `FileStamp` keeps.
struct FileFacts: Sendable, Equatable {
    /// The absolute path (symbolic links not resolved: the path the user gave).
    var path: String
    var size: Int
    var modifiedNanoseconds: Int
    var inode: Int

    /// The facts of the regular file at `path`; nil when it cannot be stat'ed or is not one.
    static func of(_ path: String) -> FileFacts? {
        var st = stat()
        guard stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        let ns = Int(st.st_mtim.tv_sec) &* 1_000_000_000 &+ Int(st.st_mtim.tv_nsec)
        return FileFacts(path: absolute, size: Int(st.st_size), modifiedNanoseconds: ns, inode: Int(st.st_ino))
    }
}

/// The stamps an import loaded (the athlete's, with the runs they name still
/// stored) and the ones it makes, written once at its end.
final class StampBook: Sendable {
    let athleteID: String
    let recordedAt: Double
    private let made = Locked<[FileStamp]>([])

    init(athleteID: String, recordedAt: Double = Date().timeIntervalSince1970) {
        self.athleteID = athleteID; self.recordedAt = recordedAt
    }

    /// The result of a file the athlete's last import finished with and that has
    /// not changed since (same path, size, modification time and inode, and its
    /// runs still stored): said as that import said it, without reading it.
    static func unchanged(_ facts: FileFacts, file: String, in context: Importer.Context) -> FileResult? {
        guard let stamp = context.stamps[facts.path],
            stamp.matches(size: facts.size, modifiedNanoseconds: facts.modifiedNanoseconds, inode: facts.inode)
        else { return nil }
        let runs = stamp.runIDList
        guard runs.allSatisfy(context.storedRunIDs.contains) else { return nil }
        let why = "unchanged since it was last imported (same size, modification time and inode)"
        switch stamp.status {
        case FileStatus.skipped.rawValue:
            return FileResult(
                file: file, status: .skipped, reason: [why, stamp.reason].compactMap { $0 }.joined(separator: ": "))
        case FileStatus.imported.rawValue, FileStatus.upgraded.rawValue, FileStatus.duplicate.rawValue:
            guard !runs.isEmpty else { return nil }
            return FileResult(file: file, status: .duplicate, runIds: runs, reason: "\(why): already stored")
        default: return nil
        }
    }

    /// Keeps what a read file became (not a failure: that file is read again).
    func note(_ facts: FileFacts?, _ r: FileResult) {
        guard let facts else { return }
        switch r.status {
        case .imported, .upgraded, .duplicate, .skipped: break
        case .failed: return
        }
        let stamp = FileStamp(
            athleteID: athleteID, path: facts.path, size: facts.size, modifiedNanoseconds: facts.modifiedNanoseconds,
            inode: facts.inode, status: r.status.rawValue, reason: r.reason, runIDs: r.runIds, recordedAt: recordedAt)
        made.withLock { $0.append(stamp) }
    }

    var stamps: [FileStamp] { made.withLock { $0 } }
}
