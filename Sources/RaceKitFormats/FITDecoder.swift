import RaceKitModel

/// A place where decoding stopped: the byte offset, the number of the message
/// (1-based, counted over the whole document) and what is wrong.
struct FITDamage: Error, Equatable {
    var offset: Int
    var message: Int
    var reason: String
    /// True when the document simply ends there (cut off), not wrong bytes.
    var truncated = false
}

/// What the decoder found besides messages: per-file facts for the notes.
struct FITDecodeReport {
    /// FIT files chained in the document.
    var units = 0
    /// Where and why decoding stopped early, if it did.
    var damage: FITDamage?
    /// File CRCs that did not match: (offset of the CRC, stored, computed).
    var crcMismatches: [(offset: Int, stored: UInt16, computed: UInt16)] = []
    /// Units whose header gives a data size of 0 (a device that died before closing the file).
    var unfinishedUnits = 0
    /// Bytes after the last FIT file that are not another FIT file.
    var trailingBytes = 0
    /// Fields whose size is not a multiple of their base type's, read as bytes (ignored).
    var oddFieldSizes = 0
    /// Data messages with a compressed timestamp but no earlier full timestamp.
    var untimedCompressed = 0
    /// Developer fields of records whose description declares a base type that
    /// does not exist or does not fit the field's size: not read (keys:
    /// developer data index << 8 | field number).
    var unreadableDeveloperFields = Set<UInt16>()
}

/// One decoded data message handed to the sink: numeric values by field number
/// (NaN when invalid or absent), and the string fields the profile keeps.
struct FITMessage {
    var global: UInt16 = 0
    /// 256 values, indexed by field number.
    let values: UnsafeMutablePointer<Double>
    /// The string fields by field number (nil: the message has none, so no
    /// dictionary is made for the records).
    var stringFields: [UInt8: String]?
    var strings: [UInt8: String] {
        get { stringFields ?? [:] }
        set { stringFields = newValue }
    }

    /// The developer fields of a record that could be read: `developerCount`
    /// keys (developer data index << 8 | field number) and their raw values.
    var developerCount = 0
    let developerKeys: UnsafeMutablePointer<UInt16>
    let developerValues: UnsafeMutablePointer<Double>

    subscript(_ field: UInt8) -> Double { values[Int(field)] }
    /// The value as an integer, nil when missing (or, from a hostile base type
    /// such as a float64 where an enum belongs, beyond 2^53).
    func int(_ field: UInt8) -> Int? {
        let v = values[Int(field)]
        return v.isNaN || abs(v) > 9_007_199_254_740_992 ? nil : Int(v)
    }
}

/// Receives the messages of a FIT document.
protocol FITSink: AnyObject {
    /// A new FIT file (header) starts; its local definitions are fresh.
    func unitStarted()
    /// A definition names developer fields (developer data index << 8 | field number).
    func developerFields(_ keys: [UInt16])
    /// About how many records the rest of the data holds (a capacity hint).
    func recordsExpected(_ count: Int)
    func message(_ message: FITMessage) throws
}

/// Streaming FIT decoder, written from the public FIT protocol description:
/// 12- and 14-byte headers with their CRC, definition and data messages in both
/// byte orders, compressed-timestamp headers (with rollover), developer fields
/// (a record's read by the base type their field description declares, the
/// others skipped by their size), several FIT files chained in one document, and the
/// file CRC. It reads one message at a time from `FITInput`; nothing is kept
/// but the 16 local definitions and the last timestamp. It owns the buffer of
/// decoded values (freed with it), so it cannot be copied.
struct FITDecoder: ~Copyable {
    private struct Field {
        var offset: Int
        var size: Int
        var baseType: UInt8
        var number: UInt8
        var isString: Bool
    }

    /// A developer field of a definition: where it is and whose it is.
    private struct DeveloperField {
        var offset: Int
        var size: Int
        var key: UInt16
    }

    /// A local definition. Its fields live in the decoder's tables (from
    /// `local * 255`), so a data message reads them in place: no array is
    /// copied, retained or released per message.
    private struct Definition {
        var global: UInt16 = 0
        var bigEndian = false
        /// Bytes of one data message (without its header byte).
        var size = 0
        /// The fields the profile wants decoded.
        var fieldCount = 0
        /// The developer fields, kept for records only.
        var developerCount = 0
        var hasTimestamp = false
        var isDefined = false
    }

    /// Most fields (and developer fields) one definition can hold.
    private static let fieldsPerDefinition = 255

    private let input: FITInput
    private let sink: FITSink
    /// The 16 local definitions and their fields (`fieldsPerDefinition` a local type).
    private let definitions: UnsafeMutablePointer<Definition>
    private let fieldTable: UnsafeMutablePointer<Field>
    private let developerTable: UnsafeMutablePointer<DeveloperField>
    private var lastTimestamp: UInt32?
    private var messageNumber = 0
    private let values: UnsafeMutablePointer<Double>
    /// The base type of each developer field its description declared (this FIT
    /// file's), by key: 0 not described, else the type + 1 (`bogusType` for none
    /// usable). A table, not a dictionary: every record's fields are looked up.
    private let developerTypes: UnsafeMutablePointer<UInt8>
    private var describedFields = 0
    static let bogusType: UInt8 = 0xFF
    private let developerKeys: UnsafeMutablePointer<UInt16>
    private let developerValues: UnsafeMutablePointer<Double>
    private(set) var report = FITDecodeReport()
    /// Most developer field descriptions kept per FIT file (256 x 256 can be declared).
    static let maximumDeveloperFields = 4096

    init(input: FITInput, sink: FITSink) {
        self.input = input
        self.sink = sink
        values = .allocate(capacity: 256)
        values.initialize(repeating: .nan, count: 256)
        developerKeys = .allocate(capacity: 256)
        developerKeys.initialize(repeating: 0, count: 256)
        developerValues = .allocate(capacity: 256)
        developerValues.initialize(repeating: .nan, count: 256)
        developerTypes = .allocate(capacity: 65_536)
        developerTypes.initialize(repeating: 0, count: 65_536)
        definitions = .allocate(capacity: 16)
        definitions.initialize(repeating: Definition(), count: 16)
        fieldTable = .allocate(capacity: 16 * Self.fieldsPerDefinition)
        developerTable = .allocate(capacity: 16 * Self.fieldsPerDefinition)
    }

    deinit {
        values.deallocate()
        developerKeys.deallocate()
        developerValues.deallocate()
        developerTypes.deallocate()
        definitions.deallocate()
        fieldTable.deallocate()
        developerTable.deallocate()
    }

    private func damage(_ at: Int, _ reason: String, truncated: Bool = false) -> FITDamage {
        FITDamage(offset: at, message: messageNumber, reason: reason, truncated: truncated)
    }

    /// Decodes the whole document. Throws `FITError` for a document that is not
    /// FIT at all (the first header); records damage later on in `report`.
    mutating func run() throws {
        guard try input.ensure(1) else { throw FITError.empty(file: input.stream.name) }
        while true {
            do {
                guard try decodeUnit() else { return }
            } catch let d as FITDamage {
                report.damage = d
                try input.drain()
                return
            }
            guard try input.ensure(1) else { return }
            // Another FIT file chained after this one, or trailing bytes.
            if !(try looksLikeHeader()) {
                report.trailingBytes = try input.drain()
                return
            }
        }
    }

    private func looksLikeHeader() throws -> Bool {
        guard try input.ensure(12) else { return false }
        let p = input.pointer
        let size = p.load(as: UInt8.self)
        return (size == 12 || size == 14) && p.loadUnaligned(fromByteOffset: 8, as: UInt32.self) == Self.signature
    }

    /// ".FIT" read as a little-endian UInt32.
    static let signature: UInt32 = 0x5449_462E

    /// Decodes one FIT file (header, messages, CRC); false when the document
    /// ended where a header was expected.
    private mutating func decodeUnit() throws -> Bool {
        let name = input.stream.name
        let headerAt = input.offset
        let first = report.units == 0
        guard try input.ensure(12) else {
            let n = input.available
            if first {
                throw FITError.notFIT(file: name, reason: "only \(n) bytes, fewer than the 12 of a FIT header")
            }
            throw damage(headerAt, "the file ends inside the header of FIT file \(report.units + 1)", truncated: true)
        }
        var p = input.pointer
        let headerSize = Int(p.load(as: UInt8.self))
        let signature = p.loadUnaligned(fromByteOffset: 8, as: UInt32.self)
        guard headerSize == 12 || headerSize == 14, signature == Self.signature else {
            let text = (8..<12).map { p.load(fromByteOffset: $0, as: UInt8.self) }
            let shown =
                text.allSatisfy { $0 >= 32 && $0 < 127 }
                ? "\"\(String(decoding: text, as: UTF8.self))\""
                : text.map { String($0, radix: 16) }.joined(separator: " ")
            let reason =
                signature != Self.signature
                ? "bytes 8-11 are \(shown), not \".FIT\"" : "the header size byte is \(headerSize), expected 12 or 14"
            if first { throw FITError.notFIT(file: name, reason: reason) }
            throw damage(headerAt, "FIT file \(report.units + 1): \(reason)")
        }
        guard try input.ensure(headerSize) else {
            if first { throw FITError.notFIT(file: name, reason: "the file ends inside its 14-byte header") }
            throw damage(headerAt, "the file ends inside a header", truncated: true)
        }
        p = input.pointer
        let dataSize = Int(UInt32(littleEndian: p.loadUnaligned(fromByteOffset: 4, as: UInt32.self)))
        input.resetCRC()
        if headerSize == 14 {
            let stored = UInt16(littleEndian: p.loadUnaligned(fromByteOffset: 12, as: UInt16.self))
            let computed = FITCRC.update(0, UnsafeRawBufferPointer(start: p, count: 12))
            if stored != 0, stored != computed {
                if first { throw FITError.headerCRC(file: name, stored: stored, computed: computed) }
                throw damage(
                    headerAt + 12,
                    "FIT file \(report.units + 1): header CRC \(FITError.hex(stored)), computed \(FITError.hex(computed))"
                )
            }
        }
        input.consume(headerSize)
        report.units += 1
        definitions.update(repeating: Definition(), count: 16)
        if describedFields > 0 { developerTypes.update(repeating: 0, count: 65_536) }
        describedFields = 0
        lastTimestamp = nil
        sink.unitStarted()
        if dataSize == 0 { report.unfinishedUnits += 1 }
        let dataEnd = dataSize == 0 ? Int.max : input.offset + dataSize
        while input.offset < dataEnd {
            if dataSize == 0, !(try input.ensure(3)) {
                // An unfinished file: what is left is its CRC (or nothing).
                if input.available == 0 { return false }
                break
            }
            guard try input.ensure(1) else {
                throw damage(
                    input.offset,
                    "the file ends after \(input.offset - headerAt - headerSize) of the \(dataSize) data bytes its header announces (truncated)",
                    truncated: true)
            }
            try decodeMessage(dataEnd: dataEnd)
        }
        // The file CRC.
        let crcAt = input.offset
        let computed = input.crc
        guard try input.ensure(2) else {
            if input.available > 0 { input.consume(input.available) }
            if dataSize != 0 { throw damage(crcAt, "the file ends before its CRC (truncated)", truncated: true) }
            return false
        }
        let stored = UInt16(littleEndian: input.pointer.loadUnaligned(as: UInt16.self))
        input.consume(2)
        if stored != computed, !(dataSize == 0 && stored == 0) {
            report.crcMismatches.append((crcAt, stored, computed))
        }
        return true
    }

    private mutating func decodeMessage(dataEnd: Int) throws {
        let at = input.offset
        let header = input.pointer.load(as: UInt8.self)
        messageNumber += 1
        if header & 0x80 == 0, header & 0x40 != 0 {
            try decodeDefinition(header, at: at, dataEnd: dataEnd)
            return
        }
        let compressed = header & 0x80 != 0
        let local = Int(compressed ? (header >> 5) & 0x03 : header & 0x0F)
        let definition = definitions[local]
        guard definition.isDefined else {
            throw damage(at, "a data message of local type \(local), which no definition message defined")
        }
        let total = 1 + definition.size
        if at + total > dataEnd {
            throw damage(
                at, "a \(total)-byte message crosses the end of the data the header announces (byte \(dataEnd))")
        }
        guard try input.ensure(total) else {
            throw damage(at, "the file ends inside message \(messageNumber) (truncated)", truncated: true)
        }
        let body = input.pointer + 1
        var message = FITMessage(
            global: definition.global, values: values, developerKeys: developerKeys, developerValues: developerValues)
        let fields = UnsafeBufferPointer(
            start: fieldTable + local * Self.fieldsPerDefinition, count: definition.fieldCount)
        for f in fields {
            if f.isString {
                message.strings[f.number] = Self.string(body + f.offset, f.size)
            } else {
                values[Int(f.number)] = FITBaseType.value(body + f.offset, f.baseType, bigEndian: definition.bigEndian)
            }
        }
        let developer = UnsafeBufferPointer(
            start: developerTable + local * Self.fieldsPerDefinition, count: definition.developerCount)
        for f in developer {
            // Not described (yet): named in the notes as not imported.
            let stored = developerTypes[Int(f.key)]
            guard stored != 0 else { continue }
            let type = stored == Self.bogusType ? stored : stored - 1
            let unit = FITBaseType.size(type)
            // Sizes are 1, 2, 4 or 8: a mask, not a division, per value.
            guard type <= FITBaseType.maximum, type != FITBaseType.string, f.size >= unit, f.size & (unit - 1) == 0
            else {
                report.unreadableDeveloperFields.insert(f.key)
                continue
            }
            // An array where one value is expected: the first element.
            let v = FITBaseType.value(body + f.offset, type, bigEndian: definition.bigEndian)
            guard !v.isNaN else { continue }
            developerKeys[message.developerCount] = f.key
            developerValues[message.developerCount] = v
            message.developerCount += 1
        }
        if definition.global == FITProfile.Message.fieldDescription { noteDescription() }
        if definition.hasTimestamp {
            let t = values[Int(FITProfile.timestampField)]
            // Any base type may be declared: only a uint32's range is a timestamp.
            if t >= 0, t <= Double(UInt32.max) { lastTimestamp = UInt32(t) }
        }
        if compressed {
            let offset = UInt32(header & 0x1F)
            if let last = lastTimestamp {
                let t = last &+ ((offset &- (last & 0x1F)) & 0x1F)
                lastTimestamp = t
                values[Int(FITProfile.timestampField)] = Double(t)
            } else {
                report.untimedCompressed += 1
            }
        }
        input.consume(total)
        if !fields.isEmpty || compressed || message.developerCount > 0 {
            try sink.message(message)
        }
        for f in fields where !f.isString { values[Int(f.number)] = .nan }
        if compressed { values[Int(FITProfile.timestampField)] = .nan }
    }

    /// A field description (decoded in `values`): the base type its developer
    /// field's values are read with.
    private mutating func noteDescription() {
        let index = values[0], number = values[1], type = values[2]
        guard (0..<256).contains(index), (0..<256).contains(number), describedFields < Self.maximumDeveloperFields
        else { return }
        // No base type, or the invalid 0xFF: a type no value can be read with.
        let key = Int(UInt16(index) << 8 | UInt16(number))
        if developerTypes[key] == 0 { describedFields += 1 }
        developerTypes[key] = (0..<255).contains(type) ? (UInt8(type) & 0x1F) + 1 : Self.bogusType
    }

    private mutating func decodeDefinition(_ header: UInt8, at: Int, dataEnd: Int) throws {
        guard try input.ensure(6) else {
            throw damage(at, "the file ends inside definition message \(messageNumber) (truncated)", truncated: true)
        }
        var p = input.pointer
        let architecture = p.load(fromByteOffset: 2, as: UInt8.self)
        guard architecture <= 1 else {
            throw damage(
                at + 2,
                "definition message with architecture byte \(architecture), expected 0 (little-endian) or 1 (big-endian)"
            )
        }
        let fieldCount = Int(p.load(fromByteOffset: 5, as: UInt8.self))
        let hasDeveloper = header & 0x20 != 0
        var total = 6 + 3 * fieldCount
        guard try input.ensure(total + (hasDeveloper ? 1 : 0)) else {
            throw damage(at, "the file ends inside definition message \(messageNumber) (truncated)", truncated: true)
        }
        p = input.pointer
        var developerCount = 0
        if hasDeveloper {
            developerCount = Int(p.load(fromByteOffset: total, as: UInt8.self))
            total += 1 + 3 * developerCount
            guard try input.ensure(total) else {
                throw damage(
                    at, "the file ends inside definition message \(messageNumber) (truncated)", truncated: true)
            }
            p = input.pointer
        }
        if at + total > dataEnd {
            throw damage(
                at, "a \(total)-byte definition crosses the end of the data the header announces (byte \(dataEnd))")
        }
        let bigEndian = architecture == 1
        let rawGlobal = p.loadUnaligned(fromByteOffset: 3, as: UInt16.self)
        let global = bigEndian ? UInt16(bigEndian: rawGlobal) : UInt16(littleEndian: rawGlobal)
        let local = Int(header & 0x0F)
        // Its table is rewritten below: the old definition of this local type is gone.
        definitions[local].isDefined = false
        let fields = fieldTable + local * Self.fieldsPerDefinition
        var fieldsKept = 0
        var offset = 0
        var hasTimestamp = false
        for k in 0..<fieldCount {
            let number = p.load(fromByteOffset: 6 + 3 * k, as: UInt8.self)
            let size = Int(p.load(fromByteOffset: 7 + 3 * k, as: UInt8.self))
            let baseType = p.load(fromByteOffset: 8 + 3 * k, as: UInt8.self) & 0x1F
            defer { offset += size }
            if FITProfile.wantsString(global, number) {
                if size > 0 {
                    fields[fieldsKept] = Field(
                        offset: offset, size: size, baseType: baseType, number: number, isString: true)
                    fieldsKept += 1
                }
                continue
            }
            guard FITProfile.wants(global, number), size > 0 else { continue }
            let unit = FITBaseType.size(baseType)
            guard baseType <= FITBaseType.maximum, baseType != FITBaseType.string, size % unit == 0 else {
                report.oddFieldSizes += 1
                continue
            }
            // An array where one value is expected: the first element.
            fields[fieldsKept] = Field(offset: offset, size: unit, baseType: baseType, number: number, isString: false)
            fieldsKept += 1
            if number == FITProfile.timestampField { hasTimestamp = true }
        }
        var developerKeys: [UInt16] = []
        let developer = developerTable + local * Self.fieldsPerDefinition
        var developerKept = 0
        let developerStart = 6 + 3 * fieldCount + 1
        for k in 0..<developerCount {
            let number = p.load(fromByteOffset: developerStart + 3 * k, as: UInt8.self)
            let size = Int(p.load(fromByteOffset: developerStart + 3 * k + 1, as: UInt8.self))
            let index = p.load(fromByteOffset: developerStart + 3 * k + 2, as: UInt8.self)
            let key = UInt16(index) << 8 | UInt16(number)
            if global == FITProfile.Message.record, size > 0 {
                developer[developerKept] = DeveloperField(offset: offset, size: size, key: key)
                developerKept += 1
            }
            offset += size
            developerKeys.append(key)
        }
        input.consume(total)
        if !developerKeys.isEmpty { sink.developerFields(developerKeys) }
        if global == FITProfile.Message.record, dataEnd != Int.max {
            sink.recordsExpected((dataEnd - input.offset) / (1 + offset))
        }
        definitions[local] = Definition(
            global: global, bigEndian: bigEndian, size: offset, fieldCount: fieldsKept, developerCount: developerKept,
            hasTimestamp: hasTimestamp, isDefined: true)
    }

    /// A string field: UTF-8 up to the first NUL or the end of the field (some
    /// devices write no terminator); invalid bytes replaced.
    static func string(_ p: UnsafeRawPointer, _ size: Int) -> String? {
        let bytes = UnsafeRawBufferPointer(start: p, count: size)
        let end = bytes.firstIndex(of: 0) ?? size
        guard end > 0 else { return nil }
        let s = String(decoding: bytes[..<end], as: UTF8.self).trimmingBlanks()
        return s.isEmpty ? nil : s
    }
}
