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
        return [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            let out = UnsafeMutableRawBufferPointer(buffer)
            var offset = 0
            func put<T: FixedWidthInteger>(_ v: T) {
                out.storeBytes(of: v.littleEndian, toByteOffset: offset, as: T.self)
                offset += MemoryLayout<T>.size
            }
            for b in magic { put(b) }
            put(UInt32(s.count))
            put(mask)
            put(start.bitPattern)
            for c in present {
                s[c].withUnsafeBufferPointer { values in
                    if c == .time {
                        for v in values { put((v - start).bitPattern) }
                    } else if isWide(c) {
                        for v in values { put(v.bitPattern) }
                    } else {
                        for v in values { put(Float(v).bitPattern) }
                    }
                }
            }
            initialized = offset
        }
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
    private static func read<T: FixedWidthInteger>(_: T.Type, _ bytes: [UInt8], _ offset: inout Int) -> T {
        var v: T = 0
        for k in 0..<MemoryLayout<T>.size { v |= T(bytes[offset + k]) << (8 * k) }
        offset += MemoryLayout<T>.size
        return v
    }
}
