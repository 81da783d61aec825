import Crypto
import Foundation
import RaceKitCore
import Yams

/// A coach's voice: a template list per role (YAML, see Personalities/).
public struct Personality: Sendable, Equatable {
    public var name: String
    public var description: String
    public var templates: [String: [String]]

    /// Every role a personality must have.
    public static let roles = ["start", "pace_km", "ahead", "on", "behind", "too_fast_early", "fading_late", "hr_high",
                               "gel", "caffeine", "drink", "near_finish", "finish"]
    /// Fields filled at generation in every role.
    static let baseFields = ["race", "target", "unit"]
    /// Fields filled at generation, by role (what `ScriptGenerator.generate` fills).
    public static let fields: [String: [String]] = {
        var f = Dictionary(uniqueKeysWithValues: roles.map { ($0, baseFields) })
        f["pace_km"]! += ["km", "clock", "split"]
        for role in ["ahead", "on", "behind"] { f[role]! += ["checkpoint", "clock"] }
        for role in ["gel", "caffeine"] { f[role]! += ["number", "clock", "km", "carbs", "caffeine"] }
        f["drink"]! += ["number", "clock", "km", "fluid", "sodium"]
        return f
    }()
    public static let shipped = ["calm_coach", "roast_coach", "drill_sergeant"]

    /// A shipped personality by name.
    public static func named(_ name: String) throws -> Personality {
        guard shipped.contains(name), let url = Bundle.module.url(forResource: "Personalities/\(name)", withExtension: "yaml"),
              let text = try? String(contentsOf: url, encoding: .utf8) else {
            throw SetupError(kind: .invalid, file: name, line: 0, key: "personality",
                             message: "unknown personality '\(name)'; shipped: \(shipped.joined(separator: ", ")) (or --personality-file)")
        }
        return try parse(text, file: "\(name).yaml")
    }

    public static func load(path: String) throws -> Personality {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw SetupError(kind: .unreadable, file: path, line: 0, key: "", message: "no such file or not UTF-8")
        }
        return try parse(text, file: path)
    }

    /// Strict: known keys, every role present with at least one text, known placeholders only.
    public static func parse(_ text: String, file: String) throws -> Personality {
        let root: Node?
        do { root = try Yams.compose(yaml: text) } catch let e as YamlError {
            throw SetupLoader.yamlError(e, file: file, text: text)
        }
        guard let root else { throw SetupError(kind: .invalid, file: file, line: 0, key: "", message: "the file is empty") }
        let r = Reader(file: file)
        let top = try r.mapping(root, path: "", known: ["name", "description", "templates"])
        let name = try r.string(top.require("name"), "name")
        let description = try top["description"].map { try r.string($0, "description") } ?? ""
        let t = try r.mapping(top.require("templates"), path: "templates", known: roles, keyLine: top.keyLines["templates"])
        var templates: [String: [String]] = [:]
        for role in roles {
            guard let node = t[role] else {
                throw SetupError(kind: .invalid, file: file, line: t.line, key: "templates.\(role)", message: "is required (a list of texts)")
            }
            let items = try r.sequence(node, "templates.\(role)")
            guard !items.isEmpty else { throw r.error(node, "templates.\(role)", "needs at least one text") }
            var texts: [String] = []
            for (i, item) in items.enumerated() {
                let key = "templates.\(role)[\(i)]"
                let s = try r.string(item, key)
                let here = fields[role] ?? baseFields
                for field in RaceScript.placeholderNames(in: s)
                where !here.contains(field) && !RaceScript.placeholders.contains(field) {
                    throw r.error(item, key, "{\(field)} is not filled in \(role) texts; here: \(here.map { "{\($0)}" }.joined(separator: " ")); run-time: \(RaceScript.placeholders.map { "{\($0)}" }.joined(separator: " "))")
                }
                texts.append(s)
            }
            templates[role] = texts
        }
        return Personality(name: name, description: description, templates: templates)
    }

    /// Canonical text for the input digest.
    var canonical: String {
        "name=\(name)\n" + Self.roles.map { role in role + "=" + (templates[role] ?? []).joined(separator: "\u{1F}") }.joined(separator: "\n")
    }
}

/// Generates a race script from a plan and a personality (DESIGN.md "Race script").
public enum ScriptGenerator {
    public static let version = "racekit 0.2 script-generator 1"

    /// Checkpoints for branch points, scaled to the distance: about 12%, 24%,
    /// halfway, 71%, 83% and 95% of the race, on whole kilometres (marathon: 5k,
    /// 10k, half, 30k, 35k, 40k).
    public static func checkpoints(distance d: Double) -> [(label: String, meters: Double)] {
        var out: [(String, Double)] = []
        for f in [0.12, 0.24, 0.5, 0.71, 0.83, 0.95] {
            if f == 0.5 { out.append(("half", d / 2)); continue }
            let km = max(1, (f * d / 1000).rounded())
            let x = km * 1000
            guard x > 0, x < d - 1, !out.contains(where: { abs($0.1 - x) < 1 }) else { continue }
            out.append(("\(Int(km))k", x))
        }
        return out.sorted { $0.1 < $1.1 }
    }

    /// SHA-256 of the plan's JSON (which holds the normalised setup), the
    /// personality's texts and the generator version.
    public static func digest(plan: RacePlan, personality: Personality) -> String {
        let text = JSONWriter.write(PlanOutput.json(plan)) + "\n" + personality.canonical + "\n" + version
        return SHA256.hash(data: Data(text.utf8)).hexString
    }

    public static func generate(plan: RacePlan, personality: Personality) -> RaceScript {
        let setup = plan.setup
        let d = setup.distanceMeters
        let slug = setup.slug
        let unitName = plan.unitMeters == 1000 ? "Kilometre" : "Mile"
        var messages: [ScriptMessage] = []
        var branches: [String: String] = [:]
        var used: [String: Int] = [:]
        // Variants in turn per role, so a race does not repeat a sentence.
        func text(_ role: String, _ fields: [String: String]) -> String {
            let list = personality.templates[role] ?? [""]
            let n = used[role, default: 0]
            used[role] = n + 1
            var s = list[n % list.count]
            for (k, v) in fields { s = s.replacingOccurrences(of: "{\(k)}", with: v) }
            return s
        }
        func id(_ role: String) -> String { "\(slug).\(role)" }
        let dur = { (s: Double) in TextFormat.duration(s) }
        let base = ["race": setup.name, "target": dur(setup.targetSeconds), "unit": unitName]

        messages.append(ScriptMessage(id: id("start"), trigger: Trigger(type: .time, atSeconds: 0), text: text("start", base), priority: 60))

        let cps = checkpoints(distance: d)
        // Pace feedback every unit, except where a branch point speaks.
        var n = 1
        while Double(n) * plan.unitMeters < d - 1 {
            let x = Double(n) * plan.unitMeters
            defer { n += 1 }
            if cps.contains(where: { abs($0.meters - x) < 1 }) { continue }
            let split = plan.splits.first { abs($0.split.endMeters - x) < 1 }?.split
            var f = base
            f["km"] = String(n)
            f["clock"] = dur(plan.pacePlan.clockSeconds(at: x))
            f["split"] = split.map { dur(Double($0.splitSeconds)) } ?? dur(plan.pacePlan.clockSeconds(at: x) - plan.pacePlan.clockSeconds(at: x - plan.unitMeters))
            messages.append(ScriptMessage(id: id("pace_km_\(n)"), trigger: .distance(x), text: text("pace_km", f), priority: 40))
        }

        // Branch points: average pace so far against the plan's average at the checkpoint, ±1%.
        for cp in cps {
            let clock = plan.pacePlan.clockSeconds(at: cp.meters)
            let planAvg = (clock / cp.meters * 1000 * 10).rounded() / 10
            let lo = TextFormat.fixed(planAvg * 0.99, 1), hi = TextFormat.fixed(planAvg * 1.01, 1)
            var f = base
            f["checkpoint"] = cp.label == "half" ? "Halfway" : cp.label.uppercased()
            f["clock"] = dur(clock)
            for (role, expression) in [("ahead", "avg_pace < \(lo)"), ("on", "avg_pace >= \(lo) AND avg_pace <= \(hi)"), ("behind", "avg_pace > \(hi)")] {
                let key = role == "ahead" ? "ahead_of_pace_\(cp.label)" : "\(role)_pace_\(cp.label)"
                branches[key] = expression
                messages.append(ScriptMessage(id: id(key), trigger: .distance(cp.meters), branchKey: key, text: text(role, f), priority: 60))
            }
        }

        // Conditions.
        let early = TextFormat.fixed(d * 0.25, 0), late = TextFormat.fixed(d * 0.6, 0), end = TextFormat.fixed(d * 0.95, 0)
        messages.append(ScriptMessage(id: id("too_fast_early"),
                                      trigger: Trigger(type: .condition, expression: "distance < \(early) AND pace_3min_ratio > 1.04",
                                                       branchKey: "too_fast_early", cooldownSeconds: 600, holdSeconds: 30),
                                      text: text("too_fast_early", base), priority: 70, playOnce: false))
        messages.append(ScriptMessage(id: id("fading_late"),
                                      trigger: Trigger(type: .condition, expression: "distance > \(late) AND distance < \(end) AND pace_3min_ratio < 0.95",
                                                       branchKey: "fading_late", cooldownSeconds: 600, holdSeconds: 60),
                                      text: text("fading_late", base), priority: 70, playOnce: false))
        messages.append(ScriptMessage(id: id("hr_high"),
                                      trigger: Trigger(type: .fatigue_zone, expression: "hr_zone >= 5 AND distance < \(end)",
                                                       cooldownSeconds: 600, holdSeconds: 30),
                                      text: text("hr_high", base), priority: 75, playOnce: false))

        // Every fueling and hydration cue: race-critical.
        for c in plan.cues.cues {
            var f = base
            f["number"] = String(c.number)
            f["clock"] = dur(Double(c.clockSeconds))
            f["km"] = TextFormat.fixed(c.distanceMeters / 1000, 1)
            switch c.kind {
            case .gel, .caffeine:
                f["carbs"] = TextFormat.fixed(c.carbsGrams ?? 0, 0)
                f["caffeine"] = TextFormat.fixed(c.caffeineMg ?? 0, 0)
                messages.append(ScriptMessage(id: id("gel_\(c.number)"), trigger: .distance(c.distanceMeters),
                                              text: text(c.kind == .gel ? "gel" : "caffeine", f), priority: 92))
            case .drink:
                f["fluid"] = TextFormat.fixed(c.fluidMl ?? 0, 0)
                f["sodium"] = TextFormat.fixed(c.sodiumMg ?? 0, 0)
                messages.append(ScriptMessage(id: id("drink_\(c.number)"), trigger: .distance(c.distanceMeters),
                                              text: text("drink", f), priority: 90))
            case .aid:
                continue
            }
        }
        messages.append(ScriptMessage(id: id("near_finish"), trigger: Trigger(type: .near_finish, remainingMeters: min(1000, d / 5)),
                                      text: text("near_finish", base), priority: 80))
        messages.append(ScriptMessage(id: id("finish"), trigger: .distance(d), text: text("finish", base), priority: 95))

        // The plan, every 100 m, for {gap} and the synthetic on-plan run.
        let step = 100.0
        var clocks: [Double] = []
        var x = 0.0
        while x < d { clocks.append((plan.pacePlan.clockSeconds(at: x) * 10).rounded() / 10); x += step }
        clocks.append(setup.targetSeconds)
        let scriptPlan = ScriptPlan(distanceMeters: d, targetSeconds: setup.targetSeconds, stepMeters: step, clockSeconds: clocks)
        return RaceScript(id: "\(slug).\(personality.name)", race: slug, personality: personality.name, generator: version,
                          inputDigest: digest(plan: plan, personality: personality),
                          plan: scriptPlan, branches: branches, messages: messages)
    }
}
