import Foundation
import RaceKitModel
import RaceKitOutput

/// Engine parameters, set in the script header (`engine`); every one has a default.
public struct EngineSettings: Codable, Sendable, Equatable {
    /// After a message starts, no other starts for this long (race-critical ones excepted).
    public var windowSeconds = 30.0
    /// A due message that could not start within this long is dropped.
    public var staleSeconds = 60.0
    /// Messages of this priority or more are race-critical: they may start inside the window, and restart it.
    public var criticalPriority = 90
    /// Quiet start: only the start line and race-critical messages play this long after the gun.
    public var warmupSeconds = 60.0
    /// A condition must hold this long before it fires (a trigger's `holdSeconds` overrides it).
    public var conditionHoldSeconds = 20.0
    /// After a condition message plays, it is quiet this long (a trigger's `cooldownSeconds` overrides it).
    public var conditionCooldownSeconds = 300.0
    /// Current pace is the average over this many seconds.
    public var paceSmoothingSeconds = 30.0

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case windowSeconds, staleSeconds, criticalPriority, warmupSeconds, conditionHoldSeconds,
            conditionCooldownSeconds, paceSmoothingSeconds
    }

    /// Missing keys take their defaults.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let d = EngineSettings()
        windowSeconds = try c.decodeIfPresent(Double.self, forKey: .windowSeconds) ?? d.windowSeconds
        staleSeconds = try c.decodeIfPresent(Double.self, forKey: .staleSeconds) ?? d.staleSeconds
        criticalPriority = try c.decodeIfPresent(Int.self, forKey: .criticalPriority) ?? d.criticalPriority
        warmupSeconds = try c.decodeIfPresent(Double.self, forKey: .warmupSeconds) ?? d.warmupSeconds
        conditionHoldSeconds =
            try c.decodeIfPresent(Double.self, forKey: .conditionHoldSeconds) ?? d.conditionHoldSeconds
        conditionCooldownSeconds =
            try c.decodeIfPresent(Double.self, forKey: .conditionCooldownSeconds) ?? d.conditionCooldownSeconds
        paceSmoothingSeconds =
            try c.decodeIfPresent(Double.self, forKey: .paceSmoothingSeconds) ?? d.paceSmoothingSeconds
    }
}

/// When a message becomes due (docs/contracts/script.md, "Triggers").
public struct Trigger: Codable, Sendable, Equatable {
    // swift-format-ignore: AlwaysUseLowerCamelCase
    public enum Kind: String, Codable, Sendable, CaseIterable {
        case distance, time, halfway, near_finish, condition, fatigue_zone
    }
    public var type: Kind
    public var atMeters: Double?
    public var everyMeters: Double?
    public var atSeconds: Double?
    public var remainingMeters: Double?
    public var expression: String?
    public var branchKey: String?
    public var cooldownSeconds: Double?
    public var holdSeconds: Double?
    /// Hysteresis: after the condition fired, it fires again only once this has
    /// held (e.g. fires below 0.96 of the plan's pace, re-arms above 0.98).
    public var rearmExpression: String?

    public init(
        type: Kind, atMeters: Double? = nil, everyMeters: Double? = nil, atSeconds: Double? = nil,
        remainingMeters: Double? = nil, expression: String? = nil, branchKey: String? = nil,
        cooldownSeconds: Double? = nil, holdSeconds: Double? = nil, rearmExpression: String? = nil
    ) {
        self.type = type; self.atMeters = atMeters; self.everyMeters = everyMeters; self.atSeconds = atSeconds
        self.remainingMeters = remainingMeters; self.expression = expression; self.branchKey = branchKey
        self.cooldownSeconds = cooldownSeconds; self.holdSeconds = holdSeconds
        self.rearmExpression = rearmExpression
    }

    public static func distance(_ m: Double) -> Trigger { Trigger(type: .distance, atMeters: m) }
}

/// One line the companion app may say.
public struct ScriptMessage: Codable, Sendable, Equatable {
    public var id: String
    public var trigger: Trigger
    public var branchKey: String?
    /// May hold run-time placeholders ({current_pace}, {projected_finish}, {gap}, ...).
    public var text: String
    public var priority: Int
    public var playOnce: Bool
    /// Other texts for a message that may play again: said in turn, each once
    /// (`text` first); when all are said the message is done.
    public var variants: [String]?
    /// The spoken `text`, pre-rendered (`script render`): a path relative to the
    /// script's folder; nil when not rendered or when the text needs live speech.
    public var prerenderedAudioPath: String?
    /// The spoken `variants`, parallel to them (`script render`); an empty string
    /// marks a variant that needs live speech (it has run-time placeholders).
    public var variantAudioPaths: [String]?
    /// Where the message's numbers are taken, metres (version 2; absent: where
    /// it plays). A message that plays after the runner passed this point
    /// (moved off another message, or held by the window) says the run as it
    /// was here: run-time placeholders and its branch read the run at this
    /// point (the clock interpolated to it), not where the message plays.
    public var anchorMeters: Double?

    public init(
        id: String, trigger: Trigger, branchKey: String? = nil, text: String, priority: Int, playOnce: Bool = true,
        variants: [String]? = nil, prerenderedAudioPath: String? = nil, variantAudioPaths: [String]? = nil,
        anchorMeters: Double? = nil
    ) {
        self.id = id; self.trigger = trigger; self.branchKey = branchKey; self.text = text; self.priority = priority;
        self.playOnce = playOnce; self.variants = variants; self.prerenderedAudioPath = prerenderedAudioPath
        self.variantAudioPaths = variantAudioPaths; self.anchorMeters = anchorMeters
    }
}

/// The plan a script was made from: what run-time placeholders compare with.
public struct ScriptPlan: Codable, Sendable, Equatable {
    public var distanceMeters: Double
    public var targetSeconds: Double
    /// Planned clock time at every `stepMeters` from 0 to the finish (the last at the finish).
    public var stepMeters: Double
    public var clockSeconds: [Double]
    /// The course's grade (percent) over each step, when the plan has a course
    /// with elevation (version 2; absent: flat).
    public var gradePercent: [Double]?
    /// The split unit of the script's pace feedback, metres (version 2; absent: 1000).
    public var unitMeters: Double?

    public init(
        distanceMeters: Double, targetSeconds: Double, stepMeters: Double, clockSeconds: [Double],
        gradePercent: [Double]? = nil, unitMeters: Double? = nil
    ) {
        self.distanceMeters = distanceMeters; self.targetSeconds = targetSeconds; self.stepMeters = stepMeters;
        self.clockSeconds = clockSeconds; self.gradePercent = gradePercent; self.unitMeters = unitMeters
    }

    /// The split unit, metres.
    public var unit: Double { unitMeters ?? 1000 }

    /// The step a distance falls in.
    func step(at meters: Double) -> Int {
        guard clockSeconds.count >= 2, stepMeters > 0 else { return 0 }
        let x = min(max(0, meters), distanceMeters)
        return min(clockSeconds.count - 2, Int(x / stepMeters))
    }

    /// The plan's pace at a distance (s/km): its pace over the step there, so the
    /// strategy and the course are in it.
    public func pace(at meters: Double) -> Double {
        guard clockSeconds.count >= 2, stepMeters > 0 else { return targetPaceSecondsPerKm }
        let k = step(at: meters)
        let x0 = Double(k) * stepMeters, x1 = min(Double(k + 1) * stepMeters, distanceMeters)
        guard x1 > x0 else { return targetPaceSecondsPerKm }
        return (clockSeconds[k + 1] - clockSeconds[k]) / (x1 - x0) * 1000
    }

    /// The plan's grade at a distance, percent (0 without a course profile).
    public func grade(at meters: Double) -> Double {
        guard let g = gradePercent, !g.isEmpty else { return 0 }
        return g[min(g.count - 1, step(at: meters))]
    }

    /// Planned clock time at a distance (linear between steps).
    public func clock(at meters: Double) -> Double {
        guard clockSeconds.count >= 2, stepMeters > 0 else { return targetSeconds * meters / max(1, distanceMeters) }
        let x = min(max(0, meters), distanceMeters)
        let k = min(clockSeconds.count - 2, Int(x / stepMeters))
        let x0 = Double(k) * stepMeters, x1 = min(Double(k + 1) * stepMeters, distanceMeters)
        let u = x1 > x0 ? (x - x0) / (x1 - x0) : 0
        return clockSeconds[k] + (clockSeconds[k + 1] - clockSeconds[k]) * u
    }

    public var targetPaceSecondsPerKm: Double { targetSeconds / (distanceMeters / 1000) }
}

/// A race script (docs/contracts/script.md).
public struct RaceScript: Codable, Sendable, Equatable {
    public var id: String
    public var race: String
    public var personality: String
    public var generator: String
    public var inputDigest: String
    /// The header's version: 2 adds the plan's grades and split unit, `planDigest`,
    /// `variants`, `rearmExpression` and the plan-aware variables. Absent: 1
    /// (version 1 scripts load and run as before).
    public var version: Int
    /// SHA-256 of the plan's normalised inputs alone (version 2): what `script
    /// simulate --race` compares with the setup to find a stale script.
    public var planDigest: String?
    public var branchPolicy: String
    public var engine: EngineSettings
    public var plan: ScriptPlan
    public var branches: [String: String]
    public var messages: [ScriptMessage]

    public init(
        id: String, race: String, personality: String, generator: String, inputDigest: String,
        engine: EngineSettings = EngineSettings(), plan: ScriptPlan, branches: [String: String],
        messages: [ScriptMessage], version: Int = RaceScript.currentVersion, planDigest: String? = nil
    ) {
        self.id = id; self.race = race; self.personality = personality; self.generator = generator
        self.inputDigest = inputDigest; self.branchPolicy = "branched"; self.engine = engine; self.plan = plan
        self.branches = branches; self.messages = messages; self.version = version; self.planDigest = planDigest
    }

    /// The version scripts are written with.
    public static let currentVersion = 2

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, race, personality, generator, inputDigest, version, planDigest, branchPolicy, engine, plan, branches,
            messages
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        race = try c.decode(String.self, forKey: .race)
        personality = try c.decode(String.self, forKey: .personality)
        generator = try c.decode(String.self, forKey: .generator)
        inputDigest = try c.decode(String.self, forKey: .inputDigest)
        version = try c.decodeIfPresent(Int.self, forKey: .version) ?? 1
        planDigest = try c.decodeIfPresent(String.self, forKey: .planDigest)
        branchPolicy = try c.decode(String.self, forKey: .branchPolicy)
        engine = try c.decode(EngineSettings.self, forKey: .engine)
        plan = try c.decode(ScriptPlan.self, forKey: .plan)
        branches = try c.decode([String: String].self, forKey: .branches)
        messages = try c.decode([ScriptMessage].self, forKey: .messages)
    }

    /// Run-time placeholders the engine fills.
    public static let placeholders = [
        "current_pace", "avg_pace", "projected_finish", "gap", "distance_km", "elapsed", "hr", "split_time",
        "split_pace", "split_plan", "target_pace", "plan_time"
    ]

    /// Pretty JSON with sorted keys (stable for diffs).
    public func json() throws -> Data { Data(try JSONOutput.string(self).utf8) }

    /// Reads and validates a script; throws the first problem.
    public static func load(_ data: Data) throws -> RaceScript {
        let script: RaceScript
        do { script = try decode(data) } catch let e as ScriptProblems { throw e.problems[0] }
        if let first = script.validate().first { throw first }
        return script
    }

    /// Reads and validates a script file: a missing file is exit 66, a malformed
    /// or invalid one exit 65 with every problem, one per line, naming the file.
    public static func load(path: String) throws -> RaceScript {
        if let why = RegularFile.refusal(path) { throw Failure(.noInput, "\(path): \(why)") }
        guard let data = InputFile.read(path) else {
            throw Failure(.noInput, "\(path): no such file")
        }
        let script: RaceScript
        do { script = try decode(data) } catch let e as ScriptProblems {
            throw Failure(.dataError, problems: e.problems.map { "\(path): \($0)" })
        }
        let problems = script.validate()
        guard problems.isEmpty else { throw Failure(.dataError, problems: problems.map { "\(path): \($0)" }) }
        return script
    }

    /// Reads a script's JSON without validating it. A document that does not
    /// decode throws `ScriptProblems` with every problem found: a JSON syntax error
    /// (line and column), else unknown keys and trigger types at every level, wrong
    /// or missing values (each message's first); a document whose only problems
    /// are unknown keys also lists its `validate()` problems, so one run shows all.
    public static func decode(_ data: Data) throws -> RaceScript { try ScriptSchema.decode(data) }

    /// Most characters a message text or variant may hold: a spoken line of 10 s
    /// is about 150; 1,000 is a minute of speech (and bounds `script render`).
    public static let maxTextCharacters = 1_000
    /// Most variants of one message.
    public static let maxVariants = 50
    /// Most messages of one script: a marathon's generated script has about 200.
    public static let maxMessages = 5_000

    static func tooLong(_ text: String) -> String {
        "\(text.count) characters; a message text holds at most \(maxTextCharacters) (about a minute of speech)"
    }

    /// Every problem: duplicate ids, triggers without their fields, expressions
    /// that do not parse, unknown branch keys and placeholders, out-of-range values.
    public func validate() -> [ScriptError] {
        var out: [ScriptError] = []
        func add(_ path: String, _ message: String) { out.append(ScriptError(path: path, message: message)) }
        if branchPolicy != "branched" { add("branchPolicy", "must be \"branched\"") }
        if messages.isEmpty { add("messages", "the script has no messages") }
        if messages.count > Self.maxMessages {
            add("messages", "\(messages.count) messages; a script holds at most \(Self.maxMessages)")
        }
        if !PathComponent.isSafe(race) {
            add(
                "race",
                "must be a slug of at most 100 letters, digits, '-', '_' or '.' (not starting with '.'): it names the audio folder"
            )
        }
        if !(plan.distanceMeters > 0 && plan.targetSeconds > 0) { add("plan", "distance and target must be positive") }
        if !(1...Self.currentVersion).contains(version) {
            add("version", "\(version) is not a script version this racekit reads (1 to \(Self.currentVersion))")
        }
        if let u = plan.unitMeters, !(u == 1000 || u == Units.metersPerMile) {
            add("plan.unitMeters", "must be 1000 (km) or \(Units.metersPerMile) (mile)")
        }
        if let g = plan.gradePercent,
            g.count != max(0, plan.clockSeconds.count - 1) || g.contains(where: { !$0.isFinite || abs($0) > 60 })
        {
            add("plan.gradePercent", "needs one finite grade (-60 to 60 percent) per step of clockSeconds")
        }
        let e = engine
        if !(e.windowSeconds >= 0 && e.windowSeconds <= 600) { add("engine.windowSeconds", "must be 0 to 600") }
        if !(e.staleSeconds >= 1 && e.staleSeconds <= 3600) { add("engine.staleSeconds", "must be 1 to 3600") }
        if !(0...100).contains(e.criticalPriority) { add("engine.criticalPriority", "must be 0 to 100") }
        if !(e.warmupSeconds >= 0 && e.warmupSeconds <= 1800) { add("engine.warmupSeconds", "must be 0 to 1800") }
        if !(e.conditionHoldSeconds >= 0 && e.conditionHoldSeconds <= 600) {
            add("engine.conditionHoldSeconds", "must be 0 to 600")
        }
        if !(e.conditionCooldownSeconds >= 0) { add("engine.conditionCooldownSeconds", "must not be negative") }
        if !(e.paceSmoothingSeconds >= 1 && e.paceSmoothingSeconds <= 600) {
            add("engine.paceSmoothingSeconds", "must be 1 to 600")
        }
        for (key, source) in branches.sorted(by: { $0.key < $1.key }) {
            do { _ = try Expression(source) } catch let x as ExpressionError {
                add("branches.\(key)", x.description)
            } catch {}
        }
        var seen = Set<String>()
        for (i, m) in messages.enumerated() {
            let p = "messages[\(i)] (\(m.id))"
            if m.id.isEmpty || !m.id.allSatisfy({ $0.isLetter || $0.isNumber || "_-.".contains($0) }) {
                add(p + ".id", "must be letters, digits, _ - .")
            }
            if !seen.insert(m.id).inserted { add(p + ".id", "the id is used twice") }
            if m.text.trimmingCharacters(in: .whitespaces).isEmpty { add(p + ".text", "is empty") }
            if m.text.count > Self.maxTextCharacters { add(p + ".text", Self.tooLong(m.text)) }
            if (m.variants?.count ?? 0) > Self.maxVariants {
                add(p + ".variants", "\(m.variants!.count) variants; a message has at most \(Self.maxVariants)")
            }
            if !(0...100).contains(m.priority) { add(p + ".priority", "must be 0 to 100") }
            if let key = m.branchKey, branches[key] == nil { add(p + ".branchKey", "'\(key)' is not in branches") }
            if let a = m.anchorMeters, !(a.isFinite && a >= 0 && a <= plan.distanceMeters) {
                add(
                    p + ".anchorMeters",
                    "must be 0 to the race distance (\(TextFormat.fixed(plan.distanceMeters, 0)) m)")
            }
            for name in Self.placeholderNames(in: m.text) where !Self.placeholders.contains(name) {
                add(
                    p + ".text",
                    "unknown placeholder {\(name)}; known: \(Self.placeholders.map { "{\($0)}" }.joined(separator: ", "))"
                )
            }
            for (k, variant) in (m.variants ?? []).enumerated() {
                if variant.trimmingCharacters(in: .whitespaces).isEmpty { add(p + ".variants[\(k)]", "is empty") }
                if variant.count > Self.maxTextCharacters { add(p + ".variants[\(k)]", Self.tooLong(variant)) }
                for name in Self.placeholderNames(in: variant) where !Self.placeholders.contains(name) {
                    add(p + ".variants[\(k)]", "unknown placeholder {\(name)}")
                }
            }
            if let source = m.trigger.rearmExpression {
                do { _ = try Expression(source) } catch let x as ExpressionError {
                    add(p + ".trigger.rearmExpression", x.description)
                } catch {}
            }
            let t = m.trigger
            func need(_ v: Double?, _ name: String, positive: Bool = true) {
                guard let v else { add(p + ".trigger.\(name)", "a \(t.type.rawValue) trigger needs \(name)"); return }
                if !v.isFinite || (positive ? v <= 0 : v < 0) {
                    add(p + ".trigger.\(name)", "must be \(positive ? "positive" : "0 or more")")
                }
            }
            switch t.type {
            case .distance:
                if (t.atMeters == nil) == (t.everyMeters == nil) {
                    add(p + ".trigger", "a distance trigger needs atMeters or everyMeters (one of them)")
                }
                if let a = t.atMeters { need(a, "atMeters", positive: false) }
                if let v = t.everyMeters { need(v, "everyMeters") }
            case .time: need(t.atSeconds, "atSeconds", positive: false)
            case .halfway: break
            case .near_finish: need(t.remainingMeters, "remainingMeters")
            case .condition, .fatigue_zone:
                if let source = t.expression {
                    do { _ = try Expression(source) } catch let x as ExpressionError {
                        add(p + ".trigger.expression", x.description)
                    } catch {}
                } else {
                    add(p + ".trigger.expression", "a \(t.type.rawValue) trigger needs an expression")
                }
                if let c = t.cooldownSeconds, !(c >= 0) { add(p + ".trigger.cooldownSeconds", "must not be negative") }
                if let h = t.holdSeconds, !(h >= 0) { add(p + ".trigger.holdSeconds", "must not be negative") }
            }
            out += ScriptSchema.pastFinish(t, plan, path: p)
        }
        return out
    }

    /// Names inside `{...}` in a text.
    public static func placeholderNames(in text: String) -> [String] {
        var out: [String] = []
        var current: String?
        for c in text {
            if c == "{" {
                current = ""
            } else if c == "}" {
                if let n = current { out.append(n) }; current = nil
            } else if current != nil {
                current!.append(c)
            }
        }
        return out
    }
}

/// A script problem: the JSON path and what is wrong.
public struct ScriptError: RaceKitError, Equatable {
    public var exitClass: ExitClass { .dataError }
    public var path: String
    public var message: String
    public var description: String { path.isEmpty ? message : "\(path): \(message)" }

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }
}
