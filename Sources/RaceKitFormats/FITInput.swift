#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes of a FIT document, pulled from a `ByteStream` into a buffer that
/// holds at most one message beyond what the stream hands over at once: the
/// decoder asks for the bytes of the next message, reads them in place and
/// consumes them. Every byte read is hashed (SHA-256 of the document) and every
/// byte consumed goes into the running FIT CRC.
final class FITInput {
    let stream: ByteStream
    private var buffer: UnsafeMutableRawPointer
    private var capacity: Int
    private var start = 0
    private var end = 0
    /// Document offset of the next unconsumed byte.
    private(set) var offset = 0
    /// Bytes read from the stream so far.
    private(set) var bytesRead = 0
    /// True once the stream reported its end.
    private(set) var atEnd = false
    /// The FIT CRC of the bytes consumed since `resetCRC()`, up to `crcFrom`;
    /// the bytes from there to `start` are added in one run when needed.
    private var crcSoFar: UInt16 = 0
    private var crcFrom = 0
    private var hasher = ContentDigest()
    /// What the stream threw (corrupt or cut-off gzip data): the document ends there.
    private(set) var readError: (any Error)?

    /// Largest message the protocol allows: a definition of 255 fields and 255
    /// developer fields, or a data message of 255 + 255 fields of 255 bytes.
    static let maximumMessage = 1 + 255 * 255 * 2

    init(_ stream: ByteStream, chunk: Int = 64 * 1024) {
        self.stream = stream
        capacity = chunk
        buffer = .allocate(byteCount: chunk, alignment: 16)
    }

    deinit { buffer.deallocate() }

    /// Bytes available without reading.
    var available: Int { end - start }
    /// The next unconsumed byte.
    var pointer: UnsafeRawPointer { UnsafeRawPointer(buffer + start) }

    /// Makes `n` bytes available; false when the stream ends first.
    @inline(__always)
    func ensure(_ n: Int) throws -> Bool {
        if end - start >= n { return true }
        return try refill(n)
    }

    private func refill(_ n: Int) throws -> Bool {
        settleCRC()
        if start > 0 {
            if end > start { memmove(buffer, buffer + start, end - start) }
            end -= start
            start = 0
            crcFrom = 0
        }
        if n > capacity {
            let bigger = UnsafeMutableRawPointer.allocate(byteCount: n, alignment: 16)
            bigger.copyMemory(from: buffer, byteCount: end)
            buffer.deallocate()
            buffer = bigger
            capacity = n
        }
        while end < n, !atEnd {
            let got = pull(buffer + end, capacity - end)
            if got <= 0 { atEnd = true; break }
            hasher.update(UnsafeRawBufferPointer(start: buffer + end, count: got))
            end += got
            bytesRead += got
        }
        return end - start >= n
    }

    /// Reads from the stream; an error ends the document (kept in `readError`),
    /// so that what came before it can still be used.
    private func pull(_ into: UnsafeMutableRawPointer, _ count: Int) -> Int {
        do {
            return try stream.read(into: into, count: count)
        } catch {
            readError = error
            return 0
        }
    }

    /// Consumes `n` available bytes (they count in the CRC).
    @inline(__always)
    func consume(_ n: Int) {
        start += n
        offset += n
    }

    private func settleCRC() {
        if start > crcFrom {
            crcSoFar = FITCRC.update(crcSoFar, UnsafeRawBufferPointer(start: buffer + crcFrom, count: start - crcFrom))
        }
        crcFrom = start
    }

    /// The FIT CRC of the bytes consumed since `resetCRC()`.
    var crc: UInt16 {
        settleCRC()
        return crcSoFar
    }

    /// Starts a new CRC at the next unconsumed byte.
    func resetCRC() {
        crcSoFar = 0
        crcFrom = start
    }

    /// Reads (and hashes) whatever is left; returns the number of bytes skipped.
    @discardableResult
    func drain() throws -> Int {
        var skipped = end - start
        offset += skipped
        start = 0
        end = 0
        crcFrom = 0
        while !atEnd {
            let got = pull(buffer, capacity)
            if got <= 0 { atEnd = true; break }
            hasher.update(UnsafeRawBufferPointer(start: buffer, count: got))
            bytesRead += got
            skipped += got
            offset += got
        }
        return skipped
    }

    /// Hex SHA-256 of every byte read; call once, after `drain()`.
    func digest() -> String { hasher.finish() }
}
