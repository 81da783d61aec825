import Foundation
import RaceKitTestSupport
import Testing

@testable import RaceKitModel
@testable import RaceKitOutput
@testable import RaceKitPlan
@testable import RaceKitReview

/// A flat 3:15 marathon, even pacing, aid stations every 5 km, gels from 0:30.
func reviewPlan() throws -> RacePlan {
    var setup = RaceSetup(
        file: "Races/test.yaml", name: "Test Marathon", distanceText: "marathon", distanceMeters: 42_195,
        targetSeconds: 3 * 3600 + 15 * 60)
    var hydration = HydrationSettings(mlPerHour: 500, sodiumMgPerHour: 400)
    hydration.aidStationsMeters = stride(from: 5000.0, through: 40_000, by: 5000).map { $0 }
    setup.hydration = hydration
    setup.fueling = FuelingSettings(carbsPerHourGrams: 60, gelCarbsGrams: 25, startAfterSeconds: 1800)
    var warnings: [String] = []
    return try RacePlanner.plan(setup, course: nil, unitMeters: 1000, warnings: &warnings)
}

/// A run of the plan: a sample every 4 m at the plan's clock plus `extra(x)`
/// seconds; `stop` stands still `seconds` at a distance; the watch measures
/// `watchScale` times the course.
func plannedRun(
    _ plan: RacePlan, extra: (Double) -> Double = { _ in 0 }, stop: (meters: Double, seconds: Double)? = nil,
    watchScale: Double = 1
) -> SampleSeries {
    var s = SampleSeries()
    var x = 0.0
    var stopped = false
    while true {
        var p = SamplePoint()
        let standing = stop.map { stopped && x >= $0.meters } ?? false
        p.time = 1_790_000_000 + plan.pacePlan.clockSeconds(at: x) + extra(x) + (standing ? stop!.seconds : 0)
        p.distance = x * watchScale
        p.elevation = 35
        p.heartRate = 150
        s.append(p)
        if let stop, !stopped, x >= stop.meters {
            // The watch keeps recording while the runner stands still.
            stopped = true
            var q = p
            for k in 1...Int(stop.seconds) {
                q.time = p.time + Double(k)
                s.append(q)
            }
            x += 4
            continue
        }
        if x >= plan.setup.distanceMeters { break }
        x = min(x + 4, plan.setup.distanceMeters)
    }
    return s
}

func review(_ plan: RacePlan, _ s: SampleSeries) throws -> RaceReview {
    try ReviewAnalyzer.review(
        plan,
        .init(
            runID: "TEST", samples: s, startEpoch: s.time[0], script: nil, physiology: nil,
            timeZone: TimeZone(identifier: "UTC")!))
}

@Suite struct ReviewTests {
    @Test func aRunEqualToThePlanHasZeroGapAndNoBreak() throws {
        let plan = try reviewPlan()
        let r = try review(plan, plannedRun(plan))
        for s in r.splits { #expect(abs(s.gapSeconds) < 0.05, "split \(s.index): gap \(s.gapSeconds)") }
        #expect(r.brokeAtMeters == nil)
        #expect(abs(r.fadePercent) < 0.05)
        #expect(r.stops.isEmpty)
        #expect(abs(r.actualSeconds - r.targetSeconds) < 0.05)
        #expect(r.verdict.contains("Finished in 3:15:00, exactly on the 3:15:00 target."))
        #expect(r.verdict.contains("Went through halfway exactly on plan."))
        #expect(r.verdict.contains("The plan held: no split lost more than 2% of its planned time for good."))
        #expect(r.verdict.contains("Held the pace over the last quarter (0.0% against the first three)."))
        for c in r.cues {
            #expect(abs(c.actualClockSeconds - c.plannedClockSeconds) < 0.6)
            #expect(c.stopSeconds == 0 && c.slowdownSeconds < 0.5)
        }
    }

    @Test func eachSplitOfTheReviewHasItsAveragePowerWhereTheRunHasPower() throws {
        let plan = try reviewPlan()
        var s = plannedRun(plan)
        // 250 W to halfway, 200 W after (the samples are about 1.1 s apart: held, never a pause).
        for i in 0..<s.count { s.power[i] = s.distance[i] < 21_000 ? 250 : 200 }
        let r = try review(plan, s)
        #expect(abs(try #require(r.splits[0].avgPowerWatts) - 250) < 0.5)
        #expect(abs(try #require(r.splits[30].avgPowerWatts) - 200) < 0.5)
        let table = ReviewOutput.splitRows(r)
        #expect(table.header.contains("W") && table.rows[0].contains("250"))
        // Without power: no W column, null in JSON.
        let plain = try review(plan, plannedRun(plan))
        #expect(plain.splits.allSatisfy { $0.avgPowerWatts == nil })
        #expect(!ReviewOutput.splitRows(plain).header.contains("W"))
    }

    @Test func losingTenSecondsPerKmFromThirtyKmBreaksThere() throws {
        let plan = try reviewPlan()
        let r = try review(plan, plannedRun(plan, extra: { x in max(0, x - 30_000) / 1000 * 10 }))
        #expect(r.brokeAtMeters == 30_000)
        let last = try #require(r.splits.last)
        #expect(abs(last.gapSeconds - 121.95) < 0.05)
        let lost = 121.95, stretch = plan.pacePlan.clockSeconds(at: 42_195) - plan.pacePlan.clockSeconds(at: 30_000)
        let pct = TextFormat.fixed(lost / stretch * 100, 1)
        #expect(
            r.verdict.contains(
                "The plan broke at 30.0 km: from there to the finish 2:02 was lost on the plan (\(pct)% slower, stops left out), and never won back."
            ))
        // Fade: the last quarter (from 31.646 km) ran 10 s/km slower than planned.
        let q = 42_195 * 0.75
        let firstRatio = (plan.pacePlan.clockSeconds(at: q) + (q - 30_000) / 100) / plan.pacePlan.clockSeconds(at: q)
        let lastPlan = plan.pacePlan.clockSeconds(at: 42_195) - plan.pacePlan.clockSeconds(at: q)
        let fade = ((lastPlan + (42_195 - q) / 100) / lastPlan / firstRatio - 1) * 100
        #expect(abs(r.fadePercent - fade) < 0.01)
        #expect(
            r.verdict.contains(
                "Faded over the last quarter: \(TextFormat.fixed(fade, 1))% slower against the plan than over the first three."
            ))
        #expect(r.verdict.contains("Finished in 3:17:02, 2:02 slower than the 3:15:00 target (1.0%)."))
    }

    @Test func aFortySecondStopAtTheTwentyFiveKmAidStationShowsThere() throws {
        let plan = try reviewPlan()
        let r = try review(
            plan,
            plannedRun(plan, stop: (25_000, 40)))
        #expect(r.stops.count == 1)
        let stop = try #require(r.stops.first)
        #expect(abs(stop.atMeters - 25_000) < 5 && abs(stop.seconds - 40) < 1.5)
        let drink = try #require(r.cues.first { $0.kind == .drink && $0.plannedMeters == 25_000 })
        #expect(abs(drink.stopSeconds - 40) < 1.5)
        #expect(drink.slowdownSeconds > 35)
        // Elsewhere nobody stopped.
        for c in r.cues where abs(c.plannedMeters - 25_000) > 200 { #expect(c.stopSeconds == 0) }
        // A stop is not a break: the pace after it is the plan's.
        #expect(r.brokeAtMeters == nil)
        #expect(r.verdict.contains("Stopped once, for 40 s at 25.0 km."))
    }

    @Test func aGPSTrackOnePointFivePercentLongIsAlignedOnTheCourse() throws {
        let plan = try reviewPlan()
        let r = try review(plan, plannedRun(plan, watchScale: 1.015))
        #expect(abs(r.scale - 1 / 1.015) < 1e-9)
        for s in r.splits { #expect(abs(s.gapSeconds) < 0.05) }
        #expect(r.brokeAtMeters == nil)
    }

    @Test func aRunFarFromTheRaceDistanceIsRefused() throws {
        let plan = try reviewPlan()
        #expect(throws: ReviewError.self) { try review(plan, plannedRun(plan, watchScale: 0.5)) }
        var s = plannedRun(plan)
        s.modify(.distance) { d in for i in d.indices { d[i] = .nan } }
        #expect(throws: ReviewError.noDistance(runID: "TEST")) { try review(plan, s) }
    }

    @Test func halfHeartRatesAndGelsAreInTheVerdict() throws {
        let plan = try reviewPlan()
        let r = try review(plan, plannedRun(plan))
        #expect(r.verdict.contains("Heart rate averaged 150 bpm over the first half and 150 over the second (+0)."))
        let gels = plan.cues.cues.filter { $0.kind == .gel || $0.kind == .caffeine }.count
        #expect(gels > 1)
        #expect(r.verdict.contains("The \(gels) gels all came on time against the plan's clock."))
        let late = try review(plan, plannedRun(plan, extra: { x in x / 1000 * 3 }))
        let first = try #require(late.cues.first { $0.kind == .gel }),
            lastGel = try #require(late.cues.last { $0.kind == .gel })
        // Late by 3 s a km against the plan's clock, which cues carry in whole seconds
        // (a gel away from a km mark has its clock rounded).
        let lateness = { (x: Double) in
            plan.pacePlan.clockSeconds(at: x) + x / 1000 * 3
                - Double(plan.cues.cues.first { abs($0.distanceMeters - x) < 0.5 && $0.kind != .aid }!.clockSeconds)
        }
        let lo = TextFormat.duration(lateness(first.plannedMeters)),
            hi = TextFormat.duration(lateness(lastGel.plannedMeters))
        #expect(late.verdict.contains("The \(gels) gels came from \(lo) late to \(hi) late against the plan's clock."))
    }
}

/// A stand at an aid station is one stop, whatever the GPS does meanwhile: with
/// 0.2 m of jitter it was three stops (13, 11 and 12 s), with 1 m none at all.
@Suite struct StandWithJitterTests {
    /// The plan's run on a line north, with a `seconds` stand at `meters` during
    /// which the position jitters by up to `jitter` metres a second (and the
    /// distance grows by the jitter's path, as a GPS distance does); cadence 170
    /// while running and, when `cadence0`, 0 while standing.
    static func run(
        _ plan: RacePlan, at meters: Double, seconds: Int, jitter: Double, positions: Bool = true,
        cadence0: Bool = false
    ) -> SampleSeries {
        var rng = SplitMix64(seed: 42)
        var s = SampleSeries()
        var x = 0.0, extra = 0.0, offset = 0.0
        let metre = 1 / 111_195.0
        func point(_ t: Double, _ d: Double, lat: Double, lon: Double, cadence: Double) {
            var p = SamplePoint()
            p.time = 1_790_000_000 + t
            p.distance = d
            p.latitude = positions ? lat : .nan
            p.longitude = positions ? lon : .nan
            p.elevation = 35
            p.heartRate = 150
            p.cadence = cadence
            s.append(p)
        }
        var stood = false
        while true {
            let t = plan.pacePlan.clockSeconds(at: x) + offset
            point(t, x + extra, lat: 48.1 + x * metre, lon: 11.5, cadence: 170)
            if !stood, x >= meters {
                stood = true
                var (lat, lon) = (48.1 + x * metre, 11.5)
                for k in 1...seconds {
                    var (dn, de) = (
                        Double.random(in: -jitter...jitter, using: &rng),
                        Double.random(in: -jitter...jitter, using: &rng)
                    )
                    // Now and then a jump (a satellite lost or gained): 0.8 m.
                    if k % 12 == 0 { dn += 0.8 }
                    let nlat = 48.1 + x * metre + dn * metre, nlon = 11.5 + de * metre / cos(48.1 * .pi / 180)
                    extra += Geodesy.distance(lat1: lat, lon1: lon, lat2: nlat, lon2: nlon)
                    (lat, lon) = (nlat, nlon)
                    point(t + Double(k), x + extra, lat: lat, lon: lon, cadence: cadence0 ? 0 : 170)
                }
                offset += Double(seconds)
            }
            if x >= plan.setup.distanceMeters { break }
            x = min(x + 4, plan.setup.distanceMeters)
        }
        return s
    }

    @Test(arguments: [0.2, 1.0])
    func aFortySecondStandIsOneStop(_ jitter: Double) throws {
        let plan = try reviewPlan()
        let r = try review(plan, Self.run(plan, at: 30_000, seconds: 40, jitter: jitter))
        #expect(r.stops.count == 1, "\(r.stops)")
        let stop = try #require(r.stops.first)
        #expect((30...45).contains(stop.seconds) && abs(stop.atMeters - 30_000) < 100, "\(stop)")
        #expect(r.brokeAtMeters == nil, "\(String(describing: r.brokeAtMeters))")
        #expect(r.verdict.contains { $0.hasPrefix("Stopped once, for ") })
    }

    /// Without positions, a cadence of 0 tells the stand.
    @Test func aCadenceOfZeroIsStandingWithoutPositions() throws {
        let plan = try reviewPlan()
        let r = try review(plan, Self.run(plan, at: 30_000, seconds: 40, jitter: 1, positions: false, cadence0: true))
        #expect(r.stops.count == 1 && (30...45).contains(r.stops.first?.seconds ?? 0), "\(r.stops)")
    }
}
