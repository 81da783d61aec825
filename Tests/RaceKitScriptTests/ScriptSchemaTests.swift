import Foundation
import Testing

@testable import RaceKitScript

@Suite struct ScriptSchemaTests {
    /// A marathon script (42,195 m in 3:30) with one message of each trigger type;
    /// message 6 is `hilly-half.gel_2`.
    static let base: RaceScript = {
        func m(_ id: String, _ t: Trigger, priority: Int = 50) -> ScriptMessage {
            ScriptMessage(id: "hilly-half.\(id)", trigger: t, text: "Text of \(id).", priority: priority)
        }
        return RaceScript(
            id: "s", race: "hilly-half", personality: "calm_coach", generator: "test", inputDigest: "d",
            plan: ScriptPlan(
                distanceMeters: 42_195, targetSeconds: 12_600, stepMeters: 42_195, clockSeconds: [0, 12_600]),
            branches: ["fast": "avg_pace < target_pace"],
            messages: [
                m("start", .distance(0)),
                m("pace_km", Trigger(type: .distance, everyMeters: 1000)),
                m("hour", Trigger(type: .time, atSeconds: 3600)),
                m("halfway", Trigger(type: .halfway)),
                m("near_finish", Trigger(type: .near_finish, remainingMeters: 1000)),
                m("too_fast", Trigger(type: .condition, expression: "pace_3min_ratio > 1.04", cooldownSeconds: 300)),
                m("gel_2", .distance(10_000), priority: 95)
            ])
    }()

    /// The base script's JSON with `edit` applied to its parsed object.
    static func document(_ edit: (inout [String: Any]) -> Void = { _ in }) throws -> Data {
        var object = try #require(try JSONSerialization.jsonObject(with: try base.json()) as? [String: Any])
        edit(&object)
        return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    }

    /// Edits message `i` (and, with `trigger`, its trigger) of a parsed script.
    static func message(
        _ object: inout [String: Any], _ i: Int, trigger: Bool = false, _ edit: (inout [String: Any]) -> Void
    ) {
        var messages = object["messages"] as! [[String: Any]]
        if trigger {
            var t = messages[i]["trigger"] as! [String: Any]
            edit(&t)
            messages[i]["trigger"] = t
        } else {
            edit(&messages[i])
        }
        object["messages"] = messages
    }

    /// Every problem `decode` reports, one string each; empty when it decodes.
    static func problems(_ data: Data) -> [String] {
        do {
            _ = try RaceScript.decode(data)
            return []
        } catch let e as ScriptProblems {
            return e.problems.map(\.description)
        } catch {
            return ["not ScriptProblems: \(error)"]
        }
    }

    static func problems(_ text: String) -> [String] { problems(Data(text.utf8)) }

    /// The fields of the schema's object at `path`.
    static func fields(_ path: [String]) -> [JSONField] {
        var shape = ScriptSchema.script
        for key in path {
            if case .object(let fields) = shape, let f = fields.first(where: { $0.name == key }) { shape = f.shape }
            if case .list(let element) = shape { shape = element }
        }
        if case .object(let fields) = shape { return fields }
        return []
    }

    @Test func theBaseScriptDecodesAndValidates() throws {
        let data = try Self.document()
        #expect(Self.problems(data) == [])
        #expect(try RaceScript.load(data) == Self.base)
    }

    @Test func unknownEngineKeySuggestsTheNearestKnownOne() throws {
        let data = try Self.document { $0["engine"] = ["windowSecnds": 45] }
        #expect(Self.problems(data) == ["engine.windowSecnds: unknown key (did you mean 'windowSeconds'?)"])
    }

    @Test func unknownKeysInAMessageAndItsTriggerNameTheMessage() throws {
        let data = try Self.document {
            Self.message(&$0, 6) { $0["prority"] = 95 }
            Self.message(&$0, 6, trigger: true) { $0["atMeter"] = 10_000 }
            Self.message(&$0, 0, trigger: true) { $0["colour"] = "red" }
            $0["personalty"] = "calm_coach"
        }
        // In document order (the keys are sorted here).
        let known = ScriptSchema.keys(at: ["messages", "trigger"]).joined(separator: ", ")
        #expect(
            Self.problems(data) == [
                "messages[0] (hilly-half.start).trigger.colour: unknown key; known keys here: \(known)",
                "messages[6] (hilly-half.gel_2).prority: unknown key (did you mean 'priority'?)",
                "messages[6] (hilly-half.gel_2).trigger.atMeter: unknown key (did you mean 'atMeters'?)",
                "personalty: unknown key (did you mean 'personality'?)"
            ])
    }

    @Test func aBadTriggerTypeListsTheTypes() throws {
        let data = try Self.document { Self.message(&$0, 6, trigger: true) { $0["type"] = "distanse" } }
        #expect(
            Self.problems(data) == [
                "messages[6] (hilly-half.gel_2).trigger.type: 'distanse' is not a trigger type (did you mean 'distance'? known: distance, time, halfway, near_finish, condition, fatigue_zone)"
            ])
        let far = try Self.document { Self.message(&$0, 6, trigger: true) { $0["type"] = "whenever" } }
        #expect(
            Self.problems(far) == [
                "messages[6] (hilly-half.gel_2).trigger.type: 'whenever' is not a trigger type (known: distance, time, halfway, near_finish, condition, fatigue_zone)"
            ])
    }

    @Test func wrongTypesSayWhatWasExpectedAndFound() throws {
        let priority = try Self.document { Self.message(&$0, 3) { $0["priority"] = "high" } }
        #expect(
            Self.problems(priority) == [
                "messages[3] (hilly-half.halfway).priority: expected a whole number, found a string"
            ])
        let fraction = try Self.document { Self.message(&$0, 3) { $0["priority"] = 50.5 } }
        #expect(
            Self.problems(fraction) == [
                "messages[3] (hilly-half.halfway).priority: expected a whole number, found the number 50.5"
            ])
        let meters = try Self.document { Self.message(&$0, 6, trigger: true) { $0["atMeters"] = "10k" } }
        #expect(
            Self.problems(meters) == [
                "messages[6] (hilly-half.gel_2).trigger.atMeters: expected a number, found a string"
            ])
        let missing = try Self.document { Self.message(&$0, 2) { $0["text"] = nil } }
        #expect(Self.problems(missing) == ["messages[2] (hilly-half.hour).text: is required"])
        let plan = try Self.document { $0["plan"] = "3:30" }
        #expect(Self.problems(plan) == ["plan: expected an object, found a string"])
        let branch = try Self.document { $0["branches"] = ["fast": 1] }
        #expect(Self.problems(branch) == ["branches.fast: expected a string, found the number 1"])
        #expect(Self.problems("[1, 2]") == ["expected an object, found a list"])
        let null = try Self.document { Self.message(&$0, 2) { $0["text"] = NSNull() } }
        #expect(Self.problems(null) == ["messages[2] (hilly-half.hour).text: expected a string, found null"])
        let clock = try Self.document {
            $0["plan"] = [
                "distanceMeters": 42_195, "targetSeconds": 12_600, "stepMeters": 42_195, "clockSeconds": [0, "3:30"]
            ]
        }
        #expect(Self.problems(clock) == ["plan.clockSeconds[1]: expected a number, found a string"])
    }

    @Test func everyProblemIsReportedNotOnlyTheFirst() throws {
        let data = try Self.document {
            $0["engine"] = ["windowSecnds": 45]
            Self.message(&$0, 1) { $0["priority"] = "high" }
            Self.message(&$0, 4) { $0["playOnce"] = "yes" }
            Self.message(&$0, 6, trigger: true) { $0["type"] = "distanse" }
        }
        let found = Self.problems(data)
        #expect(found.count == 4, "\(found)")
        #expect(found[0] == "engine.windowSecnds: unknown key (did you mean 'windowSeconds'?)")
        #expect(found[1] == "messages[1] (hilly-half.pace_km).priority: expected a whole number, found a string")
        #expect(found[2] == "messages[4] (hilly-half.near_finish).playOnce: expected true or false, found a string")
        #expect(found[3].hasPrefix("messages[6] (hilly-half.gel_2).trigger.type: 'distanse' is not a trigger type"))
        // Unknown keys in a document that otherwise decodes come with its validation problems.
        let both = try Self.document {
            $0["engine"] = ["windowSecnds": 45]
            Self.message(&$0, 6, trigger: true) { $0["atMeters"] = 99_999 }
        }
        #expect(
            Self.problems(both) == [
                "engine.windowSecnds: unknown key (did you mean 'windowSeconds'?)",
                "messages[6] (hilly-half.gel_2).trigger.atMeters: 99999 m is past the finish (42195 m)"
            ])
    }

    @Test func triggersPastTheFinishAreProblems() throws {
        var s = Self.base
        s.messages[6].trigger.atMeters = 99_999
        s.messages[1].trigger.everyMeters = 50_000
        s.messages[4].trigger.remainingMeters = 43_000
        s.messages[2].trigger.atSeconds = 40_000
        #expect(
            s.validate().map(\.description) == [
                "messages[1] (hilly-half.pace_km).trigger.everyMeters: every 50000 m never fires: the first is past the finish (42195 m)",
                "messages[2] (hilly-half.hour).trigger.atSeconds: 40000 s (11:06:40) is past any finish: more than 3 times the target 3:30:00",
                "messages[4] (hilly-half.near_finish).trigger.remainingMeters: 43000 m before the finish is before the start (the race is 42195 m)",
                "messages[6] (hilly-half.gel_2).trigger.atMeters: 99999 m is past the finish (42195 m)"
            ])
        // At the finish, within the 1 m tolerance, and late but plausible times are fine.
        var edge = Self.base
        edge.messages[6].trigger.atMeters = 42_196
        edge.messages[1].trigger.everyMeters = 42_195
        edge.messages[4].trigger.remainingMeters = 42_195
        edge.messages[2].trigger.atSeconds = 3 * 12_600
        #expect(edge.validate().isEmpty, "\(edge.validate())")
        // Through the loader: the first problem is thrown.
        #expect(
            throws: ScriptError(
                path: "messages[6] (hilly-half.gel_2).trigger.atMeters", message: "99999 m is past the finish (42195 m)"
            )
        ) {
            try RaceScript.load(try Self.document { Self.message(&$0, 6, trigger: true) { $0["atMeters"] = 99_999 } })
        }
    }

    @Test func syntaxErrorsHaveALineAndColumn() {
        let truncated = "{\n  \"id\": \"s\",\n  \"messages\": [\n    {\"id\": \"a\", \"priority\": 5"
        #expect(Self.problems(truncated) == ["not valid JSON: unexpected end of the document at line 4, column 30"])
        let openString = "{\n  \"id\": \"s\",\n  \"race\": \"hilly"
        #expect(Self.problems(openString) == ["not valid JSON: unexpected end of the document at line 3, column 17"])
        let stray = "{\n  \"id\": \"s\",\n  \"race\": ]\n}"
        #expect(Self.problems(stray) == ["not valid JSON: expected a value, found ']' at line 3, column 11"])
        // Columns count characters, not bytes.
        #expect(
            Self.problems("{\"a\": \"é\" x}") == ["not valid JSON: expected ',' or '}', found 'x' at line 1, column 11"]
        )
        #expect(
            Self.problems("{\"a\": 1,\n}") == [
                "not valid JSON: expected a key in double quotes, found '}' at line 2, column 1"
            ])
        #expect(
            Self.problems("{\"a\": \"x\\q\"}")
                == [
                    "not valid JSON: an unknown escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX) at line 1, column 9"
                ])
        #expect(
            Self.problems("{\"a\": 1} 2") == [
                "not valid JSON: expected the end of the document, found '2' at line 1, column 10"
            ])
        // Deep nesting is refused before it can exhaust the stack; 512 levels still parse.
        #expect(
            Self.problems(String(repeating: "[", count: 100_000))
                == ["not valid JSON: nested more than 512 levels deep at line 1, column 513"])
        let deep = String(repeating: "[", count: 511) + String(repeating: "]", count: 511)
        #expect(Self.problems("{\"id\": \(deep)}").first == "id: expected a string, found a list")
        #expect(Self.problems("") == ["the file is empty"])
        #expect(Self.problems(" \n\t\n") == ["the file is empty"])
    }

    @Test func knownKeysComeFromTheTypes() {
        #expect(ScriptSchema.keys(at: ["engine"]) == EngineSettings.CodingKeys.allCases.map(\.rawValue))
        // The last property of each type is there: the recorder saw every key.
        #expect(
            ScriptSchema.keys(at: ["messages", "trigger"]).starts(with: [
                "type", "atMeters", "everyMeters", "atSeconds", "remainingMeters", "expression", "branchKey",
                "cooldownSeconds", "holdSeconds"
            ]))
        for key in ["id", "trigger", "branchKey", "text", "priority", "playOnce"] {
            #expect(ScriptSchema.keys(at: ["messages"]).contains(key), "\(key)")
        }
        for key in ["distanceMeters", "targetSeconds", "stepMeters", "clockSeconds"] {
            #expect(ScriptSchema.keys(at: ["plan"]).contains(key), "\(key)")
        }
        for key in [
            "id", "race", "personality", "generator", "inputDigest", "branchPolicy", "engine", "plan", "branches",
            "messages"
        ] {
            #expect(ScriptSchema.keys(at: []).contains(key), "\(key)")
        }
        // Shapes and optional keys come from the types too.
        guard case .object(let fields) = ScriptSchema.script else { Issue.record("not an object"); return }
        #expect(
            fields.first { $0.name == "branches" } == JSONField(name: "branches", shape: .map(.string), required: true))
        let trigger = Self.fields(["messages", "trigger"])
        #expect(trigger.first { $0.name == "type" }?.shape == .oneOf(Trigger.Kind.allCases.map(\.rawValue)))
        #expect(trigger.first { $0.name == "type" }?.required == true)
        #expect(trigger.first { $0.name == "atMeters" } == JSONField(name: "atMeters", shape: .number, required: false))
        #expect(Self.fields(["messages"]).first { $0.name == "priority" }?.shape == .wholeNumber)
        #expect(Self.fields(["engine"]).allSatisfy { !$0.required })
    }

    @Test func everyKeyTheEncoderWritesIsKnown() throws {
        // Every optional field set: what json() writes, decode reads back.
        var s = Self.base
        s.messages[0].branchKey = "fast"
        s.messages[5].trigger = Trigger(
            type: .condition, atMeters: 1, everyMeters: 1, atSeconds: 1, remainingMeters: 1, expression: "hr > 170",
            branchKey: "fast", cooldownSeconds: 1, holdSeconds: 1)
        let data = try s.json()
        #expect(Self.problems(data) == [])
        #expect(try RaceScript.decode(data) == s)
    }

    @Test func acceptsTheVersionTwoKeys() throws {
        let data = try Self.document {
            $0["version"] = 2
            $0["planDigest"] = "p"
            var plan = $0["plan"] as! [String: Any]
            plan["gradePercent"] = [0, 1.5]
            $0["plan"] = plan
            Self.message(&$0, 5, trigger: true) { $0["rearmExpression"] = "pace_3min_ratio < 1.01" }
            Self.message(&$0, 2) {
                $0["variants"] = ["One hour.", "An hour gone."]
                $0["prerenderedAudioPath"] = "audio/hour.opus"
                $0["variantAudioPaths"] = ["audio/hour-1.opus", ""]
            }
        }
        #expect(Self.problems(data) == [])
        let wrong = try Self.document { Self.message(&$0, 2) { $0["variants"] = "One hour." } }
        #expect(Self.problems(wrong) == ["messages[2] (hilly-half.hour).variants: expected a list, found a string"])
    }

    @Test func nearestNeedsTwoEditsOrAThirdOfTheLength() {
        let known = ["windowSeconds", "staleSeconds"]
        #expect(ScriptSchema.nearest("windowsecnds", in: known) == "windowSeconds")
        #expect(ScriptSchema.nearest("windowSecs", in: known) == "windowSeconds")
        #expect(ScriptSchema.nearest("window", in: known) == nil)
        #expect(ScriptSchema.nearest("xy", in: ["id", "race"]) == "id")
    }
}
