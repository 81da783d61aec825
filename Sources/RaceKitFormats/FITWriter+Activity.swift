import RaceKitModel

extension FITWriter {
    /// What an activity file written by `activity(_:)` says about itself.
    public struct ActivityInfo: Sendable {
        /// FIT `sport` (1 running, 2 cycling, 5 swimming, ...).
        public var sport: UInt8 = 1
        /// FIT `sub_sport` (0 generic, 1 treadmill, 3 trail, ...).
        public var subSport: UInt8 = 0
        public var bigEndian = false
        /// Manufacturer (1 Garmin) and product of the creator.
        public var manufacturer: UInt16 = 1
        public var product: UInt16 = 1
        public var productName: String?
        /// Indices of points where the timer restarts after a stop (pauses).
        public var resumeAt: [Int] = []
        /// Power as Stryd writes it: a developer field `Power` (declaring native
        /// field 7) instead of the record's own field.
        public var developerPower = false
        public init() {}
    }

    /// The record fields `activity` writes: timestamp, position, enhanced altitude,
    /// heart rate, cadence with its fraction, distance, enhanced speed, power, temperature.
    static let recordFields: [Field] = [
        Field(253, .uint32), Field(0, .sint32), Field(1, .sint32), Field(78, .uint32), Field(3, .uint8),
        Field(4, .uint8), Field(53, .uint8), Field(5, .uint32), Field(73, .uint32), Field(7, .uint16),
        Field(13, .sint8)
    ]

    /// A complete activity file (file_id, device_info, timer events, records, one
    /// lap, one session, activity) for `points`; NaN channels are written invalid.
    public static func activity(_ points: [SamplePoint], info: ActivityInfo = ActivityInfo()) -> [UInt8] {
        var w = FITWriter()
        let be = info.bigEndian
        let first = points.first?.time ?? 1_000_000_000, last = points.last?.time ?? first
        func ts(_ t: Double) -> Value { t.isFinite ? .int(timestamp(t)) : .invalid }
        func scaled(_ v: Double, _ scale: Double, _ offset: Double = 0) -> Value {
            v.isFinite ? .int(Int64(((v + offset) * scale).rounded())) : .invalid
        }
        w.define(
            local: 0, global: FITProfile.Message.fileID,
            fields: [Field(0, .enumeration), Field(1, .uint16), Field(2, .uint16), Field(4, .uint32)], bigEndian: be)
        w.write(local: 0, [.int(4), .int(Int64(info.manufacturer)), .int(Int64(info.product)), ts(first)])
        w.define(
            local: 1, global: FITProfile.Message.deviceInfo,
            fields: [
                Field(253, .uint32), Field(0, .uint8), Field(2, .uint16), Field(4, .uint16), Field(5, .uint16),
                Field(27, .string, size: 20)
            ], bigEndian: be)
        w.write(
            local: 1,
            [
                ts(first), .int(0), .int(Int64(info.manufacturer)), .int(Int64(info.product)), .int(1234),
                info.productName.map { .string($0) } ?? .invalid
            ])
        w.define(
            local: 2, global: FITProfile.Message.event,
            fields: [Field(253, .uint32), Field(0, .enumeration), Field(1, .enumeration)], bigEndian: be)
        w.write(local: 2, [ts(first), .int(0), .int(0)])
        if info.developerPower {
            w.define(
                local: 6, global: FITProfile.Message.developerDataID, fields: [Field(3, .uint8)], bigEndian: be)
            w.write(local: 6, [.int(0)])
            w.define(
                local: 6, global: FITProfile.Message.fieldDescription,
                fields: [
                    Field(0, .uint8), Field(1, .uint8), Field(2, .uint8), Field(3, .string, size: 8),
                    Field(8, .string, size: 8), Field(14, .uint16), Field(15, .uint8)
                ], bigEndian: be)
            w.write(
                local: 6,
                [.int(0), .int(0), .int(0x84), .string("Power"), .string("Watts"), .int(20), .int(7)])
        }
        w.define(
            local: 3, global: FITProfile.Message.record, fields: recordFields,
            developer: info.developerPower ? [DeveloperField(0, size: 2)] : [], bigEndian: be)
        let resumes = Set(info.resumeAt)
        for (i, p) in points.enumerated() {
            if resumes.contains(i), i > 0 {
                w.write(local: 2, [ts(points[i - 1].time), .int(0), .int(4)])
                w.write(local: 2, [ts(p.time), .int(0), .int(0)])
            }
            let cadence = p.cadence.isFinite ? p.cadence.rounded(.down) : .nan
            var developer: [[UInt8]] = []
            if info.developerPower {
                let watts = p.power.isFinite ? UInt16(clamping: Int(p.power.rounded())) : UInt16.max
                developer = [be ? [UInt8(watts >> 8), UInt8(watts & 0xFF)] : [UInt8(watts & 0xFF), UInt8(watts >> 8)]]
            }
            w.write(
                local: 3,
                [
                    ts(p.time), scaled(p.latitude, 2_147_483_648.0 / 180), scaled(p.longitude, 2_147_483_648.0 / 180),
                    scaled(p.elevation, 5, 500), scaled(p.heartRate, 1), scaled(cadence, 1),
                    scaled(p.cadence - cadence, 128), scaled(p.distance, 100), scaled(p.speed, 1000),
                    info.developerPower ? .invalid : scaled(p.power, 1), scaled(p.temperature, 1)
                ], developer: developer)
        }
        w.write(local: 2, [ts(last), .int(0), .int(4)])
        let distance = points.last(where: { $0.distance.isFinite })?.distance ?? .nan
        let totals: [Field] = [
            Field(253, .uint32), Field(2, .uint32), Field(7, .uint32), Field(8, .uint32), Field(9, .uint32)
        ]
        let values: [Value] = [
            ts(last), ts(first), scaled(last - first, 1000), scaled(last - first, 1000), scaled(distance, 100)
        ]
        w.define(local: 4, global: FITProfile.Message.lap, fields: totals, bigEndian: be)
        w.write(local: 4, values)
        w.define(
            local: 5, global: FITProfile.Message.session,
            fields: totals + [Field(5, .enumeration), Field(6, .enumeration)], bigEndian: be)
        w.write(local: 5, values + [.int(Int64(info.sport)), .int(Int64(info.subSport))])
        return w.file()
    }
}
