import RaceKitCore

#if canImport(Glibc)
import Glibc
#endif

/// SHA-256 of a plain file computed a piece at a time by whoever has a moment:
/// the handler thread of a read-ahead parse hashes while it waits for nodes,
/// so the two parsing threads keep both cores and nothing else competes.
final class IncrementalDigest {
    private let path: String
    private var file: UnsafeMutablePointer<FILE>?
    private var hasher = ContentDigest()
    private var buffer = [UInt8](repeating: 0, count: 256 * 1024)
    private var failure: FormatError?
    private var isDone = false

    init(path: String) {
        self.path = path
        file = fopen(path, "rb")
        if file == nil { fail() }
    }

    deinit { if let file { fclose(file) } }

    private func fail() {
        failure = .cannotOpen(file: path, reason: String(cString: strerror(errno)))
        isDone = true
    }

    /// Hashes the next piece (256 KB); false once the whole file is hashed.
    @discardableResult
    func step() -> Bool {
        guard !isDone, let file else { return false }
        let n = buffer.withUnsafeMutableBytes { fread($0.baseAddress!, 1, $0.count, file) }
        if n > 0 { buffer.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[..<n])) } }
        if n < buffer.count {
            if ferror(file) != 0 { fail() } else { isDone = true }
        }
        return !isDone
    }

    /// Hashes what is left and returns the digest (hex).
    func value() throws -> String {
        while step() {}
        if let failure { throw failure }
        return hasher.finish()
    }
}
