/// Packs a sample series into one little-endian, column-oriented blob.
///
/// Layout (version 1): `RKS1`, point count (UInt32), channel bit mask (UInt16),
/// start time (Float64, seconds since the epoch), then each present channel in
/// `SampleSeries.Channel` order: time as Float64 offsets from the start; latitude,
/// longitude and distance as Float64; elevation, heart rate, cadence, speed, power
/// and temperature as Float32. NaN marks a missing value; an entirely missing
/// channel costs nothing. A 4-hour 1 Hz run with HR is about 400 KB.
public enum SampleCodec {
    public enum DecodeError: Error, CustomStringConvertible {
        case badHeader, truncated
        public var description: String {
            self == .badHeader ? "sample blob has an unknown header" : "sample blob is truncated"
        }
    }

    static let magic: [UInt8] = Array("RKS1".utf8)

    static func isWide(_ c: SampleSeries.Channel) -> Bool {
        c == .time || c == .latitude || c == .longitude || c == .distance
    }

    /// Encodes the series.
    public static func encode(_ s: SampleSeries) -> [UInt8] {
        let start = s.time.first ?? 0
        var mask: UInt16 = 0
        var size = 4 + 4 + 2 + 8
        let present = SampleSeries.Channel.allCases.filter { $0 == .time || s.has($0) }
        for c in present {
            mask |= 1 << UInt16(c.rawValue)
            size += s.count * (isWide(c) ? 8 : 4)
        }
        var out = [UInt8]()
        out.reserveCapacity(size)
        out.append(contentsOf: magic)
        append(UInt32(s.count), to: &out)
        append(mask, to: &out)
        append(start.bitPattern, to: &out)
        for c in present {
            let values = s[c]
            if c == .time {
                for v in values { append((v - start).bitPattern, to: &out) }
            } else if isWide(c) {
                for v in values { append(v.bitPattern, to: &out) }
            } else {
                for v in values { append(Float(v).bitPattern, to: &out) }
            }
        }
        return out
    }

    /// Decodes a blob written by `encode`.
    public static func decode(_ bytes: [UInt8]) throws -> SampleSeries {
        guard bytes.count >= 18, Array(bytes[0..<4]) == magic else { throw DecodeError.badHeader }
        var offset = 4
        let count = Int(read(UInt32.self, bytes, &offset))
        let mask = read(UInt16.self, bytes, &offset)
        let start = Double(bitPattern: read(UInt64.self, bytes, &offset))
        var s = SampleSeries()
        for c in SampleSeries.Channel.allCases {
            var values = ContiguousArray<Double>()
            if mask & (1 << UInt16(c.rawValue)) != 0 {
                let width = isWide(c) ? 8 : 4
                guard offset + count * width <= bytes.count else { throw DecodeError.truncated }
                values.reserveCapacity(count)
                for _ in 0..<count {
                    if isWide(c) {
                        let v = Double(bitPattern: read(UInt64.self, bytes, &offset))
                        values.append(c == .time ? v + start : v)
                    } else {
                        values.append(Double(Float(bitPattern: read(UInt32.self, bytes, &offset))))
                    }
                }
            } else {
                values = ContiguousArray(repeating: .nan, count: count)
            }
            s[c] = values
        }
        return s
    }

    @inline(__always)
    private static func append<T: FixedWidthInteger>(_ v: T, to out: inout [UInt8]) {
        withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) }
    }

    @inline(__always)
    private static func read<T: FixedWidthInteger>(_: T.Type, _ bytes: [UInt8], _ offset: inout Int) -> T {
        var v: T = 0
        for k in 0..<MemoryLayout<T>.size { v |= T(bytes[offset + k]) << (8 * k) }
        offset += MemoryLayout<T>.size
        return v
    }
}
