import Foundation

/// A value of a JSON contract that may be unknown: nil (or a non-finite number)
/// is written as `null`, never left out, because scripts rely on every key.
/// Every JSON output is a Codable struct whose optional members use this.
@propertyWrapper
public struct Null<Value: Encodable & Sendable>: Encodable, Sendable, SlotWritable {
    public var wrappedValue: Value?

    public init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

    func write(into slot: Slot, path: [any CodingKey]) throws {
        guard let v = wrappedValue else { return slot.setNull() }
        // Scalars and string enums write their own text (a non-finite number as null).
        if let flat = v as? any FlatWritable {
            var bytes: [UInt8] = []
            try flat.writeFlat(to: &bytes)
            slot.kind = .raw
            slot.raw = bytes
            return
        }
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

    /// The same text as UTF-8 bytes, with a final newline: for writing a large
    /// output without converting it to a String first.
    public static func line<T: Encodable>(_ value: T) throws -> [UInt8] {
        var bytes = try JSONTextEncoder().encodeBytes(value)
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    /// `line` of an array of flat objects, written in one pass into one
    /// buffer; the same bytes (the general path when a value is not flat after all).
    public static func line<T: FlatSortedEncodable>(_ values: [T]) throws -> [UInt8] {
        do { return try flatArrayLine(values) } catch is NotFlat {
            var bytes = try JSONTextEncoder().encodeBytes(values)
            bytes.append(UInt8(ascii: "\n"))
            return bytes
        }
    }

    /// Compact, key-sorted: for digests and stored values.
    public static func canonical<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

/// A field of a flat object: null, or the value (no cast: the value's type writes itself).
extension Null: FlatWritable where Value: FlatWritable {
    public func writeFlat(to out: inout [UInt8]) throws {
        guard let value = wrappedValue else { return out.append(contentsOf: Slot.nullBytes) }
        try value.writeFlat(to: &out)
    }
}
