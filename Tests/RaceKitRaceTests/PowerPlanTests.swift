import Foundation
import RaceKitScript
import Testing

@testable import RaceKitModel
@testable import RaceKitPlan
@testable import RaceKitScriptWriter

/// Issue 38 item 7: plans by power (docs/race-plans.md, "Power plans").
@Suite struct PowerPlanTests {
    static func setup(_ pacing: String, extra: String = "") throws -> RaceSetup {
        try SetupLoader.parse(
            yaml: """
                name: Power Half
                date: 2026-05-10
                start_time: "09:00"
                distance: half
                target_time: "1:45:00"
                pacing:
                \(pacing.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"))
                \(extra)
                """, file: "Races/power.yaml")
    }

    /// 0 m flat, a 4% climb from 3 to 6 km, flat, the descent from 12 to 15 km.
    static func hill(_ x: Double) -> Double {
        switch x {
        case ..<3000: return 100
        case ..<6000: return 100 + (x - 3000) * 0.04
        case ..<12_000: return 220
        case ..<15_000: return 220 - (x - 12_000) * 0.04
        default: return 100
        }
    }

    static func plan(_ setup: RaceSetup, hilly: Bool) throws -> RacePlan {
        var warnings: [String] = []
        let course =
            hilly
            ? try CourseProfile(samples: syntheticCourse(length: 21_097.5, elevation: Self.hill), raceMeters: 21_097.5)
            : nil
        return try RacePlanner.plan(setup, course: course, unitMeters: 1000, warnings: &warnings)
    }

    @Test func onTheFlatTheWattsGiveTheirSpeed() throws {
        let plan = try Self.plan(try Self.setup("strategy: power\nwatts: 250\nwatts_per_mps: 75"), hilly: false)
        // 250 W at 75 W per m/s is 3.333 m/s: 21,097.5 m in 6,329.25 s.
        #expect(abs(plan.plannedSeconds - 21_097.5 * 75 / 250) < 1e-6)
        #expect(plan.setup.targetSeconds == plan.plannedSeconds)
        for s in plan.splits { #expect(abs(try #require(s.powerWatts) - 250) < 1e-6, "split \(s.split.index)") }
        #expect(
            plan.notes.first
                == "Power: 250 W (75.0 W per m/s of flat running from the setup) gives 1:45:29 on the flat, 0:29 slower than the target 1:45:00."
        )
        #expect(PlanOutput.splitsCSV(plan).split(separator: "\r\n")[1].hasSuffix(",250"))
        #expect(PaceBand.svg(plan, unitName: "km").contains(">250</text>"))
    }

    @Test func overHillsTheWattsStayAndThePaceFollowsTheGrade() throws {
        let setup = try Self.setup(
            "strategy: power\ncp_percent: 90\ncritical_power_w: 300\nwatts_per_mps: 80", extra: "")
        let plan = try Self.plan(setup, hilly: true)
        let watts = plan.splits.compactMap(\.powerWatts)
        #expect(watts.count == plan.splits.count)
        #expect(watts.allSatisfy { abs($0 - 270) < 1e-6 }, "\(watts)")
        // The climb's kilometre is slower than the flat's, the descent's faster, at the same watts.
        let flat = plan.splits[1].split.splitSeconds, up = plan.splits[4].split.splitSeconds
        let down = plan.splits[13].split.splitSeconds
        #expect(up > flat + 30 && down < flat - 10, "\(flat) \(up) \(down)")
        // The time is the course's flat-equivalent metres over the watts' speed.
        let cost = try CourseProfile(
            samples: syntheticCourse(length: 21_097.5, elevation: Self.hill), raceMeters: 21_097.5
        )
        .cost(.road)
        #expect(abs(plan.plannedSeconds - cost.integrals(21_097.5).f * 80 / 270) < 1e-6)
        #expect(plan.notes.first?.contains("270 W (90% of critical power 300 W from the setup;") == true)
        #expect(plan.notes.first?.contains("over this course") == true)
    }

    @Test func aPlanSlowedForTheHeatHoldsFewerWattsAndSaysSo() throws {
        let cool = try Self.plan(try Self.setup("strategy: power\nwatts: 250\nwatts_per_mps: 75"), hilly: false)
        let warm = try Self.plan(
            try Self.setup(
                "strategy: power\nwatts: 250\nwatts_per_mps: 75", extra: "weather: {temperature_c: 27, dew_point_c: 19}"
            ),
            hilly: false)
        #expect(warm.plannedSeconds > cool.plannedSeconds * 1.02)
        let w = try #require(warm.splits.first?.powerWatts)
        #expect(abs(w - 250 * cool.plannedSeconds / warm.plannedSeconds) < 0.5)
        #expect(PlanOutput.summary(warm)[0].contains("(1:45:29 on a cool day, slowed for the heat)"))
        #expect(
            warm.notes.first?.contains("gives 1:45:29 on a cool day on the flat, 0:29 slower than the target") == true)
        let json = PlanOutput.json(warm)
        #expect(json.power?.watts == 250 && json.power?.seconds == 6329 && json.power?.targetTimeSeconds == 6300)
        #expect(PlanOutput.json(try HeatPlanTests.plan()).power == nil)
    }

    @Test func aPowerPlanWithoutItsFiguresNamesTheKey() throws {
        func refusal(_ pacing: String) -> String? {
            do {
                _ = try Self.plan(try Self.setup(pacing), hilly: false)
                return nil
            } catch let e as SetupError { return e.key + ": " + e.message } catch { return "\(error)" }
        }
        #expect(refusal("strategy: power\nwatts: 250")?.hasPrefix("pacing.watts_per_mps: a power plan needs") == true)
        // Both figures missing: both named in one message.
        #expect(
            refusal("strategy: power\ncp_percent: 90")?.hasPrefix(
                "pacing.watts_per_mps: a power plan needs watts_per_mps (the athlete's watts per m/s of flat running) and critical_power_w (for cp_percent): give them in the setup"
            )
                == true)
        // A strategy spelt otherwise is named as such, not as a power key out of place.
        #expect(refusal("strategy: Power\nwatts: 250")?.hasPrefix("pacing.strategy: 'Power' is not one of") == true)
        #expect(
            refusal("strategy: power\ncp_percent: 90\nwatts_per_mps: 75")?.hasPrefix("pacing.critical_power_w:") == true
        )
        #expect(
            refusal("strategy: power\nwatts: 250\ncp_percent: 90")?.hasPrefix("pacing: give watts or cp_percent")
                == true)
        #expect(refusal("strategy: power")?.hasPrefix("pacing.watts: a power strategy needs watts") == true)
        #expect(
            refusal("strategy: even\nwatts: 250")?.hasPrefix("pacing.watts: only a power strategy takes watts") == true)
        #expect(refusal("strategy: power\nwatts: 2000\nwatts_per_mps: 75")?.contains("out of range") == true)
        #expect(refusal("strategy: power\nwatts: .nan\nwatts_per_mps: 75") != nil)
        // 1,500 W at 20 W per m/s is 75 m/s: no running pace.
        #expect(
            refusal("strategy: power\nwatts: 1500\nwatts_per_mps: 20")?.hasPrefix(
                "pacing.watts: 1500 W at 20.0 W per m/s is 0:13/km on the flat and 4:41 for the race") == true)
    }

    @Test func theScriptEngineSeesPowerNowAndOverThreeMinutes() throws {
        let plan = try Self.plan(try Self.setup("strategy: power\nwatts: 250\nwatts_per_mps: 75"), hilly: false)
        // A run at 3.3 m/s: 200 W for 5 minutes, then 300 W; a record every 5 s.
        var s = SampleSeries()
        for i in stride(from: 0, through: 900, by: 5) {
            var p = SamplePoint()
            p.time = 1_778_400_000 + Double(i)
            p.distance = Double(i) * 3.3
            p.power = i < 300 ? 200 : 300
            s.append(p)
        }
        let metrics = LiveMetrics.series(
            s, startEpoch: 1_778_400_000, plan: ScriptGenerator.scriptPlan(plan), zonesLowBpm: nil,
            timeZone: TimeZone(identifier: "UTC")!)
        #expect(metrics[10].power == 200 && metrics[10].power3min.isNaN)
        #expect(metrics[100].power3min == 200)
        #expect(metrics[302].power == 300)
        // At 360 s the last 3 minutes (seconds 181-360) hold 119 s at 200 W and 61 at 300 W (from 300 s on).
        #expect(abs(metrics[360].power3min - Double(119 * 200 + 61 * 300) / 180) < 1e-9)
        let expr = try Expression("power_3min > 280")
        #expect(expr.holds(metrics[700]) && !expr.holds(metrics[100]))
    }
}
