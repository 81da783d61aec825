import Foundation
import RaceKitModel
import RaceKitStore

#if canImport(Glibc)
import Glibc
#endif

/// What `stat` says of a file an import is about to read: the facts a
/// `FileStamp` keeps. Beside the path, size, modification time and inode, the
/// device and the change time (ctime): a copy that restores the old
/// modification time (`cp -p`, `rsync -t`, `unzip -o`) into the same inode
/// still changes the ctime, which no tool can set back.
struct FileFacts: Sendable, Equatable {
    /// The absolute path (symbolic links not resolved: the path the user gave).
    var path: String
    var size: Int
    var modifiedNanoseconds: Int
    /// The inode and the device, folded into one number (an inode from NFS or
    /// FUSE may use all 64 bits: never a trap).
    var inode: Int
    var changedNanoseconds: Int
    /// Modified or changed within `settle` seconds of the stat: the file may
    /// still be being written within one tick of the clock, so it gets no stamp
    /// (Git's "racy" rule).
    var recent: Bool

    /// The facts of the regular file at `path`; nil when it cannot be stat'ed or is not one.
    static func of(_ path: String, settle: Double, now: Double = Date().timeIntervalSince1970) -> FileFacts? {
        var st = stat()
        guard stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        func ns(_ t: timespec) -> Int { Int(t.tv_sec) &* 1_000_000_000 &+ Int(t.tv_nsec) }
        let inode =
            Int(truncatingIfNeeded: st.st_ino)
            ^ Int(bitPattern: UInt(truncatingIfNeeded: st.st_dev) &* 0x9E37_79B9_7F4A_7C15)
        return FileFacts(
            path: absolute, size: Int(st.st_size), modifiedNanoseconds: ns(st.st_mtim), inode: inode,
            changedNanoseconds: ns(st.st_ctim),
            recent: now - Double(max(ns(st.st_mtim), ns(st.st_ctim))) / 1e9 < settle)
    }
}

/// What the files an import read became, kept for their stamps (written once
/// at the import's end, when the store is open: `stamps(reader:)`).
final class StampBook: Sendable {
    let athleteID: String
    let recordedAt: Double
    private let made = Locked<[(FileFacts, FileResult)]>([])

    init(athleteID: String, recordedAt: Double = Date().timeIntervalSince1970) {
        self.athleteID = athleteID; self.recordedAt = recordedAt
    }

    /// The result of a file the athlete's last import finished with and that has
    /// not changed since (same path, size, modification and change time, inode
    /// and device, read by this racekit and analysis, and its runs still
    /// stored): said as that import said it, without reading it.
    static func unchanged(_ facts: FileFacts, file: String, in context: Importer.Context) -> FileResult? {
        guard let stamp = context.stamps[facts.path], stamp.reader == FileStamp.reader(context.store.registry),
            stamp.matches(
                size: facts.size, modifiedNanoseconds: facts.modifiedNanoseconds, inode: facts.inode,
                changedNanoseconds: facts.changedNanoseconds)
        else { return nil }
        let runs = stamp.runIDList
        guard runs.allSatisfy(context.storedRunIDs.contains) else { return nil }
        // Said exactly as reading it would say it (a duplicate's ids, a skipped
        // file's reason): a nightly re-import prints "Nothing new" as before.
        var said: FileResult
        switch stamp.status {
        case FileStatus.skipped.rawValue:
            said = FileResult(file: file, status: .skipped, reason: stamp.reason)
        case FileStatus.imported.rawValue, FileStatus.upgraded.rawValue, FileStatus.duplicate.rawValue:
            guard !runs.isEmpty else { return nil }
            said = FileResult(file: file, status: .duplicate, runIds: runs)
        default: return nil
        }
        said.unchanged = true
        return said
    }

    /// Keeps what a read file became (not a failure: that file is read again;
    /// not a file changed a moment ago: it may still be being written).
    func note(_ facts: FileFacts?, _ r: FileResult) {
        guard let facts, !facts.recent, r.status != .failed else { return }
        made.withLock { $0.append((facts, r)) }
    }

    /// The stamps, each naming `reader` (`FileStamp.reader` of the store's registry).
    func stamps(reader: String) -> [FileStamp] {
        made.withLock { $0 }.map { facts, r in
            FileStamp(
                athleteID: athleteID, path: facts.path, size: facts.size,
                modifiedNanoseconds: facts.modifiedNanoseconds, inode: facts.inode,
                changedNanoseconds: facts.changedNanoseconds, reader: reader, status: r.status.rawValue,
                reason: r.reason, runIDs: r.runIds, recordedAt: recordedAt)
        }
    }
}
