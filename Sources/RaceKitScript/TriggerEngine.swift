import RaceKitOutput

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
    /// Which of the message's variants was said (nil: its main text).
    public var variant: Int? = nil
    /// The run-time placeholders' values as filled into `text`, by name.
    public var values: [String: String] = [:]
}

/// Why a message never played (docs/contracts/json.md, `notPlayed.reason`).
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

/// The trigger engine (docs/scripts.md, "Engine"): one metrics snapshot a
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
    let conditions: [Expression.Program?]
    let rearms: [Expression.Program?]
    /// Per message, read every second: kept apart from the messages so the
    /// loop copies no message (their strings would be retained and released).
    let triggers: [Trigger]
    let playOnce: [Bool]
    /// 1 + the number of variants; 0 for a repeatable message without variants.
    let textCount: [Int]
    let branchOf: [Expression?]
    let priorities: [Int]
    /// Messages with an anchor, nearest anchor first, and the run at each
    /// anchor once passed (`anchored[k]` is the next one not yet passed).
    let anchored: [(index: Int, meters: Double)]
    var nextAnchor = 0
    var atAnchor: [Int: Metrics] = [:]
    /// One-time marks by distance and by clock, sorted, each with its message;
    /// `nextMark` the first of each not yet reached. A mark is looked at only
    /// in the second it is reached; every other message (conditions, repeating
    /// distances, halfway, near the finish) every second (`everySecond`).
    let distanceMarks: [(at: Double, index: Int)]
    let timeMarks: [(at: Double, index: Int)]
    let everySecond: [Int]
    var nextMark = (distance: 0, time: 0)

    struct State {
        var played = false
        var plays = 0
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
            return try Expression(e).program
        }
        rearms = try script.messages.map { m in try m.trigger.rearmExpression.map { try Expression($0).program } }
        triggers = script.messages.map(\.trigger)
        playOnce = script.messages.map(\.playOnce)
        textCount = script.messages.map { $0.variants.map { $0.count + 1 } ?? 0 }
        branchOf = script.messages.map { m in m.branchKey.flatMap { branches[$0] } }
        priorities = script.messages.map(\.priority)
        anchored = script.messages.indices.compactMap { i in script.messages[i].anchorMeters.map { (i, $0) } }
            .sorted { ($0.meters, $0.index) < ($1.meters, $1.index) }
        var marks: (distance: [(at: Double, index: Int)], time: [(at: Double, index: Int)]) = ([], [])
        var every: [Int] = []
        for (i, t) in triggers.enumerated() {
            switch (t.type, t.atMeters, t.atSeconds) {
            // A mark that is not a number is never crossed (as `crossed` says).
            case (.distance, let at?, _): if at.isFinite { marks.distance.append((at, i)) }
            case (.time, _, let at?): if at.isFinite { marks.time.append((at, i)) }
            case (.time, _, nil): break   // never fires
            default: every.append(i)
            }
        }
        distanceMarks = marks.distance.sorted { ($0.at, $0.index) < ($1.at, $1.index) }
        timeMarks = marks.time.sorted { ($0.at, $0.index) < ($1.at, $1.index) }
        everySecond = every
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

    /// The texts a message says in turn: `text`, then its variants.
    func texts(_ i: Int) -> [String] { [script.messages[i].text] + (script.messages[i].variants ?? []) }

    /// Whether message `i` can still play: a play-once message once; a
    /// repeatable one with variants once per text (no sentence twice).
    func canPlay(_ i: Int) -> Bool {
        if playOnce[i] { return !states[i].played }
        return textCount[i] == 0 || states[i].plays < textCount[i]
    }

    /// One second.
    @discardableResult
    public func step(_ m: Metrics) -> PlayedMessage? {
        let t = m.duration
        passAnchors(m)
        for i in candidates(m, t) where canPlay(i) {
            guard fires(i, m, t) else { continue }
            if let branch = branchOf[i], !branch.holds(atAnchor[i] ?? m) {
                states[i].lastReason = .branch_not_taken
                continue
            }
            if !queue.contains(where: { $0.index == i }) { queue.append(Due(index: i, dueAt: t)) }
        }
        previous = m
        result.seconds += 1
        dropStale(t)
        guard !queue.isEmpty, let due = choose(t) else { return nil }
        return play(due, m, t)
    }

    /// The messages whose trigger may fire this second, in message order:
    /// every second's, and the one-time marks first reached now (a mark is
    /// crossed in the first second the run is at or past it).
    func candidates(_ m: Metrics, _ t: Double) -> [Int] {
        var out = everySecond
        while nextMark.distance < distanceMarks.count, distanceMarks[nextMark.distance].at <= m.distance {
            out.append(distanceMarks[nextMark.distance].index)
            nextMark.distance += 1
        }
        while nextMark.time < timeMarks.count, timeMarks[nextMark.time].at <= t {
            out.append(timeMarks[nextMark.time].index)
            nextMark.time += 1
        }
        if out.count > everySecond.count { out.sort() }
        return out
    }

    /// Keeps the run at every anchor passed this second: this second's metrics
    /// with the clock interpolated to the anchor (and what follows from it).
    func passAnchors(_ m: Metrics) {
        while nextAnchor < anchored.count, m.distance >= anchored[nextAnchor].meters {
            let (i, x) = anchored[nextAnchor]
            nextAnchor += 1
            var a = m
            if let p = previous, m.distance > p.distance, x > p.distance {
                a.duration = p.duration + (m.duration - p.duration) * (x - p.distance) / (m.distance - p.distance)
            }
            a.distance = x
            a.planTime = script.plan.clock(at: x)
            a.timeVsPlan = a.duration - a.planTime
            a.projectedFinish = m.projectedFinish + (a.timeVsPlan - m.timeVsPlan)
            a.avgPace = x > 10 ? a.duration / x * 1000 : .nan
            atAnchor[i] = a
        }
    }

    /// Whether message `i`'s trigger fires this second.
    func fires(_ i: Int, _ m: Metrics, _ t: Double) -> Bool {
        let d = script.plan.distanceMeters
        switch triggers[i].type {
        case .distance:
            if let at = triggers[i].atMeters {
                return once(i, Self.crossed(at, from: previous?.distance, to: m.distance))
            }
            guard let every = triggers[i].everyMeters, every > 0, m.distance >= states[i].nextEvery, m.distance < d - 1
            else { return false }
            while states[i].nextEvery <= m.distance { states[i].nextEvery += every }
            return true
        case .time:
            guard let at = triggers[i].atSeconds else { return false }
            return once(i, Self.crossed(at, from: previous?.duration, to: t))
        case .halfway:
            return once(i, Self.crossed(d / 2, from: previous?.distance, to: m.distance))
        case .near_finish:
            let mark = d - (triggers[i].remainingMeters ?? 0)
            return once(i, Self.crossed(mark, from: previous?.distance, to: m.distance))
        case .condition, .fatigue_zone:
            return conditionFires(i, m, t)
        }
    }

    /// A one-time trigger: fires the first time its mark is crossed.
    func once(_ i: Int, _ crossedNow: Bool) -> Bool {
        guard !states[i].fired, crossedNow else { return false }
        states[i].fired = true
        return true
    }

    /// A condition fires when it has held for its hold time while armed and
    /// out of its cooldown. It re-arms when its `rearmExpression` holds (the
    /// hysteresis), or without one as soon as the condition stops holding.
    func conditionFires(_ i: Int, _ m: Metrics, _ t: Double) -> Bool {
        // Evaluated in place (`conditions[i]?`): a copy of the program would cost a
        // retain and a release, every condition every second.
        guard t >= settings.warmupSeconds, let holds = conditions[i]?.holds(m) else {
            states[i].holdSince = nil
            return false
        }
        if !states[i].armed {
            if let rearmHolds = rearms[i]?.holds(m) {
                if rearmHolds { states[i].armed = true }
            } else if !holds {
                states[i].armed = true
            }
        }
        guard holds else {
            states[i].holdSince = nil
            return false
        }
        let since = states[i].holdSince ?? t
        states[i].holdSince = since
        guard states[i].armed, t - since >= (triggers[i].holdSeconds ?? settings.conditionHoldSeconds) else {
            return false
        }
        let cooldown = triggers[i].cooldownSeconds ?? settings.conditionCooldownSeconds
        if let last = states[i].lastPlayed, t - last < cooldown {
            states[i].lastReason = .cooldown
            return false
        }
        states[i].armed = false
        return true
    }

    /// Stale: dropped with the reason that kept it waiting.
    func dropStale(_ t: Double) {
        queue.removeAll { due in
            guard t - due.dueAt > settings.staleSeconds else { return false }
            states[due.index].lastReason =
                due.lostToPriority ? .lower_priority : (due.blockedByWindow ? .window : .stale)
            result.droppedStale += 1
            return true
        }
    }

    /// The due message to start now, removed from the queue: the highest
    /// priority (then the earliest due) of those the window and the warm-up allow.
    func choose(_ t: Double) -> Due? {
        let windowOpen = t >= windowEnd
        let warmup = t < settings.warmupSeconds
        func critical(_ i: Int) -> Bool { priorities[i] >= settings.criticalPriority }
        func eligible(_ d: Due) -> Bool {
            let i = d.index
            if warmup && !critical(i) && triggers[i].type != .time { return false }
            return windowOpen || critical(i)
        }
        var best: Int?
        for (qi, d) in queue.enumerated() where eligible(d) {
            guard let b = best else { best = qi; continue }
            let x = priorities[d.index], y = priorities[queue[b].index]
            if x > y || (x == y && (d.dueAt, d.index) < (queue[b].dueAt, queue[b].index)) {
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
        return queue.remove(at: b)
    }

    func play(_ due: Due, _ m: Metrics, _ t: Double) -> PlayedMessage {
        let message = script.messages[due.index]
        let all = texts(due.index)
        let which = min(states[due.index].plays, all.count - 1)
        let text = all[which]
        states[due.index].played = true
        states[due.index].plays += 1
        states[due.index].lastPlayed = t
        windowEnd = t + settings.windowSeconds
        let filled = Placeholders.filled(text, metrics: atAnchor[due.index] ?? m, plan: script.plan)
        let played = PlayedMessage(
            elapsedSeconds: Int(t.rounded()), distanceMeters: m.distance, messageId: message.id,
            triggerType: message.trigger.type, branchKey: message.branchKey, priority: message.priority,
            text: filled.text, variant: which == 0 ? nil : which - 1, values: filled.values)
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

/// Run-time placeholders: {current_pace} {avg_pace} {target_pace} (m:ss per
/// the script's unit: km, or mile), {split_time} (the last whole split's time), {split_pace} (its pace
/// per unit) and {split_plan} (the plan's time for it), {plan_time} (the plan's clock here), {projected_finish} (the plan's
/// finish shifted by the gap and its trend, h:mm:ss), {gap} ("25 s ahead of
/// plan", "1:10 behind plan", "on plan"), {distance_km}, {elapsed}, {hr}.
public enum Placeholders {
    public static func fill(_ text: String, metrics m: Metrics, plan: ScriptPlan) -> String {
        filled(text, metrics: m, plan: plan).text
    }

    /// The text filled, and each run-time placeholder's value by name.
    public static func filled(
        _ text: String, metrics m: Metrics, plan: ScriptPlan
    ) -> (text: String, values: [String: String]) {
        guard text.contains("{") else { return (text, [:]) }
        var out = ""
        var values: [String: String] = [:]
        var name: String?
        for c in text {
            if c == "{" {
                if let open = name { out += "{" + open }   // "{{x}": the first brace is text
                name = ""
                continue
            }
            if c == "}", let n = name {
                let v = value(n, m, plan)
                if RaceScript.placeholders.contains(n) { values[n] = v }
                out += v
                name = nil
                continue
            }
            if name != nil { name!.append(c) } else { out.append(c) }
        }
        if let n = name { out += "{" + n }
        return (out, values)
    }

    /// A gap to the plan as said aloud: under 3 s is "on plan".
    public static func gap(_ secondsBehind: Double) -> String {
        guard secondsBehind.isFinite else { return "unknown" }
        let gap = secondsBehind.rounded()
        if abs(gap) < 3 { return "on plan" }
        let size = abs(gap) >= 60 ? TextFormat.duration(abs(gap)) : "\(Int(abs(gap))) s"
        return gap < 0 ? "\(size) ahead of plan" : "\(size) behind plan"
    }

    static func value(_ name: String, _ m: Metrics, _ plan: ScriptPlan) -> String {
        // A pace per the script's unit (per km, or per mile for a script in miles):
        // the metrics are per km.
        func pace(_ perKm: Double) -> String {
            let p = perKm * plan.unit / 1000
            return p.isFinite && p > 0 ? TextFormat.pace(p) : "unknown"
        }
        func clock(_ s: Double) -> String { s.isFinite && s >= 0 ? TextFormat.duration(s) : "unknown" }
        switch name {
        case "current_pace": return pace(m.currentPace)
        case "avg_pace": return pace(m.avgPace)
        case "target_pace": return pace(m.targetPace.isFinite ? m.targetPace : plan.pace(at: m.distance))
        case "split_time": return clock(m.splitSeconds)
        case "split_pace": return pace(m.splitSeconds / plan.unit * 1000)
        case "split_plan": return clock(m.splitPlanSeconds)
        case "plan_time": return clock(m.planTime.isFinite ? m.planTime : plan.clock(at: m.distance))
        case "projected_finish":
            if m.projectedFinish.isFinite { return clock(m.projectedFinish) }
            return clock(plan.targetSeconds + (m.duration - plan.clock(at: m.distance)))
        case "gap": return gap(m.timeVsPlan.isFinite ? m.timeVsPlan : m.duration - plan.clock(at: m.distance))
        case "distance_km": return TextFormat.fixed(m.distance / 1000, 1)
        case "elapsed": return TextFormat.duration(m.duration)
        case "hr": return m.hr.isFinite ? String(Int(m.hr.rounded())) : "unknown"
        default: return "{\(name)}"
        }
    }
}
