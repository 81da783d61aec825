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
    public static let roles = [
        "start", "pace_km", "ahead", "on", "behind", "too_fast_early", "fading_late", "hr_high",
        "gel", "caffeine", "drink", "near_finish", "finish"
    ]
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
        guard shipped.contains(name),
            let url = Bundle.module.url(forResource: "Personalities/\(name)", withExtension: "yaml"),
            let text = try? String(contentsOf: url, encoding: .utf8)
        else {
            throw SetupError(
                kind: .invalid, file: name, line: 0, key: "personality",
                message:
                    "unknown personality '\(name)'; shipped: \(shipped.joined(separator: ", ")) (or --personality-file)"
            )
        }
        return try parse(text, file: "\(name).yaml")
    }

    public static func load(path: String) throws -> Personality {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8)
        else {
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
        guard let root else {
            throw SetupError(kind: .invalid, file: file, line: 0, key: "", message: "the file is empty")
        }
        let r = Reader(file: file)
        let top = try r.mapping(root, path: "", known: ["name", "description", "templates"])
        let name = try r.string(top.require("name"), "name")
        let description = try top["description"].map { try r.string($0, "description") } ?? ""
        let t = try r.mapping(
            top.require("templates"), path: "templates", known: roles, keyLine: top.keyLines["templates"])
        var templates: [String: [String]] = [:]
        for role in roles {
            guard let node = t[role] else {
                throw SetupError(
                    kind: .invalid, file: file, line: t.line, key: "templates.\(role)",
                    message: "is required (a list of texts)")
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
                    throw r.error(
                        item, key,
                        "{\(field)} is not filled in \(role) texts; here: \(here.map { "{\($0)}" }.joined(separator: " ")); run-time: \(RaceScript.placeholders.map { "{\($0)}" }.joined(separator: " "))"
                    )
                }
                texts.append(s)
            }
            templates[role] = texts
        }
        return Personality(name: name, description: description, templates: templates)
    }

    /// Canonical text for the input digest.
    var canonical: String {
        "name=\(name)\n"
            + Self.roles.map { role in role + "=" + (templates[role] ?? []).joined(separator: "\u{1F}") }.joined(
                separator: "\n")
    }
}

/// Generates a race script from a plan and a personality (DESIGN.md "Race script").
public enum ScriptGenerator {
    public static let version = "racekit 0.2 script-generator 1"

    /// Message priorities (0-100; the engine's `criticalPriority` is 90): what
    /// wins when two messages are due in the same window.
    public enum Priority {
        public static let paceFeedback = 40
        public static let start = 60
        public static let branch = 60
        public static let paceCondition = 70
        public static let heartRate = 75
        public static let nearFinish = 80
        public static let drink = 90
        public static let gel = 92
        public static let finish = 95
    }

    /// The thresholds of the generated conditions and branch points.
    public enum Threshold {
        /// Branch points: the average pace so far within this share of the plan's is "on".
        public static let branchBand = 0.01
        /// "Too fast" before this share of the race, when the last 3 minutes are this much faster than the target.
        public static let tooFastBefore = 0.25
        public static let tooFastRatio = 1.04
        /// "Fading" between these shares of the race, when the last 3 minutes are this much slower.
        public static let fadingAfter = 0.6
        public static let fadingRatio = 0.95
        /// Conditions stay quiet in the last 5% of the race.
        public static let quietAfter = 0.95
        /// A condition repeats at most this often, and holds this long before it speaks.
        public static let conditionCooldownSeconds = 600.0
        public static let tooFastHoldSeconds = 30.0
        public static let fadingHoldSeconds = 60.0
        /// The near-finish message: this far out, at most a fifth of the race.
        public static let nearFinishMeters = 1000.0
        /// The plan is written into the script every this many metres.
        public static let planStepMeters = 100.0
    }

    /// Message id suffixes the generator uses, and how statistics recognise them.
    enum Role {
        static let gel = "gel_"
        static let drink = "drink_"
    }

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

    /// The three branches spoken at each checkpoint.
    static let branchRoles = ["ahead", "on", "behind"]

    /// What a script holds, for a one-line summary.
    public struct Statistics: Sendable, Equatable {
        public var messages: Int
        public var branchPoints: Int
        public var gels: Int
        public var drinks: Int
    }

    public static func statistics(_ script: RaceScript) -> Statistics {
        let prefix = script.race + "."
        func count(_ role: String) -> Int { script.messages.filter { $0.id.hasPrefix(prefix + role) }.count }
        let branchPoints = Set(script.messages.compactMap { m in m.branchKey.flatMap { _ in m.trigger.atMeters } })
            .count
        return Statistics(
            messages: script.messages.count, branchPoints: branchPoints, gels: count(Role.gel),
            drinks: count(Role.drink))
    }

    /// SHA-256 of the normalised inputs: the plan's content (normalised setup,
    /// pace plan, cues), the personality's texts and the generator version.
    /// Computed from values, not from any printed form, so a change of output
    /// formatting leaves scripts up to date.
    public static func digest(plan: RacePlan, personality: Personality) -> String {
        let text = PlanOutput.canonical(plan) + "\n" + personality.canonical + "\n" + version
        return SHA256.hash(data: Data(text.utf8)).hexString
    }

    public static func generate(plan: RacePlan, personality: Personality) -> RaceScript {
        var g = Generation(plan: plan, personality: personality)
        g.start()
        g.paceFeedback()
        g.branchPoints()
        g.conditions()
        g.fuelAndDrinks()
        g.finish()
        let slug = plan.setup.slug
        return RaceScript(
            id: "\(slug).\(personality.name)", race: slug, personality: personality.name, generator: version,
            inputDigest: digest(plan: plan, personality: personality),
            plan: scriptPlan(plan), branches: g.branches, messages: g.messages)
    }

    /// The plan every `Threshold.planStepMeters`, for {gap} and the synthetic on-plan run.
    static func scriptPlan(_ plan: RacePlan) -> ScriptPlan {
        let d = plan.setup.distanceMeters, step = Threshold.planStepMeters
        var clocks: [Double] = []
        var x = 0.0
        while x < d { clocks.append(TextFormat.rounded(plan.pacePlan.clockSeconds(at: x), 1)); x += step }
        clocks.append(plan.setup.targetSeconds)
        return ScriptPlan(
            distanceMeters: d, targetSeconds: plan.setup.targetSeconds, stepMeters: step, clockSeconds: clocks)
    }

    /// One generation's state: the messages so far and how often each role's
    /// variants were used (in turn, so a race does not repeat a sentence).
    struct Generation {
        let plan: RacePlan
        let personality: Personality
        var messages: [ScriptMessage] = []
        var branches: [String: String] = [:]
        var used: [String: Int] = [:]
        let base: [String: String]
        let checkpoints: [(label: String, meters: Double)]

        init(plan: RacePlan, personality: Personality) {
            self.plan = plan
            self.personality = personality
            let unitName = plan.unitMeters == 1000 ? "Kilometre" : "Mile"
            base = ["race": plan.setup.name, "target": TextFormat.duration(plan.setup.targetSeconds), "unit": unitName]
            checkpoints = ScriptGenerator.checkpoints(distance: plan.setup.distanceMeters)
        }

        var distance: Double { plan.setup.distanceMeters }

        mutating func text(_ role: String, _ fields: [String: String]) -> String {
            let list = personality.templates[role] ?? [""]
            let n = used[role, default: 0]
            used[role] = n + 1
            var s = list[n % list.count]
            for (k, v) in fields { s = s.replacingOccurrences(of: "{\(k)}", with: v) }
            return s
        }

        func id(_ role: String) -> String { "\(plan.setup.slug).\(role)" }

        mutating func start() {
            messages.append(
                ScriptMessage(
                    id: id("start"), trigger: Trigger(type: .time, atSeconds: 0), text: text("start", base),
                    priority: Priority.start))
        }

        /// Pace feedback every unit, except where a branch point speaks.
        mutating func paceFeedback() {
            var n = 1
            while Double(n) * plan.unitMeters < distance - 1 {
                let x = Double(n) * plan.unitMeters
                defer { n += 1 }
                if checkpoints.contains(where: { abs($0.meters - x) < 1 }) { continue }
                let split = plan.splits.first { abs($0.split.endMeters - x) < 1 }?.split
                let clock = plan.pacePlan.clockSeconds(at: x)
                var f = base
                f["km"] = String(n)
                f["clock"] = TextFormat.duration(clock)
                f["split"] = TextFormat.duration(
                    split.map { Double($0.splitSeconds) }
                        ?? clock - plan.pacePlan.clockSeconds(at: x - plan.unitMeters))
                messages.append(
                    ScriptMessage(
                        id: id("pace_km_\(n)"), trigger: .distance(x), text: text("pace_km", f),
                        priority: Priority.paceFeedback))
            }
        }

        /// Branch points: average pace so far against the plan's average at the checkpoint.
        mutating func branchPoints() {
            for cp in checkpoints {
                let clock = plan.pacePlan.clockSeconds(at: cp.meters)
                let planAvg = TextFormat.rounded(clock / cp.meters * 1000, 1)
                let lo = TextFormat.fixed(planAvg * (1 - Threshold.branchBand), 1)
                let hi = TextFormat.fixed(planAvg * (1 + Threshold.branchBand), 1)
                var f = base
                f["checkpoint"] = cp.label == "half" ? "Halfway" : cp.label.uppercased()
                f["clock"] = TextFormat.duration(clock)
                let expressions = [
                    "ahead": "avg_pace < \(lo)", "on": "avg_pace >= \(lo) AND avg_pace <= \(hi)",
                    "behind": "avg_pace > \(hi)"
                ]
                for role in ScriptGenerator.branchRoles {
                    let key = role == "ahead" ? "ahead_of_pace_\(cp.label)" : "\(role)_pace_\(cp.label)"
                    branches[key] = expressions[role]
                    messages.append(
                        ScriptMessage(
                            id: id(key), trigger: .distance(cp.meters), branchKey: key, text: text(role, f),
                            priority: Priority.branch))
                }
            }
        }

        mutating func conditions() {
            let d = distance
            let early = TextFormat.fixed(d * Threshold.tooFastBefore, 0),
                late = TextFormat.fixed(d * Threshold.fadingAfter, 0)
            let end = TextFormat.fixed(d * Threshold.quietAfter, 0)
            let fast = TextFormat.fixed(Threshold.tooFastRatio, 2), fade = TextFormat.fixed(Threshold.fadingRatio, 2)
            messages.append(
                ScriptMessage(
                    id: id("too_fast_early"),
                    trigger: Trigger(
                        type: .condition, expression: "distance < \(early) AND pace_3min_ratio > \(fast)",
                        branchKey: "too_fast_early", cooldownSeconds: Threshold.conditionCooldownSeconds,
                        holdSeconds: Threshold.tooFastHoldSeconds),
                    text: text("too_fast_early", base), priority: Priority.paceCondition, playOnce: false))
            messages.append(
                ScriptMessage(
                    id: id("fading_late"),
                    trigger: Trigger(
                        type: .condition,
                        expression: "distance > \(late) AND distance < \(end) AND pace_3min_ratio < \(fade)",
                        branchKey: "fading_late", cooldownSeconds: Threshold.conditionCooldownSeconds,
                        holdSeconds: Threshold.fadingHoldSeconds),
                    text: text("fading_late", base), priority: Priority.paceCondition, playOnce: false))
            messages.append(
                ScriptMessage(
                    id: id("hr_high"),
                    trigger: Trigger(
                        type: .fatigue_zone, expression: "hr_zone >= 5 AND distance < \(end)",
                        cooldownSeconds: Threshold.conditionCooldownSeconds,
                        holdSeconds: Threshold.tooFastHoldSeconds),
                    text: text("hr_high", base), priority: Priority.heartRate, playOnce: false))
        }

        /// Every fueling and hydration cue: race-critical.
        mutating func fuelAndDrinks() {
            for c in plan.cues.cues {
                var f = base
                f["number"] = String(c.number)
                f["clock"] = TextFormat.duration(Double(c.clockSeconds))
                f["km"] = TextFormat.fixed(c.distanceMeters / 1000, 1)
                switch c.kind {
                case .gel, .caffeine:
                    f["carbs"] = TextFormat.fixed(c.carbsGrams ?? 0, 0)
                    f["caffeine"] = TextFormat.fixed(c.caffeineMg ?? 0, 0)
                    messages.append(
                        ScriptMessage(
                            id: id(Role.gel + String(c.number)), trigger: .distance(c.distanceMeters),
                            text: text(c.kind == .gel ? "gel" : "caffeine", f), priority: Priority.gel))
                case .drink:
                    f["fluid"] = TextFormat.fixed(c.fluidMl ?? 0, 0)
                    f["sodium"] = TextFormat.fixed(c.sodiumMg ?? 0, 0)
                    messages.append(
                        ScriptMessage(
                            id: id(Role.drink + String(c.number)), trigger: .distance(c.distanceMeters),
                            text: text("drink", f), priority: Priority.drink))
                case .aid:
                    continue
                }
            }
        }

        mutating func finish() {
            messages.append(
                ScriptMessage(
                    id: id("near_finish"),
                    trigger: Trigger(
                        type: .near_finish, remainingMeters: min(Threshold.nearFinishMeters, distance / 5)),
                    text: text("near_finish", base), priority: Priority.nearFinish))
            messages.append(
                ScriptMessage(
                    id: id("finish"), trigger: .distance(distance), text: text("finish", base),
                    priority: Priority.finish))
        }
    }
}
