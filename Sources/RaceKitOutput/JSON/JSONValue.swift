/// A parsed JSON document (RFC 8259), for checking a script's shape before it is
/// decoded: objects keep their keys in document order, and a syntax error says
/// where it is. Foundation's JSONDecoder on Linux reports neither the position of
/// a syntax error nor the path of a number that does not fit an integer.
public enum JSONValue: Equatable, Sendable {
    case null, bool(Bool), number(Double), string(String), array([JSONValue]), object(JSONObject)

    /// What was found, as a problem says it: `a string`, `the number 50.5`, `null`.
    public var found: String {
        switch self {
        case .null: "null"
        case .bool(let b): "\(b)"
        case .number(let n): "the number \(n == n.rounded() && abs(n) < 1e15 ? TextFormat.fixed(n, 0) : "\(n)")"
        case .string: "a string"
        case .array: "a list"
        case .object: "an object"
        }
    }

    /// Parses a whole document; a syntax error carries the offending byte's offset.
    public static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        return try parser.document()
    }
}

/// A JSON object's members in document order; a repeated key keeps its last value.
public struct JSONObject: Equatable, Sendable {
    public internal(set) var keys: [String] = []
    public internal(set) var values: [String: JSONValue] = [:]
    /// Keys that appear more than once.
    public internal(set) var repeated: [String] = []

    public subscript(key: String) -> JSONValue? { values[key] }
}

/// A JSON syntax error: what is wrong, and the byte offset where (the document's
/// length for a truncated one).
public struct JSONSyntaxError: Error, Equatable {
    public var message: String
    public var offset: Int

    /// `line L, column C` (1-based; columns count characters, not bytes) of `offset`,
    /// or for the end of the document, of the place just after its last character.
    public func position(in bytes: [UInt8]) -> String {
        var end = min(offset, bytes.count)
        if end == bytes.count { end = (bytes.lastIndex { !JSONParser.isSpace($0) } ?? -1) + 1 }
        var line = 1, column = 1
        for b in bytes[..<end] {
            if b == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if b & 0xC0 != 0x80 {
                column += 1
            }
        }
        return "line \(line), column \(column)"
    }
}

private struct JSONParser {
    let bytes: [UInt8]
    var i = 0
    var depth = 0
    /// Foundation's JSONSerialization limit: deeper documents are refused, not recursed into.
    static let maximumDepth = 512

    init(bytes: [UInt8]) { self.bytes = bytes }

    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 }

    mutating func document() throws(JSONSyntaxError) -> JSONValue {
        let v = try value()
        skipSpace()
        if i < bytes.count { throw unexpected("the end of the document") }
        return v
    }

    mutating func skipSpace() { while i < bytes.count, Self.isSpace(bytes[i]) { i += 1 } }

    /// `expected X, found 'c'`, or the end of the document when there is nothing left.
    func unexpected(_ expected: String) -> JSONSyntaxError {
        guard i < bytes.count else { return JSONSyntaxError(message: "unexpected end of the document", offset: i) }
        let c = String(decoding: bytes[i..<min(i + 4, bytes.count)], as: UTF8.self).first.map(String.init) ?? "?"
        let shown = bytes[i] < 0x20 ? "a control character" : "'\(c)'"
        return JSONSyntaxError(message: "expected \(expected), found \(shown)", offset: i)
    }

    mutating func expect(_ c: Character, _ expected: String) throws(JSONSyntaxError) {
        skipSpace()
        guard i < bytes.count, bytes[i] == c.asciiValue else { throw unexpected(expected) }
        i += 1
    }

    mutating func value() throws(JSONSyntaxError) -> JSONValue {
        skipSpace()
        guard i < bytes.count else { throw unexpected("a value") }
        switch bytes[i] {
        case UInt8(ascii: "{"): return .object(try object())
        case UInt8(ascii: "["): return .array(try array())
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw unexpected("a value")
        }
    }

    mutating func nest() throws(JSONSyntaxError) {
        depth += 1
        if depth > Self.maximumDepth {
            throw JSONSyntaxError(message: "nested more than \(Self.maximumDepth) levels deep", offset: i)
        }
    }

    mutating func object() throws(JSONSyntaxError) -> JSONObject {
        try nest()
        i += 1
        var out = JSONObject()
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "}") {
            i += 1
        } else {
            while true {
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else {
                    throw unexpected("a key in double quotes")
                }
                let key = try string()
                try expect(":", "':' after the key")
                let v = try value()
                if out.values.updateValue(v, forKey: key) == nil {
                    out.keys.append(key)
                } else {
                    out.repeated.append(key)
                }
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: ",") else { break }
                i += 1
            }
            try expect("}", "',' or '}'")
        }
        depth -= 1
        return out
    }

    mutating func array() throws(JSONSyntaxError) -> [JSONValue] {
        try nest()
        i += 1
        var out: [JSONValue] = []
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "]") {
            i += 1
        } else {
            while true {
                out.append(try value())
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: ",") else { break }
                i += 1
            }
            try expect("]", "',' or ']'")
        }
        depth -= 1
        return out
    }

    mutating func literal(_ word: String, _ v: JSONValue) throws(JSONSyntaxError) -> JSONValue {
        for c in word.utf8 {
            guard i < bytes.count, bytes[i] == c else { throw unexpected("'\(word)'") }
            i += 1
        }
        return v
    }

    mutating func number() throws(JSONSyntaxError) -> JSONValue {
        let start = i
        func digits(_ p: inout JSONParser) throws(JSONSyntaxError) {
            guard p.i < p.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(p.bytes[p.i]) else {
                throw p.unexpected("a digit")
            }
            while p.i < p.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(p.bytes[p.i]) { p.i += 1 }
        }
        if bytes[i] == UInt8(ascii: "-") { i += 1 }
        if i < bytes.count, bytes[i] == UInt8(ascii: "0") { i += 1 } else { try digits(&self) }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            try digits(&self)
        }
        if i < bytes.count, bytes[i] | 0x20 == UInt8(ascii: "e") {
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            try digits(&self)
        }
        let text = String(decoding: bytes[start..<i], as: UTF8.self)
        guard let n = Double(text), n.isFinite else {
            throw JSONSyntaxError(message: "the number \(text) is too large", offset: start)
        }
        return .number(n)
    }

    mutating func string() throws(JSONSyntaxError) -> String {
        let start = i
        i += 1
        var out: [UInt8] = []
        while true {
            guard i < bytes.count else { throw unexpected("'\"' to end the string") }
            let b = bytes[i]
            if b == UInt8(ascii: "\"") { break }
            if b < 0x20 {
                throw JSONSyntaxError(message: "a control character in a string (write \\n or \\t)", offset: i)
            }
            if b == UInt8(ascii: "\\") {
                try escape(into: &out)
            } else {
                out.append(b)
                i += 1
            }
        }
        i += 1
        guard let s = String(validating: out, as: UTF8.self) else {
            throw JSONSyntaxError(message: "a string that is not UTF-8 text", offset: start)
        }
        return s
    }

    mutating func escape(into out: inout [UInt8]) throws(JSONSyntaxError) {
        let at = i
        i += 1
        guard i < bytes.count else { throw unexpected("an escaped character") }
        let simple: [UInt8: UInt8] = [
            UInt8(ascii: "\""): 0x22, UInt8(ascii: "\\"): 0x5C, UInt8(ascii: "/"): 0x2F, UInt8(ascii: "b"): 0x08,
            UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09
        ]
        if let e = simple[bytes[i]] {
            out.append(e)
            i += 1
            return
        }
        guard bytes[i] == UInt8(ascii: "u") else {
            throw JSONSyntaxError(
                message: "an unknown escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX)", offset: at)
        }
        var scalar = try hex4(at)
        if (0xD800..<0xDC00).contains(scalar), i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"),
            bytes[i + 1] == UInt8(ascii: "u")
        {
            i += 1
            let low = try hex4(at)
            guard (0xDC00..<0xE000).contains(low) else {
                throw JSONSyntaxError(message: "a \\u escape that is not a character", offset: at)
            }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let u = Unicode.Scalar(scalar) else {
            throw JSONSyntaxError(message: "a \\u escape that is not a character", offset: at)
        }
        out.append(contentsOf: Array(String(Character(u)).utf8))
    }

    /// The four hex digits after `\u` (at `i`, which points at the `u`).
    mutating func hex4(_ at: Int) throws(JSONSyntaxError) -> UInt32 {
        i += 1
        let hex = i + 4 <= bytes.count ? bytes[i..<i + 4] : []
        guard hex.count == 4,
            hex.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x66) }),
            let v = UInt32(String(decoding: hex, as: UTF8.self), radix: 16)
        else { throw JSONSyntaxError(message: "\\u needs four hex digits", offset: at) }
        i += 4
        return v
    }
}
