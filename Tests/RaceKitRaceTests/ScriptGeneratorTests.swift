import Foundation
import RaceKitScript
import Testing

@testable import RaceKitMetrics
@testable import RaceKitOutput
@testable import RaceKitPlan
@testable import RaceKitScriptWriter

@Suite struct ScriptGeneratorTests {
    static let yaml = """
        name: Test Marathon 2026
        distance: marathon
        target_time: "3:30:00"
        pacing: {strategy: negative, split_percent: 2}
        fueling: {carbs_per_hour_g: 60, gel_carbs_g: 25, start_after: "0:30:00", caffeine: {mg: 100, after: "2:00:00"}}
        hydration: {ml_per_hour: 500, sodium_mg_per_hour: 400, aid_stations_km: [5, 10, 15, 20, 25, 30, 35, 40]}
        """

    static func script(_ personality: String = "calm_coach") throws -> (RaceScript, RacePlan) {
        let plan = try RacePlanner.plan(try SetupLoader.parse(yaml: yaml, file: "m.yaml"))
        let options = ScriptGenerator.Options(physiology: Physiology(maxHeartRate: 190, thresholdHeartRate: 170))
        return (
            ScriptGenerator.generate(plan: plan, personality: try Personality.named(personality), options: options),
            plan
        )
    }

    /// Per-second distances: the plan's pace times `factor(t)`.
    static func run(_ s: RaceScript, factor: (Double) -> Double, hr: (Int) -> Double = { _ in .nan }) -> [Metrics] {
        var d = [0.0]
        var t = 0
        while d[t] < s.plan.distanceMeters {
            let x = d[t]
            let planSpeed = 100 / (s.plan.clock(at: x + 100) - s.plan.clock(at: x))
            d.append(min(s.plan.distanceMeters, x + planSpeed * factor(x)))
            t += 1
        }
        return LiveMetrics.series(
            distances: d, hr: (0..<d.count).map(hr), cadence: [], startEpoch: 0, plan: s.plan,
            zonesLowBpm: [95, 114, 133, 152, 171], timeZone: TimeZone(identifier: "UTC")!)
    }

    /// A caffeine gel taken at a drink station was announced as a plain gel: the
    /// joint gel-and-drink texts never name caffeine.
    @Test(arguments: Personality.shipped)
    func aCaffeineGelAtADrinkStationSaysItsCaffeine(personality: String) throws {
        let (script, plan) = try Self.script(personality)
        let caffeine = plan.cues.cues.filter { $0.kind == .caffeine }
        try #require(!caffeine.isEmpty)
        for gel in caffeine {
            let spoken = script.messages.filter {
                $0.id.hasSuffix("gel_\(gel.number)") || $0.id.contains("fuel_\(gel.number)_drink")
            }
            try #require(!spoken.isEmpty, "gel \(gel.number) is never spoken")
            #expect(
                spoken.allSatisfy { $0.text.contains("\(TextFormat.fixed(gel.caffeineMg ?? 0, 0)) milligrams") },
                "\(spoken.map(\.text))")
        }
    }

    @Test func generatesEveryRoleWithStableIDs() throws {
        let (s, plan) = try Self.script()
        #expect(s.validate().isEmpty, "\(s.validate())")
        let ids = s.messages.map(\.id)
        #expect(ids.first == "test-marathon-2026.start" && ids.last?.hasPrefix("test-marathon-2026.finish") == true)
        for cp in ["5k", "10k", "half", "30k", "35k", "40k"] {
            for role in ["ahead_of_pace_", "on_pace_", "behind_pace_"] {
                #expect(ids.contains("test-marathon-2026.\(role)\(cp)"), "\(role)\(cp)")
                #expect(s.branches.keys.contains { $0.hasPrefix("\(role)\(cp)") })
            }
        }
        for role in ["too_fast_early", "fading_late", "hr_high", "near_finish", "pace_km_1", "pace_km_42"] {
            #expect(ids.contains("test-marathon-2026.\(role)"), "\(role)")
        }
        let cues = plan.cues.cues.filter { $0.kind != .aid }
        // Every gel and drink is said, a gel and a drink due together as one message.
        let critical = s.messages.filter {
            $0.id.contains(".gel_") || $0.id.contains(".drink_") || $0.id.contains(".fuel_")
        }
        #expect(critical.map { $0.id.contains(".fuel_") ? 2 : 1 }.reduce(0, +) == cues.count)
        #expect(critical.allSatisfy { $0.priority >= 90 })
        #expect(Set(ids).count == ids.count)
        // Regenerating gives the same script (ids, texts, digest): it diffs cleanly.
        let (again, _) = try Self.script()
        #expect(again == s)
        let other = try ScriptGenerator.generate(
            plan: plan, personality: Personality.named("roast_coach"),
            options: .init(physiology: Physiology(maxHeartRate: 190, thresholdHeartRate: 170)))
        // The same ids in every personality but the graded ones (a text claiming a
        // size or a result has its own message only where a personality has one).
        func plain(_ ids: [String]) -> [String] {
            ids.filter { !$0.hasSuffix("_small") && !$0.hasSuffix("_large") && !$0.contains(".finish") }
        }
        #expect(other.inputDigest != s.inputDigest && plain(other.messages.map(\.id)) == plain(ids))
    }

    /// The demo half with its gels at 0:30:00 and 1:07:30 kept off the 5 and 10 km stations.
    static let dryHalf = """
        name: Dry Half
        distance: half
        target_time: "1:35:00"
        fueling: {carbs_per_hour_g: 40, gel_carbs_g: 25, start_after: "0:30:00", snap_tolerance: "0:01:00"}
        hydration: {ml_per_hour: 400, aid_stations_km: [5, 10, 15, 20]}
        """

    @Test(arguments: Personality.shipped)
    func saysWithWaterOnlyWhereWaterIs(name: String) throws {
        let personality = try Personality.named(name)
        for role in ["gel", "caffeine"] {
            #expect(personality.templates[role]!.allSatisfy { !$0.lowercased().contains("water") }, "\(name) \(role)")
        }
        for yaml in [Self.yaml, Self.dryHalf] {
            let plan = try RacePlanner.plan(try SetupLoader.parse(yaml: yaml, file: "m.yaml"))
            let s = ScriptGenerator.generate(plan: plan, personality: personality)
            let gels = plan.cues.cues.filter { $0.kind == .gel || $0.kind == .caffeine }
            let drinks = plan.cues.cues.filter { $0.kind == .drink }
            for m in s.messages where m.id.contains(".gel_") || m.id.contains(".fuel_") {
                let number = Int(m.id.split(separator: ".")[1].split(separator: "_")[1])!
                let gel = try #require(gels.first { $0.number == number })
                let atDrink = drinks.contains { abs($0.distanceMeters - gel.distanceMeters) < 1 }
                // A gel said with a drink is at that drink; a gel alone never names water.
                #expect(m.id.contains(".fuel_") == atDrink, "\(name) \(m.id)")
                if !atDrink { #expect(!m.text.lowercased().contains("water"), "\(name): \(m.text)") }
            }
            if yaml == Self.dryHalf {
                #expect(gels.count == 3 && gels.filter { !$0.atAidStation }.count >= 1)
                #expect(
                    plan.warnings.filter { $0.contains("has no water") }.count == gels.filter { !$0.atAidStation }.count
                )
            }
        }
    }

    @Test(arguments: Personality.shipped)
    func noSentenceRepeatsInAMarathon(name: String) throws {
        let (s, _) = try Self.script(name)
        let texts = s.messages.filter { !$0.id.contains("_pace_") || $0.id.contains("pace_km") }.map(\.text)
        #expect(
            Set(texts).count == texts.count,
            "\(name): repeated \(Dictionary(grouping: texts, by: { $0 }).filter { $1.count > 1 }.keys)")
        let branchTexts = s.messages.filter { $0.branchKey != nil }.map(\.text)
        #expect(Set(branchTexts).count == branchTexts.count)
    }

    @Test func onPlanRunTakesEveryOnPlanBranchAndEveryCue() throws {
        let (s, plan) = try Self.script()
        let metrics = LiveMetrics.series(
            distances: LiveMetrics.onPlan(s.plan), hr: [], cadence: [], startEpoch: 0, plan: s.plan,
            zonesLowBpm: nil, timeZone: TimeZone(identifier: "UTC")!)
        let r = try TriggerEngine.simulate(s, metrics: metrics)
        let played = Set(r.played.map(\.messageId))
        for key in s.branches.keys where key.hasPrefix("on_pace_") {
            #expect(played.contains("test-marathon-2026.\(key)"), "\(key)")
        }
        #expect(played.contains("test-marathon-2026.finish_met"))
        for key in s.branches.keys where !key.hasPrefix("on_pace_") && key != "finish_met" {
            #expect(!played.contains("test-marathon-2026.\(key)"), "\(key)")
        }
        for m in s.messages where m.priority >= 90 && (m.branchKey == nil || m.branchKey == "finish_met") {
            #expect(played.contains(m.id), "\(m.id)")
        }
        #expect(
            plan.cues.cues.filter { $0.kind == .gel || $0.kind == .caffeine }.count
                == r.played.filter { $0.messageId.contains(".gel_") || $0.messageId.contains(".fuel_") }.count)
        #expect(
            !played.contains("test-marathon-2026.too_fast_early") && !played.contains("test-marathon-2026.fading_late"))
        Self.checkWindow(r, s)
    }

    static func checkWindow(_ r: SimulationResult, _ s: RaceScript) {
        // No two messages start within the window unless the later one is race-critical.
        var windowStart = -1_000_000
        for p in r.played {
            if p.priority < s.engine.criticalPriority {
                #expect(
                    p.elapsedSeconds - windowStart >= Int(s.engine.windowSeconds),
                    "\(p.messageId) at \(p.elapsedSeconds)")
            }
            windowStart = p.elapsedSeconds
        }
    }

    @Test func tooFastStartFiresTheTooFastMessage() throws {
        let (s, _) = try Self.script("drill_sergeant")
        let r = try TriggerEngine.simulate(s, metrics: Self.run(s, factor: { $0 < 5000 ? 1.08 : 1.0 }))
        let fast = try #require(r.played.first { $0.messageId.hasSuffix(".too_fast_early") })
        let message = try #require(s.messages.first { $0.id.hasSuffix(".too_fast_early") })
        #expect(fast.distanceMeters < 5000 && !message.text.isEmpty && (message.variants?.count ?? 0) >= 3)
        #expect(r.played.contains { $0.messageId.contains(".ahead_of_pace_5k") })
        Self.checkWindow(r, s)
    }

    @Test func lateFadeFiresTheFadingMessage() throws {
        let (s, _) = try Self.script("roast_coach")
        let r = try TriggerEngine.simulate(s, metrics: Self.run(s, factor: { $0 > 30_000 ? 0.85 : 1.0 }))
        let fade = try #require(r.played.first { $0.messageId.hasSuffix(".fading_late") })
        #expect(fade.distanceMeters > 30_000)
        #expect(r.played.contains { $0.messageId.hasSuffix(".behind_pace_35k") })
        Self.checkWindow(r, s)
    }

    @Test func highHeartRateFiresTheFatigueMessage() throws {
        let (s, _) = try Self.script()
        let r = try TriggerEngine.simulate(
            s, metrics: Self.run(s, factor: { _ in 1 }, hr: { $0 > 3600 && $0 < 3700 ? 180 : 150 }))
        let hr = try #require(r.played.first { $0.messageId.hasSuffix(".hr_high") })
        #expect(hr.elapsedSeconds >= 3630 && hr.elapsedSeconds < 3700)
    }

    @Test func missingTemplateKeyIsAnError() throws {
        let text = """
            name: mine
            templates:
              start: ["Go"]
              pace_km: ["{unit} {km}"]
            """
        do {
            _ = try Personality.parse(text, file: "mine.yaml")
            Issue.record("accepted a personality without most roles")
        } catch let e as SetupError {
            #expect(e.key == "templates.ahead" && e.line == 2 && e.description.contains("is required"), "\(e)")
        }
    }

    /// Each role may use only the fields generation fills for it (and the
    /// run-time ones): {split} exists for pace_km, not for start.
    /// A role's texts in a minimal valid personality: what it must contain, and
    /// enough of them where they are said in turn.
    static func minimalTexts(_ role: String, extra: String = "{race}") -> String {
        let must = Personality.mustContain[role].map { "{\($0)} " } ?? ""
        let n = Personality.minimumTexts[role] ?? 1
        return "[" + (1...n).map { "\"\(must)\(extra) \($0)\"" }.joined(separator: ", ") + "]"
    }

    @Test func fieldsAreCheckedPerRole() throws {
        let roles = Personality.roles.map { "  \($0): \(Self.minimalTexts($0))" }.joined(separator: "\n")
        let good = "name: mine\ntemplates:\n" + roles + "\n"
        #expect(try Personality.parse(good, file: "mine.yaml").templates["start"] == ["{race} 1"])
        for (role, field, ok) in [
            ("pace_km", "split", true), ("start", "split", false), ("drink", "fluid", true),
            ("gel", "fluid", false), ("on", "checkpoint", true), ("finish", "km", false),
            ("finish", "gap", true), ("start", "kilometre", false), ("climb", "grade", true),
            ("fuel_and_drink", "drink_number", true), ("descent", "fluid", false)
        ] {
            let text = good.replacingOccurrences(
                of: "  \(role): \(Self.minimalTexts(role))",
                with: "  \(role): \(Self.minimalTexts(role, extra: "{\(field)}"))")
            do {
                _ = try Personality.parse(text, file: "mine.yaml")
                #expect(ok, "accepted {\(field)} in \(role)")
            } catch let e as SetupError {
                #expect(!ok, "refused {\(field)} in \(role): \(e)")
                #expect(
                    e.key == "templates.\(role)[0]"
                        && e.description.contains("{\(field)} is not filled in \(role) texts"), "\(e)")
            }
        }
        for name in Personality.shipped { _ = try Personality.named(name) }
        // What makes each sentence unique is required, and conditions need several texts.
        let noKm = good.replacingOccurrences(
            of: "  pace_km: \(Self.minimalTexts("pace_km"))", with: "  pace_km: [\"Nice and relaxed.\"]")
        #expect(throws: SetupError.self) { try Personality.parse(noKm, file: "mine.yaml") }
        let oneFade = good.replacingOccurrences(
            of: "  fading_late: \(Self.minimalTexts("fading_late"))", with: "  fading_late: [\"Dig in.\"]")
        #expect(throws: SetupError.self) { try Personality.parse(oneFade, file: "mine.yaml") }
        // A file of the first format (no later roles) still loads: calm_coach's texts fill them.
        let old =
            "name: mine\ntemplates:\n"
            + Personality.requiredRoles.map { "  \($0): \(Self.minimalTexts($0))" }.joined(separator: "\n") + "\n"
        let loaded = try Personality.parse(old, file: "mine.yaml")
        #expect(loaded.templates["climb"] == (try Personality.named("calm_coach")).templates["climb"])
    }
}

@Suite struct ScriptDigestTests {
    /// The same race written another way: keys in another order, other
    /// spellings of the same values, comments.
    static let sameRace = """
        # the same race
        target_time: 3:30:00
        distance: "42.195 km"
        name: Test Marathon 2026
        hydration: {aid_stations_km: [5, 10, 15, 20, 25, 30, 35, 40], sodium_mg_per_hour: 400, ml_per_hour: 500}
        fueling: {gel_carbs_g: 25, carbs_per_hour_g: 60, caffeine: {after: "2:00:00", mg: 100}, start_after: "30:00"}
        pacing: {split_percent: 2, strategy: negative}
        """

    static func digest(_ yaml: String, personality: String = "calm_coach") throws -> String {
        let plan = try RacePlanner.plan(try SetupLoader.parse(yaml: yaml, file: "m.yaml"))
        return ScriptGenerator.digest(plan: plan, personality: try Personality.named(personality))
    }

    @Test func theDigestIsOfTheNormalisedInputsNotTheirSpelling() throws {
        let a = try Self.digest(ScriptGeneratorTests.yaml)
        #expect(a.count == 64)
        // "marathon" and "42.195 km" normalise to the same metres but are kept
        // as written (`distance` in the plan JSON), so only that differs: use the
        // same spelling of the distance to compare the rest.
        let respelled = Self.sameRace.replacingOccurrences(of: "\"42.195 km\"", with: "marathon")
        #expect(try Self.digest(respelled) == a)
        #expect(try Self.digest(ScriptGeneratorTests.yaml.replacingOccurrences(of: "3:30:00", with: "3:10:00")) != a)
        #expect(try Self.digest(ScriptGeneratorTests.yaml, personality: "roast_coach") != a)
    }
}
