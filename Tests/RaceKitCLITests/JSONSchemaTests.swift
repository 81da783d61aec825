import Foundation
import Testing

/// The schema validator the contract tests rely on: each keyword accepts what
/// it should and names what it refuses.
@Suite struct JSONSchemaTests {
    /// Problems of `instance` against `schema` (both JSON text), with `files`
    /// as the other schema files `$ref` may name.
    func problems(_ instance: String, _ schema: String, files: [String: String] = [:]) throws -> [String] {
        let validator = JSONSchemaValidator(load: { name in
            guard let text = files[name] else { throw CocoaError(.fileNoSuchFile) }
            return try JSONDocument.parse(text)
        })
        return validator.problems(try JSONDocument.parse(instance), against: try JSONDocument.parse(schema), file: "t")
    }

    @Test func typesKeepBooleansNumbersAndIntegersApart() throws {
        #expect(try problems("1", #"{"type": "integer"}"#).isEmpty)
        #expect(try problems("1.5", #"{"type": "integer"}"#) == ["$: expected \"integer\", got 1.5"])
        #expect(try problems("1.5", #"{"type": "number"}"#).isEmpty)
        #expect(try problems("true", #"{"type": "number"}"#) == ["$: expected \"number\", got true"])
        #expect(try problems("1", #"{"type": "boolean"}"#) == ["$: expected \"boolean\", got 1"])
        #expect(try problems("\"1\"", #"{"type": "number"}"#) == ["$: expected \"number\", got \"1\""])
    }

    @Test func aTypeListAllowsNull() throws {
        let nullable = #"{"type": ["number", "null"]}"#
        #expect(try problems("null", nullable).isEmpty)
        #expect(try problems("3", nullable).isEmpty)
        #expect(try problems("\"x\"", nullable) == ["$: expected \"number\" or \"null\", got \"x\""])
        #expect(try problems("null", #"{"type": "number"}"#) == ["$: expected \"number\", got null"])
    }

    @Test func objectsNeedTheirRequiredKeysAndNoOthers() throws {
        let schema = #"""
            {"type": "object", "required": ["a", "b"], "additionalProperties": false,
             "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}}
            """#
        #expect(try problems(#"{"a": "x", "b": 2}"#, schema).isEmpty)
        #expect(try problems(#"{"a": "x"}"#, schema) == ["$: missing required key 'b'"])
        #expect(try problems(#"{"a": "x", "b": 2, "c": 3}"#, schema) == ["$: unknown key 'c'"])
        #expect(try problems(#"{"a": 1, "b": 2}"#, schema) == ["$.a: expected \"string\", got 1"])
    }

    @Test func additionalPropertiesMayBeASchema() throws {
        let map = #"{"type": "object", "additionalProperties": {"type": "integer"}}"#
        #expect(try problems(#"{"x": 1, "y": 2}"#, map).isEmpty)
        #expect(try problems(#"{"x": 1, "y": "2"}"#, map) == ["$.y: expected \"integer\", got \"2\""])
        // Without additionalProperties, other keys are allowed.
        #expect(try problems(#"{"x": 1}"#, #"{"type": "object", "properties": {}}"#).isEmpty)
    }

    @Test func itemsAreCheckedWithTheirIndex() throws {
        let schema = #"{"type": "array", "items": {"type": "string"}}"#
        #expect(try problems(#"["a", "b"]"#, schema).isEmpty)
        #expect(
            try problems(#"["a", 2, "c", false]"#, schema) == [
                "$[1]: expected \"string\", got 2", "$[3]: expected \"string\", got false"
            ])
    }

    @Test func enumMinimumAndMaximum() throws {
        let status = #"{"enum": ["imported", "failed", null]}"#
        #expect(try problems("\"failed\"", status).isEmpty)
        #expect(try problems("null", status).isEmpty)
        #expect(try problems("\"lost\"", status) == ["$: \"lost\" is not one of \"imported\", \"failed\", null"])
        let range = #"{"type": "number", "minimum": 0, "maximum": 10}"#
        #expect(try problems("0", range).isEmpty && problems("10", range).isEmpty)
        #expect(try problems("-0.5", range) == ["$: -0.5 is below the minimum 0.0"])
        #expect(try problems("11", range) == ["$: 11.0 is above the maximum 10.0"])
    }

    @Test func refsResolveInTheFileAndInFilesBesideIt() throws {
        let schema = #"""
            {"$defs": {"id": {"type": "string"}},
             "type": "object", "properties": {"a": {"$ref": "#/$defs/id"}, "b": {"$ref": "other.json#/$defs/n"}}}
            """#
        let other = #"{"$defs": {"n": {"type": "integer", "minimum": 1}}}"#
        #expect(try problems(#"{"a": "x", "b": 1}"#, schema, files: ["other.json": other]).isEmpty)
        #expect(
            try problems(#"{"a": 1, "b": 0}"#, schema, files: ["other.json": other]) == [
                "$.a: expected \"string\", got 1", "$.b: 0.0 is below the minimum 1.0"
            ])
        #expect(try problems("1", ##"{"$ref": "#/$defs/none"}"##) == ["$: cannot resolve $ref '#/$defs/none'"])
    }

    @Test func anUnsupportedKeywordIsAnErrorNotIgnored() throws {
        #expect(
            try problems("\"x\"", #"{"type": "string", "pattern": "^y$"}"#) == [
                "$: unsupported schema keyword 'pattern'"
            ])
    }

    /// Every schema file of docs/contracts/schemas parses and uses only the
    /// supported keywords (checked against an instance of the wrong type, so
    /// every keyword of the root object is visited).
    @Test func theContractSchemasUseOnlySupportedKeywords() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Repository.schemas.path)
            .filter { $0.hasSuffix(".schema.json") }.sorted()
        #expect(names.count >= 5, "\(names)")
        for name in names {
            let schema = try Repository.schema(name)
            var unsupported: [String] = []
            func walk(_ node: JSONDocument, _ key: String?) {
                switch node {
                case .object(let o):
                    // Keys under properties, $defs and enum are names and values, not keywords.
                    if key != "properties" && key != "$defs" {
                        unsupported += o.keys.filter { !JSONSchemaValidator.keywords.contains($0) }
                    }
                    for (k, v) in o where k != "enum" { walk(v, k) }
                case .array(let a): for v in a { walk(v, nil) }
                default: break
                }
            }
            walk(schema, nil)
            #expect(unsupported.isEmpty, "\(name): \(unsupported)")
        }
    }
}
