import RaceKitModel

/// The parts of the FIT protocol and profile (Garmin's public "FIT Protocol"
/// description and the profile's message tables) that RaceKit reads.
enum FITProfile {
    /// Seconds from the Unix epoch to the FIT epoch, 1989-12-31T00:00:00Z.
    static let epochOffset = 631_065_600.0
    /// `date_time` values below this are seconds since the device was switched
    /// on, not since the FIT epoch (FIT profile, `date_time` type).
    static let minimumDateTime = 0x1000_0000

    /// Global message numbers.
    enum Message {
        static let fileID: UInt16 = 0
        static let sport: UInt16 = 12
        static let session: UInt16 = 18
        static let lap: UInt16 = 19
        static let record: UInt16 = 20
        static let length: UInt16 = 101
        static let event: UInt16 = 21
        static let deviceInfo: UInt16 = 23
        static let fieldDescription: UInt16 = 206
        static let developerDataID: UInt16 = 207
    }

    /// Field number of `timestamp` in every message.
    static let timestampField: UInt8 = 253

    /// The fields decoded per message (all others are skipped by their size).
    static func wants(_ global: UInt16, _ field: UInt8) -> Bool {
        if field == timestampField { return true }
        switch global {
        case Message.record:
            return field <= 7 || field == 13 || field == 39 || field == 41 || field == 53 || field == 73 || field == 78
                || (83...85).contains(field)
        case Message.session:
            return field <= 11 || field == 16 || field == 17 || field == 44 || field == 47
        case Message.length: return (2...5).contains(field) || field == 12
        case Message.lap: return field <= 9 || field == 11 || field == 25 || field == 39
        case Message.event: return field <= 1
        case Message.fileID: return field <= 2 || field == 4
        case Message.deviceInfo: return field <= 5
        case Message.sport: return field <= 1
        case Message.fieldDescription: return field <= 2 || field == 6 || field == 7 || field == 14 || field == 15
        default: return false
        }
    }

    /// The running-dynamics fields of a record, kept as extra channels: field,
    /// scale, channel and unit (FIT profile: `vertical_oscillation`,
    /// `stance_time`, `vertical_ratio`, `stance_time_balance`, `step_length`).
    /// A value outside `range` (after the scale) is no value: 65,534 ms of
    /// ground contact is a sensor's invalid marker read as a number.
    static let dynamics: [(field: UInt8, scale: Double, key: String, unit: String, range: ClosedRange<Double>)] = [
        (41, 10, ExtraChannel.Key.groundContact, "ms", 50...3000),
        (84, 100, ExtraChannel.Key.groundContactBalance, "%", 1...99),
        (39, 10, ExtraChannel.Key.verticalOscillation, "mm", 1...500),
        (83, 100, ExtraChannel.Key.verticalRatio, "%", 0.5...60),
        (85, 10, ExtraChannel.Key.stepLength, "mm", 50...5000)
    ]

    /// String fields kept (product names, developer field names).
    static func wantsString(_ global: UInt16, _ field: UInt8) -> Bool {
        switch global {
        case Message.fileID: return field == 8
        case Message.deviceInfo: return field == 27
        case Message.sport: return field == 3
        case Message.fieldDescription: return field == 3 || field == 8
        default: return false
        }
    }

    /// `file` type names (`file_id.type`).
    static func fileTypeName(_ type: Int) -> String {
        switch type {
        case 1: return "device"
        case 2: return "settings"
        case 3: return "sport settings"
        case 4: return "activity"
        case 5: return "workout"
        case 6: return "course"
        case 7: return "schedules"
        case 9: return "weight"
        case 10: return "totals"
        case 11: return "goals"
        case 14: return "blood pressure"
        case 15: return "monitoring"
        case 20: return "activity summary"
        case 28: return "daily monitoring"
        case 32: return "monitoring"
        case 34: return "segment"
        case 35: return "segment list"
        default: return "type \(type)"
        }
    }

    /// `sport` enum names, as the profile spells them.
    static func sportName(_ sport: Int) -> String {
        let names = [
            "generic", "running", "cycling", "transition", "fitness_equipment", "swimming", "basketball", "soccer",
            "tennis", "american_football", "training", "walking", "cross_country_skiing", "alpine_skiing",
            "snowboarding", "rowing", "mountaineering", "hiking", "multisport", "paddling", "flying", "e_biking",
            "motorcycling", "boating", "driving", "golf", "hang_gliding", "horseback_riding", "hunting", "fishing",
            "inline_skating", "rock_climbing", "sailing", "ice_skating", "sky_diving", "snowshoeing", "snowmobiling",
            "stand_up_paddleboarding", "surfing", "wakeboarding", "water_skiing", "kayaking", "rafting", "windsurfing",
            "kitesurfing"
        ]
        return sport >= 0 && sport < names.count ? names[sport] : "sport \(sport)"
    }

    /// `sub_sport` names RaceKit tells apart.
    static func subSportName(_ subSport: Int) -> String? {
        switch subSport {
        case 1: return "treadmill"
        case 2: return "street"
        case 3: return "trail"
        case 4: return "track"
        case 6: return "indoor_cycling"
        case 7: return "road"
        case 8: return "mountain"
        case 17: return "lap_swimming"
        case 18: return "open_water"
        case 45: return "indoor_running"
        case 58: return "virtual_activity"
        default: return nil
        }
    }

    /// The sport value handed to `Sport(fileValue:)` for a FIT sport and sub-sport
    /// (the sport table of docs/import.md): nil for `generic` (inferred from the speeds).
    static func sportValue(sport: Int?, subSport: Int?) -> String? {
        guard let sport else { return nil }
        switch sport {
        case 0: return nil
        case 1:
            switch subSport {
            case 1: return "treadmill_running"
            case 3: return "trail_running"
            case 4: return "track_running"
            case 45: return "indoor_running"
            case 58: return "virtual_run"
            default: return "running"
            }
        case 2, 21: return "cycling"
        case 5: return "swimming"
        case 11: return "walking"
        case 16, 17, 35: return "hiking"
        case 12, 13, 14: return "skiing"
        case 22, 24: return "driving"
        default: return "other"
        }
    }

    /// Manufacturer names of the devices most files come from (`manufacturer` enum).
    static func manufacturerName(_ id: Int) -> String {
        switch id {
        case 1: return "Garmin"
        case 15: return "Dynastream"
        case 23: return "Suunto"
        case 32: return "Wahoo Fitness"
        case 123: return "Polar"
        case 255: return "Development"
        case 260: return "Zwift"
        case 265: return "Strava"
        case 289: return "Hammerhead"
        case 294: return "Coros"
        default: return "manufacturer \(id)"
        }
    }
}

/// FIT base types: size in bytes and the value that means "invalid" (missing).
enum FITBaseType {
    /// Size in bytes of base type number `n` (the low 5 bits of the type byte);
    /// 1 for strings, bytes and unknown types (read as bytes).
    static func size(_ n: UInt8) -> Int {
        switch n {
        case 3, 4, 11: return 2
        case 5, 6, 8, 12: return 4
        case 9, 14, 15, 16: return 8
        default: return 1
        }
    }

    static let string: UInt8 = 7
    static let byteArray: UInt8 = 13
    /// Highest defined base type number.
    static let maximum: UInt8 = 16

    /// Reads one value of base type `n` at `p`; NaN when it is the type's invalid
    /// value (or not finite, for floats). The types most fields of a record
    /// have, little-endian, are read here in the caller's loop; the rest by
    /// `anyValue` (a call per field was an eighth of decoding a record).
    @inline(__always)
    static func value(_ p: UnsafeRawPointer, _ n: UInt8, bigEndian: Bool) -> Double {
        if !bigEndian {
            switch n {
            case 0, 2:
                let v = p.load(as: UInt8.self)
                return v == 0xFF ? .nan : Double(v)
            case 4:
                let v = UInt16(littleEndian: p.loadUnaligned(as: UInt16.self))
                return v == 0xFFFF ? .nan : Double(v)
            case 5:
                let v = UInt32(littleEndian: p.loadUnaligned(as: UInt32.self))
                return v == 0x7FFF_FFFF ? .nan : Double(Int32(bitPattern: v))
            case 6:
                let v = UInt32(littleEndian: p.loadUnaligned(as: UInt32.self))
                return v == 0xFFFF_FFFF ? .nan : Double(v)
            default:
                break
            }
        }
        return anyValue(p, n, bigEndian: bigEndian)
    }

    /// `value` for every base type in either byte order.
    @inline(never)
    static func anyValue(_ p: UnsafeRawPointer, _ n: UInt8, bigEndian: Bool) -> Double {
        @inline(__always) func u16() -> UInt16 {
            let v = p.loadUnaligned(as: UInt16.self)
            return bigEndian ? v.byteSwapped : v.littleEndian
        }
        @inline(__always) func u32() -> UInt32 {
            let v = p.loadUnaligned(as: UInt32.self)
            return bigEndian ? v.byteSwapped : v.littleEndian
        }
        @inline(__always) func u64() -> UInt64 {
            let v = p.loadUnaligned(as: UInt64.self)
            return bigEndian ? v.byteSwapped : v.littleEndian
        }
        switch n {
        case 0, 2, 13:
            let v = p.load(as: UInt8.self)
            return v == 0xFF ? .nan : Double(v)
        case 1:
            let v = p.load(as: UInt8.self)
            return v == 0x7F ? .nan : Double(Int8(bitPattern: v))
        case 3:
            let v = u16()
            return v == 0x7FFF ? .nan : Double(Int16(bitPattern: v))
        case 4:
            let v = u16()
            return v == 0xFFFF ? .nan : Double(v)
        case 5:
            let v = u32()
            return v == 0x7FFF_FFFF ? .nan : Double(Int32(bitPattern: v))
        case 6:
            let v = u32()
            return v == 0xFFFF_FFFF ? .nan : Double(v)
        case 8:
            let v = u32()
            let f = Double(Float(bitPattern: v))
            return v == 0xFFFF_FFFF || !f.isFinite ? .nan : f
        case 9:
            let v = u64()
            let f = Double(bitPattern: v)
            return v == UInt64.max || !f.isFinite ? .nan : f
        case 10:
            let v = p.load(as: UInt8.self)
            return v == 0 ? .nan : Double(v)
        case 11:
            let v = u16()
            return v == 0 ? .nan : Double(v)
        case 12:
            let v = u32()
            return v == 0 ? .nan : Double(v)
        case 14:
            let v = u64()
            return v == 0x7FFF_FFFF_FFFF_FFFF ? .nan : Double(Int64(bitPattern: v))
        case 15:
            let v = u64()
            return v == UInt64.max ? .nan : Double(v)
        case 16:
            let v = u64()
            return v == 0 ? .nan : Double(v)
        default:
            return .nan
        }
    }
}

/// The FIT CRC-16 (polynomial 0xA001, reflected, initial value 0: CRC-16/ARC),
/// sixteen bytes a step with sixteen tables ("slicing-by-16"): the running CRC
/// waits for one round of lookups per 16 bytes, not per byte (slicing-by-8
/// was an eighth of decoding a record; this halves it).
enum FITCRC {
    /// Table k gives the CRC of a byte followed by k zero bytes.
    static let tables: [UInt16] = {
        var t = [UInt16](repeating: 0, count: 16 * 256)
        for i in 0..<256 {
            var c = UInt16(i)
            for _ in 0..<8 { c = c & 1 != 0 ? (c >> 1) ^ 0xA001 : c >> 1 }
            t[i] = c
        }
        for k in 1..<16 {
            for i in 0..<256 {
                let prev = t[(k - 1) * 256 + i]
                t[k * 256 + i] = (prev >> 8) ^ t[Int(prev & 0xFF)]
            }
        }
        return t
    }()

    static func update(_ crc: UInt16, _ bytes: UnsafeRawBufferPointer) -> UInt16 {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return crc }
        var c = crc
        var i = 0
        let n = bytes.count
        tables.withUnsafeBufferPointer { t in
            // The bytes of `word` from byte `from` on, followed by `after` more bytes: their tables.
            @inline(__always) func lookup(_ word: UInt64, after: Int, from: Int = 0) -> UInt16 {
                var x: UInt16 = 0
                for b in from..<8 { x ^= t[(after + 7 - b) * 256 + Int((word >> UInt64(8 * b)) & 0xFF)] }
                return x
            }
            while i + 16 <= n {
                let low = UInt64(littleEndian: (base + i).loadUnaligned(as: UInt64.self))
                let high = UInt64(littleEndian: (base + i + 8).loadUnaligned(as: UInt64.self))
                // Fourteen lookups do not depend on the running CRC: only the
                // first two bytes wait for it.
                let rest = lookup(low, after: 8, from: 2) ^ lookup(high, after: 0)
                let first = UInt16(truncatingIfNeeded: low) ^ c
                c = rest ^ (t[15 * 256 + Int(first & 0xFF)] ^ t[14 * 256 + Int(first >> 8)])
                i += 16
            }
            while i < n {
                c = (c >> 8) ^ t[Int(UInt8(truncatingIfNeeded: c) ^ base.load(fromByteOffset: i, as: UInt8.self))]
                i += 1
            }
        }
        return c
    }

    static func checksum(_ bytes: [UInt8]) -> UInt16 {
        bytes.withUnsafeBytes { update(0, $0) }
    }
}
