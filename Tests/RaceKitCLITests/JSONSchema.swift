import Foundation

/// A JSON document as the schema validator sees it. Decoded with
/// `JSONDecoder`, which keeps `true` and `1` apart (JSONSerialization's
/// NSNumber does not).
indirect enum JSONDocument: Decodable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONDocument])
    case object([String: JSONDocument])

    init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let n = try? c.decode(Double.self) {
            self = .number(n)
        } else if let s = try? c.decode(String.self) {
            self = .string(s)
        } else if let a = try? c.decode([JSONDocument].self) {
            self = .array(a)
        } else {
            self = .object(try c.decode([String: JSONDocument].self))
        }
    }

    /// Parses JSON text.
    static func parse(_ text: String) throws -> JSONDocument {
        try JSONDecoder().decode(JSONDocument.self, from: Data(text.utf8))
    }

    /// The JSON Schema type names this value has (a whole number is both
    /// `integer` and `number`).
    var typeNames: Set<String> {
        switch self {
        case .null: return ["null"]
        case .bool: return ["boolean"]
        case .number(let n): return n == n.rounded() && n.isFinite ? ["number", "integer"] : ["number"]
        case .string: return ["string"]
        case .array: return ["array"]
        case .object: return ["object"]
        }
    }
}

/// A validator for the subset of JSON Schema (draft 2020-12) that
/// docs/contracts/schemas use: `type` (a name or a list, so `["number",
/// "null"]` is a nullable number), `required`, `properties`,
/// `additionalProperties` (`false` or a schema for the other values), `items`,
/// `enum`, `minimum`, `maximum`, and `$ref` to `#/$defs/NAME` in the same file
/// or `FILE#/$defs/NAME` in a file beside it. Any other keyword is an error in
/// the schema, so a schema never silently asks for more than is checked.
struct JSONSchemaValidator {
    /// Keywords this validator understands; the annotations are ignored.
    static let keywords: Set<String> = [
        "type", "required", "properties", "additionalProperties", "items", "enum", "minimum", "maximum", "$ref",
        "$defs", "$schema", "$id", "title", "description"
    ]

    /// Loads a schema file by name (for `$ref` across files).
    let load: (String) throws -> JSONDocument

    /// Every problem of `instance` against `schema` (a file's root), as
    /// `path: message`, in document order; empty when it conforms.
    func problems(_ instance: JSONDocument, against schema: JSONDocument, file: String) -> [String] {
        var out: [String] = []
        check(instance, schema, file: file, root: schema, path: "$", into: &out)
        return out
    }

    private func check(
        _ value: JSONDocument, _ schema: JSONDocument, file: String, root: JSONDocument, path: String,
        into out: inout [String]
    ) {
        guard case .object(let s) = schema else { return out.append("\(path): the schema is not an object") }
        for key in s.keys where !Self.keywords.contains(key) {
            out.append("\(path): unsupported schema keyword '\(key)'")
        }
        if case .string(let ref)? = s["$ref"] {
            guard let (target, targetFile, targetRoot) = resolve(ref, file: file, root: root) else {
                return out.append("\(path): cannot resolve $ref '\(ref)'")
            }
            check(value, target, file: targetFile, root: targetRoot, path: path, into: &out)
        }
        if let type = s["type"], !typeMatches(value, type) {
            return out.append("\(path): expected \(describe(type)), got \(describe(value))")
        }
        if case .array(let allowed)? = s["enum"], !allowed.contains(value) {
            out.append("\(path): \(describe(value)) is not one of \(allowed.map(describe).joined(separator: ", "))")
        }
        if case .number(let n) = value {
            if case .number(let min)? = s["minimum"], n < min {
                out.append("\(path): \(n) is below the minimum \(min)")
            }
            if case .number(let max)? = s["maximum"], n > max {
                out.append("\(path): \(n) is above the maximum \(max)")
            }
        }
        if case .object(let object) = value { checkObject(object, s, file: file, root: root, path: path, into: &out) }
        if case .array(let items) = value, let itemSchema = s["items"] {
            for (i, item) in items.enumerated() {
                check(item, itemSchema, file: file, root: root, path: "\(path)[\(i)]", into: &out)
            }
        }
    }

    private func checkObject(
        _ object: [String: JSONDocument], _ s: [String: JSONDocument], file: String, root: JSONDocument,
        path: String, into out: inout [String]
    ) {
        if case .array(let required)? = s["required"] {
            for case .string(let key) in required where object[key] == nil {
                out.append("\(path): missing required key '\(key)'")
            }
        }
        var declared: [String: JSONDocument] = [:]
        if case .object(let properties)? = s["properties"] { declared = properties }
        for key in object.keys.sorted() {
            let child = "\(path).\(key)"
            if let propertySchema = declared[key] {
                check(object[key]!, propertySchema, file: file, root: root, path: child, into: &out)
            } else if s["additionalProperties"] == .bool(false) {
                out.append("\(path): unknown key '\(key)'")
            } else if let other = s["additionalProperties"], case .object = other {
                check(object[key]!, other, file: file, root: root, path: child, into: &out)
            }
        }
    }

    /// The schema a `$ref` names, with the file and root it lives in.
    private func resolve(
        _ ref: String, file: String, root: JSONDocument
    ) -> (JSONDocument, String, JSONDocument)? {
        let parts = ref.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let targetFile = parts[0].isEmpty ? file : parts[0]
        guard let targetRoot = parts[0].isEmpty ? root : try? load(targetFile) else { return nil }
        var node = targetRoot
        let pointer = parts.count > 1 ? parts[1] : ""
        for component in pointer.split(separator: "/") {
            guard case .object(let o) = node, let next = o[String(component)] else { return nil }
            node = next
        }
        return (node, targetFile, targetRoot)
    }

    private func typeMatches(_ value: JSONDocument, _ type: JSONDocument) -> Bool {
        switch type {
        case .string(let name): return value.typeNames.contains(name)
        case .array(let names): return names.contains { typeMatches(value, $0) }
        default: return false
        }
    }

    private func describe(_ v: JSONDocument) -> String {
        switch v {
        case .null: return "null"
        case .bool(let b): return "\(b)"
        case .number(let n): return n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : "\(n)"
        case .string(let s): return "\"\(s)\""
        case .array(let a):
            return a.allSatisfy { if case .string = $0 { true } else { false } }
                ? a.map(describe).joined(separator: " or ") : "an array"
        case .object: return "an object"
        }
    }
}

/// The repository's folders, found from this file's path.
enum Repository {
    /// The repository root (Tests/RaceKitCLITests/ is two levels below it).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// docs/contracts/schemas.
    static let schemas = root.appendingPathComponent("docs/contracts/schemas")

    /// A schema file of docs/contracts/schemas, parsed.
    static func schema(_ name: String) throws -> JSONDocument {
        try JSONDecoder().decode(JSONDocument.self, from: Data(contentsOf: schemas.appendingPathComponent(name)))
    }

    /// Validates JSON text against a schema file; the problems, empty when it conforms.
    static func validate(_ text: String, against name: String) throws -> [String] {
        let validator = JSONSchemaValidator(load: schema)
        return validator.problems(try JSONDocument.parse(text), against: try schema(name), file: name)
    }
}
