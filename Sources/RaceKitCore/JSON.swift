import Foundation

/// A JSON scalar that encodes nil as null.
public enum JSONValue: Encodable, Sendable {
    case string(String), number(Double), bool(Bool), null
    public init(_ s: String?) { self = s.map { .string($0) } ?? .null }
    public init(_ d: Double?) { self = d.map { .number($0) } ?? .null }
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .string(let s): try c.encode(s)
        case .number(let d): if d.isFinite { try c.encode(d) } else { try c.encodeNil() }   // unknown, never a failed encode
        case .bool(let b): try c.encode(b)
        case .null: try c.encodeNil()
        }
    }
}

public struct DynamicKey: CodingKey {
    public var stringValue: String
    public var intValue: Int? { nil }
    public init(_ s: String) { stringValue = s }
    public init?(stringValue: String) { self.stringValue = stringValue }
    public init?(intValue: Int) { nil }
}

/// Nested JSON built from scalars, arrays and objects (keys sorted on output).
public indirect enum JSONTree: Encodable, Sendable {
    /// `pairs` are written in the order given (already sorted by the producer).
    case value(JSONValue), array([JSONTree]), object([String: JSONTree]), pairs([(String, JSONValue)])
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .value(let v): try v.encode(to: encoder)
        case .array(let a): var c = encoder.unkeyedContainer(); for x in a { try c.encode(x) }
        case .object(let o):
            var c = encoder.container(keyedBy: DynamicKey.self)
            for (k, v) in o { try c.encode(v, forKey: DynamicKey(k)) }
        case .pairs(let p):
            var c = encoder.container(keyedBy: DynamicKey.self)
            for (k, v) in p { try c.encode(v, forKey: DynamicKey(k)) }
        }
    }
}

/// Pretty JSON for the scalars, arrays and objects the CLI prints: keys sorted,
/// two-space indent, `null` for unknown. Foundation's JSONEncoder takes longer
/// than the store query on a 10,000-run listing.
public enum JSONWriter {
    public static func write(_ tree: JSONTree) -> String {
        var out = ""
        out.reserveCapacity(4096)
        append(tree, indent: 0, to: &out)
        return out
    }

    static func append(_ tree: JSONTree, indent: Int, to out: inout String) {
        switch tree {
        case .value(let v): append(v, to: &out)
        case .array(let items):
            guard !items.isEmpty else { out += "[]"; return }
            out += "[\n"
            for (i, item) in items.enumerated() {
                pad(indent + 1, &out)
                append(item, indent: indent + 1, to: &out)
                out += i + 1 < items.count ? ",\n" : "\n"
            }
            pad(indent, &out)
            out += "]"
        case .pairs(let pairs):
            guard !pairs.isEmpty else { out += "{}"; return }
            out += "{\n"
            for (i, (key, value)) in pairs.enumerated() {
                pad(indent + 1, &out)
                appendString(key, to: &out)
                out += " : "
                append(value, to: &out)
                out += i + 1 < pairs.count ? ",\n" : "\n"
            }
            pad(indent, &out)
            out += "}"
        case .object(let fields):
            guard !fields.isEmpty else { out += "{}"; return }
            out += "{\n"
            let keys = fields.keys.sorted()
            for (i, key) in keys.enumerated() {
                pad(indent + 1, &out)
                appendString(key, to: &out)
                out += " : "
                append(fields[key]!, indent: indent + 1, to: &out)
                out += i + 1 < keys.count ? ",\n" : "\n"
            }
            pad(indent, &out)
            out += "}"
        }
    }

    static func append(_ v: JSONValue, to out: inout String) {
        switch v {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .string(let s): appendString(s, to: &out)
        case .number(let d):
            if d.isFinite, d == d.rounded(), abs(d) < 1e15 { out += String(Int(d)) }
            else if d.isFinite { out += d.description } else { out += "null" }
        }
    }

    static func appendString(_ s: String, to out: inout String) {
        out += "\""
        if !s.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) {
            out += s
            out += "\""
            return
        }
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let c where c.value < 0x20:
                let hex = String(c.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }

    static func pad(_ n: Int, _ out: inout String) {
        for _ in 0..<n { out += "  " }
    }
}
