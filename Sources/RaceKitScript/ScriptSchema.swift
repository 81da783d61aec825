import Foundation
import RaceKitModel
import RaceKitOutput

/// Every problem of a script document that does not load, in document order:
/// the JSON syntax error, or unknown keys, wrong or missing values and unknown
/// trigger types at every level; one per line.
public struct ScriptProblems: RaceKitError, Equatable {
    public var problems: [ScriptError]
    public var exitClass: ExitClass { .dataError }
    public var description: String { problems.map(\.description).joined(separator: "\n") }

    public init(_ problems: [ScriptError]) { self.problems = problems }
}

/// The shape of a race script's JSON (docs/contracts/script.md), asked of
/// `RaceScript`'s own decoding (`KeyRecorder`), so a key added to a struct is
/// known here at once; problems are worded for a coach, never Swift's debug text.
enum ScriptSchema {
    /// Every key at every level, with the shape of its value. Worked out per
    /// use (a script is decoded once per command): held in a global, its boxes
    /// were reported as leaked by LeakSanitizer at exit.
    static var script: JSONShape { KeyRecorder.shape(of: RaceScript.self) }

    /// Decodes a script, or throws `ScriptProblems` with every problem found.
    static func decode(_ data: Data) throws -> RaceScript {
        let bytes = [UInt8](data)
        guard bytes.contains(where: { !" \t\r\n".utf8.contains($0) }) else {
            throw ScriptProblems([ScriptError(path: "", message: "the file is empty")])
        }
        let root: JSONValue
        do { root = try JSONValue.parse(bytes) } catch {
            throw ScriptProblems([
                ScriptError(path: "", message: "not valid JSON: \(error.message) at \(error.position(in: bytes))")
            ])
        }
        var problems: [ScriptError] = []
        check(root, script, path: "", name: "", parent: "", into: &problems)
        let decoded: RaceScript
        do { decoded = try JSONDecoder().decode(RaceScript.self, from: data) } catch {
            // Reached only when the schema and the decoder disagree: still a
            // data problem, never a crash or Swift's debug text.
            throw ScriptProblems(
                problems.isEmpty ? [ScriptError(path: "", message: "cannot be read as a script")] : problems)
        }
        // Only unknown or repeated keys: the rest of the script is checked too.
        guard problems.isEmpty else { throw ScriptProblems(problems + decoded.validate()) }
        return decoded
    }

    /// Checks `value` against `shape`; `name` is its key and `parent` the key of
    /// the object holding it (`type` in `trigger`), for messages.
    static func check(
        _ value: JSONValue, _ shape: JSONShape, path: String, name: String, parent: String,
        into out: inout [ScriptError]
    ) {
        func add(_ message: String) { out.append(ScriptError(path: path, message: message)) }
        switch (shape, value) {
        case (.bool, .bool), (.string, .string), (.number, .number): break
        case (.wholeNumber, .number(let n)) where n == n.rounded() && abs(n) < 9e15: break
        case (.oneOf(let names), .string(let s)):
            guard !names.contains(s) else { break }
            let what = parent.isEmpty ? "a valid \(name)" : "a \(parent) \(name)"
            let guess = nearest(s, in: names).map { "did you mean '\($0)'? " } ?? ""
            add("'\(s)' is not \(what) (\(guess)known: \(names.joined(separator: ", ")))")
        case (.list(let element), .array(let items)):
            for (i, item) in items.enumerated() {
                check(item, element, path: elementPath(path, i, item), name: name, parent: parent, into: &out)
            }
        case (.map(let element), .object(let o)):
            for key in o.keys {
                check(o[key]!, element, path: join(path, key), name: key, parent: name, into: &out)
            }
        case (.object(let fields), .object(let o)):
            checkObject(o, fields, path: path, name: name, into: &out)
        default:
            add("expected \(shape.words), found \(value.found)")
        }
    }

    /// An object's keys in document order: unknown and repeated ones, each
    /// known one's value; then the required keys that are missing.
    static func checkObject(
        _ o: JSONObject, _ fields: [JSONField], path: String, name: String, into out: inout [ScriptError]
    ) {
        let known = fields.map(\.name)
        for key in o.keys {
            guard let field = fields.first(where: { $0.name == key }) else {
                let message =
                    nearest(key, in: known).map { "unknown key (did you mean '\($0)'?)" }
                    ?? "unknown key; known keys here: \(known.joined(separator: ", "))"
                out.append(ScriptError(path: join(path, key), message: message))
                continue
            }
            if o.repeated.contains(key) {
                out.append(ScriptError(path: join(path, key), message: "the key appears more than once"))
            }
            if o[key] == .null {
                // decodeIfPresent reads null as absent.
                if field.required {
                    out.append(ScriptError(path: join(path, key), message: "expected \(field.shape.words), found null"))
                }
                continue
            }
            check(o[key]!, field.shape, path: join(path, key), name: key, parent: name, into: &out)
        }
        for field in fields where field.required && o[field.name] == nil {
            out.append(ScriptError(path: join(path, field.name), message: "is required"))
        }
    }

    static func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// `messages[6]`, with the element's id when it has one: `messages[6] (half.gel_2)`.
    static func elementPath(_ path: String, _ index: Int, _ element: JSONValue) -> String {
        if case .object(let o) = element, case .string(let id)? = o["id"], !id.isEmpty {
            return "\(path)[\(index)] (\(id))"
        }
        return "\(path)[\(index)]"
    }

    /// The known word nearest to `s` by edit distance (ignoring case), if it is
    /// within 2 edits or a third of `s`'s length; the first of equals wins.
    static func nearest(_ s: String, in known: [String]) -> String? { Spelling.nearest(s, in: known) }

    /// The keys of the object at `path` of the schema (`["messages", "trigger"]`).
    static func keys(at path: [String]) -> [String] {
        var shape = script
        for key in path {
            if case .object(let fields) = shape, let f = fields.first(where: { $0.name == key }) { shape = f.shape }
            if case .list(let element) = shape { shape = element }
        }
        guard case .object(let fields) = shape else { return [] }
        return fields.map(\.name)
    }
}

extension ScriptSchema {
    /// A time trigger later than this many times the target never fires in a race
    /// that is run at all: it takes a pace three times slower than planned (a
    /// 3:30 marathon walked in 10:30), past every marathon cut-off. Later than the
    /// target alone is allowed: "4 hours, keep going" has its use on a bad day.
    static let timeTriggerTargetFactor = 3.0

    /// Distance and time triggers that cannot fire because they lie past the
    /// finish (1 m tolerance for distances rounded to the metre).
    static func pastFinish(_ t: Trigger, _ plan: ScriptPlan, path: String) -> [ScriptError] {
        let distance = plan.distanceMeters
        guard distance > 0, plan.targetSeconds > 0 else { return [] }
        func m(_ v: Double) -> String { "\(TextFormat.fixed(v, v == v.rounded() ? 0 : 1)) m" }
        var out: [ScriptError] = []
        switch t.type {
        case .distance:
            if let a = t.atMeters, a.isFinite, a > distance + 1 {
                out.append(
                    ScriptError(
                        path: path + ".trigger.atMeters", message: "\(m(a)) is past the finish (\(m(distance)))"))
            }
            if let e = t.everyMeters, e.isFinite, e > distance + 1 {
                out.append(
                    ScriptError(
                        path: path + ".trigger.everyMeters",
                        message: "every \(m(e)) never fires: the first is past the finish (\(m(distance)))"))
            }
        case .near_finish:
            if let r = t.remainingMeters, r.isFinite, r > distance + 1 {
                out.append(
                    ScriptError(
                        path: path + ".trigger.remainingMeters",
                        message: "\(m(r)) before the finish is before the start (the race is \(m(distance)))"))
            }
        case .time:
            let limit = plan.targetSeconds * timeTriggerTargetFactor
            if let s = t.atSeconds, s.isFinite, s > limit {
                out.append(
                    ScriptError(
                        path: path + ".trigger.atSeconds",
                        message:
                            "\(TextFormat.fixed(s, 0)) s (\(TextFormat.duration(s))) is past any finish: more than \(TextFormat.fixed(timeTriggerTargetFactor, 0)) times the target \(TextFormat.duration(plan.targetSeconds))"
                    ))
            }
        case .halfway, .condition, .fatigue_zone: break
        }
        return out
    }
}
