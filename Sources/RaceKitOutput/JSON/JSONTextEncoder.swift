import Foundation
import RaceKitModel

/// The encoder behind `JSONOutput`: Codable values to pretty JSON text with
/// sorted keys, written as Foundation's JSONEncoder writes them (`"key" : value`,
/// two-space indent, slashes unescaped) but with empty containers as `[]` and
/// `{}`, and several times faster (Foundation's took three times as long as the
/// store query for `runs list --format json` over 10,000 runs).
/// A non-finite number is an `EncodingError`, as in Foundation.
struct JSONTextEncoder {
    func encode<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try encodeBytes(value), as: UTF8.self)
    }

    func encodeBytes<T: Encodable>(_ value: T) throws -> [UInt8] {
        let root = Slot()
        try encodeValue(value, into: root, path: [])
        var out: [UInt8] = []
        out.reserveCapacity(1 << 16)
        root.write(to: &out, indent: 0)
        return out
    }
}

/// Values that write themselves into a slot without going through an encoder
/// (`Null`): the common optional fields skip a container and its casts.
protocol SlotWritable {
    func write(into slot: Slot, path: [any CodingKey]) throws
}

/// One value being built.
final class Slot {
    enum Kind { case empty, null, bool, number, string, array, object, raw }
    var kind = Kind.empty
    /// The number's digits or the string's text.
    var text = ""
    var flag = false
    var items: [Slot] = []
    /// A value already written (a flat object, `FlatSortedEncodable`).
    var raw: [UInt8] = []
    /// In the order encoded; sorted when written.
    var fields: [(key: String, slot: Slot)] = []

    static let nullBytes = Array("null".utf8), trueBytes = Array("true".utf8), falseBytes = Array("false".utf8)
    static let colon = Array(" : ".utf8), commaNewline = Array(",\n".utf8)
    static let openArray = Array("[\n".utf8), openObject = Array("{\n".utf8)
    static let emptyArray = Array("[]".utf8), emptyObject = Array("{}".utf8)

    static func pad(_ n: Int, _ out: inout [UInt8]) {
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * max(0, n)))
    }

    func write(to out: inout [UInt8], indent: Int) {
        switch kind {
        case .empty, .null: out.append(contentsOf: Slot.nullBytes)
        case .bool: out.append(contentsOf: flag ? Slot.trueBytes : Slot.falseBytes)
        case .number: Slot.append(text, to: &out)
        case .string: Slot.writeString(text, to: &out)
        case .raw: out.append(contentsOf: raw)
        case .array:
            guard !items.isEmpty else { out.append(contentsOf: Slot.emptyArray); return }
            out.append(contentsOf: Slot.openArray)
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(contentsOf: Slot.commaNewline) }
                Slot.pad(indent + 1, &out)
                item.write(to: &out, indent: indent + 1)
            }
            out.append(UInt8(ascii: "\n"))
            Slot.pad(indent, &out)
            out.append(UInt8(ascii: "]"))
        case .object:
            guard !fields.isEmpty else { out.append(contentsOf: Slot.emptyObject); return }
            out.append(contentsOf: Slot.openObject)
            // Structs whose coding keys are declared in order arrive sorted; a key
            // encoded twice keeps its last value (as Foundation does).
            var inOrder = true
            for i in fields.indices.dropFirst() where !(fields[i - 1].key < fields[i].key) { inOrder = false; break }
            if !inOrder { fields.sort { $0.key < $1.key } }
            var written = 0
            for (i, field) in fields.enumerated() where i + 1 == fields.count || fields[i + 1].key != field.key {
                if written > 0 { out.append(contentsOf: Slot.commaNewline) }
                Slot.pad(indent + 1, &out)
                Slot.writeString(field.key, to: &out)
                out.append(contentsOf: Slot.colon)
                field.slot.write(to: &out, indent: indent + 1)
                written += 1
            }
            out.append(UInt8(ascii: "\n"))
            Slot.pad(indent, &out)
            out.append(UInt8(ascii: "}"))
        }
    }

    static func append(_ s: String, to out: inout [UInt8]) {
        var s = s
        s.withUTF8 { out.append(contentsOf: $0) }
    }

    /// A JSON string. Escaped as `\uXXXX`, besides what JSON requires: DEL, the
    /// C1 controls, the line and paragraph separators and the bidirectional
    /// embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069), which
    /// `DisplayText` escapes on a terminal: a name from a file printed by `jq -r`
    /// or shown by a web page cannot reorder or hide what follows it.
    static func writeString(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var s = s
        // 0xC2 and 0xE2 lead the UTF-8 of U+0080-U+00BF and U+2000-U+2FFF, where
        // the characters to escape are; other text is copied as it is.
        let plain = s.withUTF8 { bytes -> Bool in
            guard
                !bytes.contains(where: {
                    $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F || $0 == 0xC2 || $0 == 0xE2
                })
            else { return false }
            out.append(contentsOf: bytes)
            return true
        }
        if !plain {
            for u in s.unicodeScalars {
                switch u.value {
                case 0x22: out.append(contentsOf: [0x5C, 0x22])
                case 0x5C: out.append(contentsOf: [0x5C, 0x5C])
                case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
                case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
                case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
                case 0x08: out.append(contentsOf: [0x5C, UInt8(ascii: "b")])
                case 0x0C: out.append(contentsOf: [0x5C, UInt8(ascii: "f")])
                case 0x00...0x1F, 0x7F...0x9F, 0x2028...0x202E, 0x2066...0x2069:
                    let hex = String(u.value, radix: 16)
                    out.append(contentsOf: Array(("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8))
                default: UTF8.encode(u) { out.append($0) }
                }
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Numbers as Foundation writes them: integral values without a fraction.
    static func number(_ d: Double, _ path: [any CodingKey]) throws -> String {
        guard d.isFinite else {
            throw EncodingError.invalidValue(
                d, .init(codingPath: path, debugDescription: "\(d) is not a JSON number"))
        }
        if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
        return "\(d)"
    }

    func set(string: String) { kind = .string; text = string }
    func set(number: String) { kind = .number; text = number }
    func set(bool: Bool) { kind = .bool; flag = bool }
    func setNull() { kind = .null }

    func child(_ key: String) -> Slot {
        let s = Slot()
        fields.append((key, s))
        return s
    }
}

struct SlotEncoder: Encoder {
    let slot: Slot
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if slot.kind != .object {
            slot.kind = .object
            slot.fields = []
            slot.fields.reserveCapacity(16)
        }
        return KeyedEncodingContainer(SlotKeyed<Key>(slot: slot, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if slot.kind != .array {
            slot.kind = .array
            slot.items = []
        }
        return SlotUnkeyed(slot: slot, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SlotSingle(slot: slot, codingPath: codingPath) }
}

/// Encodes a value into a slot: primitives directly, anything else through its
/// own `encode(to:)`.
func encodeValue<T: Encodable>(_ value: T, into slot: Slot, path: [any CodingKey]) throws {
    if value is any FlatSortedEncodable, let bytes = try? flatObject(value, indent: path.count) {
        slot.kind = .raw
        slot.raw = bytes
        return
    }
    switch value {
    case let w as any SlotWritable: try w.write(into: slot, path: path)
    case let s as String: slot.set(string: s)
    case let d as Double: slot.set(number: try Slot.number(d, path))
    case let i as Int: slot.set(number: String(i))
    case let b as Bool: slot.set(bool: b)
    // The other integer widths and Float: the containers' requirements for them
    // are met by their generic `encode`, which comes here; sent on to the value's
    // own `encode(to:)` they would come back forever (a stack overflow).
    case let i as any BinaryInteger: slot.set(number: "\(i)")
    case let f as Float:
        guard f.isFinite else { return slot.set(number: try Slot.number(Double(f), path)) }
        slot.set(number: f == f.rounded() && abs(f) < 1e15 ? String(Int64(f)) : "\(f)")
    default: try value.encode(to: SlotEncoder(slot: slot, codingPath: path))
    }
}

struct SlotKeyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let slot: Slot
    let codingPath: [any CodingKey]

    func child(_ key: Key) -> Slot { slot.child(key.stringValue) }

    mutating func encodeNil(forKey key: Key) throws { child(key).setNull() }
    mutating func encode(_ value: Bool, forKey key: Key) throws { child(key).set(bool: value) }
    mutating func encode(_ value: String, forKey key: Key) throws { child(key).set(string: value) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        child(key).set(number: try Slot.number(value, codingPath + [key]))
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { child(key).set(number: String(value)) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try encodeValue(value, into: child(key), path: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        SlotEncoder(slot: child(key), codingPath: codingPath + [key]).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        SlotEncoder(slot: child(key), codingPath: codingPath + [key]).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { SlotEncoder(slot: slot, codingPath: codingPath) }
    mutating func superEncoder(forKey key: Key) -> any Encoder {
        SlotEncoder(slot: child(key), codingPath: codingPath + [key])
    }
}

struct SlotUnkeyed: UnkeyedEncodingContainer {
    let slot: Slot
    let codingPath: [any CodingKey]
    var count: Int { slot.items.count }

    struct Index: CodingKey {
        var stringValue: String { "\(intValue!)" }
        var intValue: Int?
        init(_ i: Int) { intValue = i }
        init?(stringValue: String) { nil }
        init?(intValue: Int) { self.intValue = intValue }
    }

    func next() -> Slot {
        let s = Slot()
        slot.items.append(s)
        return s
    }

    mutating func encodeNil() throws { next().setNull() }
    mutating func encode<T: Encodable>(_ value: T) throws {
        let path = codingPath + [Index(count)]
        try encodeValue(value, into: next(), path: path)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        let path = codingPath + [Index(count)]
        return SlotEncoder(slot: next(), codingPath: path).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let path = codingPath + [Index(count)]
        return SlotEncoder(slot: next(), codingPath: path).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let path = codingPath + [Index(count)]
        return SlotEncoder(slot: next(), codingPath: path)
    }
}

struct SlotSingle: SingleValueEncodingContainer {
    let slot: Slot
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { slot.setNull() }
    mutating func encode(_ value: Bool) throws { slot.set(bool: value) }
    mutating func encode(_ value: String) throws { slot.set(string: value) }
    mutating func encode(_ value: Double) throws { slot.set(number: try Slot.number(value, codingPath)) }
    mutating func encode(_ value: Int) throws { slot.set(number: String(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws { try encodeValue(value, into: slot, path: codingPath) }
}

/// A struct whose coding keys are declared in sorted order and whose values
/// are all scalars (strings, numbers, booleans, string enums, `Null` of those):
/// `JSONOutput` writes it in one pass, straight to text, without building it
/// first (`runs list --format json` over 10,000 runs). A test checks each
/// conformer's keys are sorted; anything else falls back to the general path.
public protocol FlatSortedEncodable: Encodable {}

/// A value the one-pass writer writes itself: scalars, string enums, `Null` of those.
public protocol FlatWritable {
    /// Writes the value's JSON (a non-finite number as null: unknown); throws
    /// when it is not flat after all.
    func writeFlat(to out: inout [UInt8]) throws
}

extension String: FlatWritable {
    public func writeFlat(to out: inout [UInt8]) { Slot.writeString(self, to: &out) }
}
extension Int: FlatWritable {
    public func writeFlat(to out: inout [UInt8]) { Slot.append(String(self), to: &out) }
}
extension Bool: FlatWritable {
    public func writeFlat(to out: inout [UInt8]) { out.append(contentsOf: self ? Slot.trueBytes : Slot.falseBytes) }
}
extension Double: FlatWritable {
    public func writeFlat(to out: inout [UInt8]) {
        guard let text = try? Slot.number(self, []) else { return out.append(contentsOf: Slot.nullBytes) }
        Slot.append(text, to: &out)
    }
}
extension FlatWritable where Self: RawRepresentable, RawValue == String {
    public func writeFlat(to out: inout [UInt8]) { Slot.writeString(rawValue, to: &out) }
}
extension Sport: FlatWritable {}
extension SourceFormat: FlatWritable {}
extension RunMode: FlatWritable {}
extension RunType: FlatWritable {}

/// Why the one-pass writer gave up on a value (the general path takes it).
struct NotFlat: Error {}

/// Writes a `FlatSortedEncodable` value as an object at `indent`.
func flatObject<T: Encodable>(_ value: T, indent: Int) throws -> [UInt8] {
    let sink = FlatSink(indent: indent)
    sink.out.reserveCapacity(768)
    try sink.object(value)
    return sink.out
}

/// An array of `FlatSortedEncodable` values, as the general path writes it at
/// the top level, with a final newline, in one buffer: no slot per value, no
/// copy of each object (`runs list --format json` over 10,000 runs).
func flatArrayLine<T: FlatSortedEncodable>(_ values: [T]) throws -> [UInt8] {
    guard !values.isEmpty else { return Slot.emptyArray + [UInt8(ascii: "\n")] }
    let sink = FlatSink(indent: 1)
    sink.out = Slot.openArray
    for (i, value) in values.enumerated() {
        if i > 0 { sink.out.append(contentsOf: Slot.commaNewline) }
        Slot.pad(1, &sink.out)
        if let direct = value as? any FlatFieldsWritable { try sink.fields(direct) } else { try sink.object(value) }
        // After the first object, room for all of them at its size.
        if i == 0 { sink.out.reserveCapacity(sink.out.count * (values.count + 1)) }
    }
    sink.out.append(contentsOf: Array("\n]\n".utf8))
    return sink.out
}

final class FlatSink {
    var out: [UInt8] = []
    var fields = 0
    /// The last key's bytes: the next must sort after it.
    var lastKey: [UInt8] = []
    let indent: Int
    init(indent: Int) { self.indent = indent }

    /// Appends `value` as an object at `indent`.
    func object<T: Encodable>(_ value: T) throws {
        fields = 0
        out.append(contentsOf: Slot.openObject)
        try value.encode(to: FlatEncoder(sink: self))
        guard fields > 0 else {
            out.removeLast(Slot.openObject.count)
            return out.append(contentsOf: Slot.emptyObject)
        }
        out.append(UInt8(ascii: "\n"))
        Slot.pad(indent, &out)
        out.append(UInt8(ascii: "}"))
    }

    func key(_ k: String) throws {
        var k = k
        try k.withUTF8 { key in
            guard fields == 0 || lastKey.lexicographicallyPrecedes(key) else { throw NotFlat() }
            if fields > 0 { out.append(contentsOf: Slot.commaNewline) }
            Slot.pad(indent + 1, &out)
            lastKey.removeAll(keepingCapacity: true)
            lastKey.append(contentsOf: key)
        }
        Slot.writeString(k, to: &out)
        out.append(contentsOf: Slot.colon)
        fields += 1
    }
}

struct FlatEncoder: Encoder {
    let sink: FlatSink
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(FlatKeyed<Key>(sink: sink))
    }
    func unkeyedContainer() -> any UnkeyedEncodingContainer { FailingUnkeyed() }
    func singleValueContainer() -> any SingleValueEncodingContainer { FailingSingle() }
}

struct FlatKeyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let sink: FlatSink
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) throws {
        try sink.key(key.stringValue)
        sink.out.append(contentsOf: Slot.nullBytes)
    }
    mutating func encode(_ value: Bool, forKey key: Key) throws {
        try sink.key(key.stringValue)
        value.writeFlat(to: &sink.out)
    }
    mutating func encode(_ value: String, forKey key: Key) throws {
        try sink.key(key.stringValue)
        value.writeFlat(to: &sink.out)
    }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        let number = try Slot.number(value, [key])   // a non-finite number is an error, as on the general path
        try sink.key(key.stringValue)
        Slot.append(number, to: &sink.out)
    }
    mutating func encode(_ value: Int, forKey key: Key) throws {
        try sink.key(key.stringValue)
        value.writeFlat(to: &sink.out)
    }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        guard let w = value as? any FlatWritable else { throw NotFlat() }
        try sink.key(key.stringValue)
        try w.writeFlat(to: &sink.out)
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        KeyedEncodingContainer(FailingKeyed<NestedKey>())
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { FailingUnkeyed() }
    mutating func superEncoder() -> any Encoder { FailingEncoder() }
    mutating func superEncoder(forKey key: Key) -> any Encoder { FailingEncoder() }
}

/// Containers that refuse everything: the value is not flat.
struct FailingEncoder: Encoder {
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(FailingKeyed<Key>())
    }
    func unkeyedContainer() -> any UnkeyedEncodingContainer { FailingUnkeyed() }
    func singleValueContainer() -> any SingleValueEncodingContainer { FailingSingle() }
}

struct FailingKeyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
    var codingPath: [any CodingKey] { [] }
    mutating func encodeNil(forKey key: Key) throws { throw NotFlat() }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { throw NotFlat() }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        KeyedEncodingContainer(FailingKeyed<NestedKey>())
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { FailingUnkeyed() }
    mutating func superEncoder() -> any Encoder { FailingEncoder() }
    mutating func superEncoder(forKey key: Key) -> any Encoder { FailingEncoder() }
}

struct FailingUnkeyed: UnkeyedEncodingContainer {
    var codingPath: [any CodingKey] { [] }
    var count: Int { 0 }
    mutating func encodeNil() throws { throw NotFlat() }
    mutating func encode<T: Encodable>(_ value: T) throws { throw NotFlat() }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        KeyedEncodingContainer(FailingKeyed<NestedKey>())
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { FailingUnkeyed() }
    mutating func superEncoder() -> any Encoder { FailingEncoder() }
}

struct FailingSingle: SingleValueEncodingContainer {
    var codingPath: [any CodingKey] { [] }
    mutating func encodeNil() throws { throw NotFlat() }
    mutating func encode<T: Encodable>(_ value: T) throws { throw NotFlat() }
}

/// A flat object that writes its own fields, in sorted key order, with no
/// encoder: no coding keys made into strings, no casts (`runs list --format
/// json` over 10,000 runs). Its `Encodable` conformance stays the reference: a
/// test checks both write the same text.
public protocol FlatFieldsWritable: FlatSortedEncodable {
    func writeFields(_ fields: inout FlatFields)
}

/// The fields of one flat object being written.
public struct FlatFields {
    var out: [UInt8]
    let indent: Int
    var count = 0
    var lastKey: StaticString?
    /// False once a key came out of order (the caller then takes the general path).
    var sorted = true

    /// `"key" : value`, after a comma when it is not the first.
    public mutating func field<V: FlatWritable>(_ key: StaticString, _ value: V) {
        self.key(key)
        try? value.writeFlat(to: &out)   // try?: scalars and Null of scalars do not throw
    }

    // Null of a scalar without the generic path: `Null<V>`'s conformance, called
    // from another module, instantiated its metadata at every field of every run.
    public mutating func field(_ key: StaticString, _ value: Null<Double>) { optional(key, value.wrappedValue) }
    public mutating func field(_ key: StaticString, _ value: Null<Int>) { optional(key, value.wrappedValue) }
    public mutating func field(_ key: StaticString, _ value: Null<String>) { optional(key, value.wrappedValue) }

    mutating func optional<V: FlatWritable>(_ key: StaticString, _ value: V?) {
        self.key(key)
        if let value { try? value.writeFlat(to: &out) } else { out.append(contentsOf: Slot.nullBytes) }
    }

    /// `"key" : `, after a comma when it is not the first.
    mutating func key(_ key: StaticString) {
        if let last = lastKey, !Self.precedes(last, key) { sorted = false }
        lastKey = key
        if count > 0 { out.append(UInt8(ascii: ",")); out.append(UInt8(ascii: "\n")) }
        Slot.pad(indent + 1, &out)
        out.append(UInt8(ascii: "\""))
        out.append(contentsOf: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
        out.append(UInt8(ascii: "\""))
        out.append(UInt8(ascii: " ")); out.append(UInt8(ascii: ":")); out.append(UInt8(ascii: " "))
        count += 1
    }

    static func precedes(_ a: StaticString, _ b: StaticString) -> Bool {
        let n = min(a.utf8CodeUnitCount, b.utf8CodeUnitCount)
        let c = memcmp(a.utf8Start, b.utf8Start, n)
        return c < 0 || (c == 0 && a.utf8CodeUnitCount < b.utf8CodeUnitCount)
    }
}

extension FlatSink {
    /// Appends a `FlatFieldsWritable` value as an object at `indent`; throws
    /// `NotFlat` when its keys were not in order.
    func fields<T: FlatFieldsWritable>(_ value: T) throws {
        // The buffer moves into `fields` and back (swapped, never shared: a
        // shared buffer would be copied whole at the next append).
        var fields = FlatFields(out: [], indent: indent)
        swap(&out, &fields.out)
        fields.out.append(contentsOf: Slot.openObject)
        value.writeFields(&fields)
        swap(&out, &fields.out)
        guard fields.sorted else { throw NotFlat() }
        guard fields.count > 0 else {
            out.removeLast(Slot.openObject.count)
            return out.append(contentsOf: Slot.emptyObject)
        }
        out.append(UInt8(ascii: "\n"))
        Slot.pad(indent, &out)
        out.append(UInt8(ascii: "}"))
    }
}
