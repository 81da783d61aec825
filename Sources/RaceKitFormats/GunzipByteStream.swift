@preconcurrency internal import CZlib

/// The gzip data of another stream, decompressed as it is read (a `.gpx.gz`
/// entry inside an archive). Concatenated gzip members are read one after the
/// other, as gzip(1) does.
final class GunzipByteStream: ByteStream {
    let name: String
    private let source: ByteStream
    private var zs = z_stream()
    private var input: UnsafeMutableRawPointer
    private static let inputSize = 64 * 1024
    private var sourceEnded = false
    private var ended = false
    /// Limits of the archive the data came from (a `.gz` entry), and its name:
    /// the gzip layer counts against them too.
    private let limits: (ArchiveLimits, root: String)?
    private var packed: Int64 = 0
    /// The archive's limits on this gzip layer (nil outside an archive).
    private var ratio: GzipRatioCheck?

    init(_ source: ByteStream, limits: (ArchiveLimits, root: String)? = nil) throws {
        self.source = source
        self.limits = limits
        ratio = limits.map { GzipRatioCheck(limits: $0.0) }
        name = source.name
        input = .allocate(byteCount: Self.inputSize, alignment: 16)
        // 16 + MAX_WBITS: gzip framing only.
        guard inflateInit2_(&zs, 16 + MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            input.deallocate()
            throw FormatError.corruptGzip(file: source.name, message: "zlib could not start")
        }
    }

    deinit {
        inflateEnd(&zs)
        input.deallocate()
    }

    func read(into buffer: UnsafeMutableRawPointer, count: Int) throws -> Int {
        if ended || count == 0 { return 0 }
        zs.next_out = buffer.assumingMemoryBound(to: Bytef.self)
        zs.avail_out = UInt32(min(count, Int(UInt32.max)))
        while zs.avail_out > 0 {
            if zs.avail_in == 0, !sourceEnded {
                let n = try source.read(into: input, count: Self.inputSize)
                if n == 0 {
                    sourceEnded = true
                } else {
                    packed += Int64(n)   // the ratio is unpacked over packed bytes read so far
                    zs.next_in = input.assumingMemoryBound(to: Bytef.self)
                    zs.avail_in = UInt32(n)
                }
            }
            if zs.avail_in == 0, sourceEnded {
                let produced = count - Int(zs.avail_out)
                try check(produced)
                if produced == 0 {
                    ended = true
                    if !atMemberEnd {
                        throw FormatError.corruptGzip(file: name, message: "unexpected end of file")
                    }
                }
                return produced
            }
            let status = inflate(&zs, Z_NO_FLUSH)
            if status == Z_STREAM_END {
                atMemberEnd = true
                // Another member may follow.
                inflateReset(&zs)
                continue
            }
            atMemberEnd = false
            if status != Z_OK && status != Z_BUF_ERROR {
                let message = zs.msg.map { String(cString: $0) } ?? "zlib error \(status)"
                throw FormatError.corruptGzip(file: name, message: message)
            }
        }
        let produced = count - Int(zs.avail_out)
        try check(produced)
        return produced
    }

    private func check(_ produced: Int) throws {
        guard let root = limits?.root, var budget = ratio else { return }
        defer { ratio = budget }
        if let why = budget.count(produced, packed: packed) {
            throw ArchiveError(.refused, root, "\(name) (gzip) \(why)")
        }
    }

    private var atMemberEnd = false
}

/// A stream whose first bytes can be looked at before it is read.
final class PeekedByteStream: ByteStream {
    let name: String
    private let source: ByteStream
    /// The first bytes (up to the size asked for; fewer when the stream is shorter).
    let head: [UInt8]
    private var offset = 0

    /// A stream whose first bytes, `head`, were already read from `source`.
    init(_ source: ByteStream, head: [UInt8]) {
        self.source = source
        name = source.name
        self.head = head
    }

    convenience init(_ source: ByteStream, peek: Int) throws {
        var head = [UInt8](repeating: 0, count: peek)
        var filled = 0
        while filled < peek {
            let n = try head.withUnsafeMutableBytes {
                try source.read(into: $0.baseAddress! + filled, count: peek - filled)
            }
            if n == 0 { break }
            filled += n
        }
        head.removeSubrange(filled...)
        self.init(source, head: head)
    }

    func read(into buffer: UnsafeMutableRawPointer, count: Int) throws -> Int {
        if offset < head.count {
            let n = min(count, head.count - offset)
            head.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress! + offset, byteCount: n) }
            offset += n
            return n
        }
        return try source.read(into: buffer, count: count)
    }
}

/// gzip in memory (tests, `racekit-gen`): the bytes compressed as one gzip member.
public enum Gzip {
    public static func compress(_ bytes: [UInt8], level: Int32 = 6) -> [UInt8] {
        var zs = z_stream()
        // 16 + MAX_WBITS: gzip framing; 8: the default memory level.
        guard
            deflateInit2_(
                &zs, level, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
                Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else { return [] }
        defer { deflateEnd(&zs) }
        var out = [UInt8](repeating: 0, count: Int(deflateBound(&zs, UInt(bytes.count))) + 64)
        let written: Int = bytes.withUnsafeBytes { input in
            out.withUnsafeMutableBytes { output in
                zs.next_in = UnsafeMutablePointer(mutating: input.bindMemory(to: Bytef.self).baseAddress)
                zs.avail_in = UInt32(input.count)
                zs.next_out = output.bindMemory(to: Bytef.self).baseAddress
                zs.avail_out = UInt32(output.count)
                guard deflate(&zs, Z_FINISH) == Z_STREAM_END else { return 0 }
                return output.count - Int(zs.avail_out)
            }
        }
        return Array(out.prefix(written))
    }
}
