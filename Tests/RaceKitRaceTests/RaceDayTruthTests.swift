import Foundation
import RaceKitScript
import RaceKitTestSupport
import Testing

@testable import RaceKitOutput
@testable import RaceKitPlan
@testable import RaceKitScriptWriter

/// Issue 22: every line is true when it is said, the plan's time is one number
/// everywhere, and no sentence is said twice in a race.
@Suite struct RaceDayTruthTests {
    typealias P = PlanAwareScriptTests

    /// When a run of per-second distances first reached `x` (interpolated).
    static func time(_ d: [Double], at x: Double) -> Double {
        guard let k = d.firstIndex(where: { $0 >= x }) else { return .nan }
        guard k > 0, d[k] > d[k - 1] else { return Double(k) }
        return Double(k - 1) + (x - d[k - 1]) / (d[k] - d[k - 1])
    }

    /// Clock times in a text ("4:21", "1:30:03").
    static func clocks(_ text: String) -> [String] {
        text.matches(of: #/\d+(?::\d\d)+/#).map { String($0.output) }
    }

    /// Words that say a split was quicker or slower than planned ("quick
    /// feet" is advice, not a claim).
    static let quicker = [
        "quicker than", "faster than", "under the", "too quick", "quick kilometre", "speedy", "brisk", "a touch quick"
    ]
    static let slower = [
        "slower than", "over the planned", "over the ordered", "slow kilometre", "slow split", "slow,", "leisurely",
        "a touch slow", "a little slow"
    ]
    static let overall = ["ahead", "behind", "schedule"]

    /// Two runs whose splits and running total disagree: fast for the first
    /// quarter then slow splits (ahead overall, slow splits), and the reverse.
    static let runs: [(name: String, early: Double, late: Double)] = [
        ("ahead overall, slow splits", 1.10, 0.97), ("behind overall, fast splits", 0.90, 1.03)
    ]

    @Test(arguments: Personality.shipped)
    func everyPlayedLineIsTrueOfTheRun(_ personality: String) throws {
        let plan = try P.plan(.hillyMarathon, strategy: "even")
        let s = try P.script(plan, personality)
        // Some checkpoint lines are moved off a drink: they must still say the checkpoint.
        #expect(s.messages.contains { m in m.anchorMeters.map { $0 != m.trigger.atMeters } ?? false })
        let checkpoints = ScriptGenerator.checkpoints(distance: plan.setup.distanceMeters)
        for run in Self.runs {
            let quarter = plan.setup.distanceMeters / 4
            let d = P.run(s) { x in x < quarter ? run.early : run.late }
            let r = try TriggerEngine.simulate(s, metrics: P.metrics(s, d))
            var splitLines = 0, checkpointLines = 0, disagreeing = 0
            for p in r.played {
                let name = String(p.messageId.split(separator: ".").last!)
                let lower = p.text.lowercased()
                if name.hasPrefix("pace_km_") {
                    let n = Int(name.split(separator: "_")[2])!
                    let x = Double(n) * 1000
                    let actual = Self.time(d, at: x) - Self.time(d, at: x - 1000)
                    let planned = Double(plan.splits[n - 1].split.splitSeconds)
                    let tone = actual - planned < -2 ? "_quick" : (actual - planned > 2 ? "_slow" : "")
                    // A line claiming the gap's size is said only in its band.
                    let size = ["_small", "_large"].first { name.hasSuffix($0) }
                    #expect(
                        name == "pace_km_\(n)\(tone)\(size ?? "")",
                        "\(personality) \(run.name): \(p.text) (\(actual) vs \(planned))")
                    if size == "_small" { #expect(abs(actual - planned) <= planned * GapBand.smallShare + 0.5) }
                    if size == "_large" { #expect(abs(actual - planned) > planned * GapBand.largeShare - 0.5) }
                    if Self.quicker.contains(where: { lower.contains($0) }) {
                        #expect(actual < planned, "\(personality): '\(p.text)' but \(actual) s against \(planned) s")
                    }
                    if Self.slower.contains(where: { lower.contains($0) }) {
                        #expect(actual > planned, "\(personality): '\(p.text)' but \(actual) s against \(planned) s")
                    }
                    // A line about the split says nothing of the running total.
                    #expect(!Self.overall.contains { lower.contains($0) }, "\(personality): \(p.text)")
                    let allowed = [
                        TextFormat.duration(actual), TextFormat.duration(planned), TextFormat.pace(actual)
                    ]
                    for c in Self.clocks(p.text) where c.filter({ $0 == ":" }).count == 1 {
                        #expect(allowed.contains(c), "\(personality): \(c) in '\(p.text)' (split \(allowed))")
                    }
                    let gapNow = Self.time(d, at: x) - s.plan.clock(at: x)
                    if (gapNow < 0) != (actual < planned) { disagreeing += 1 }
                    splitLines += 1
                } else if let cp = checkpoints.first(where: { name.hasSuffix("_pace_\($0.label)") }) {
                    let at = Self.time(d, at: cp.meters)
                    let planAt = plan.pacePlan.clockSeconds(at: cp.meters)
                    let gap = at - s.plan.clock(at: cp.meters)
                    let tolerance =
                        ScriptGenerator.Threshold.gapSeconds + s.plan.clock(at: cp.meters)
                        * ScriptGenerator.Threshold.gapShare
                    let tone = gap < -tolerance ? "ahead_of_pace_" : (gap > tolerance ? "behind_pace_" : "on_pace_")
                    #expect(name.hasPrefix(tone), "\(personality) \(run.name): \(p.text) (gap \(gap))")
                    let allowed = [TextFormat.duration(at), TextFormat.duration(planAt)]
                    // The gap said in numbers is the gap at the checkpoint.
                    let said = Placeholders.gap(gap)
                    for g in p.text.matches(of: #/(\d+ s|\d+:\d\d) (ahead of plan|behind plan)/#) {
                        #expect(String(g.output.0) == said, "\(personality): '\(p.text)' at \(cp.label): gap \(said)")
                    }
                    for c in Self.clocks(p.text.replacingOccurrences(of: said, with: "")) {
                        // Every time is the checkpoint's (no projected finish: a trend can be minutes off).
                        #expect(allowed.contains(c), "\(personality): \(c) in '\(p.text)' at \(cp.label) (\(allowed))")
                    }
                    if tone == "ahead_of_pace_" { #expect(!lower.contains("behind")) }
                    if tone == "behind_pace_" { #expect(!lower.contains("ahead")) }
                    checkpointLines += 1
                }
            }
            #expect(splitLines > 20 && checkpointLines >= 5, "\(personality) \(run.name)")
            // The runs do test what they claim: splits and total disagree often.
            #expect(disagreeing > 10, "\(personality) \(run.name): \(disagreeing)")
        }
    }

    /// The run-time numbers of another measure than the one choosing a
    /// role's tone: "bang on schedule, projected finish 1:47:49" was said on
    /// plan at the checkpoint with a 1:45:00 target (the projection adds the
    /// gap's five-minute trend over the rest of the race).
    static let notTheTonesMeasure: [String: Set<String>] = [
        "pace_km": ["gap", "elapsed", "avg_pace", "current_pace", "projected_finish"],
        "pace_km_ahead": ["gap", "elapsed", "avg_pace", "current_pace", "projected_finish"],
        "pace_km_behind": ["gap", "elapsed", "avg_pace", "current_pace", "projected_finish"],
        "ahead": ["split_time", "split_pace", "split_plan", "current_pace", "avg_pace", "projected_finish"],
        "on": ["split_time", "split_pace", "split_plan", "current_pace", "avg_pace", "projected_finish"],
        "behind": ["split_time", "split_pace", "split_plan", "current_pace", "avg_pace", "projected_finish"],
        "too_fast_early": ["gap", "split_time", "split_pace", "split_plan", "avg_pace", "projected_finish"],
        "fading_late": ["gap", "split_time", "split_pace", "split_plan", "avg_pace", "projected_finish"]
    ]

    @Test(arguments: Personality.shipped)
    func toneTextsSayOnlyTheNumbersThatChoseTheTone(_ personality: String) throws {
        let voice = try Personality.named(personality)
        for (role, others) in Self.notTheTonesMeasure {
            for text in voice.templates[role] ?? [] {
                let used = Set(RaceScript.placeholderNames(in: text))
                #expect(used.isDisjoint(with: others), "\(personality) \(role): \(text)")
            }
        }
        // A split line says nothing of the runner's place against the plan.
        for role in ["pace_km", "pace_km_ahead", "pace_km_behind"] {
            for text in voice.templates[role] ?? [] {
                let lower = text.lowercased()
                for claim in ["where the plan wants", "on track", "schedule", "ahead", "behind"] {
                    #expect(!lower.contains(claim), "\(personality) \(role): \(text)")
                }
            }
        }
    }

    @Test func aPersonalityFileSayingAProjectedFinishOnPlanIsRefused() throws {
        let calm = try #require(Personality.shippedText("calm_coach"))
        for (role, text) in [
            ("on", "{checkpoint}: bang on schedule, projected finish {projected_finish}."),
            ("pace_km", "{unit} {km} on the planned split, {gap}."), ("ahead", "{checkpoint}, last split {split_time}.")
        ] {
            let anchor = "  \(role == "on" ? "\"on\"" : role):\n"
            let yaml = calm.replacingOccurrences(of: anchor, with: anchor + "    - \"\(text)\"\n")
            #expect(yaml != calm)
            let error = #expect(throws: SetupError.self) { try Personality.parse(yaml, file: "mine.yaml") }
            #expect(
                error?.description.contains("cannot be said in \(role) texts") == true, "\(String(describing: error))")
            #expect(error?.description.contains("mine.yaml:") == true, "\(String(describing: error))")
        }
    }

    @Test func aMovedCheckpointSaysTheTimeAtTheCheckpoint() throws {
        let plan = try P.plan(.hillyMarathon, strategy: "even")
        let s = try P.script(plan, "calm_coach")
        let moved = try #require(
            s.messages.first { m in
                m.id.contains("_pace_") && m.anchorMeters != nil && m.trigger.atMeters! > m.anchorMeters! + 50
            })
        let anchor = moved.anchorMeters!
        // A steady run 3% slow: the time at the anchor and where the line plays differ.
        let d = P.run(s) { _ in 0.97 }
        let branchKey = try #require(moved.branchKey)
        var one = s
        one.messages = s.messages.filter { $0.id == moved.id }
        one.messages[0].text = "At {distance_km} km the clock read {elapsed}"
        one.branches = [branchKey: "distance >= 0"]
        let r = try TriggerEngine.simulate(one, metrics: P.metrics(one, d))
        let p = try #require(r.played.first)
        #expect(p.distanceMeters > anchor + 50)
        let expected = TextFormat.duration(Self.time(d, at: anchor))
        #expect(p.text == "At \(TextFormat.fixed(anchor / 1000, 1)) km the clock read \(expected)", "\(p.text)")
    }
}

/// The repository's Races/ setups (`make demo`).
func demoSetups() throws -> [RaceSetup] {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    let dir = url.appendingPathComponent("Races").path
    return try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".yaml") }.sorted()
        .map { try SetupLoader.load(path: dir + "/" + $0) }
}

extension RaceDayTruthTests {
    /// The plans to check: the demo's setups and a hilly half and marathon.
    static func plans() throws -> [RacePlan] {
        try demoSetups().map { try RacePlanner.plan($0) } + [
            try P.plan(.hillyHalf, strategy: "negative"), try P.plan(.hillyMarathon, strategy: "positive")
        ]
    }

    @Test func thePlansTimeAtAPointIsOneNumberEverywhere() throws {
        var calm = try Personality.named("calm_coach")
        // Six texts that differ in words (texts differing only in numbers are one form, said once).
        calm.templates["on"] = ["one", "two", "three", "four", "five", "six"].map {
            "{checkpoint}, check \($0): the plan says {clock}."
        }
        for plan in try Self.plans() {
            let s = ScriptGenerator.generate(plan: plan, personality: calm)
            for row in plan.splits.map(\.split) {
                // The plan's table and pace band, and `script show` (the script's plan).
                let table = TextFormat.duration(Double(row.cumulativeSeconds))
                #expect(
                    table == TextFormat.duration(s.plan.clock(at: row.endMeters)),
                    "\(plan.setup.name) at \(row.endMeters) m: plan \(table), script \(s.plan.clock(at: row.endMeters))"
                )
            }
            // The script's text at every checkpoint.
            for cp in ScriptGenerator.checkpoints(distance: plan.setup.distanceMeters) {
                let m = try #require(s.messages.first { $0.id.hasSuffix(".on_pace_\(cp.label)") })
                let planned = TextFormat.duration(s.plan.clock(at: cp.meters))
                #expect(m.text.hasSuffix("the plan says \(planned)."), "\(plan.setup.name): \(m.text) vs \(planned)")
                if let row = plan.splits.first(where: { abs($0.split.endMeters - cp.meters) < 1 }) {
                    #expect(planned == TextFormat.duration(Double(row.split.cumulativeSeconds)))
                }
            }
        }
    }

    @Test func simulateAndReviewFinishAtTheSameTime() throws {
        let plan = try reviewPlan()
        // A run 2:10 slow, its watch measuring 0.6% long (1:36:17 against 1:36:22 in the demo).
        let samples = plannedRun(plan, extra: { $0 / 42_195 * 130 }, watchScale: 1.006)
        let review = try review(plan, samples)
        let s = ScriptGenerator.generate(plan: plan, personality: try Personality.named("calm_coach"))
        let metrics = ScriptReplay.recorded(
            samples, startEpoch: samples.time[0], script: s, physiology: nil, timeZone: TimeZone(identifier: "UTC")!)
        let r = try TriggerEngine.simulate(s, metrics: metrics)
        // 2:10 behind a 3:15:00 plan, 1.1%: the target near, said as such.
        let finish = try #require(r.played.first { $0.messageId.contains(".finish") })
        #expect(finish.messageId.hasSuffix(".finish_near"), "\(finish.messageId)")
        let said = TextFormat.duration(review.actualSeconds)
        #expect(said == "3:17:10")
        #expect(finish.text.contains(said), "\(finish.text) vs review \(said)")
        #expect(TextFormat.duration(Double(finish.elapsedSeconds)) == said)
    }
}

extension RaceDayTruthTests {
    /// A marathon over ten hills: 50 m up and down every 4.2 km.
    static func tenHillMarathon() throws -> RacePlan {
        let yaml = """
            name: Ten Hills Marathon
            distance: marathon
            target_time: "3:30:00"
            fueling: {carbs_per_hour_g: 60, gel_carbs_g: 25, start_after: "0:30:00"}
            hydration: {ml_per_hour: 500, sodium_mg_per_hour: 400, aid_stations_km: [5, 10, 15, 20, 25, 30, 35, 40]}
            """
        let setup = try SetupLoader.parse(yaml: yaml, file: "t.yaml")
        let samples = syntheticCourse(length: setup.distanceMeters) { x in 100 + 25 * sin(x / 4200 * 2 * .pi) }
        var warnings: [String] = []
        let profile = try CourseProfile(samples: samples, raceMeters: setup.distanceMeters)
        return try RacePlanner.plan(setup, course: profile, unitMeters: 1000, warnings: &warnings)
    }

    /// Every sentence a script can say (texts and variants), with the messages saying it.
    static func repeatedSentences(_ s: RaceScript) -> [String: [String]] {
        var seen: [String: [String]] = [:]
        for m in s.messages {
            for text in [m.text] + (m.variants ?? []) {
                for sentence in SpokenSentences.split(text) {
                    seen[SpokenSentences.key(sentence), default: []].append(m.id)
                }
            }
        }
        return seen.filter { $0.value.count > 1 }
    }

    /// Every personality file shipped (Sources/RaceKitScriptWriter/Personalities), by name.
    static let personalityFiles: [String] = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        let dir = url.appendingPathComponent("Sources/RaceKitScriptWriter/Personalities").path
        return ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter { $0.hasSuffix(".yaml") }
            .map { String($0.dropLast(5)) }.sorted()
    }()

    @Test func everyPersonalityFileIsShipped() {
        #expect(Self.personalityFiles.count >= 3)
        #expect(Self.personalityFiles == Personality.shipped.sorted())
    }

    /// Sentences said more than once in a form (numbers aside: "Gel 2: 25
    /// grams of sticky joy" and "Gel 5: ..." are one joke heard twice),
    /// across the whole script, every branch and variant; the generator's
    /// frames and sentences of facts alone ("10K, {gap}") may recur.
    static func repeatedForms(_ s: RaceScript) -> [String: [String]] {
        let frames = ScriptGenerator.frameForms
        var seen: [String: [String]] = [:]
        for m in s.messages {
            for text in [m.text] + (m.variants ?? []) {
                for sentence in SpokenSentences.split(text) {
                    seen[SpokenSentences.form(sentence), default: []].append(m.id)
                }
            }
        }
        return seen.filter { $0.value.count > 1 && !frames.contains($0.key) && !SpokenSentences.isFactOnly($0.key) }
    }

    @Test(arguments: personalityFiles)
    func noSentenceTwiceOverTenHillsOrTheDemoRaces(_ personality: String) throws {
        let hilly = try Self.tenHillMarathon()
        let course = try #require(hilly.course)
        let hills = Hills.find(course)
        #expect(hills.filter { $0.gainMeters > 0 }.count >= 10, "\(hills.count) hills")
        let voice = try Personality.named(personality)
        for plan in try demoSetups().map({ try RacePlanner.plan($0) }) + [hilly] {
            var warnings: [String] = []
            let s = ScriptGenerator.generate(
                plan: plan, personality: voice, options: .init(physiology: P.physiology), warnings: &warnings)
            let repeated = Self.repeatedSentences(s)
            #expect(repeated.isEmpty, "\(personality) \(plan.setup.name): \(repeated.first.map { "\($0)" } ?? "")")
            // Nor a joke or advice heard again with new numbers.
            let forms = Self.repeatedForms(s)
            #expect(forms.isEmpty, "\(personality) \(plan.setup.name): \(forms.sorted { $0.key < $1.key }.prefix(3))")
            // The shipped texts cover ten hills, and the marathon's gels and drinks, in full.
            for role in ["climb", "descent", "gel", "caffeine", "drink", "fuel_and_drink"] {
                #expect(!warnings.contains { $0.contains(": \(role) ") || $0.contains(", \(role) ") }, "\(warnings)")
            }
            #expect(!s.messages.contains { $0.text.isEmpty })
        }
    }

    @Test func aSentencesFormIsItsWordsWithoutItsNumbers() {
        #expect(SpokenSentences.form("Gel 2: 25 grams of sticky joy.") == "gel #: # grams of sticky joy")
        #expect(SpokenSentences.form("Gel 12: 30 grams of sticky joy") == "gel #: # grams of sticky joy")
        #expect(SpokenSentences.form("Kilometre 11.3 in {split_time}, 4:31 planned") == "kilometre # in #, # planned")
        #expect(SpokenSentences.form("Halfway at 1:45:00!") == "halfway at #")
        #expect(SpokenSentences.isFactOnly(SpokenSentences.form("10K, {gap}")))
        #expect(SpokenSentences.isFactOnly(SpokenSentences.form("Kilometre 17 in 4:31")))
        #expect(!SpokenSentences.isFactOnly(SpokenSentences.form("Gel 2: 25 grams of sticky joy")))
        #expect(!SpokenSentences.isFactOnly(SpokenSentences.form("Kilometre 3 in 4:20, smooth as you like")))
    }

    /// The byte paths for ASCII texts (`SpokenSentences.ascii`) answer as the
    /// `Character` paths do: on every text of every shipped personality and on
    /// random ASCII made of the characters that matter (marks, digits, braces,
    /// spaces, tabs, capitals).
    @Test func theASCIIPathsSplitAndCompareAsTheCharacterPaths() throws {
        var texts = try Personality.shipped.flatMap { try Personality.named($0).templates.values.flatMap { $0 } }
        var rng = SplitMix64(seed: 23)
        let alphabet = Array("aZ .;!?,:{}07\t-'")
        for _ in 0..<3000 {
            texts.append(
                String((0..<Int(rng.next() % 40)).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] }))
        }
        for text in texts {
            let split = SpokenSentences.split(text)
            #expect(split == SpokenSentences.splitCharacters(text), "\(text)")
            for sentence in split + [text] {
                let key = SpokenSentences.key(sentence)
                #expect(key == SpokenSentences.keyCharacters(sentence), "\(sentence)")
                #expect(SpokenSentences.form(key: key) == SpokenSentences.formCharacters(key: key), "\(key)")
            }
        }
        // Not ASCII: the Character paths ("Ça va. Élan 3½!").
        #expect(SpokenSentences.split("Ça va. Élan 3½!") == ["Ça va.", "Élan 3½!"])
        #expect(SpokenSentences.form("Élan 3½ km") == "élan # km")
    }

    /// Two texts that differ only in their numbers: the second is said as the frame.
    @Test func aJokeIsNotToldTwiceWithNewNumbers() throws {
        var voice = try Personality.named("roast_coach")
        voice.templates["gel"] = ["Gel {number}: {carbs} grams of sticky joy; try not to wear it."]
        voice.templates["fuel_and_drink"] = ["Gel {number} with drink {drink_number}, a three-course meal for you."]
        var warnings: [String] = []
        let s = ScriptGenerator.generate(plan: try Self.tenHillMarathon(), personality: voice, warnings: &warnings)
        let gels = s.messages.filter { $0.id.contains(".gel_") || $0.id.contains(".fuel_") }.map(\.text)
        #expect(gels.count >= 4, "\(gels)")
        for joke in ["sticky joy", "wear it", "three-course meal"] {
            #expect(gels.filter { $0.contains(joke) }.count == 1, "\(joke): \(gels)")
        }
        #expect(gels.allSatisfy { $0.hasPrefix("Gel ") }, "\(gels)")
        #expect(Self.repeatedForms(s).isEmpty)
        #expect(warnings.first?.contains("fuel_and_drink 1 text for") == true, "\(warnings)")
    }

    @Test func aTinyPoolIsSaidShorterWithAWarning() throws {
        var voice = try Personality.named("calm_coach")
        voice.templates["climb"] = ["Climb at {unit} {km} in {in}; steady effort."]
        var warnings: [String] = []
        let plan = try Self.tenHillMarathon()
        let s = ScriptGenerator.generate(plan: plan, personality: voice, warnings: &warnings)
        let climbs = s.messages.filter { $0.id.contains(".climb_") }
        #expect(climbs.count >= 10)
        // The advice is said once; every other climb says only where it is.
        #expect(climbs.filter { $0.text.hasSuffix("steady effort.") }.count == 1)
        #expect(climbs.allSatisfy { $0.text.hasPrefix("Climb at Kilometre ") })
        #expect(Self.repeatedSentences(s).isEmpty)
        let warning = try #require(warnings.first)
        #expect(warnings.count == 1)
        #expect(warning.hasPrefix("calm_coach cannot say this race without repeating a sentence"))
        #expect(
            warning.contains("climb 1 text for \(climbs.count) messages (\(climbs.count - 1) said shorter)"),
            "\(warning)")
    }
}
