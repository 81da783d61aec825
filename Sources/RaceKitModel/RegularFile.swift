#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Input files are read only when they are regular files: opening a FIFO blocks
/// until something writes to it (forever, in a folder of exports), and a device
/// such as `/dev/zero` never ends. Symbolic links are followed, so a link to a
/// regular file is read and a link to anything else is not.
public enum RegularFile {
    /// Why `path` is not read ("a FIFO (named pipe), not a regular file"), or nil
    /// when it is a regular file or does not exist (opening it then says why).
    public static func refusal(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let kind: String
        switch info.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFIFO: kind = "a FIFO (named pipe)"
        case S_IFCHR: kind = "a character device"
        case S_IFBLK: kind = "a block device"
        case S_IFSOCK: kind = "a socket"
        case S_IFDIR: kind = "a folder"
        default: kind = "a special file"
        }
        var link = stat()
        let viaLink = lstat(path, &link) == 0 && link.st_mode & S_IFMT == S_IFLNK
        return "\(viaLink ? "a symbolic link to " : "")\(kind), not a regular file: not read"
    }
}
