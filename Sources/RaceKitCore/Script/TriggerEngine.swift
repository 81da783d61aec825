/// A message the engine started.
public struct PlayedMessage: Sendable, Equatable {
    public var elapsedSeconds: Int
    public var distanceMeters: Double
    public var messageId: String
    public var triggerType: Trigger.Kind
    public var branchKey: String?
    public var priority: Int
    /// With run-time placeholders filled.
    public var text: String
}

/// Why a message never played (DESIGN.md `notPlayed.reason`).
// swift-format-ignore: AlwaysUseLowerCamelCase
public enum NotPlayedReason: String, Sendable, CaseIterable {
    /// It came due while another message's window was open, until it went stale.
    case window
    /// It came due, and a higher-priority message was chosen over it, until it went stale.
    case lower_priority
    /// Its condition held, but the message was cooling down from its last play.
    case cooldown
    /// Its trigger fired, but its branch's expression did not hold then.
    case branch_not_taken
    /// Its trigger never fired.
    case never_triggered
    /// It came due and waited past the stale limit (e.g. in the quiet warm-up).
    case stale
}

/// What a simulation gives.
public struct SimulationResult: Sendable {
    public var played: [PlayedMessage] = []
    public var notPlayed: [(messageId: String, reason: NotPlayedReason)] = []
    /// Occurrences dropped as stale (a message may come due several times).
    public var droppedStale = 0
    public var seconds = 0
    public var messages = 0
}

/// The trigger engine (DESIGN.md "Engine semantics"): one metrics snapshot a
/// second; triggers make messages due; a due message with a branch plays only if
/// its branch holds at that moment; after a message starts no other starts for
/// the window unless race-critical (which restarts it); the highest priority wins;
/// `playOnce` never repeats; conditions must hold for their hold time, fire once,
/// and re-arm only after they stop holding, then respect their cooldown; nothing
/// but the start line and race-critical messages plays in the warm-up; due
/// messages that could not start within the stale limit are dropped.
public final class TriggerEngine {
    public let script: RaceScript
    let settings: EngineSettings
    let branchExpressions: [String: Expression]
    let conditions: [Expression?]

    struct State {
        var played = false
        var lastPlayed: Double?
        var fired = false
        var nextEvery = 0.0
        var holdSince: Double?
        var armed = true
        var lastReason: NotPlayedReason?
    }
    struct Due {
        var index: Int
        var dueAt: Double
        var blockedByWindow = false
        var lostToPriority = false
    }

    var states: [State]
    var queue: [Due] = []
    var windowEnd = -Double.infinity
    var previous: Metrics?
    public private(set) var result = SimulationResult()

    public init(script: RaceScript) throws {
        self.script = script
        settings = script.engine
        var branches: [String: Expression] = [:]
        for (k, v) in script.branches { branches[k] = try Expression(v) }
        branchExpressions = branches
        conditions = try script.messages.map { m in
            guard m.trigger.type == .condition || m.trigger.type == .fatigue_zone, let e = m.trigger.expression else {
                return nil
            }
            return try Expression(e)
        }
        states = script.messages.map { m in
            var s = State()
            s.nextEvery = m.trigger.everyMeters ?? 0
            return s
        }
        result.messages = script.messages.count
    }

    /// Runs a whole series of 1 Hz snapshots.
    public static func simulate(_ script: RaceScript, metrics: [Metrics]) throws -> SimulationResult {
        let engine = try TriggerEngine(script: script)
        for m in metrics { engine.step(m) }
        return engine.finish()
    }

    static func crossed(_ mark: Double, from a: Double?, to b: Double) -> Bool {
        guard let a else { return b >= mark }
        return a < mark && b >= mark
    }

    /// One second.
    @discardableResult
    public func step(_ m: Metrics) -> PlayedMessage? {
        let t = m.duration
        let prev = previous
        let plan = script.plan
        for i in script.messages.indices {
            let message = script.messages[i]
            if message.playOnce && states[i].played { continue }
            let trigger = message.trigger
            var fire = false
            switch trigger.type {
            case .distance:
                if let at = trigger.atMeters {
                    if !states[i].fired, Self.crossed(at, from: prev?.distance, to: m.distance) {
                        fire = true; states[i].fired = true
                    }
                } else if let every = trigger.everyMeters, every > 0, m.distance >= states[i].nextEvery,
                    m.distance < plan.distanceMeters - 1
                {
                    fire = true
                    while states[i].nextEvery <= m.distance { states[i].nextEvery += every }
                }
            case .time:
                if !states[i].fired, let at = trigger.atSeconds, Self.crossed(at, from: prev?.duration, to: t) {
                    fire = true; states[i].fired = true
                }
            case .halfway:
                if !states[i].fired, Self.crossed(plan.distanceMeters / 2, from: prev?.distance, to: m.distance) {
                    fire = true; states[i].fired = true
                }
            case .near_finish:
                if !states[i].fired,
                    Self.crossed(
                        plan.distanceMeters - (trigger.remainingMeters ?? 0), from: prev?.distance, to: m.distance)
                {
                    fire = true; states[i].fired = true
                }
            case .condition, .fatigue_zone:
                guard t >= settings.warmupSeconds, let e = conditions[i] else { states[i].holdSince = nil; continue }
                if e.holds(m) {
                    let since = states[i].holdSince ?? t
                    states[i].holdSince = since
                    if states[i].armed, t - since >= (trigger.holdSeconds ?? settings.conditionHoldSeconds) {
                        let cooldown = trigger.cooldownSeconds ?? settings.conditionCooldownSeconds
                        if let last = states[i].lastPlayed, t - last < cooldown {
                            states[i].lastReason = .cooldown
                        } else {
                            fire = true
                            states[i].armed = false
                        }
                    }
                } else {
                    states[i].holdSince = nil
                    states[i].armed = true
                }
            }
            guard fire else { continue }
            if let key = message.branchKey, let branch = branchExpressions[key], !branch.holds(m) {
                states[i].lastReason = .branch_not_taken
                continue
            }
            if !queue.contains(where: { $0.index == i }) { queue.append(Due(index: i, dueAt: t)) }
        }
        previous = m
        result.seconds += 1

        // Stale: dropped with the reason that kept it waiting.
        queue.removeAll { due in
            guard t - due.dueAt > settings.staleSeconds else { return false }
            states[due.index].lastReason =
                due.lostToPriority ? .lower_priority : (due.blockedByWindow ? .window : .stale)
            result.droppedStale += 1
            return true
        }
        guard !queue.isEmpty else { return nil }

        let windowOpen = t >= windowEnd
        let warmup = t < settings.warmupSeconds
        func critical(_ i: Int) -> Bool { script.messages[i].priority >= settings.criticalPriority }
        func eligible(_ d: Due) -> Bool {
            let i = d.index
            if warmup && !critical(i) && script.messages[i].trigger.type != .time { return false }
            return windowOpen || critical(i)
        }
        var best: Int?
        for (qi, d) in queue.enumerated() where eligible(d) {
            guard let b = best else { best = qi; continue }
            let x = script.messages[d.index], y = script.messages[queue[b].index]
            if x.priority > y.priority
                || (x.priority == y.priority && (d.dueAt, d.index) < (queue[b].dueAt, queue[b].index))
            {
                best = qi
            }
        }
        for qi in queue.indices where qi != best {
            if eligible(queue[qi]) {
                queue[qi].lostToPriority = true
            } else if !windowOpen {
                queue[qi].blockedByWindow = true
            }
        }
        guard let b = best else { return nil }
        let due = queue.remove(at: b)
        let message = script.messages[due.index]
        states[due.index].played = true
        states[due.index].lastPlayed = t
        windowEnd = t + settings.windowSeconds
        let played = PlayedMessage(
            elapsedSeconds: Int(t.rounded()), distanceMeters: m.distance, messageId: message.id,
            triggerType: message.trigger.type, branchKey: message.branchKey, priority: message.priority,
            text: Placeholders.fill(message.text, metrics: m, plan: script.plan))
        result.played.append(played)
        return played
    }

    /// The reasons for every message that never played.
    public func finish() -> SimulationResult {
        for due in queue {
            states[due.index].lastReason =
                due.lostToPriority ? .lower_priority : (due.blockedByWindow ? .window : .stale)
        }
        queue.removeAll()
        var out = result
        out.notPlayed = script.messages.indices.filter { !states[$0].played }.map { i in
            (script.messages[i].id, states[i].lastReason ?? .never_triggered)
        }
        return out
    }
}

/// Run-time placeholders: {current_pace} {avg_pace} (m:ss per km), {projected_finish}
/// (elapsed ÷ distance × race distance, h:mm:ss), {gap} ("25 s ahead of plan",
/// "1:10 behind plan", "on plan"), {distance_km}, {elapsed}, {hr}.
public enum Placeholders {
    public static func fill(_ text: String, metrics m: Metrics, plan: ScriptPlan) -> String {
        guard text.contains("{") else { return text }
        var out = ""
        var name: String?
        for c in text {
            if c == "{" { name = ""; continue }
            if c == "}", let n = name { out += value(n, m, plan); name = nil; continue }
            if name != nil { name!.append(c) } else { out.append(c) }
        }
        if let n = name { out += "{" + n }
        return out
    }

    static func value(_ name: String, _ m: Metrics, _ plan: ScriptPlan) -> String {
        func pace(_ p: Double) -> String { p.isFinite && p > 0 ? TextFormat.pace(p) : "unknown" }
        switch name {
        case "current_pace": return pace(m.currentPace)
        case "avg_pace": return pace(m.avgPace)
        case "projected_finish":
            guard m.distance > 100 else { return TextFormat.duration(plan.targetSeconds) }
            return TextFormat.duration(m.duration / m.distance * plan.distanceMeters)
        case "gap":
            let gap = (plan.clock(at: m.distance) - m.duration).rounded()
            if abs(gap) < 3 { return "on plan" }
            let size = abs(gap) >= 60 ? TextFormat.duration(abs(gap)) : "\(Int(abs(gap))) s"
            return gap > 0 ? "\(size) ahead of plan" : "\(size) behind plan"
        case "distance_km": return TextFormat.fixed(m.distance / 1000, 1)
        case "elapsed": return TextFormat.duration(m.duration)
        case "hr": return m.hr.isFinite ? String(Int(m.hr.rounded())) : "unknown"
        default: return "{\(name)}"
        }
    }
}
