#if canImport(Glibc)
import Glibc
#endif

/// What an open file was when it was opened (its inode, size and modification
/// time; not its change time, which a rename over it or a new link moves), to
/// tell afterwards whether it was written while it was read: a file rewritten
/// in place mid-read would be stored as a mix of both versions with a digest
/// of neither (or of the mix), and importing the settled file would then say
/// "duplicate". Such a file fails instead (`FormatError.changedWhileRead`,
/// exit 75: import it again once it is settled), and nothing of it is stored.
/// Replacing a file by renaming another over it is no change to the file
/// already open: that one is read whole, as it was.
struct FileIdentity: Equatable {
    private let device: UInt64
    private let inode: UInt64
    private let size: Int64
    private let modified: timespec

    init?(fd: Int32) {
        var st = stat()
        guard fd >= 0, fstat(fd, &st) == 0 else { return nil }
        device = UInt64(st.st_dev)
        inode = UInt64(st.st_ino)
        size = Int64(st.st_size)
        modified = st.st_mtim
    }

    static func == (a: FileIdentity, b: FileIdentity) -> Bool {
        a.device == b.device && a.inode == b.inode && a.size == b.size && a.modified.tv_sec == b.modified.tv_sec
            && a.modified.tv_nsec == b.modified.tv_nsec
    }

    /// Throws `FormatError.changedWhileRead` when the file open as `fd` is no
    /// longer what `self` recorded.
    func check(fd: Int32, file: String) throws {
        guard let now = FileIdentity(fd: fd), now == self else { throw FormatError.changedWhileRead(file: file) }
    }
}
