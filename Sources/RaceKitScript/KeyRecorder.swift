/// What a JSON value must be, derived from the Swift type that decodes it.
indirect enum JSONShape: Equatable, Sendable {
    case bool, string, number, wholeNumber
    /// A string-backed enum: one of these raw values.
    case oneOf([String])
    case list(JSONShape)
    /// An object with free keys (`branches`), every value of one shape.
    case map(JSONShape)
    /// An object with these keys.
    case object([JSONField])

    /// The shape in words: `a whole number`, `a list`.
    var words: String {
        switch self {
        case .bool: "true or false"
        case .string, .oneOf: "a string"
        case .number: "a number"
        case .wholeNumber: "a whole number"
        case .list: "a list"
        case .map, .object: "an object"
        }
    }
}

/// One key of an object shape: its name, its value's shape, and whether it must be there.
struct JSONField: Equatable, Sendable {
    var name: String
    var shape: JSONShape
    var required: Bool
}

/// The JSON shape a `Decodable` type reads, found by letting the type decode
/// itself from a decoder that records every key asked for, with the type asked,
/// and answers with a placeholder (0, "", false, the first case, an empty list).
/// Synthesized `CodingKeys` are private to their type, and a list written out by
/// hand drifts: the type's own `init(from:)` says exactly what it reads, custom
/// initialisers (EngineSettings' defaults) included. Optional keys are the ones
/// asked through `decodeIfPresent` (`contains` or `decodeNil` first).
enum KeyRecorder {
    /// The keys `type` reads, in the order it reads them. A request the recorder
    /// cannot answer (an unkeyed or single-value container of a custom type) ends
    /// the recording: the keys after it would be missed, which ScriptSchemaTests show.
    static func fields<T: Decodable>(of type: T.Type, depth: Int = 0) -> [JSONField] {
        let recorder = RecordingDecoder()
        _ = try? T(from: recorder)
        var seen = Set<String>()
        return recorder.asked.filter { seen.insert($0.name).inserted }.map { asked in
            JSONField(
                name: asked.name, shape: shape(of: asked.type, depth: depth + 1),
                required: !recorder.optional.contains(asked.name))
        }
    }

    /// The shape of a type's JSON; nested structs are recorded in turn (to a
    /// depth of 8: the script's types do not recurse).
    static func shape(of type: Any.Type, depth: Int = 0) -> JSONShape {
        func raws<E: CaseIterable & RawRepresentable>(_: E.Type) -> [String] {
            E.allCases.compactMap { $0.rawValue as? String }
        }
        func record<D: Decodable>(_ d: D.Type) -> [JSONField] { fields(of: d, depth: depth) }
        switch type {
        case is Bool.Type: return .bool
        case is String.Type: return .string
        case is any BinaryInteger.Type: return .wholeNumber
        case is any FloatingPoint.Type: return .number
        case let e as any (CaseIterable & RawRepresentable).Type: return .oneOf(raws(e))
        case let o as any OptionalType.Type: return shape(of: o.wrappedType, depth: depth)
        case let l as any ListType.Type: return .list(shape(of: l.elementType, depth: depth))
        case let m as any MapType.Type: return .map(shape(of: m.valueType, depth: depth))
        case let d as any Decodable.Type where depth < 8: return .object(record(d))
        default: return .object([])
        }
    }

    struct Unanswerable: Error {}

    /// A stand-in value of any type a script struct holds.
    static func placeholder<T: Decodable>(_ type: T.Type) throws -> T {
        func zero<N: AdditiveArithmetic>(_: N.Type) -> N { .zero }
        func first<C: CaseIterable>(_: C.Type) -> C? { C.allCases.first }
        func emptyList<L: ExpressibleByArrayLiteral>(_: L.Type) -> L { [] }
        func emptyMap<M: ExpressibleByDictionaryLiteral>(_: M.Type) -> M { [:] }
        func none<O: ExpressibleByNilLiteral>(_: O.Type) -> O { nil }
        let value: Any? =
            switch type {
            case is Bool.Type: false
            case is String.Type: ""
            case let n as any AdditiveArithmetic.Type: zero(n)
            case let c as any CaseIterable.Type: first(c)
            case let l as any ExpressibleByArrayLiteral.Type: emptyList(l)
            case let m as any ExpressibleByDictionaryLiteral.Type: emptyMap(m)
            case let o as any ExpressibleByNilLiteral.Type: none(o)
            default: nil
            }
        if let value = value as? T { return value }
        return try T(from: RecordingDecoder())
    }
}

/// Element types of the generic containers, for `KeyRecorder.shape(of:)`.
private protocol ListType { static var elementType: Any.Type { get } }
private protocol MapType { static var valueType: Any.Type { get } }
private protocol OptionalType { static var wrappedType: Any.Type { get } }
extension Array: ListType { fileprivate static var elementType: Any.Type { Element.self } }
extension Dictionary: MapType { fileprivate static var valueType: Any.Type { Value.self } }
extension Optional: OptionalType { fileprivate static var wrappedType: Any.Type { Wrapped.self } }

/// Records the keys (and types) asked of keyed containers; nested values are
/// decoded from a recorder of their own.
private final class RecordingDecoder: Decoder {
    var asked: [(name: String, type: Any.Type)] = []
    var optional = Set<String>()
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy _: Key.Type) -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(RecordingContainer<Key>(recorder: self))
    }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw KeyRecorder.Unanswerable() }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { throw KeyRecorder.Unanswerable() }
}

private struct RecordingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let recorder: RecordingDecoder
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { [] }

    private func answer<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T {
        recorder.asked.append((key.stringValue, type))
        return try KeyRecorder.placeholder(type)
    }

    /// `decodeIfPresent` asks these before `decode`: the key is optional, and
    /// present and not null so that its type is asked too.
    func contains(_ key: Key) -> Bool {
        recorder.optional.insert(key.stringValue)
        return true
    }
    func decodeNil(forKey key: Key) throws -> Bool {
        recorder.optional.insert(key.stringValue)
        return false
    }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try answer(type, key) }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try answer(type, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try answer(type, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try answer(type, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try answer(type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try answer(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try answer(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try answer(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try answer(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try answer(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try answer(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try answer(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try answer(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try answer(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try answer(type, key) }

    func nestedContainer<Nested: CodingKey>(
        keyedBy _: Nested.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<Nested> {
        throw KeyRecorder.Unanswerable()
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw KeyRecorder.Unanswerable()
    }
    func superDecoder() throws -> any Decoder { throw KeyRecorder.Unanswerable() }
    func superDecoder(forKey key: Key) throws -> any Decoder { throw KeyRecorder.Unanswerable() }
}
