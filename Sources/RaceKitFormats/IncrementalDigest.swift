#if canImport(Glibc)
import Glibc
#endif

/// SHA-256 of a plain file computed a piece at a time by whoever has a moment:
/// the handler thread of a read-ahead parse hashes while it waits for nodes,
/// so the two parsing threads keep both cores and nothing else competes.
final class IncrementalDigest {
    private let path: String
    private var fd: Int32
    private var offset: off_t = 0
    private var hasher = ContentDigest()
    private var buffer = [UInt8](repeating: 0, count: 256 * 1024)
    private var failure: FormatError?
    private var isDone = false

    /// Hashes the file open as `fd` (the parser's own, duplicated: the very file
    /// the parser reads, never the path opened again), by `pread` at its own
    /// offset.
    init(path: String, fd: Int32) {
        self.path = path
        self.fd = dup(fd)
        if self.fd < 0 { fail() }
    }

    deinit { if fd >= 0 { close(fd) } }

    private func fail() {
        failure = .cannotOpen(file: path, reason: String(cString: strerror(errno)))
        isDone = true
    }

    /// Hashes the next piece (256 KB); false once the whole file is hashed.
    @discardableResult
    func step() -> Bool {
        guard !isDone, fd >= 0 else { return false }
        let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, $0.count, offset) }
        if n < 0 {
            if errno == EINTR { return true }
            fail()
            return false
        }
        if n > 0 { buffer.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[..<n])) } }
        offset += off_t(n)
        if n == 0 { isDone = true }
        return !isDone
    }

    /// Hashes what is left and returns the digest (hex).
    func value() throws -> String {
        while step() {}
        if let failure { throw failure }
        return hasher.finish()
    }
}
