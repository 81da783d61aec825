/// A small FIT encoder: definition and data messages (either byte order,
/// compressed-timestamp headers, developer fields), the header and the CRCs.
/// It writes exactly what it is told, broken files included, for the tests, the
/// fuzzer's seeds and `racekit-gen`'s benchmark inputs.
public struct FITWriter: Sendable {
    /// FIT base types (the type byte as written in a field definition).
    public enum BaseType: UInt8, Sendable {
        case enumeration = 0x00, sint8 = 0x01, uint8 = 0x02, sint16 = 0x83, uint16 = 0x84, sint32 = 0x85
        case uint32 = 0x86, string = 0x07, float32 = 0x88, float64 = 0x89, uint8z = 0x0A, uint16z = 0x8B
        case uint32z = 0x8C, byte = 0x0D

        /// Size in bytes of one value.
        public var size: Int { FITBaseType.size(rawValue & 0x1F) }
    }

    /// One field of a definition message.
    public struct Field: Sendable {
        public var number: UInt8
        public var type: BaseType
        /// Bytes in the message (a multiple of the type's size for arrays; any
        /// value for hostile tests).
        public var size: Int
        public init(_ number: UInt8, _ type: BaseType, size: Int? = nil) {
            self.number = number
            self.type = type
            self.size = size ?? type.size
        }
    }

    /// One developer field of a definition message.
    public struct DeveloperField: Sendable {
        public var number: UInt8
        public var size: Int
        public var developerIndex: UInt8
        public init(_ number: UInt8, size: Int, developerIndex: UInt8 = 0) {
            self.number = number
            self.size = size
            self.developerIndex = developerIndex
        }
    }

    /// A value of a data message.
    public enum Value: Sendable {
        case int(Int64)
        case double(Double)
        case string(String)
        case bytes([UInt8])
        /// The base type's invalid value (missing).
        case invalid
    }

    private struct Definition: Sendable {
        var fields: [Field]
        var developer: [DeveloperField]
        var bigEndian: Bool
    }

    /// The data records written so far (without header and CRC).
    public private(set) var data: [UInt8] = []
    private var definitions: [UInt8: Definition] = [:]

    public init() {}

    /// Writes a definition message for local type `local` (0-15).
    public mutating func define(
        local: UInt8, global: UInt16, fields: [Field], developer: [DeveloperField] = [], bigEndian: Bool = false
    ) {
        data.append(0x40 | (developer.isEmpty ? 0 : 0x20) | (local & 0x0F))
        data.append(0)
        data.append(bigEndian ? 1 : 0)
        let g = bigEndian ? global.bigEndian : global.littleEndian
        withUnsafeBytes(of: g) { data.append(contentsOf: $0) }
        data.append(UInt8(truncatingIfNeeded: fields.count))
        for f in fields { data += [f.number, UInt8(truncatingIfNeeded: f.size), f.type.rawValue] }
        if !developer.isEmpty {
            data.append(UInt8(truncatingIfNeeded: developer.count))
            for d in developer { data += [d.number, UInt8(truncatingIfNeeded: d.size), d.developerIndex] }
        }
        definitions[local & 0x0F] = Definition(fields: fields, developer: developer, bigEndian: bigEndian)
    }

    /// Writes a data message of local type `local`: one value per field of its
    /// definition (missing ones invalid), and the developer fields' raw bytes.
    public mutating func write(local: UInt8, _ values: [Value], developer: [[UInt8]] = []) {
        data.append(local & 0x0F)
        body(local, values, developer)
    }

    /// Writes a data message with a compressed-timestamp header (local type 0-3,
    /// `timeOffset` the low 5 bits of its timestamp).
    public mutating func writeCompressed(local: UInt8, timeOffset: UInt8, _ values: [Value]) {
        data.append(0x80 | (local & 0x03) << 5 | (timeOffset & 0x1F))
        body(local & 0x03, values, [])
    }

    /// Appends bytes as they are (hostile tests).
    public mutating func append(raw bytes: [UInt8]) { data += bytes }

    private mutating func body(_ local: UInt8, _ values: [Value], _ developer: [[UInt8]]) {
        guard let d = definitions[local] else { return }
        for (k, f) in d.fields.enumerated() {
            encode(k < values.count ? values[k] : .invalid, f, bigEndian: d.bigEndian)
        }
        for (k, f) in d.developer.enumerated() {
            let bytes = k < developer.count ? developer[k] : []
            data += (bytes + [UInt8](repeating: 0xFF, count: max(0, f.size - bytes.count))).prefix(f.size)
        }
    }

    private mutating func encode(_ value: Value, _ f: Field, bigEndian: Bool) {
        let unit = f.type.size
        var out: [UInt8]
        switch value {
        case .string(let s):
            out = Array(s.utf8)
        case .bytes(let b):
            out = b
        case .invalid:
            out = []
            while out.count < f.size { out += Self.invalid(f.type) }
        case .int(let v):
            out = Self.bytes(UInt64(bitPattern: v), count: unit, bigEndian: bigEndian)
        case .double(let v):
            let bits = f.type == .float32 ? UInt64(Float(v).bitPattern) : v.bitPattern
            out = Self.bytes(bits, count: unit, bigEndian: bigEndian)
        }
        if out.count < f.size {
            let pad: [UInt8] = f.type == .string ? [0] : Self.invalid(f.type)
            while out.count < f.size { out += pad }
        }
        data += out.prefix(f.size)
    }

    private static func bytes(_ v: UInt64, count: Int, bigEndian: Bool) -> [UInt8] {
        let little = (0..<count).map { UInt8(truncatingIfNeeded: v >> (8 * UInt64($0))) }
        return bigEndian ? little.reversed() : little
    }

    private static func invalid(_ t: BaseType) -> [UInt8] {
        switch t {
        case .sint8: return [0x7F]
        case .sint16: return [0xFF, 0x7F]
        case .sint32: return [0xFF, 0xFF, 0xFF, 0x7F]
        case .string, .uint8z, .uint16z, .uint32z: return [UInt8](repeating: 0, count: t.size)
        default: return [UInt8](repeating: 0xFF, count: t.size)
        }
    }

    /// The whole file: header (12 or 14 bytes, with its CRC), the data and the
    /// file CRC. `dataSize` and `crc` replace the true values (hostile tests).
    public func file(headerSize: Int = 14, dataSize: UInt32? = nil, crc: UInt16? = nil) -> [UInt8] {
        var out: [UInt8] = [UInt8(headerSize), 0x20]
        withUnsafeBytes(of: UInt16(2132).littleEndian) { out.append(contentsOf: $0) }
        withUnsafeBytes(of: (dataSize ?? UInt32(data.count)).littleEndian) { out.append(contentsOf: $0) }
        out += Array(".FIT".utf8)
        if headerSize == 14 { withUnsafeBytes(of: FITCRC.checksum(out).littleEndian) { out.append(contentsOf: $0) } }
        out += data
        withUnsafeBytes(of: (crc ?? FITCRC.checksum(out)).littleEndian) { out.append(contentsOf: $0) }
        return out
    }

    /// A FIT timestamp (seconds since 1989-12-31T00:00:00Z) for Unix seconds.
    public static func timestamp(_ unix: Double) -> Int64 { Int64((unix - FITProfile.epochOffset).rounded()) }
}
