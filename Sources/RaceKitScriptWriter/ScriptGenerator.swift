import Foundation
import RaceKitFormats
import RaceKitMetrics
import RaceKitModel
import RaceKitOutput
import RaceKitPlan
import RaceKitScript
import Yams

/// Generates a race script from a plan and a personality (docs/contracts/script.md).
///
/// Every message follows the plan at its own point: pace feedback compares
/// the last split with the plan's split (`split_vs_plan`), branch points the
/// clock with the plan's clock there (`time_vs_plan`), the
/// pace conditions the current pace with the plan's pace there (`pace_vs_plan`,
/// with hysteresis), hill cues come before the plan's climbs and descents, and
/// `hr_high` sits above the athlete's planned race effort. Scheduled messages
/// never start within the engine's window of each other at the planned pace
/// (fuel and drink due together become one message); messages moved off
/// another say the run at their own point (`anchorMeters`); and no sentence is
/// said twice, not even with other numbers (a text is said without its
/// sentences said before, or as its role's frame, the facts alone, with a warning).
public enum ScriptGenerator {
    /// The generator's identity inside `inputDigest` and `planDigest`. Frozen at
    /// the string of release 0.3 so that a release which leaves the generator's
    /// output alone does not make every script stale; change it (the
    /// `script-generator N` part) when the output changes.
    public static let version = "racekit 0.3 script-generator 4"
    /// The script's `generator` field: this release and the generator's format.
    public static let name = "racekit \(RaceKitVersion.current) script-generator 2"

    /// Message priorities (0-100; the engine's `criticalPriority` is 90): what
    /// wins when two messages are due in the same window.
    public enum Priority {
        public static let paceFeedback = 40
        public static let start = 60
        public static let branch = 60
        public static let hill = 65
        public static let paceCondition = 70
        public static let heartRate = 75
        public static let nearFinish = 80
        public static let drink = 90
        public static let gel = 92
        public static let finish = 95
    }

    /// The thresholds of the generated conditions, branches and cues.
    public enum Threshold {
        /// Ahead or behind the plan: more than this many seconds, plus `gapShare`
        /// of the plan's time so far (10 s early on, 37 s at 2.5 h). With 1% (65 s
        /// at 1:50) a runner 51 s behind heard "textbook running, stay right here".
        public static let gapSeconds = 10.0
        public static let gapShare = 0.003
        /// "Too fast" before this share of the race: the current pace under
        /// `tooFastRatio` of the plan's pace here for `tooFastHoldSeconds`; it may
        /// speak again once back above `tooFastRearm`.
        public static let tooFastBefore = 0.25
        public static let tooFastRatio = 0.96
        public static let tooFastRearm = 0.98
        public static let tooFastHoldSeconds = 30.0
        /// "Fading" between these shares of the race: the current pace over
        /// `fadingRatio` of the plan's pace here for `fadingHoldSeconds`; again
        /// once back under `fadingRearm`.
        public static let fadingAfter = 0.6
        public static let fadingRatio = 1.05
        public static let fadingRearm = 1.02
        public static let fadingHoldSeconds = 60.0
        /// Conditions stay quiet in the last 5% of the race.
        public static let quietAfter = 0.95
        /// A condition repeats at most this often.
        public static let conditionCooldownSeconds = 600.0
        /// Heart rate: above the top of the planned effort plus this share, for
        /// `heartRateHoldSeconds`; again once `heartRateRearmBpm` below.
        public static let heartRateMargin = 0.03
        public static let heartRateHoldSeconds = 30.0
        public static let heartRateRearmBpm = 5.0
        /// The near-finish message: this far out, at most a fifth of the race.
        public static let nearFinishMeters = 1000.0
        /// The plan is written into the script every this many metres.
        public static let planStepMeters = 100.0
        /// A split within this many seconds of the plan's split is on plan;
        /// at least 1 s, so a "quicker" split also shows a smaller time.
        public static let splitSeconds = 2.0
        /// Scheduled messages start at least the engine window times this
        /// apart at the planned pace (a runner 10% fast still hears them apart).
        public static let spacingFactor = 1.5
    }

    /// What a role says once its texts have all been said in a race: the
    /// facts alone, in the generator's words, the same form every time (no
    /// joke or advice heard twice). The roles not here are said once a race,
    /// or in turn (conditions).
    public static let frames: [String: String] = [
        "pace_km": "{unit} {km} in {split_time}, on the planned split.",
        "pace_km_ahead": "{unit} {km} in {split_time}, quicker than the planned {split}.",
        "pace_km_behind": "{unit} {km} in {split_time}, slower than the planned {split}.",
        "ahead": "{checkpoint} in {elapsed}, ahead of the plan's {clock}.",
        "on": "{checkpoint} in {elapsed}, with the plan at {clock}.",
        "behind": "{checkpoint} in {elapsed}, behind the plan's {clock}.", "gel": "Gel {number}: {carbs} grams.",
        "caffeine": "Gel {number}: {carbs} grams and {caffeine} milligrams of caffeine.",
        "drink": "Drink {number}: {fluid} millilitres.",
        "fuel_and_drink": "Gel {number} and drink {drink_number}: {carbs} grams, then {fluid} millilitres.",
        "climb": "Climb at {unit} {km} in {in}: {length} at {grade}.",
        "descent": "Descent at {unit} {km} in {in}: {length} at {grade}.",
        "finish": "{race}, finished in {elapsed}."
    ]

    /// The forms (`SpokenSentences.form`) of the frames' sentences, in either
    /// unit: the only sentences a script says in one form more than once.
    public static let frameForms: Set<String> = Set(
        frames.values.flatMap { frame in
            ["Kilometre", "Mile"].flatMap { unit in
                SpokenSentences.split(frame.replacingOccurrences(of: "{unit}", with: unit)).map {
                    SpokenSentences.form($0)
                }
            }
        })

    /// Message id suffixes the generator uses, and how statistics recognise them.
    enum Role {
        static let gel = "gel_"
        static let drink = "drink_"
        /// A gel and a drink said as one message.
        static let fuelAndDrink = "fuel_"
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

    /// What a script holds, for a one-line summary.
    public struct Statistics: Sendable, Equatable {
        public var messages: Int
        public var branchPoints: Int
        public var gels: Int
        public var drinks: Int
        public var hills: Int
    }

    public static func statistics(_ script: RaceScript) -> Statistics {
        let prefix = script.race + "."
        func count(_ role: String) -> Int { script.messages.filter { $0.id.hasPrefix(prefix + role) }.count }
        let checkpointIDs = script.messages.filter { $0.id.hasPrefix(prefix + "on_pace_") }
        return Statistics(
            messages: script.messages.count, branchPoints: checkpointIDs.count,
            gels: count(Role.gel) + count(Role.fuelAndDrink), drinks: count(Role.drink) + count(Role.fuelAndDrink),
            hills: count("climb_") + count("descent_"))
    }

    /// SHA-256 of the normalised inputs: the plan's content (normalised setup,
    /// pace plan, cues), the personality's texts and the generator version.
    /// Computed from values, not from any printed form, so a change of output
    /// formatting leaves scripts up to date.
    public static func digest(plan: RacePlan, personality: Personality, options: Options = Options()) -> String {
        digests(plan: plan, personality: personality, options: options).input
    }

    /// SHA-256 of the plan's normalised inputs alone: what makes a script stale.
    public static func planDigest(_ plan: RacePlan) -> String {
        ContentDigest.hex(of: PlanOutput.canonical(plan) + "\n" + version)
    }

    /// A script's two digests (`digest`, `planDigest`) from one normalisation of
    /// the plan (the planned clock every 10 m is most of the work).
    public struct Digests: Sendable, Equatable {
        public var input: String
        public var plan: String
    }

    public static func digests(plan: RacePlan, personality: Personality, options: Options = Options()) -> Digests {
        let canonical = PlanOutput.canonical(plan)
        return Digests(
            input: ContentDigest.hex(
                of: canonical + "\n" + personality.canonical + "\n" + options.canonical + "\n" + version),
            plan: ContentDigest.hex(of: canonical + "\n" + version))
    }

    /// What the generator needs beyond the plan.
    public struct Options: Sendable, Equatable {
        /// The athlete's physiology (threshold HR set or estimated, max HR):
        /// without it there is no heart-rate message.
        public var physiology: Physiology?
        public init(physiology: Physiology? = nil) { self.physiology = physiology }

        var canonical: String {
            guard let p = physiology else { return "physiology=none" }
            return "physiology=\(p.thresholdHeartRate.map { "\($0)" } ?? "-")/\(p.maxHeartRate.map { "\($0)" } ?? "-")"
        }
    }

    /// `digests: false` leaves `inputDigest` and `planDigest` empty, for a script
    /// that is only replayed, never written (`race review`).
    public static func generate(
        plan: RacePlan, personality: Personality, options: Options = Options(), digests: Bool = true
    ) -> RaceScript {
        var warnings: [String] = []
        return generate(plan: plan, personality: personality, options: options, digests: digests, warnings: &warnings)
    }

    /// As `generate`, adding a warning per role whose texts cannot cover the
    /// race without a sentence said twice (those texts are said shorter);
    /// `known`: the digests, when the caller computed them already.
    public static func generate(
        plan: RacePlan, personality: Personality, options: Options = Options(), digests: Bool = true,
        known: Digests? = nil, warnings: inout [String]
    ) -> RaceScript {
        var g = Generation(plan: plan, personality: personality)
        g.start()
        g.paceFeedback()
        g.branchPoints()
        g.hills()
        g.fuelAndDrinks()
        g.heat()
        g.finish()
        g.spaceOut(windowSeconds: EngineSettings().windowSeconds)
        g.sayHillDistances()
        g.conditions(heartRateLimit: heartRateLimit(options.physiology, plannedSeconds: plan.plannedSeconds))
        // The finish messages last, as a reader expects them.
        let ending = g.messages.filter { $0.id.hasSuffix(".near_finish") || $0.id.contains(".finish") }
        g.messages = g.messages.filter { !ending.contains($0) } + ending
        warnings += g.coverageWarnings()
        let slug = plan.setup.slug
        let d = digests ? known ?? Self.digests(plan: plan, personality: personality, options: options) : nil
        return RaceScript(
            id: "\(slug).\(personality.name)", race: slug, personality: personality.name, generator: name,
            inputDigest: d?.input ?? "", plan: scriptPlan(plan), branches: g.branches, messages: g.messages,
            planDigest: d?.plan)
    }

    /// The top of the planned race effort as a share of threshold heart rate,
    /// by the race's planned duration (hours): 5k efforts run above threshold,
    /// a half near it, a marathon well below it, ultras lower still (Friel's
    /// race-effort zones).
    static let plannedEffort: [(hours: Double, shareOfThreshold: Double)] = [
        (0.3, 1.06), (0.7, 1.03), (1.6, 1.00), (3.5, 0.95), (6, 0.90), (12, 0.85)
    ]

    /// The heart rate above which `hr_high` speaks: the top of the planned
    /// effort plus `heartRateMargin`, from the threshold HR (set, or estimated
    /// from max HR as the analysis does); nil without either.
    public static func heartRateLimit(_ p: Physiology?, plannedSeconds: Double) -> Double? {
        guard let threshold = p?.thresholdHeartRate ?? p?.maxHeartRate.map({ $0 * 0.89 }), threshold > 0 else {
            return nil
        }
        let h = plannedSeconds / 3600
        let table = plannedEffort
        var share = table.first!.shareOfThreshold
        if h >= table.last!.hours {
            share = table.last!.shareOfThreshold
        } else if h > table.first!.hours {
            let k = table.indices.dropFirst().first { table[$0].hours >= h }!
            let (a, b) = (table[k - 1], table[k])
            share = a.shareOfThreshold + (b.shareOfThreshold - a.shareOfThreshold) * (h - a.hours) / (b.hours - a.hours)
        }
        var limit = threshold * (share + Threshold.heartRateMargin)
        if let max = p?.maxHeartRate { limit = min(limit, max - 2) }
        return limit.rounded()
    }

    /// The plan every `Threshold.planStepMeters`, for {gap} and the synthetic
    /// on-plan run, with the course's grade over each step.
    static func scriptPlan(_ plan: RacePlan) -> ScriptPlan {
        let d = plan.setup.distanceMeters, step = Threshold.planStepMeters
        var clocks: [Double] = []
        var x = 0.0
        while x < d { clocks.append(planClock(plan.pacePlan.clockSeconds(at: x))); x += step }
        clocks.append(plan.plannedSeconds)
        var grades: [Double]?
        if let c = plan.course, c.hasElevation {
            grades = (0..<(clocks.count - 1)).map { k in
                let x0 = Double(k) * step, x1 = min(Double(k + 1) * step, d)
                guard x1 > x0, let e0 = c.elevation(at: x0), let e1 = c.elevation(at: x1) else { return 0 }
                return TextFormat.rounded((e1 - e0) / (x1 - x0) * 100, 1)
            }
        }
        return ScriptPlan(
            distanceMeters: d, targetSeconds: plan.plannedSeconds, stepMeters: step, clockSeconds: clocks,
            gradePercent: grades, unitMeters: plan.unitMeters)
    }

    /// The plan's clock as the script stores it: to the tenth of a second, and
    /// rounding to the same whole second as the plan's clock itself (556.46 s
    /// is stored 556.4, not 556.5), so the plan's time at a point is one number
    /// in the plan, the band, the texts and `script show`.
    static func planClock(_ seconds: Double) -> Double {
        let v = TextFormat.rounded(seconds, 1)
        return v.rounded() == seconds.rounded() ? v : seconds.rounded() + (v > seconds ? 0.4 : -0.5)
    }

    /// Branches of the per-unit pace feedback: the last split against the
    /// plan's split for it.
    static let splitBranches: [String: String] = [
        "split_quick": "split_vs_plan < -\(TextFormat.fixed(Threshold.splitSeconds, 0))",
        "split_on":
            "split_vs_plan >= -\(TextFormat.fixed(Threshold.splitSeconds, 0)) AND split_vs_plan <= \(TextFormat.fixed(Threshold.splitSeconds, 0))",
        "split_slow": "split_vs_plan > \(TextFormat.fixed(Threshold.splitSeconds, 0))"
    ]

    /// The size bands of one sign of a gap (`GapBand`), each said with the
    /// sign's own expression: `measure` within `smallShare` of `reference`,
    /// or beyond `largeShare` of it; `ahead`: the negative side. A band that
    /// cannot hold here (3% of the planned `value` under the on-plan
    /// `tolerance`) is left out.
    static func sizeBands(
        of measure: String, reference: String, ahead: Bool, value: Double, tolerance: Double
    ) -> [(size: TextClaims.Size, expression: String)] {
        let small = TextFormat.plain(GapBand.smallShare), large = TextFormat.plain(GapBand.largeShare)
        let bands: [(TextClaims.Size, String)] =
            ahead
            ? [
                (.small, "\(measure) >= -(\(reference) * \(small))"),
                (.large, "\(measure) < -(\(reference) * \(large))")
            ]
            : [(.small, "\(measure) <= \(reference) * \(small)"), (.large, "\(measure) > \(reference) * \(large)")]
        return bands.filter { $0.0 == .large || value * GapBand.smallShare > tolerance }
    }

    /// The finish's result against the target, from the clock there: met
    /// within the on-plan tolerance (or ahead), near within `GapBand.nearShare`
    /// of the target behind, missed beyond.
    static let resultBands: [(TextClaims.Result, String)] = {
        let near = TextFormat.plain(GapBand.nearShare)
        return [
            (.met, "time_vs_plan <= \(gapTolerance)"),
            (.near, "time_vs_plan > \(gapTolerance) AND time_vs_plan <= plan_time * \(near)"),
            (.missed, "time_vs_plan > \(gapTolerance) AND time_vs_plan > plan_time * \(near)")
        ]
    }()

    /// Branches shared by every message whose tone depends on the gap to the plan.
    static let gapTolerance = "(\(TextFormat.fixed(Threshold.gapSeconds, 0)) + plan_time * \(Threshold.gapShare))"
    static let gapBranches: [String: String] = [
        "ahead_of_plan": "time_vs_plan < -\(gapTolerance)",
        "on_plan": "time_vs_plan >= -\(gapTolerance) AND time_vs_plan <= \(gapTolerance)",
        "behind_plan": "time_vs_plan > \(gapTolerance)"
    ]

    /// One generation's state: the messages so far and each role's texts in a
    /// deterministic order for this race, taken in turn.
    struct Generation {
        let plan: RacePlan
        let personality: Personality
        var messages: [ScriptMessage] = []
        var branches: [String: String] = [:]
        var orders: [String: [String]] = [:]
        var used: [String: Int] = [:]
        /// Sentences said so far and their forms (`SpokenSentences.key` and
        /// `form`, one set: a sentence without numbers is its own form), and per role the
        /// texts said shorter because of them.
        var said: Set<String> = []
        var shortened: [String: Int] = [:]
        /// Role and template of every text taken so far.
        var picked: Set<String> = []
        /// Hill cues: the hill's start and the text and fields to say once
        /// the cue's place is final (`sayHillDistances`).
        var hillCues: [String: (start: Double, role: String, template: String, fields: [String: String])] = [:]
        let base: [String: String]
        let checkpoints: [(label: String, meters: Double)]
        let seed: UInt64

        init(plan: RacePlan, personality: Personality) {
            self.plan = plan
            self.personality = personality
            let unitName = plan.unitMeters == 1000 ? "Kilometre" : "Mile"
            base = ["race": plan.setup.name, "target": TextFormat.duration(plan.plannedSeconds), "unit": unitName]
            checkpoints = ScriptGenerator.checkpoints(distance: plan.setup.distanceMeters)
            // FNV-1a of the race's slug: the same race always gets the same order.
            var h: UInt64 = 0xcbf2_9ce4_8422_2325
            for b in plan.setup.slug.utf8 { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
            seed = h
        }

        var distance: Double { plan.setup.distanceMeters }

        /// A role's texts shuffled once per race (seeded by the race and role).
        mutating func order(_ role: String) -> [String] {
            if let o = orders[role] { return o }
            var list = personality.templates[role] ?? [""]
            var state = seed ^ UInt64(truncatingIfNeeded: role.hashValueStable)
            for i in stride(from: list.count - 1, to: 0, by: -1) {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let j = Int((state >> 33) % UInt64(i + 1))
                list.swapAt(i, j)
            }
            orders[role] = list
            return list
        }

        /// The template with each `{name}` of `fields` replaced by its value, in one
        /// pass (a value is never read as a template); other braces stay.
        static func fill(_ template: String, _ fields: [String: String]) -> String {
            guard template.utf8.contains(UInt8(ascii: "{")) else { return template }
            var out = ""
            out.reserveCapacity(template.utf8.count + 16)
            var rest = template[...]
            while let open = rest.firstIndex(of: "{") {
                out += rest[..<open]
                guard let close = rest[open...].firstIndex(of: "}"),
                    let value = fields[String(rest[rest.index(after: open)..<close])]
                else {
                    out.append("{")
                    rest = rest[rest.index(after: open)...]
                    continue
                }
                out += value
                rest = rest[rest.index(after: close)...]
            }
            return out + rest
        }

        /// The role's next text, in turn, that `fits` (its claims true where it
        /// plays), without the sentences said before in the race in any form
        /// (any role, any branch, other numbers); when nothing of it is left,
        /// or no text fits, the role's frame: its facts alone.
        mutating func text(
            _ role: String, _ fields: [String: String], fits: (TextClaims) -> Bool = { $0.isEmpty }
        ) -> String {
            guard let template = pick(role, fresh: false, fits: fits) else {
                return frame(role, fields, order(role)[0])
            }
            return unsaid(role, Self.fill(template, fields)) ?? frame(role, fields, template)
        }

        /// The role's next template in turn whose claims `fits` (`fresh`: one
        /// not said yet in this race), moved to its turn so the others keep
        /// theirs; nil when none.
        mutating func pick(_ role: String, fresh: Bool, fits: (TextClaims) -> Bool) -> String? {
            var list = order(role)
            let n = used[role, default: 0]
            for k in 0..<list.count {
                let i = (n + k) % list.count
                let t = list[i]
                guard fits(personality.claims(role, t)), !fresh || !picked.contains(role + "\u{1F}" + t) else {
                    continue
                }
                list.swapAt(i, n % list.count)
                orders[role] = list
                used[role] = n + 1
                picked.insert(role + "\u{1F}" + t)
                return t
            }
            return nil
        }

        /// A text true at `meters` whatever the gap's size.
        func plain(at meters: Double) -> (TextClaims) -> Bool {
            let place = TextClaims.place(atMeters: meters, of: distance)
            return { $0.size == nil && $0.result == nil && $0.fits(place) }
        }

        /// The role's frame filled (`ScriptGenerator.frames`), or `template`
        /// for a role without one.
        func frame(_ role: String, _ fields: [String: String], _ template: String) -> String {
            Self.fill(ScriptGenerator.frames[role] ?? template, fields)
        }

        /// All the role's texts true wherever it can play (`places`), for a
        /// message said in turn (conditions); a text whose every sentence was
        /// said before is left out.
        mutating func allTexts(_ role: String, _ fields: [String: String], places: Set<TextClaims.Place>) -> [String] {
            let all = order(role).filter {
                let c = personality.claims(role, $0)
                return c.size == nil && c.result == nil && c.fits(all: places)
            }.map { Self.fill($0, fields) }
            guard !all.isEmpty else { return [frame(role, fields, order(role)[0])] }
            let fresh = all.compactMap { unsaid(role, $0) }
            return fresh.isEmpty ? [all[0]] : fresh
        }

        /// The messages of one sign of a gap at one place, graded by its size:
        /// one per size some fresh text there claims (its branch the sign and
        /// the band), and one for the rest of the sign, said by a text without
        /// a size claim. `sign` and `bands` are expressions; the rest's branch
        /// key is `key` where no size has its own message.
        mutating func graded(
            role: String, id baseID: String, key: String, sign: String,
            bands: [(size: TextClaims.Size, expression: String)], at meters: Double, fields f: [String: String],
            message: (_ id: String, _ branchKey: String, _ text: String) -> ScriptMessage
        ) {
            let place = TextClaims.place(atMeters: meters, of: distance)
            var rest = sign
            var taken: [TextClaims.Size] = []
            for band in bands {
                guard
                    let template = pick(
                        role, fresh: true, fits: { $0.size == band.size && $0.result == nil && $0.fits(place) })
                else { continue }
                taken.append(band.size)
                let bandKey = "\(key)_\(band.size.rawValue)"
                branches[bandKey] = "\(sign) AND \(band.expression)"
                let said = unsaid(role, Self.fill(template, f)) ?? frame(role, f, template)
                messages.append(message("\(baseID)_\(band.size.rawValue)", bandKey, said))
                rest += " AND NOT (\(band.expression))"
            }
            let restKey =
                taken.isEmpty
                ? key : key + "_" + (taken.count == 2 ? "mid" : taken[0] == .small ? "mid_large" : "small_mid")
            branches[restKey] = rest
            messages.append(message(baseID, restKey, text(role, f, fits: plain(at: meters))))
        }

        /// `text` without its sentences said before (nil when none is left):
        /// the same sentence, or one of the same form (other numbers) unless it
        /// is all facts (`SpokenSentences.isFactOnly`); counts the role's
        /// shortened texts.
        mutating func unsaid(_ role: String, _ text: String) -> String? {
            let parts = SpokenSentences.split(text).map { p in
                let key = SpokenSentences.key(p)
                return (sentence: p, key: key, form: SpokenSentences.form(key: key))
            }
            let kept = parts.filter { p in
                !said.contains(p.key) && (!said.contains(p.form) || SpokenSentences.isFactOnly(p.form))
            }
            if kept.count < parts.count { shortened[role, default: 0] += 1 }
            guard !kept.isEmpty else { return nil }
            for p in kept {
                said.insert(p.key)
                said.insert(p.form)
            }
            return SpokenSentences.join(kept.map(\.sentence))
        }

        /// One warning naming every role that had to leave sentences out: its
        /// texts, its messages in this race and how many were said shorter.
        func coverageWarnings() -> [String] {
            guard !shortened.isEmpty else { return [] }
            let roles = shortened.keys.sorted().map { role in
                let texts = personality.templates[role]?.count ?? 0, n = used[role] ?? 0
                return
                    "\(role) \(texts) text\(texts == 1 ? "" : "s") for \(n) message\(n == 1 ? "" : "s") (\(shortened[role]!) said shorter)"
            }
            return [
                "\(personality.name) cannot say this race without repeating a sentence, so some texts leave out what was said before: \(roles.joined(separator: ", ")); add texts to the personality file to say more"
            ]
        }

        func id(_ role: String) -> String { "\(plan.setup.slug).\(role)" }

        mutating func start() {
            messages.append(
                ScriptMessage(
                    id: id("start"), trigger: Trigger(type: .time, atSeconds: 0),
                    text: text("start", base, fits: plain(at: 0)),
                    priority: Priority.start))
        }

        /// Pace feedback every unit, except where a branch point speaks: one text
        /// per tone of the split (quicker than the plan's split, on it,
        /// slower), the one whose split branch holds plays; its numbers are the
        /// split's, taken at the unit's end.
        mutating func paceFeedback() {
            for (key, expression) in ScriptGenerator.splitBranches { branches[key] = expression }
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
                let planned =
                    split.map { Double($0.splitSeconds) } ?? clock - plan.pacePlan.clockSeconds(at: x - plan.unitMeters)
                f["split"] = TextFormat.duration(planned)
                let prefix = id("")
                func message(_ id: String, _ branch: String, _ text: String) -> ScriptMessage {
                    ScriptMessage(
                        id: prefix + id, trigger: .distance(x), branchKey: branch, text: text,
                        priority: Priority.paceFeedback, anchorMeters: x)
                }
                messages.append(message("pace_km_\(n)", "split_on", text("pace_km", f, fits: plain(at: x))))
                for (suffix, role, branch) in [
                    ("_quick", "pace_km_ahead", "split_quick"), ("_slow", "pace_km_behind", "split_slow")
                ] {
                    graded(
                        role: role, id: "pace_km_\(n)\(suffix)", key: branch,
                        sign: ScriptGenerator.splitBranches[branch]!,
                        bands: ScriptGenerator.sizeBands(
                            of: "split_vs_plan", reference: "split_plan", ahead: suffix == "_quick",
                            value: planned,
                            tolerance: Threshold.splitSeconds),
                        at: x, fields: f, message: message)
                }
            }
        }

        /// Branch points: the clock against the plan's clock at the checkpoint,
        /// said with the run at the checkpoint wherever the message plays.
        mutating func branchPoints() {
            for (key, expression) in ScriptGenerator.gapBranches { branches[key] = expression }
            for cp in checkpoints {
                let clock = plan.pacePlan.clockSeconds(at: cp.meters)
                var f = base
                f["checkpoint"] = cp.label == "half" ? "Halfway" : cp.label.uppercased()
                f["clock"] = TextFormat.duration(clock)
                let prefix = id("")
                func message(_ id: String, _ branch: String, _ text: String) -> ScriptMessage {
                    ScriptMessage(
                        id: prefix + id, trigger: .distance(cp.meters), branchKey: branch, text: text,
                        priority: Priority.branch, anchorMeters: cp.meters)
                }
                for (role, shared) in [("ahead", "ahead_of_plan"), ("on", "on_plan"), ("behind", "behind_plan")] {
                    let key = role == "ahead" ? "ahead_of_pace_\(cp.label)" : "\(role)_pace_\(cp.label)"
                    guard role != "on" else {
                        branches[key] = ScriptGenerator.gapBranches[shared]
                        messages.append(message(key, key, text(role, f, fits: plain(at: cp.meters))))
                        continue
                    }
                    graded(
                        role: role, id: key, key: key, sign: ScriptGenerator.gapBranches[shared]!,
                        bands: ScriptGenerator.sizeBands(
                            of: "time_vs_plan", reference: "plan_time", ahead: role == "ahead", value: clock,
                            tolerance: Threshold.gapSeconds + clock * Threshold.gapShare),
                        at: cp.meters, fields: f, message: message)
                }
            }
        }

        /// A cue before each climb and descent of the plan's course worth a word.
        mutating func hills() {
            guard let course = plan.course, course.hasElevation else { return }
            let lead = Hills.leadMeters
            for (k, h) in Hills.find(course).enumerated() {
                var f = base
                f["km"] = TextFormat.fixed(h.startMeters / plan.unitMeters, 1)
                f["length"] = Hills.spoken(h.lengthMeters)
                f["grade"] = "\(TextFormat.fixed(abs(h.gradePercent), 0)) percent"
                f["gain"] = "\(TextFormat.fixed(abs(h.gainMeters), 0)) metres"
                let at = max(0, h.startMeters - lead)
                let role = h.gainMeters > 0 ? "climb" : "descent"
                let template = pick(role, fresh: false, fits: plain(at: h.startMeters)) ?? ScriptGenerator.frames[role]!
                hillCues[id("\(role)_\(k + 1)")] = (h.startMeters, role, template, f)
                messages.append(
                    ScriptMessage(
                        id: id("\(role)_\(k + 1)"), trigger: .distance(at), text: "", priority: Priority.hill))
            }
        }

        /// Hill cues say how far the hill is from where they finally play
        /// (a cue moved off another message is nearer the hill).
        mutating func sayHillDistances() {
            for i in messages.indices {
                guard let cue = hillCues[messages[i].id], let at = position(messages[i]) else { continue }
                var f = cue.fields
                f["in"] = Hills.spoken(max(0, cue.start - at))
                messages[i].text = unsaid(cue.role, Self.fill(cue.template, f)) ?? frame(cue.role, f, cue.template)
            }
        }

        /// Every fueling and hydration cue: race-critical. A gel taken at a
        /// drink (same place) is one message with it; gel texts never promise
        /// water, since a gel may be planned away from it.
        mutating func fuelAndDrinks() {
            let spacing = EngineSettings().windowSeconds * Threshold.spacingFactor
            var cues = plan.cues.cues.filter { $0.kind != .aid }
            cues.sort { ($0.clockSeconds, $0.kind.rawValue) < ($1.clockSeconds, $1.kind.rawValue) }
            var i = 0
            while i < cues.count {
                let c = cues[i]
                // One message only where the gel is taken at the drink (its texts say "with water").
                if i + 1 < cues.count, Double(cues[i + 1].clockSeconds - c.clockSeconds) < spacing,
                    (c.kind == .drink) != (cues[i + 1].kind == .drink),
                    abs(cues[i + 1].distanceMeters - c.distanceMeters) < 1
                {
                    let gel = c.kind == .drink ? cues[i + 1] : c, drink = c.kind == .drink ? c : cues[i + 1]
                    var f = fields(gel)
                    f["drink_number"] = String(drink.number)
                    f["fluid"] = TextFormat.fixed(drink.fluidMl ?? 0, 0)
                    f["sodium"] = TextFormat.fixed(drink.sodiumMg ?? 0, 0)
                    // A caffeine gel says its caffeine (the joint texts do not name it):
                    // its own text, then the drink's.
                    let here = plain(at: gel.distanceMeters)
                    let said =
                        gel.kind == .caffeine
                        ? text("caffeine", fields(gel), fits: here) + " " + text("drink", fields(drink), fits: here)
                        : text("fuel_and_drink", f, fits: here)
                    messages.append(
                        ScriptMessage(
                            id: id("\(Role.fuelAndDrink)\(gel.number)_drink_\(drink.number)"),
                            trigger: .distance(min(gel.distanceMeters, drink.distanceMeters)),
                            text: said, priority: Priority.gel))
                    i += 2
                    continue
                }
                let f = fields(c)
                switch c.kind {
                case .gel, .caffeine:
                    messages.append(
                        ScriptMessage(
                            id: id(Role.gel + String(c.number)), trigger: .distance(c.distanceMeters),
                            text: text(c.kind == .gel ? "gel" : "caffeine", f, fits: plain(at: c.distanceMeters)),
                            priority: Priority.gel))
                case .drink:
                    messages.append(
                        ScriptMessage(
                            id: id(Role.drink + String(c.number)), trigger: .distance(c.distanceMeters),
                            text: text("drink", f, fits: plain(at: c.distanceMeters)), priority: Priority.drink))
                case .aid: break
                }
                i += 1
            }
        }

        func fields(_ c: Cue) -> [String: String] {
            var f = base
            f["number"] = String(c.number)
            f["clock"] = TextFormat.duration(Double(c.clockSeconds))
            f["km"] = TextFormat.fixed(c.distanceMeters / 1000, 1)
            f["carbs"] = TextFormat.fixed(c.carbsGrams ?? 0, 0)
            f["caffeine"] = TextFormat.fixed(c.caffeineMg ?? 0, 0)
            f["fluid"] = TextFormat.fixed(c.fluidMl ?? 0, 0)
            f["sodium"] = TextFormat.fixed(c.sodiumMg ?? 0, 0)
            return f
        }

        /// The near-finish message, and the finish graded by the result: a
        /// message per result some text claims (met: on plan or ahead; near:
        /// within `GapBand.nearShare` of the target behind; missed: beyond),
        /// and one for the rest, said by a text claiming no result.
        mutating func finish() {
            let near = min(Threshold.nearFinishMeters, distance / 5)
            messages.append(
                ScriptMessage(
                    id: id("near_finish"), trigger: Trigger(type: .near_finish, remainingMeters: near),
                    text: text("near_finish", base, fits: plain(at: distance - near)), priority: Priority.nearFinish))
            var rest: [String] = []
            var any = false
            for (result, expression) in ScriptGenerator.resultBands {
                guard
                    let template = pick(
                        "finish", fresh: true, fits: { $0.result?.contains(result) == true && $0.fits(.late) })
                else {
                    rest.append(expression)
                    continue
                }
                any = true
                let key = "finish_\(result.rawValue)"
                branches[key] = expression
                messages.append(
                    ScriptMessage(
                        id: id(key), trigger: .distance(distance), branchKey: key,
                        text: unsaid("finish", Self.fill(template, base)) ?? frame("finish", base, template),
                        priority: Priority.finish, anchorMeters: distance))
            }
            guard !rest.isEmpty else { return }
            var key: String?
            if any {
                key = "finish_other"
                branches["finish_other"] = rest.map { "(\($0))" }.joined(separator: " OR ")
            }
            messages.append(
                ScriptMessage(
                    id: id("finish"), trigger: .distance(distance), branchKey: key,
                    text: text("finish", base, fits: { $0.result == nil && $0.fits(.late) }), priority: Priority.finish,
                    anchorMeters: distance))
        }

        /// Where a scheduled message speaks, metres (nil for conditions).
        func position(_ m: ScriptMessage) -> Double? {
            switch m.trigger.type {
            case .distance: return m.trigger.atMeters
            case .time: return m.trigger.atSeconds.map { plan.pacePlan.distance(atClock: $0) }
            case .halfway: return distance / 2
            case .near_finish: return distance - (m.trigger.remainingMeters ?? 0)
            case .condition, .fatigue_zone: return nil
            }
        }

        /// No two scheduled messages start within `spacingFactor` windows of
        /// each other at the planned pace. Messages at one place with exclusive
        /// branches are one slot (one of them plays). Where two slots are too
        /// close, the less important one gives way: pace feedback is dropped
        /// (the runner hears the other message), anything else moves to just
        /// after the more important one (before it near the finish).
        mutating func spaceOut(windowSeconds: Double) {
            let spacing = windowSeconds * Threshold.spacingFactor
            // Each pass settles one pair; a message only ever moves later or goes.
            for _ in 0..<(messages.count * 4) {
                // A slot: the messages at one place with branches (one of them
                // plays), or one message without a branch.
                var slots = Dictionary(grouping: messages.indices.filter { position(messages[$0]) != nil }) {
                    SlotKey(
                        meters: TextFormat.rounded(position(messages[$0])!, 1),
                        single: messages[$0].branchKey == nil ? messages[$0].id : "")
                }.map { ($0.key.meters, $0.value) }.sorted { ($0.0, $0.1[0]) < ($1.0, $1.1[0]) }
                var changed = false
                var k = 1
                while k < slots.count {
                    let (xa, a) = slots[k - 1], (xb, b) = slots[k]
                    let gap = plan.pacePlan.clockSeconds(at: xb) - plan.pacePlan.clockSeconds(at: xa)
                    guard gap < spacing - 0.5 else { k += 1; continue }
                    let pa = a.map { messages[$0].priority }.max()!, pb = b.map { messages[$0].priority }.max()!
                    let (loser, winnerAt) = pa >= pb ? (b, xa) : (a, xb)
                    let isFeedback = loser.allSatisfy { messages[$0].priority == Priority.paceFeedback }
                    if isFeedback {
                        messages = messages.indices.filter { !loser.contains($0) }.map { messages[$0] }
                    } else {
                        // Just after the winner; where that passes the finish, just before it.
                        let winnerClock = plan.pacePlan.clockSeconds(at: winnerAt)
                        var to = plan.pacePlan.distance(atClock: winnerClock + spacing + 1)
                        if winnerClock + 2 * spacing > plan.plannedSeconds {
                            to = plan.pacePlan.distance(atClock: max(0, winnerClock - spacing - 1))
                        }
                        for i in loser {
                            messages[i].trigger = Trigger(type: .distance, atMeters: TextFormat.rounded(to, 1))
                        }
                    }
                    changed = true
                    break
                }
                slots.removeAll()
                if !changed { return }
            }
        }

        struct SlotKey: Hashable {
            var meters: Double
            var single: String
        }

        /// Pace conditions against the plan's pace here, with hysteresis, and the
        /// heart rate above the planned effort; each says its texts in turn, once.
        mutating func conditions(heartRateLimit: Double?) {
            let d = distance
            let early = TextFormat.fixed(d * Threshold.tooFastBefore, 0),
                late = TextFormat.fixed(d * Threshold.fadingAfter, 0)
            let end = TextFormat.fixed(d * Threshold.quietAfter, 0)
            let fast = TextFormat.fixed(Threshold.tooFastRatio, 2),
                fastRearm = TextFormat.fixed(Threshold.tooFastRearm, 2)
            let fade = TextFormat.fixed(Threshold.fadingRatio, 2),
                fadeRearm = TextFormat.fixed(Threshold.fadingRearm, 2)
            func repeatable(_ key: String, _ trigger: Trigger, priority: Int) {
                let texts = allTexts(key, base, places: TextClaims.places(of: key) ?? Set(TextClaims.Place.allCases))
                messages.append(
                    ScriptMessage(
                        id: id(key), trigger: trigger, text: texts[0], priority: priority, playOnce: false,
                        variants: Array(texts.dropFirst())))
            }
            repeatable(
                "too_fast_early",
                Trigger(
                    type: .condition, expression: "distance < \(early) AND pace_vs_plan < \(fast)",
                    cooldownSeconds: Threshold.conditionCooldownSeconds, holdSeconds: Threshold.tooFastHoldSeconds,
                    rearmExpression: "pace_vs_plan > \(fastRearm)"), priority: Priority.paceCondition)
            repeatable(
                "fading_late",
                Trigger(
                    type: .condition,
                    expression: "distance > \(late) AND distance < \(end) AND pace_vs_plan > \(fade)",
                    cooldownSeconds: Threshold.conditionCooldownSeconds, holdSeconds: Threshold.fadingHoldSeconds,
                    rearmExpression: "pace_vs_plan < \(fadeRearm)"), priority: Priority.paceCondition)
            if let limit = heartRateLimit {
                let bpm = TextFormat.fixed(limit, 0), rearm = TextFormat.fixed(limit - Threshold.heartRateRearmBpm, 0)
                repeatable(
                    "hr_high",
                    Trigger(
                        type: .fatigue_zone, expression: "hr > \(bpm) AND distance < \(end)",
                        cooldownSeconds: Threshold.conditionCooldownSeconds,
                        holdSeconds: Threshold.heartRateHoldSeconds, rearmExpression: "hr < \(rearm)"),
                    priority: Priority.heartRate)
            }
        }
    }
}

extension String {
    /// A hash that is the same in every run (Swift's `hashValue` is seeded per process).
    var hashValueStable: UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in utf8 { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
        return h
    }
}

extension Hills {
    /// "600 metres", "1.2 kilometres": a distance as said aloud.
    static func spoken(_ meters: Double) -> String {
        meters < 1000
            ? "\(TextFormat.fixed((meters / 50).rounded() * 50, 0)) metres"
            : "\(TextFormat.fixed(meters / 1000, 1)) kilometres"
    }
}
