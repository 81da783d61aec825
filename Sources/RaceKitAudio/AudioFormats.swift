import Foundation

/// The two audio containers `script render` reads: the engine's WAV (for the
/// duration of speech) and the Ogg Opus it writes.
public enum AudioFormats {
    /// A RIFF/WAVE header: the `fmt ` chunk and the size of the `data` chunk.
    public struct WAV: Sendable, Equatable {
        /// Samples per second.
        public var sampleRate: Int
        public var channels: Int
        public var bitsPerSample: Int
        /// Bytes of sample data (the `data` chunk, clamped to the bytes present:
        /// a streamed WAV declares a placeholder size).
        public var dataBytes: Int

        /// Seconds of audio: data bytes / (sample rate × channels × bytes per sample).
        public var seconds: Double {
            let frame = sampleRate * channels * max(1, bitsPerSample / 8)
            return frame > 0 ? Double(dataBytes) / Double(frame) : 0
        }

        /// Where the `data` chunk's samples start; nil when the file has none.
        public static func dataOffset(_ b: [UInt8]) -> Int? {
            guard b.count >= 12 else { return nil }
            var i = 12
            while i + 8 <= b.count {
                let size = Int(b[i + 4]) | Int(b[i + 5]) << 8 | Int(b[i + 6]) << 16 | Int(b[i + 7]) << 24
                if b[i..<i + 4].elementsEqual("data".utf8) { return i + 8 }
                i += 8 + size + (size & 1)
            }
            return nil
        }

        /// Parses the chunks in order; nil when it is not PCM WAVE with both chunks.
        public init?(_ data: Data) {
            let b = [UInt8](data)
            func u32(_ i: Int) -> Int {
                Int(b[i]) | Int(b[i + 1]) << 8 | Int(b[i + 2]) << 16 | Int(b[i + 3]) << 24
            }
            func u16(_ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 }
            guard b.count >= 12, b[0..<4] == Array("RIFF".utf8)[...], b[8..<12] == Array("WAVE".utf8)[...] else {
                return nil
            }
            var format: (rate: Int, channels: Int, bits: Int)?
            var i = 12
            while i + 8 <= b.count {
                let id = String(decoding: b[i..<i + 4], as: UTF8.self)
                let size = u32(i + 4)
                let body = i + 8
                if id == "fmt ", body + 16 <= b.count {
                    // 1: PCM; 0xFFFE: extensible (PCM in espeak-ng's and sox's use).
                    guard u16(body) == 1 || u16(body) == 0xFFFE else { return nil }
                    format = (u32(body + 4), u16(body + 2), u16(body + 14))
                } else if id == "data" {
                    guard let f = format else { return nil }
                    self.sampleRate = f.rate
                    self.channels = f.channels
                    self.bitsPerSample = f.bits
                    self.dataBytes = min(size, b.count - body)
                    return
                }
                i = body + size + (size & 1)
            }
            return nil
        }
    }

    /// Seconds of an Ogg Opus stream: the last page's granule position (48 kHz
    /// samples) less the pre-skip of the `OpusHead`; nil when it is not one.
    public static func oggOpusSeconds(_ b: [UInt8]) -> Double? {
        let capture = Array("OggS".utf8)
        guard b.count > 27, Array(b[0..<4]) == capture else { return nil }
        let head = 27 + Int(b[26])   // the first packet follows the page's segment table
        guard b.count >= head + 12, Array(b[head..<head + 8]) == Array("OpusHead".utf8) else { return nil }
        let preSkip = Int(b[head + 10]) | Int(b[head + 11]) << 8
        var i = b.count - 27
        while i > 0 {
            if b[i] == capture[0], Array(b[i..<i + 4]) == capture, b[i + 4] == 0 {
                var granule: Int64 = 0
                for k in (0..<8).reversed() { granule = granule << 8 | Int64(b[i + 6 + k]) }
                return granule > Int64(preSkip) ? Double(granule - Int64(preSkip)) / 48_000 : nil
            }
            i -= 1
        }
        return nil
    }
}
