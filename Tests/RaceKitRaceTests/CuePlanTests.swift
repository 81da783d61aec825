import Foundation
import Testing

@testable import RaceKitCore
@testable import RaceKitRace

@Suite struct CuePlanTests {
    static func marathon() throws -> PacePlan {
        try PacePlan(distanceMeters: 42_195, targetSeconds: 3 * 3600 + 30 * 60, strategy: .even)
    }

    @Test func gelsFollowTheTimeGridAndSnapToAidStations() throws {
        let plan = try Self.marathon()
        var f = FuelingSettings(carbsPerHourGrams: 60, gelCarbsGrams: 30, startAfterSeconds: 30 * 60)
        f.snapToleranceSeconds = 4 * 60
        // 30 min is 6.03 km at 4:58.6/km; a station at 6.5 km is 2:20 later.
        var h = HydrationSettings(mlPerHour: 500, sodiumMgPerHour: 400)
        h.aidStationsMeters = [6500, 15_000, 20_000, 25_000, 30_000, 35_000, 40_000]
        let cues = CuePlan(plan: plan, fueling: f, hydration: h)
        let gels = cues.cues.filter { $0.kind == .gel }
        #expect(gels.count == 6, "30 min grid from 0:30 to 3:15: \(gels.map(\.clockSeconds))")
        #expect(gels[0].distanceMeters == 6500 && gels[0].atAidStation)
        #expect(gels[0].clockSeconds == Int(plan.clockSeconds(at: 6500).rounded()))
        // 1:00 is 12.06 km: stations at 6.5 (used) and 15 km (14:36 away) are too far: it stays.
        #expect(!gels[1].atAidStation && abs(Double(gels[1].clockSeconds) - 3600) <= 1)
        // No two gels at one station.
        let snapped = gels.filter(\.atAidStation).map(\.distanceMeters)
        #expect(Set(snapped).count == snapped.count)
        #expect(cues.totals.carbsGrams == 180)
        #expect(cues.cues.filter { $0.kind == .aid }.count == 7)
        // Every cue carries the plan's clock time at its distance.
        for c in cues.cues { #expect(abs(Double(c.clockSeconds) - plan.clockSeconds(at: c.distanceMeters)) <= 0.5) }
    }

    @Test func drinksCoverTheTimeSinceThePreviousOne() throws {
        let plan = try Self.marathon()
        var h = HydrationSettings(mlPerHour: 600, sodiumMgPerHour: 300)
        h.aidStationsMeters = [10_000, 20_000, 30_000, 40_000]
        let cues = CuePlan(plan: plan, fueling: nil, hydration: h)
        let drinks = cues.cues.filter { $0.kind == .drink }
        #expect(drinks.count == 4)
        let hours = plan.clockSeconds(at: 10_000) / 3600
        #expect(drinks[0].fluidMl == (600 * hours / 10).rounded() * 10)
        #expect(drinks[0].sodiumMg == (300 * hours / 10).rounded() * 10)
        var every = HydrationSettings(mlPerHour: 600)
        every.everySeconds = 20 * 60
        let timed = CuePlan(plan: plan, fueling: nil, hydration: every).cues.filter { $0.kind == .drink }
        #expect(timed.count == 10 && timed.allSatisfy { $0.fluidMl == 200 })
        #expect(abs(Double(timed[0].clockSeconds) - 1200) <= 1)
    }

    @Test func caffeineGoesOnTheFirstGelAfterItsTime() throws {
        let plan = try Self.marathon()
        var f = FuelingSettings(carbsPerHourGrams: 60, gelCarbsGrams: 20, startAfterSeconds: 20 * 60)
        f.caffeine = .init(milligrams: 100, afterSeconds: 90 * 60, everySeconds: 60 * 60)
        let cues = CuePlan(plan: plan, fueling: f, hydration: nil)
        let caffeinated = cues.cues.filter { $0.kind == .caffeine }
        #expect(caffeinated.map(\.clockSeconds) == [100 * 60, 160 * 60])
        #expect(cues.totals.caffeineMg == 200)
    }

    @Test func warningsFollowPublishedGuidance() throws {
        let plan = try Self.marathon()
        var h = HydrationSettings(mlPerHour: 900)
        h.everySeconds = 15 * 60
        let heavy = CuePlan(
            plan: plan, fueling: FuelingSettings(carbsPerHourGrams: 100, gelCarbsGrams: 25, startAfterSeconds: 1800),
            hydration: h)
        #expect(heavy.warnings.contains { $0.contains("above the 90 g/h") })
        #expect(heavy.warnings.contains { $0.contains("above 800 ml/h") })
        #expect(heavy.warnings.contains { $0.contains("no sodium") })
        let short = try PacePlan(distanceMeters: 10_000, targetSeconds: 2700, strategy: .even)
        let fuelled = CuePlan(
            plan: short, fueling: FuelingSettings(carbsPerHourGrams: 40, gelCarbsGrams: 20, startAfterSeconds: 900),
            hydration: nil)
        #expect(fuelled.totals.gels == 1)
        #expect(fuelled.warnings.contains { $0.contains("under an hour") })
        let fine = CuePlan(
            plan: plan, fueling: FuelingSettings(carbsPerHourGrams: 60, gelCarbsGrams: 25, startAfterSeconds: 1800),
            hydration: nil)
        #expect(fine.warnings.isEmpty, "\(fine.warnings)")
    }
}
