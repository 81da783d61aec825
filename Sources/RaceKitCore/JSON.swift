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

/// The one way JSON is written: keys sorted, two-space indent (Foundation's
/// pretty printing), slashes unescaped, and empty arrays and objects as `[]`
/// and `{}` (Foundation writes them over three lines).
public enum JSONOutput {
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    public static func string<T: Encodable>(_ value: T) throws -> String {
        let bytes = try encoder().encode(value)
        return String(decoding: collapsingEmpty(bytes), as: UTF8.self)
    }

    /// `[`, newline, blanks, newline, blanks, `]` becomes `[]` (and the same for
    /// `{}`). A newline is never inside a JSON string (it is escaped there), so
    /// only empty containers match.
    static func collapsingEmpty(_ bytes: Data) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let b = bytes[i]
            out.append(b)
            i += 1
            guard b == UInt8(ascii: "[") || b == UInt8(ascii: "{"), i < bytes.endIndex, bytes[i] == UInt8(ascii: "\n")
            else { continue }
            var j = i, newlines = 0
            while j < bytes.endIndex, bytes[j] == UInt8(ascii: "\n") || bytes[j] == UInt8(ascii: " ") {
                if bytes[j] == UInt8(ascii: "\n") { newlines += 1 }
                j += 1
            }
            let close = b == UInt8(ascii: "[") ? UInt8(ascii: "]") : UInt8(ascii: "}")
            if newlines == 2, j < bytes.endIndex, bytes[j] == close {
                out.append(close)
                i = j + 1
            }
        }
        return out
    }

    /// Compact, key-sorted: for digests and stored values.
    public static func canonical<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
