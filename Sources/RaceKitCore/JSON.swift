import Foundation

/// A value of a JSON contract that may be unknown: nil (or a non-finite number)
/// is written as `null`, never left out, because scripts rely on every key.
/// Every JSON output is a Codable struct whose optional members use this.
@propertyWrapper
public struct Null<Value: Encodable & Sendable>: Encodable, Sendable, SlotWritable, FlatWritable {
    public var wrappedValue: Value?

    public init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

    /// Null, or the value when it writes itself (a field of a flat object; the
    /// one-pass writer only takes `Null` of such values).
    public func writeFlat(to out: inout [UInt8]) throws {
        guard let value = wrappedValue else { return out.append(contentsOf: Slot.nullBytes) }
        guard let v = value as? any FlatWritable else { throw NotFlat() }
        try v.writeFlat(to: &out)
    }

    func write(into slot: Slot, path: [any CodingKey]) throws {
        guard let v = wrappedValue else { return slot.setNull() }
        if let scalar = v as? any JSONScalar { return scalar.write(into: slot) }
        try encodeValue(v, into: slot, path: path)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch wrappedValue {
        case .none: try c.encodeNil()
        case .some(let d as Double) where !d.isFinite: try c.encodeNil()
        case .some(let v): try c.encode(v)
        }
    }
}

/// The one way JSON is written: Codable values, keys sorted, two-space indent
/// in Foundation's style, slashes unescaped, and empty arrays and objects as
/// `[]` and `{}` (`JSONTextEncoder`).
public enum JSONOutput {
    public static func string<T: Encodable>(_ value: T) throws -> String {
        try JSONTextEncoder().encode(value)
    }

    /// Compact, key-sorted: for digests and stored values.
    public static func canonical<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

/// The values `Null` writes without an encoder (one cast instead of a container).
protocol JSONScalar {
    /// Writes the value; a non-finite number is written as null (unknown).
    func write(into slot: Slot)
}

extension String: JSONScalar { func write(into slot: Slot) { slot.set(string: self) } }
extension Int: JSONScalar { func write(into slot: Slot) { slot.set(number: String(self)) } }
extension Bool: JSONScalar { func write(into slot: Slot) { slot.set(bool: self) } }
extension Double: JSONScalar {
    func write(into slot: Slot) {
        guard let text = try? Slot.number(self, []) else { return slot.setNull() }
        slot.set(number: text)
    }
}
