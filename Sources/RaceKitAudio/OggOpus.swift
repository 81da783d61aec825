import Foundation

/// Ogg Opus at the packet level (RFC 7845): the audio packets of the clips a
/// script's audio folder holds, and one stream written from many of them, so
/// that "the race as heard" joins clips and silences without decoding or
/// encoding anything again.
public enum OggOpus {
    /// A stream's identification header and audio packets.
    public struct Stream: Sendable {
        /// The `OpusHead` packet.
        public var head: [UInt8]
        /// The audio packets (headers excluded), each with its length in 48 kHz samples.
        public var packets: [[UInt8]]

        /// Samples at 48 kHz the packets decode to.
        public var samples: Int { packets.reduce(0) { $0 + OggOpus.samples(of: $1) } }
    }

    public enum ReadError: Error, Equatable {
        case notOggOpus(String)
    }

    /// The packets of an Ogg Opus file (one logical stream; pages in order).
    public static func read(_ b: [UInt8]) throws -> Stream {
        var packets: [[UInt8]] = []
        var current: [UInt8] = []
        var lastFlags: UInt8 = 0
        var i = 0
        while i < b.count {
            guard i + 27 <= b.count, b[i..<i + 4].elementsEqual("OggS".utf8) else {
                throw ReadError.notOggOpus("no Ogg page at byte \(i)")
            }
            let segments = Int(b[i + 26])
            let tableEnd = i + 27 + segments
            guard tableEnd <= b.count else { throw ReadError.notOggOpus("the page at byte \(i) is cut short") }
            let end = tableEnd + b[i + 27..<tableEnd].reduce(0) { $0 + Int($1) }
            guard end <= b.count else { throw ReadError.notOggOpus("the page at byte \(i) is cut short") }
            var page = Array(b[i..<end])
            let stored = (0..<4).reduce(UInt32(0)) { $0 | UInt32(page[22 + $1]) << (8 * UInt32($1)) }
            for k in 22..<26 { page[k] = 0 }
            guard crc32(page) == stored else {
                throw ReadError.notOggOpus("the page at byte \(i) is damaged (checksum)")
            }
            var body = tableEnd
            for s in 0..<segments {
                let length = Int(b[i + 27 + s])
                current += b[body..<body + length]
                body += length
                if length < 255 {
                    packets.append(current)
                    current = []
                }
            }
            lastFlags = b[i + 5]
            i = end
        }
        guard lastFlags & 4 != 0 else { throw ReadError.notOggOpus("the stream has no last page (cut short)") }
        guard packets.count >= 2, packets[0].starts(with: "OpusHead".utf8), packets[0].count >= 19,
            packets[1].starts(with: "OpusTags".utf8)
        else { throw ReadError.notOggOpus("no OpusHead and OpusTags") }
        return Stream(head: packets[0], packets: Array(packets.dropFirst(2)))
    }

    /// 48 kHz samples of one Opus packet, from its TOC byte (RFC 6716, 3.1).
    public static func samples(of packet: [UInt8]) -> Int {
        guard let toc = packet.first else { return 0 }
        let config = Int(toc >> 3)
        let frame: Int   // in 48 kHz samples
        switch config {
        case 0..<12: frame = [480, 960, 1920, 2880][config % 4]
        case 12..<16: frame = [480, 960][config % 2]
        default: frame = [120, 240, 480, 960][config % 4]
        }
        switch toc & 3 {
        case 0: return frame
        case 1, 2: return 2 * frame
        default: return packet.count > 1 ? frame * Int(packet[1] & 0x3F) : 0
        }
    }

    /// One Ogg Opus stream of `packets` after `head` (pre-skip as in `head`),
    /// with an `OpusTags` naming `vendor`; pages of about a second, granule
    /// positions counting every packet.
    public static func write(head: [UInt8], packets: [[UInt8]], vendor: String, serial: UInt32) -> [UInt8] {
        let vendorBytes = Array(vendor.utf8)
        var tags = Array("OpusTags".utf8)
        tags += le32(vendorBytes.count) + vendorBytes + le32(0)
        var out: [UInt8] = []
        var sequence: UInt32 = 0
        func page(_ payload: [[UInt8]], granule: Int64, flags: UInt8) {
            var table: [UInt8] = []
            for p in payload {
                table += [UInt8](repeating: 255, count: p.count / 255) + [UInt8(p.count % 255)]
            }
            var header = Array("OggS".utf8) + [0, flags]
            header += (0..<8).map { UInt8(truncatingIfNeeded: granule >> (8 * Int64($0))) }
            header += le32(Int(serial)) + le32(Int(sequence)) + [0, 0, 0, 0] + [UInt8(table.count)] + table
            var bytes = header
            for p in payload { bytes += p }
            let crc = crc32(bytes)
            for k in 0..<4 { bytes[22 + k] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(k))) }
            out += bytes
            sequence += 1
        }
        page([head], granule: 0, flags: 2)
        page([tags], granule: 0, flags: 0)
        let preSkip = head.count >= 12 ? Int64(head[10]) | Int64(head[11]) << 8 : 0
        var granule = preSkip
        var pending: [[UInt8]] = []
        var segments = 0
        for (n, p) in packets.enumerated() {
            let need = p.count / 255 + 1
            guard need < 255 else { continue }   // no Opus packet is this long (RFC 6716: at most 120 ms)
            if !pending.isEmpty, segments + need > 255 || pending.count >= 50 {
                page(pending, granule: granule, flags: 0)
                pending = []
                segments = 0
            }
            pending.append(p)
            segments += need
            granule += Int64(samples(of: p))
            if n == packets.count - 1 { page(pending, granule: granule, flags: 4) }
        }
        if packets.isEmpty { page([], granule: granule, flags: 4) }
        return out
    }

    static func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } }

    /// Ogg's CRC-32: polynomial 0x04C11DB7, no reflection, initial value 0.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0
        for byte in bytes { crc = (crc << 8) ^ crcTable[Int((crc >> 24) ^ UInt32(byte))] }
        return crc
    }

    static let crcTable: [UInt32] = (0..<256).map { (n: Int) -> UInt32 in
        var c = UInt32(n) << 24
        for _ in 0..<8 { c = c & 0x8000_0000 != 0 ? (c << 1) ^ 0x04C1_1DB7 : c << 1 }
        return c
    }
}
