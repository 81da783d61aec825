import Foundation
import RaceKitModel
import RaceKitOutput
import RaceKitPlan
import RaceKitScript
import Yams

/// A coach's voice: a template list per role (YAML, see Personalities/).
public struct Personality: Sendable, Equatable {
    public var name: String
    public var description: String
    public var templates: [String: [String]]
    /// What each text claims beyond its role's sign (`TextClaims`), by role
    /// and text; a text not here claims nothing.
    public var claims: [String: [String: TextClaims]] = [:]

    /// A text's claims.
    public func claims(_ role: String, _ text: String) -> TextClaims { claims[role]?[text] ?? .none }

    /// The roles every personality file must have (version 1 of the format).
    public static let requiredRoles = [
        "start", "pace_km", "ahead", "on", "behind", "too_fast_early", "fading_late", "hr_high",
        "gel", "caffeine", "drink", "near_finish", "finish"
    ]
    /// Roles added later: a file without one takes calm_coach's texts for it.
    public static let optionalRoles = ["pace_km_ahead", "pace_km_behind", "climb", "descent", "fuel_and_drink"]
    public static var roles: [String] { requiredRoles + optionalRoles }

    /// Fields filled at generation in every role.
    static let baseFields = ["race", "target", "unit"]
    /// Fields filled at generation, by role (what `ScriptGenerator.generate` fills).
    public static let fields: [String: [String]] = {
        var f = Dictionary(uniqueKeysWithValues: roles.map { ($0, baseFields) })
        for role in ["pace_km", "pace_km_ahead", "pace_km_behind"] { f[role]! += ["km", "clock", "split"] }
        for role in ["ahead", "on", "behind"] { f[role]! += ["checkpoint", "clock"] }
        for role in ["gel", "caffeine"] { f[role]! += ["number", "clock", "km", "carbs", "caffeine"] }
        f["drink"]! += ["number", "clock", "km", "fluid", "sodium"]
        f["fuel_and_drink"]! += ["number", "carbs", "caffeine", "drink_number", "fluid", "sodium", "km", "clock"]
        for role in ["climb", "descent"] { f[role]! += ["km", "length", "grade", "gain", "in"] }
        return f
    }()

    /// The field each text of a role must contain, so that a race never says
    /// the same sentence twice (each kilometre, checkpoint, gel or hill is
    /// named in its sentence).
    public static let mustContain: [String: String] = [
        "pace_km": "km", "pace_km_ahead": "km", "pace_km_behind": "km", "ahead": "checkpoint", "on": "checkpoint",
        "behind": "checkpoint", "gel": "number", "caffeine": "number", "drink": "number", "fuel_and_drink": "number",
        "climb": "km", "descent": "km"
    ]

    /// Run-time fields a role's texts may not say: numbers of another measure
    /// than the one choosing the role's tone, which can contradict it. The
    /// split roles are chosen by the last split against the plan's, the
    /// checkpoint roles by the clock against the plan's clock there, the pace
    /// conditions by the current pace against the plan's; `projected_finish`
    /// (the gap plus its five-minute trend) fits none of them: "bang on
    /// schedule, projected finish 1:47:49" was said 2:49 off a 1:45:00 plan.
    public static let otherMeasures: [String: [String]] = {
        let split = ["gap", "elapsed", "avg_pace", "current_pace", "projected_finish"]
        let clock = ["split_time", "split_pace", "split_plan", "current_pace", "avg_pace", "projected_finish"]
        let pace = ["gap", "split_time", "split_pace", "split_plan", "avg_pace", "projected_finish"]
        return [
            "pace_km": split, "pace_km_ahead": split, "pace_km_behind": split, "ahead": clock, "on": clock,
            "behind": clock, "too_fast_early": pace, "fading_late": pace
        ]
    }()

    /// What chooses each tone-dependent role's texts, as an error says it.
    static let toneChoice: [String: String] = {
        var c: [String: String] = [:]
        for role in ["pace_km", "pace_km_ahead", "pace_km_behind"] {
            c[role] = "the last split against the plan's split"
        }
        for role in ["ahead", "on", "behind"] { c[role] = "the clock against the plan's clock at the checkpoint" }
        for role in ["too_fast_early", "fading_late"] { c[role] = "the current pace against the plan's pace there" }
        return c
    }()

    /// Roles a race may say several times with the same fields (conditions):
    /// their texts are said in turn, each once, so they need several. The
    /// checkpoint roles need one text per checkpoint (`ScriptGenerator.checkpoints`
    /// has at most 6): a runner ahead at every checkpoint hears each once.
    public static let minimumTexts = [
        "too_fast_early": 4, "fading_late": 4, "hr_high": 4, "ahead": 6, "on": 6, "behind": 6
    ]

    /// The names of the shipped personalities, in `ShippedPersonality`'s order.
    public static let shipped = ShippedPersonality.allCases.map(\.rawValue)
    /// Where a personality file lacks a later role.
    public static let fallback = "calm_coach"

    /// A shipped personality by name.
    public static func named(_ name: String) throws -> Personality {
        guard shipped.contains(name), let text = shippedText(name) else {
            throw SetupError(
                kind: .invalid, file: name, line: 0, key: "personality",
                message:
                    "unknown personality '\(name)'; shipped: \(shipped.joined(separator: ", ")) (or --personality-file)"
            )
        }
        return try parse(text, file: "\(name).yaml")
    }

    /// A shipped personality's text: its YAML file, built into the binary.
    static func shippedText(_ name: String) -> String? {
        ShippedPersonality(rawValue: name).map { String(decoding: $0.yaml, as: UTF8.self) }
    }

    public static func load(path: String) throws -> Personality {
        try parse(try SetupLoader.yamlText(path: path), file: path)
    }

    /// Strict: known keys, every required role present with at least one text
    /// (conditions with `minimumTexts`), known placeholders only, each text
    /// naming what makes it unique (`mustContain`). Later roles a file lacks
    /// are calm_coach's.
    public static func parse(_ text: String, file: String) throws -> Personality {
        try SetupLoader.checkControls(text, file: file)
        let root: Node?
        do { root = try Yams.compose(yaml: text) } catch let e as YamlError {
            throw SetupLoader.yamlError(e, file: file, text: text)
        }
        guard let root else {
            throw SetupError(kind: .invalid, file: file, line: 0, key: "", message: "the file is empty")
        }
        let r = YAMLReader(file: file)
        let top = try r.mapping(root, path: "", known: ["name", "description", "templates"])
        let name = try r.string(top.require("name"), "name")
        let description = try top["description"].map { try r.string($0, "description") } ?? ""
        let t = try r.mapping(
            top.require("templates"), path: "templates", known: roles, keyLine: top.keyLines["templates"])
        var templates: [String: [String]] = [:]
        var claims: [String: [String: TextClaims]] = [:]
        for role in roles {
            guard let node = t[role] else {
                if requiredRoles.contains(role) {
                    throw SetupError(
                        kind: .invalid, file: file, line: t.line, key: "templates.\(role)",
                        message: "is required (a list of texts)")
                }
                continue
            }
            let said = try texts(of: role, node, reader: r)
            templates[role] = said.map(\.text)
            let claimed = said.filter { !$0.claims.isEmpty }
            if !claimed.isEmpty {
                claims[role] = Dictionary(uniqueKeysWithValues: claimed.map { ($0.text, $0.claims) })
            }
        }
        let missing = optionalRoles.filter { templates[$0] == nil }
        if !missing.isEmpty {
            guard name != fallback, let text = shippedText(fallback) else {
                throw SetupError(
                    kind: .invalid, file: file, line: t.line, key: "templates",
                    message: "needs \(missing.joined(separator: ", "))")
            }
            let base = try parse(text, file: "\(fallback).yaml")
            for role in missing {
                templates[role] = base.templates[role]
                claims[role] = base.claims[role]
            }
        }
        return Personality(name: name, description: description, templates: templates, claims: claims)
    }

    /// A text as a file gives it: a string, or a mapping of `text` and its
    /// claims (`size: small|large`, `place: [early, middle, late]`,
    /// `result: [met, near, missed]`).
    static func text(_ item: Node, key: String, role: String, reader r: YAMLReader) throws -> (String, TextClaims) {
        guard case .mapping = item else {
            let s = try r.string(item, key)
            if let why = TextClaims.none.refusal(role: role, text: s) { throw r.error(item, key, why) }
            return (s, .none)
        }
        let m = try r.mapping(item, path: key, known: ["text", "size", "place", "result"])
        let s = try r.string(m.require("text"), "\(key).text")
        var c = TextClaims()
        func values<T: RawRepresentable & CaseIterable>(_ node: Node, _ name: String, _: T.Type) throws -> [T]
        where T.RawValue == String {
            let nodes: [Node]
            if case .sequence(let list) = node { nodes = Array(list) } else { nodes = [node] }
            let known = T.allCases.map(\.rawValue)
            return try nodes.map { n in
                let v = try r.string(n, "\(key).\(name)")
                guard let t = T(rawValue: v) else {
                    throw r.error(n, "\(key).\(name)", "'\(v)' is not one of \(known.joined(separator: ", "))")
                }
                return t
            }
        }
        if let n = m["size"] {
            let sizes = try values(n, "size", TextClaims.Size.self)
            guard sizes.count == 1 else { throw r.error(n, "\(key).size", "is one of small, large") }
            c.size = sizes[0]
        }
        if let n = m["place"] { c.place = Set(try values(n, "place", TextClaims.Place.self)) }
        if let n = m["result"] { c.result = Set(try values(n, "result", TextClaims.Result.self)) }
        if c.place == Set(TextClaims.Place.allCases) { c.place = nil }
        if c.result == Set(TextClaims.Result.allCases) { c.result = nil }
        if let why = c.refusal(role: role, text: s) { throw r.error(item, key, why) }
        return (s, c)
    }

    static func texts(of role: String, _ node: Node, reader r: YAMLReader) throws -> [(
        text: String, claims: TextClaims
    )] {
        let items = try r.sequence(node, "templates.\(role)")
        let minimum = minimumTexts[role] ?? 1
        var texts: [(text: String, claims: TextClaims)] = []
        for (i, item) in items.enumerated() {
            let key = "templates.\(role)[\(i)]"
            let (s, claims) = try text(item, key: key, role: role, reader: r)
            let here = fields[role] ?? baseFields
            let used = RaceScript.placeholderNames(in: s)
            for field in used where !here.contains(field) && !RaceScript.placeholders.contains(field) {
                throw r.error(
                    item, key,
                    "{\(field)} is not filled in \(role) texts; here: \(here.map { "{\($0)}" }.joined(separator: " ")); run-time: \(RaceScript.placeholders.map { "{\($0)}" }.joined(separator: " "))"
                )
            }
            if let field = used.first(where: { otherMeasures[role]?.contains($0) == true }) {
                throw r.error(
                    item, key,
                    "{\(field)} cannot be said in \(role) texts: what it measures is not what chooses their tone (\(toneChoice[role] ?? role)), so the line could contradict itself"
                )
            }
            if let field = mustContain[role], !used.contains(field) {
                throw r.error(
                    item, key, "must contain {\(field)}, so that no two \(role) sentences of a race are the same")
            }
            if texts.contains(where: { $0.text == s }) {
                throw r.error(item, key, "is the same as an earlier text of \(role)")
            }
            texts.append((s, claims))
        }
        // Each checkpoint and condition needs a text true wherever its role
        // plays; the finish, one for every result.
        let plain = texts.filter { $0.claims.isEmpty }
        if role == "finish" {
            let told = Set(texts.flatMap { $0.claims.result ?? Set(TextClaims.Result.allCases) })
            let untold = TextClaims.Result.allCases.filter { !told.contains($0) }
            guard untold.isEmpty else {
                throw r.error(
                    node, "templates.finish",
                    "has no text for a target \(untold.map(\.rawValue).joined(separator: " or ")): add one claiming it, or one without a result"
                )
            }
        } else if plain.count < minimum {
            throw r.error(
                node, "templates.\(role)",
                texts.count < minimum
                    ? "needs at least \(minimum) different texts (said in turn, never twice in a race)"
                    : "needs at least \(minimum) different texts without a claim (true whatever the gap and the place), has \(plain.count)"
            )
        }
        return texts
    }

    /// Canonical text for the input digest.
    var canonical: String {
        "name=\(name)\n"
            + Self.roles.map { role in
                role + "="
                    + (templates[role] ?? []).map { t in
                        let c = claims(role, t)
                        return c.isEmpty ? t : t + "\u{1E}" + c.canonical
                    }.joined(separator: "\u{1F}")
            }.joined(separator: "\n")
    }
}

/// The personalities shipped with RaceKit (Sources/RaceKitScriptWriter/Personalities),
/// by the name a setup's `script.personality` and `--personality` give.
public enum ShippedPersonality: String, CaseIterable, Sendable {
    case calmCoach = "calm_coach"
    case roastCoach = "roast_coach"
    case drillSergeant = "drill_sergeant"

    /// The YAML file's bytes, embedded in the code (Package.swift's
    /// `embedInCode`): an installed racekit reads no file for them, and runs
    /// the same once its build folder is gone.
    var yaml: [UInt8] {
        switch self {
        case .calmCoach: PackageResources.calm_coach_yaml
        case .roastCoach: PackageResources.roast_coach_yaml
        case .drillSergeant: PackageResources.drill_sergeant_yaml
        }
    }
}
