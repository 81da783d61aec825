import Foundation

/// A value of a JSON contract that may be unknown: nil (or a non-finite number)
/// is written as `null`, never left out, because scripts rely on every key.
/// Every JSON output is a Codable struct whose optional members use this.
@propertyWrapper
public struct Null<Value: Encodable & Sendable>: Encodable, Sendable {
    public var wrappedValue: Value?

    public init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

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
