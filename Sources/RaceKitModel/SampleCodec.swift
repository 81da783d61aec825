/// Packs a sample series into one little-endian, column-oriented blob.
///
/// Layout: `RKS1`, point count (UInt32), channel bit mask (UInt16), flags (UInt8),
/// start time (Float64, seconds since the epoch), then each present channel in
/// `SampleSeries.Channel` order:
/// - time: UInt32 milliseconds from the start (flag bit 0 clear), or Float64
///   seconds from the start when the activity spans more than 49 days (bit 0 set);
/// - latitude and longitude: Int32 in 1e-7 degrees (1.1 cm), `Int32.min` when missing;
/// - distance, elevation, heart rate, cadence, speed, power, temperature: Float32;
/// then, when flag bit 1 is set, the extra channels (`SampleSeries.extras`): their
/// count (UInt8), and for each its key and unit (UInt8 length, UTF-8; a unit of
/// length 255 is none) and a Float32 per point. Blobs without extras are as before.
/// NaN marks a missing value; an entirely missing channel costs nothing. A point
/// with position, elevation, distance, HR and cadence takes 28 bytes: a 4-hour
/// 1 Hz run is about 400 KB.
public enum SampleCodec {
    public enum DecodeError: RaceKitError {
        public var exitClass: ExitClass { .dataError }
        case badHeader, truncated
        public var description: String {
            self == .badHeader ? "sample blob has an unknown header" : "sample blob is truncated"
        }
    }

    /// What is wrong with a run's stored samples (`store check`): none stored,
    /// a blob that does not decode, or another number of points than the run
    /// says; nil when they are whole.
    public static func problem(runID: String, pointCount: Int, blob: [UInt8]?) -> String? {
        guard let blob else { return "run \(runID): no samples" }
        do {
            let samples = try decode(blob)
            if samples.count != pointCount {
                return "run \(runID): \(samples.count) samples stored, \(pointCount) expected"
            }
            return nil
        } catch {
            return "run \(runID): \(error)"
        }
    }

    static let magic: [UInt8] = Array("RKS1".utf8)
    static let headerSize = 4 + 4 + 2 + 1 + 8
    static let missingE7 = Int32.min

    /// Bytes per value of a channel.
    static func width(_ c: SampleSeries.Channel, wideTime: Bool) -> Int {
        c == .time && wideTime ? 8 : 4
    }

    /// Rounds every value to the precision it is stored with, in place, so that
    /// analysing the samples before storing them gives exactly what analysing the
    /// stored samples later (`runs recompute`) gives.
    public static func quantize(_ s: inout SampleSeries) {
        guard let start = s.time.first else { return }
        let span = (s.time.last ?? start) - start
        let wideTime = !(span < Double(UInt32.max) / 1000)
        for c in SampleSeries.Channel.allCases {
            if c == .time && wideTime { continue }
            s.modify(c) { values in
                values.withUnsafeMutableBufferPointer { buf in
                    switch c {
                    case .time:
                        for i in buf.indices where !buf[i].isNaN {
                            buf[i] = start + Double(UInt32(((buf[i] - start) * 1000).rounded())) / 1000
                        }
                    case .latitude, .longitude:
                        for i in buf.indices where !buf[i].isNaN {
                            buf[i] = Double(Int32((buf[i] * 1e7).rounded())) / 1e7
                        }
                    default:
                        for i in buf.indices { buf[i] = Double(Float(buf[i])) }   // NaN stays NaN
                    }
                }
            }
        }
        for k in s.extras.indices {
            s.extras[k].values.withUnsafeMutableBufferPointer { buf in
                for i in buf.indices { buf[i] = Double(Float(buf[i])) }
            }
        }
    }

    /// The extra channels worth storing: those with a value.
    static func storedExtras(_ s: SampleSeries) -> [ExtraChannel] {
        Array(s.extras.filter { $0.values.contains { !$0.isNaN } }.prefix(ExtraChannel.maximumCount))
    }

    /// Encodes the series.
    public static func encode(_ s: SampleSeries) -> [UInt8] {
        let start = s.time.first ?? 0
        let span = (s.time.last ?? start) - start
        let wideTime = !(span < Double(UInt32.max) / 1000)
        var mask: UInt16 = 0
        var size = headerSize
        let present = SampleSeries.Channel.allCases.filter { $0 == .time || s.has($0) }
        for c in present {
            mask |= 1 << UInt16(c.rawValue)
            size += s.count * width(c, wideTime: wideTime)
        }
        let extras = storedExtras(s)
        let names = extras.map {
            (
                Array(ExtraChannel.truncated($0.key, bytes: ExtraChannel.maximumKeyBytes).utf8),
                $0.unit.map { Array(ExtraChannel.truncated($0, bytes: ExtraChannel.maximumKeyBytes).utf8) }
            )
        }
        if !extras.isEmpty {
            size += 1
            for (key, unit) in names { size += 2 + key.count + (unit?.count ?? 0) + 4 * s.count }
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
            put(UInt8(wideTime ? 1 : 0) | (extras.isEmpty ? 0 : 2))
            put(start.bitPattern)
            for c in present {
                s[c].withUnsafeBufferPointer { values in
                    switch c {
                    case .time where wideTime:
                        for v in values { put((v - start).bitPattern) }
                    case .time:
                        for v in values { put(UInt32(((v - start) * 1000).rounded())) }
                    case .latitude, .longitude:
                        for v in values { put(v.isNaN ? missingE7 : Int32((v * 1e7).rounded())) }
                    default:
                        for v in values { put(Float(v).bitPattern) }
                    }
                }
            }
            if !extras.isEmpty {
                put(UInt8(extras.count))
                for (e, (key, unit)) in zip(extras, names) {
                    put(UInt8(key.count))
                    for b in key { put(b) }
                    put(UInt8(unit?.count ?? 255))
                    for b in unit ?? [] { put(b) }
                    for v in e.values { put(Float(v).bitPattern) }
                }
            }
            initialized = offset
        }
    }

    /// Decodes a blob written by `encode`.
    public static func decode(_ bytes: [UInt8]) throws -> SampleSeries {
        guard bytes.count >= headerSize, Array(bytes[0..<4]) == magic else { throw DecodeError.badHeader }
        return try bytes.withUnsafeBytes { raw in
            var offset = 4
            func get<T: FixedWidthInteger>(_: T.Type) -> T {
                let v = T(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: T.self))
                offset += MemoryLayout<T>.size
                return v
            }
            let count = Int(get(UInt32.self))
            let mask = get(UInt16.self)
            let flags = get(UInt8.self)
            let wideTime = flags & 1 == 1
            let start = Double(bitPattern: get(UInt64.self))
            var s = SampleSeries()
            for c in SampleSeries.Channel.allCases {
                guard mask & (1 << UInt16(c.rawValue)) != 0 else {
                    s[c] = ContiguousArray(repeating: .nan, count: count)
                    continue
                }
                guard offset + count * width(c, wideTime: wideTime) <= raw.count else { throw DecodeError.truncated }
                var values = ContiguousArray<Double>()
                values.reserveCapacity(count)
                for _ in 0..<count {
                    switch c {
                    case .time where wideTime: values.append(Double(bitPattern: get(UInt64.self)) + start)
                    case .time: values.append(start + Double(get(UInt32.self)) / 1000)
                    case .latitude, .longitude:
                        let e7 = get(Int32.self)
                        values.append(e7 == missingE7 ? .nan : Double(e7) / 1e7)
                    default: values.append(Double(Float(bitPattern: get(UInt32.self))))
                    }
                }
                s[c] = values
            }
            if flags & 2 != 0 {
                func bytes(_ n: Int) throws -> String {
                    guard offset + n <= raw.count else { throw DecodeError.truncated }
                    defer { offset += n }
                    return String(decoding: UnsafeRawBufferPointer(rebasing: raw[offset..<(offset + n)]), as: UTF8.self)
                }
                guard offset + 1 <= raw.count else { throw DecodeError.truncated }
                let n = Int(get(UInt8.self))
                for _ in 0..<n {
                    guard offset + 1 <= raw.count else { throw DecodeError.truncated }
                    let key = try bytes(Int(get(UInt8.self)))
                    guard offset + 1 <= raw.count else { throw DecodeError.truncated }
                    let unitLength = Int(get(UInt8.self))
                    let unit = unitLength == 255 ? nil : try bytes(unitLength)
                    guard offset + 4 * count <= raw.count else { throw DecodeError.truncated }
                    var values = ContiguousArray<Double>()
                    values.reserveCapacity(count)
                    for _ in 0..<count { values.append(Double(Float(bitPattern: get(UInt32.self)))) }
                    s.extras.append(ExtraChannel(key: key, unit: unit, values: values))
                }
            }
            return s
        }
    }
}
