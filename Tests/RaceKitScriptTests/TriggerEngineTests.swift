import Foundation
import Testing

@testable import RaceKitScript

@Suite struct TriggerEngineTests {
    /// A 10 km plan at 5:00/km.
    static let plan = ScriptPlan(
        distanceMeters: 10_000, targetSeconds: 3000, stepMeters: 1000,
        clockSeconds: (0...10).map { Double($0) * 300 })

    static func script(
        _ messages: [ScriptMessage], branches: [String: String] = [:], engine: EngineSettings = EngineSettings()
    ) -> RaceScript {
        RaceScript(
            id: "t", race: "t", personality: "p", generator: "test", inputDigest: "", engine: engine, plan: plan,
            branches: branches, messages: messages)
    }

    /// Metrics at `speed` m/s (per second, may vary), with optional HR per second.
    static func run(
        seconds: Int, speed: (Int) -> Double = { _ in 10_000.0 / 3000 }, hr: (Int) -> Double = { _ in .nan }
    ) -> [Metrics] {
        var d = [0.0]
        for k in 1...seconds { d.append(d[k - 1] + speed(k)) }
        return LiveMetrics.series(
            distances: d, hr: (0...seconds).map(hr), cadence: [], startEpoch: 0, plan: plan,
            zonesLowBpm: [100, 130, 150, 165, 178], timeZone: TimeZone(identifier: "UTC")!)
    }

    @Test func windowPriorityAndStale() throws {
        // Four messages due at once at 1 km (t = 300): one a window, the rest wait.
        let messages = [("a", 50), ("b", 60), ("c", 40), ("d", 30)].map {
            ScriptMessage(id: $0.0, trigger: .distance(1000), text: $0.0, priority: $0.1)
        }
        let r = try TriggerEngine.simulate(Self.script(messages), metrics: Self.run(seconds: 900))
        #expect(r.played.map(\.messageId) == ["b", "a", "c"])
        #expect(
            r.played.map(\.elapsedSeconds) == [300, 330, 360], "one message per 30 s window, highest priority first")
        #expect(r.notPlayed.count == 1 && r.notPlayed[0].messageId == "d" && r.notPlayed[0].reason == .lower_priority)
        #expect(r.droppedStale == 1)
    }

    @Test func raceCriticalMessagesOverrideTheWindowAndRestartIt() throws {
        let messages = [
            ScriptMessage(id: "km1", trigger: .distance(1000), text: "km", priority: 50),
            ScriptMessage(id: "gel", trigger: .distance(1010), text: "gel", priority: 95),
            ScriptMessage(id: "late", trigger: .distance(1020), text: "late", priority: 50)
        ]
        let r = try TriggerEngine.simulate(Self.script(messages), metrics: Self.run(seconds: 900))
        #expect(r.played.map(\.messageId) == ["km1", "gel", "late"])
        // gel at 303 s inside km1's window; late (due 306) waits for gel's window: 303 + 30.
        #expect(r.played.map(\.elapsedSeconds) == [300, 303, 333])
    }

    @Test func windowReasonWhenOnlyTheWindowBlocked() throws {
        var engine = EngineSettings()
        engine.staleSeconds = 10
        let messages = [
            ScriptMessage(id: "first", trigger: .distance(1000), text: "1", priority: 50),
            ScriptMessage(id: "second", trigger: .distance(1020), text: "2", priority: 80)
        ]
        let r = try TriggerEngine.simulate(Self.script(messages, engine: engine), metrics: Self.run(seconds: 900))
        #expect(r.played.map(\.messageId) == ["first"])
        #expect(r.notPlayed.first?.reason == .window)
    }

    @Test func playOnceAndRepeatingTriggers() throws {
        let messages = [
            ScriptMessage(
                id: "every", trigger: Trigger(type: .distance, everyMeters: 1000), text: "km {distance_km}",
                priority: 40, playOnce: false),
            ScriptMessage(
                id: "once", trigger: Trigger(type: .distance, everyMeters: 2000), text: "once", priority: 30,
                playOnce: true)
        ]
        let r = try TriggerEngine.simulate(Self.script(messages), metrics: Self.run(seconds: 3000))
        #expect(r.played.filter { $0.messageId == "every" }.count == 9, "km 1 to 9 (not at the finish)")
        #expect(r.played.filter { $0.messageId == "once" }.count == 1)
        #expect(r.played.first { $0.messageId == "every" }?.text == "km 1.0")
    }

    @Test func conditionsHoldFireOnceReArmAndCoolDown() throws {
        // HR above 170 for 10 s (too short), then 100 s, then below, then again within and after the cooldown.
        let hr: (Int) -> Double = { k in
            switch k {
            case 100..<110, 200..<300, 330..<400, 700..<800: return 175
            default: return 150
            }
        }
        let messages = [
            ScriptMessage(
                id: "hr_high",
                trigger: Trigger(type: .fatigue_zone, expression: "hr > 170", cooldownSeconds: 300, holdSeconds: 20),
                text: "easy, HR {hr}", priority: 70, playOnce: false)
        ]
        let r = try TriggerEngine.simulate(Self.script(messages), metrics: Self.run(seconds: 1000, hr: hr))
        // Fires at 220 (held 20 s); not again while it keeps holding; 330-400 is within the cooldown; 720 fires.
        #expect(r.played.map(\.elapsedSeconds) == [220, 720])
        #expect(r.played[0].text == "easy, HR 175")
        let cooled = try TriggerEngine.simulate(Self.script(messages), metrics: Self.run(seconds: 600, hr: hr))
        #expect(cooled.played.count == 1)
        let never = try TriggerEngine.simulate(
            Self.script([
                ScriptMessage(
                    id: "x", trigger: Trigger(type: .condition, expression: "hr > 170"), text: "x", priority: 50)
            ]),
            metrics: Self.run(seconds: 600, hr: { _ in 150 }))
        #expect(never.notPlayed.first?.reason == .never_triggered)
    }

    @Test func quietWarmUp() throws {
        let messages = [
            ScriptMessage(id: "start", trigger: Trigger(type: .time, atSeconds: 0), text: "go", priority: 60),
            ScriptMessage(id: "early", trigger: .distance(50), text: "early", priority: 50),
            ScriptMessage(
                id: "fast", trigger: Trigger(type: .condition, expression: "distance > 0"), text: "fast", priority: 40)
        ]
        let r = try TriggerEngine.simulate(Self.script(messages), metrics: Self.run(seconds: 300))
        #expect(r.played.map(\.messageId) == ["start", "early", "fast"])
        // early (due at 15 s) waits out the 60 s warm-up; the condition counts its hold only after it.
        #expect(r.played.map(\.elapsedSeconds) == [0, 60, 90])
    }

    @Test func branchesPlayOnlyWhenTheirExpressionHolds() throws {
        let branches = [
            "ahead_of_pace_5k": "avg_pace < target_pace * 0.99",
            "on_pace_5k": "avg_pace >= target_pace * 0.99 AND avg_pace <= target_pace * 1.01",
            "behind_pace_5k": "avg_pace > target_pace * 1.01"
        ]
        let messages = ["ahead_of", "on", "behind"].map {
            ScriptMessage(
                id: "\($0)_pace_5k", trigger: .distance(5000), branchKey: "\($0)_pace_5k", text: "\($0) {gap}",
                priority: 60)
        }
        let fast = try TriggerEngine.simulate(
            Self.script(messages, branches: branches), metrics: Self.run(seconds: 2000, speed: { _ in 3.6 }))
        #expect(fast.played.map(\.messageId) == ["ahead_of_pace_5k"])
        #expect(fast.played[0].text.hasSuffix("ahead of plan"))
        #expect(Set(fast.notPlayed.map(\.reason)) == [.branch_not_taken])
        let even = try TriggerEngine.simulate(
            Self.script(messages, branches: branches), metrics: Self.run(seconds: 2000))
        #expect(even.played.map(\.messageId) == ["on_pace_5k"])
        #expect(even.played[0].text == "on on plan")
    }

    @Test func pausesKeepTheClockAndThePaceSteady() {
        // 5:00/km, a 60 s stop at 600 s.
        let m = Self.run(seconds: 1200, speed: { k in (600..<660).contains(k) ? 0 : 10_000.0 / 3000 })
        #expect(abs(m[599].currentPace - 300) < 1)
        #expect(abs(m[630].currentPace - 300) < 1, "held through the pause")
        #expect(abs(m[700].currentPace - 300) < 1, "no jump after it")
        #expect(m[630].duration == 630 && m[630].distance == m[600].distance)
        #expect(m[700].avgPace > 300, "the race clock kept running")
        #expect(m[700].pace3minRatio < 1)
    }

    @Test func scriptValidationNamesEachProblem() throws {
        var s = Self.script([
            ScriptMessage(id: "a", trigger: Trigger(type: .distance), text: "x", priority: 50),
            ScriptMessage(
                id: "a", trigger: Trigger(type: .condition, expression: "hr >> 3"), branchKey: "nope", text: "{pace}",
                priority: 150)
        ])
        s.engine.windowSeconds = -1
        let problems = s.validate().map(\.description)
        #expect(problems.contains { $0.hasPrefix("engine.windowSeconds") })
        #expect(
            problems.contains {
                $0.contains("messages[0] (a).trigger: a distance trigger needs atMeters or everyMeters")
            })
        #expect(problems.contains { $0.contains("messages[1] (a).id: the id is used twice") })
        #expect(problems.contains { $0.contains("messages[1] (a).trigger.expression: column 5") && $0.contains("^") })
        #expect(problems.contains { $0.contains("branchKey: 'nope' is not in branches") })
        #expect(problems.contains { $0.contains("unknown placeholder {pace}") })
        #expect(problems.contains { $0.contains("priority: must be 0 to 100") })
        // Round trip through JSON, and loading validates.
        let good = Self.script([ScriptMessage(id: "a", trigger: .distance(1000), text: "x", priority: 50)])
        #expect(try RaceScript.load(try good.json()) == good)
        #expect(throws: ScriptError.self) { try RaceScript.load(try s.json()) }
        #expect(throws: ScriptError.self) { try RaceScript.load(Data("{\"id\": 1}".utf8)) }
    }
}
