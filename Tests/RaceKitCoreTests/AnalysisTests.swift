import Foundation
import RaceKitTestSupport
import Testing

@testable import RaceKitMetrics
@testable import RaceKitModel
@testable import RaceKitOutput

/// A run due north from 48°N at a constant speed, one point per `step` seconds.
func straightRun(
    seconds: Int, speed: Double, step: Int = 1, hr: (Int) -> Double = { _ in .nan },
    elevation: (Int, Double) -> Double = { _, _ in .nan }, stopAt: Int? = nil, stopSeconds: Int = 0
) -> Activity {
    var raw = RawActivity()
    raw.sport = "running"
    var lat = 48.0
    var t = 0.0
    let metersPerDegree = Double.pi / 180 * Geodesy.earthRadiusMeters
    var travelled = 0.0
    for i in stride(from: 0, through: seconds, by: step) {
        if let stopAt, i == stopAt {
            // Standing still with the watch recording: points at the same place.
            for _ in 0..<stopSeconds {
                var p = SamplePoint()
                p.time = 1_772_348_400 + t; p.latitude = lat; p.longitude = 11.0
                raw.samples.append(p)
                t += 1
            }
        }
        var p = SamplePoint()
        p.time = 1_772_348_400 + t
        p.latitude = lat
        p.longitude = 11.0
        p.heartRate = hr(i)
        p.elevation = elevation(i, travelled)
        raw.samples.append(p)
        lat += speed * Double(step) / metersPerDegree
        travelled += speed * Double(step)
        t += Double(step)
    }
    raw.segmentStarts = [0]
    guard case .activity(let a) = TrackRepair.repair(raw, format: .gpx) else { fatalError("test run must repair") }
    return a
}

@Suite struct AnalysisTests {
    @Test func constantSpeedGivesExactSplits() {
        // 3.2 m/s for 2000 s = 6400 m: six 1 km splits of 312.5 s and a 400 m partial of 125 s.
        let a = RunAnalyzer.analyse(straightRun(seconds: 2000, speed: 3.2), physiology: Physiology())
        let splits = a.splits(.km)
        #expect(splits.count == 7)
        for s in splits.dropLast() {
            #expect(abs(s.elapsedSeconds - 312.5) < 0.01)
            #expect(abs(s.paceSecondsPerKm! - 312.5) < 0.01)
            #expect(!s.partial)
        }
        #expect(splits.last!.partial)
        #expect(abs(splits.last!.endMeters - 6400) < 0.5)
        #expect(abs(splits.last!.elapsedSeconds - 125) < 0.1)
        #expect(abs(splits.reduce(0) { $0 + $1.elapsedSeconds } - 2000) < 1e-6)
        let miles = a.splits(.mi)
        #expect(abs(miles[0].elapsedSeconds - 1609.344 / 3.2) < 0.01)
        #expect(miles.count == 4 && miles.last!.partial)
    }

    @Test func aTenMinuteStopIsNotMovingTime() {
        let a = RunAnalyzer.analyse(
            straightRun(seconds: 1800, speed: 3, stopAt: 900, stopSeconds: 600), physiology: Physiology())
        #expect(a.summary.elapsedSeconds == 2400)
        #expect(a.summary.movingSeconds == 1800)
    }

    /// An Apple Health walk without a route (heart rate minutes apart, one pause
    /// recorded) showed "Moving 0:00": without distance, moving time is the
    /// elapsed time less the recorded pauses.
    @Test func withoutDistanceMovingTimeIsElapsedLessPauses() throws {
        var raw = RawActivity()
        raw.sport = "walking"
        for t in stride(from: 0.0, through: 3000, by: 300) {
            var p = SamplePoint()
            p.time = 1_772_348_400 + t + (t >= 1500 ? 600 : 0)   // records 5 minutes apart, a pause
            p.heartRate = 110
            raw.samples.append(p)
        }
        raw.segmentStarts = [0, 5]   // the watch paused from 1200 s to 2100 s
        guard case .activity(let walk) = TrackRepair.repair(raw, format: .health) else {
            Issue.record("not an activity"); return
        }
        let summary = RunAnalyzer.analyse(walk, physiology: Physiology()).summary
        #expect(summary.elapsedSeconds == 3600)
        #expect(summary.movingSeconds == 2700)   // 1200 s before the pause, 1500 after
    }

    /// A last split of a few metres printed a "0.00 km" partial row: it joins the split before.
    @Test func aSliverAtTheEndJoinsTheLastSplit() {
        let a = RunAnalyzer.analyse(straightRun(seconds: 1002, speed: 3), physiology: Physiology())
        let splits = a.splits(.km)
        #expect(splits.count == 3, "\(splits.map(\.endMeters))")
        #expect(splits.last.map { !$0.partial && $0.endMeters > 3000 } == true)
        let longer = RunAnalyzer.analyse(straightRun(seconds: 1010, speed: 3), physiology: Physiology()).splits(.km)
        #expect(longer.count == 4 && longer.last!.partial)
    }

    @Test func standingStillWithGPSDriftIsNotMovement() {
        // 300 s running, 120 s standing with ±0.25 m of position noise (a fix moves
        // at most 0.5 m a second, under the 0.5 m/s threshold), 300 s running.
        var raw = RawActivity()
        var rng = SplitMix64(seed: 0x5eed_0001)
        var lat = 48.0
        for i in 0...720 {
            var p = SamplePoint()
            p.time = Double(i)
            let standing = i > 300 && i <= 420
            if !standing { lat += 3 / 111_195 }
            p.latitude = lat + (standing ? Double.random(in: -0.249...0.249, using: &rng) / 111_195 : 0)
            p.longitude = 11
            raw.samples.append(p)
        }
        raw.segmentStarts = [0]
        guard case .activity(let activity) = TrackRepair.repair(raw, format: .gpx) else {
            Issue.record("no activity"); return
        }
        let a = RunAnalyzer.analyse(activity, physiology: Physiology())
        #expect(abs(a.summary.movingSeconds! - 600) <= 1)
    }

    @Test func segmentBreaksArePausesEvenWhenTheRunnerMoved() {
        var raw = RawActivity()
        for (i, t) in [0.0, 10, 20, 200, 210, 220].enumerated() {
            var p = SamplePoint()
            p.time = t; p.latitude = 48 + Double(i) * 30 / 111_195; p.longitude = 11
            raw.samples.append(p)
        }
        raw.segmentStarts = [0, 3]
        guard case .activity(let activity) = TrackRepair.repair(raw, format: .gpx) else {
            Issue.record("no activity"); return
        }
        #expect(RunAnalyzer.analyse(activity, physiology: Physiology()).summary.movingSeconds == 40)
    }

    @Test func noisyFlatCourseGainsAlmostNothing() {
        var rng = SplitMix64(seed: 0x5eed_0002)
        // 10 km at 3 m/s, flat at 500 m with 1.5 m of Gaussian-ish noise per point.
        let a = RunAnalyzer.analyse(
            straightRun(
                seconds: 3333, speed: 3,
                elevation: { _, _ in
                    var s = 0.0
                    for _ in 0..<6 { s += Double.random(in: -1...1, using: &rng) }
                    return 500 + s / 2 * 1.5 * 1.41
                }), physiology: Physiology())
        let perKm = a.summary.ascentMeters! / 10
        #expect(perKm < 3, "flat course gained \(perKm) m per km")
    }

    @Test func aRealClimbIsKept() {
        // 5 km: flat 1 km, 100 m up over 2 km, 100 m down over 2 km, 0.5 m noise.
        var rng = SplitMix64(seed: 0x5eed_0003)
        let a = RunAnalyzer.analyse(
            straightRun(
                seconds: 1667, speed: 3,
                elevation: { _, d in
                    let profile = d < 1000 ? 0 : d < 3000 ? (d - 1000) / 20 : max(0, 100 - (d - 3000) / 20)
                    return 300 + profile + Double.random(in: -0.5...0.5, using: &rng)
                }), physiology: Physiology())
        #expect(abs(a.summary.ascentMeters! - 100) < 5)
        #expect(abs(a.summary.descentMeters! - 100) < 5)
        let splits = a.splits(.km)
        #expect(splits[1].ascentMeters! > 45 && splits[3].descentMeters! > 45)
    }

    @Test func noElevationIsUnknownNotZero() {
        let a = RunAnalyzer.analyse(straightRun(seconds: 60, speed: 3), physiology: Physiology())
        #expect(a.summary.ascentMeters == nil && a.summary.descentMeters == nil)
        #expect(a.splits(.km).allSatisfy { $0.ascentMeters == nil })
    }

    @Test func bestEffortsMatchABruteForceSearch() {
        var raw = RawActivity()
        var d = 0.0
        var rng = SplitMix64(seed: 0x5eed_0004)
        for i in 0...3000 {
            var p = SamplePoint()
            p.time = Double(i)
            d += Double.random(in: 2...4.5, using: &rng)
            p.distance = d
            raw.samples.append(p)
        }
        raw.segmentStarts = [0]
        guard case .activity(let a) = TrackRepair.repair(raw, format: .tcx) else { Issue.record("no activity"); return }
        let s = a.samples
        for effort in BestEfforts.compute(s, distances: [400, 1000, 5000]) {
            // Brute force over every pair of points, interpolating the start the same way.
            var best = Double.infinity
            for j in 1..<s.count {
                let start = s.distance[j] - effort.distanceMeters
                guard start >= 0 else { continue }
                for i in 0..<j where s.distance[i] <= start && s.distance[i + 1] > start {
                    let t =
                        s.time[i] + (s.time[i + 1] - s.time[i]) * (start - s.distance[i])
                        / (s.distance[i + 1] - s.distance[i])
                    best = min(best, s.time[j] - t)
                }
            }
            // Ties within 1 ms keep the earliest.
            #expect(abs(effort.elapsedSeconds - best) <= 1e-3, "distance \(effort.distanceMeters)")
        }
    }

    /// The scan skips the exact start where an effort cannot beat the best: it
    /// must give what the plain scan gives (every effort, to the bit), on series
    /// with pauses, jumps, stretches left out and times that step back.
    @Test func bestEffortsMatchThePlainScanToTheBit() {
        var rng = SplitMix64(seed: 27)
        for round in 0..<300 {
            var s = SampleSeries()
            var t = 1_700_000_000.0 + Double(round), d = 0.0
            let n = Int.random(in: 2...2500, using: &rng)
            for _ in 0..<n {
                switch Int.random(in: 0..<40, using: &rng) {
                case 0: t += Double.random(in: 30...600, using: &rng)   // a pause
                case 1: t -= Double.random(in: 0...3, using: &rng)   // time steps back
                case 2: d += Double.random(in: 50...400, using: &rng)   // a jump
                default: t += Double.random(in: 0.5...2, using: &rng); d += Double.random(in: 0...6, using: &rng)
                }
                s.time.append(t)
                s.distance.append(d)
            }
            let excluding = round % 3 == 0 ? (0..<n).map { _ in Int.random(in: 0..<50, using: &rng) == 0 } : []
            let distances = [100, 400, 1000, 1609.344, 3000, 5000]
            let expected = Self.plainBestEfforts(s, distances: distances, excluding: excluding)
            let got = BestEfforts.compute(s, distances: distances, excluding: excluding)
            #expect(got == expected, "round \(round), \(n) points")
        }
    }

    /// The scan as it was before it skipped anything.
    static func plainBestEfforts(_ s: SampleSeries, distances: [Double], excluding: [Bool]) -> [BestEffort] {
        let n = s.count
        guard n > 1, let total = s.distance.last, !total.isNaN else { return [] }
        var excludedBefore = [Int](repeating: 0, count: n)
        if excluding.count == n {
            for k in 1..<n { excludedBefore[k] = excludedBefore[k - 1] + (excluding[k] ? 1 : 0) }
        }
        var out: [BestEffort] = []
        for target in distances where target <= total + 1e-6 {
            var best: BestEffort?
            var i = 0
            for j in 1..<n {
                let startDistance = s.distance[j] - target
                guard startDistance >= -1e-9 else { continue }
                while i + 1 < j, s.distance[i + 1] <= startDistance { i += 1 }
                let d0 = s.distance[i], d1 = s.distance[i + 1]
                let t0 = s.time[i], t1 = s.time[i + 1]
                let startTime = d1 > d0 ? t0 + (t1 - t0) * min(1, max(0, (startDistance - d0) / (d1 - d0))) : t0
                if excludedBefore[j] != excludedBefore[i] { continue }
                let elapsed = s.time[j] - startTime
                if best == nil || elapsed < best!.elapsedSeconds - 1e-3 {
                    best = BestEffort(
                        distanceMeters: target, elapsedSeconds: elapsed, startOffsetSeconds: startTime - s.time[0])
                }
            }
            if let best { out.append(best) }
        }
        return out
    }

    @Test func bestEffortsOnlyForDistancesThatFit() {
        let efforts = BestEfforts.compute(straightRun(seconds: 2000, speed: 3.2).samples)
        #expect(efforts.map(\.distanceMeters) == [400, 800, 1000, 1609.344, 3000, 5000])
        #expect(abs(efforts[5].elapsedSeconds - 1562.5) < 0.01 && abs(efforts[4].elapsedSeconds - 937.5) < 0.01)
    }

    /// Memory for splits grows with distance: a distance far past any activity
    /// gets none (at once), one just under the bound gets them all.
    @Test func splitsAreBoundedByDistanceNotJustPoints() {
        func run(_ meters: Double) -> SampleSeries {
            var s = SampleSeries()
            for (t, d) in [(0.0, 0.0), (3600.0, meters)] {
                var p = SamplePoint(); p.time = t; p.distance = d; s.append(p)
            }
            return s
        }
        #expect(Splits.compute(run(1e13), unit: .km, moving: [true, true], elevation: nil).isEmpty)
        #expect(
            Splits.compute(run(Double(Splits.maxSplits) * 1000 + 1), unit: .km, moving: [true, true], elevation: nil)
                .isEmpty)
        #expect(Splits.compute(run(5_500), unit: .km, moving: [true, true], elevation: nil).count == 6)
        #expect(
            Splits.compute(run(Double(Splits.maxSplits) * 1000), unit: .km, moving: [true, true], elevation: nil).count
                == Splits.maxSplits)
    }

    @Test func zonesAreHalfOpenAndPausesAreCapped() throws {
        // HR 150 for 100 s, then one 300-s gap at 170, then 171 for 10 s.
        var s = SampleSeries()
        func add(_ t: Double, _ hr: Double) { var p = SamplePoint(); p.time = t; p.heartRate = hr; s.append(p) }
        for t in 0..<100 { add(Double(t), 150) }
        add(100, 170)
        for t in 400...410 { add(Double(t), 171) }
        let p = Physiology(maxHeartRate: 190)
        let zones = HeartRateZones.timeInZones(s, zones: try #require(HeartRateZones.zones(.hrmax5, physiology: p)))
        // hrmax5 on 190: 0, 114, 133, 152, 171. 150 -> zone 3; 170 -> zone 4; 171 -> zone 5 (lower bound inclusive).
        #expect(zones.map(\.lowBpm) == [0, 114, 133, 152, 171])
        #expect(zones[2].seconds == 100)
        #expect(zones[3].seconds == 25)   // the 300-s gap counts 25 s
        #expect(zones[4].seconds == 10)
    }

    @Test func frielZonesNeedASetThresholdHeartRate() throws {
        let set = Physiology(maxHeartRate: 190, thresholdHeartRate: 170)
        #expect(HeartRateZones.resolve(.auto, physiology: set) == .friel)
        let zones = try #require(HeartRateZones.zones(.friel, physiology: set))
        #expect(zones.map(\.name) == ["1", "2", "3", "4", "5a", "5b", "5c"])
        #expect(zones.map(\.lowBpm) == [0, 145, 153, 162, 170, 175, 181])
        let estimated = Physiology(maxHeartRate: 190).completed(with: .init())
        #expect(estimated.thresholdHeartRateEstimated)
        #expect(HeartRateZones.resolve(.auto, physiology: estimated) == .hrmax5)
        #expect(try #require(HeartRateZones.zones(.seiler3, physiology: set)).map(\.lowBpm) == [0, 156, 165])
    }

    @Test func trimpMatchesHandComputation() throws {
        // One hour at threshold scores 100 by construction; 30 min at HR 160 with
        // max 190, rest 50, LTHR 170, male: 30 * x * 0.64 e^(1.92 x) / (60 * xt * 0.64 e^(1.92 xt)) * 100.
        var s = SampleSeries()
        for t in stride(from: 0, through: 1800, by: 1) {
            var p = SamplePoint(); p.time = Double(t); p.heartRate = 160; s.append(p)
        }
        let p = Physiology(maxHeartRate: 190, restingHeartRate: 50, thresholdHeartRate: 170, sex: .male)
        let load = try #require(TrainingLoadModel.heartRate(s, physiology: p))
        let x = 110.0 / 140, xt = 120.0 / 140
        let expected = 30 * x * 0.64 * exp(1.92 * x) / (60 * xt * 0.64 * exp(1.92 * xt)) * 100
        #expect(abs(load.value - expected) < 1e-6)
        #expect(load.source == .heartRate && load.estimated.isEmpty)
        var hour = SampleSeries()
        for t in stride(from: 0, through: 3600, by: 1) {
            var q = SamplePoint(); q.time = Double(t); q.heartRate = 170; hour.append(q)
        }
        #expect(abs(TrainingLoadModel.heartRate(hour, physiology: p)!.value - 100) < 1e-9)
        let female = Physiology(maxHeartRate: 190, restingHeartRate: 50, thresholdHeartRate: 170, sex: .female)
        #expect(abs(TrainingLoadModel.heartRate(hour, physiology: female)!.value - 100) < 1e-9)
    }

    @Test func withoutRestingHeartRateEdwardsZonesAreUsed() throws {
        var s = SampleSeries()
        for t in stride(from: 0, through: 3600, by: 1) {
            var p = SamplePoint(); p.time = Double(t); p.heartRate = 150; s.append(p)
        }
        // max 190: 150 is 79% -> weight 3; threshold 170 is 89.5% -> weight 4: 60*3 / (60*4) * 100 = 75.
        let load = try #require(
            TrainingLoadModel.heartRate(s, physiology: Physiology(maxHeartRate: 190, thresholdHeartRate: 170)))
        #expect(load.source == .heartRateZones)
        #expect(abs(load.value - 75) < 1e-9)
    }

    @Test func paceLoadWithoutHeartRateAndNoMadeUpDefaults() {
        let run = straightRun(seconds: 3600, speed: 1000.0 / 300)   // 5:00/km for an hour
        let none = RunAnalyzer.analyse(run, physiology: Physiology())
        #expect(none.load == nil)   // no HR and no threshold pace: unknown, not a guess
        let withPace = RunAnalyzer.analyse(run, physiology: Physiology(thresholdPaceSecondsPerKm: 300))
        #expect(withPace.load?.source == .pace)
        #expect(abs(withPace.load!.value - 100) < 0.5)
    }

    @Test func thresholdPaceIsEstimatedFromBestEffortsByRiegel() throws {
        let p = Physiology().completed(with: .init(bestEfforts: [(10_000, 2700)]))
        let speed = 10_000 * pow(3600 / 2700, 1 / 1.06) / 3600
        #expect(abs(try #require(p.thresholdPaceSecondsPerKm) - 1000 / speed) < 1e-9)
        #expect(p.thresholdPaceEstimated)
    }

    @Test func robustMaximumIgnoresIsolatedSpikes() {
        var s = SampleSeries()
        for (t, hr) in [(0.0, 140.0), (1, 141), (2, 199), (3, 142), (4, 143), (5, 150)] {
            var p = SamplePoint(); p.time = t; p.heartRate = hr; s.append(p)
        }
        #expect(RunSummary.robustMaximum(s.heartRate, time: s.time) == 150)   // 199 is a spike; the last 150 is kept
    }

    @Test func gpsJumpsAreLeftOutOfTheDistance() {
        var raw = RawActivity()
        raw.sport = "running"
        for i in 0...20 {
            var p = SamplePoint()
            p.time = Double(i)
            p.latitude = 48 + Double(i) * 3 / 111_195 + (i == 10 ? 0.01 : 0)   // fix 10 is 1.1 km off
            p.longitude = 11
            raw.samples.append(p)
        }
        raw.segmentStarts = [0]
        guard case .activity(let a) = TrackRepair.repair(raw, format: .gpx) else { Issue.record("no activity"); return }
        #expect(abs(a.distanceMeters! - 60) < 0.5)
        #expect(a.repairs.gpsJumpPoints == 1)
    }

    @Test func analysisOfAFourHourRunIsCheap() {
        // Not a timing assertion (benchmarks measure speed): the analysis must
        // handle 14,400 points and give 42 km splits.
        let a = RunAnalyzer.analyse(
            straightRun(seconds: 14_400, speed: 2.94, hr: { 140 + Double($0 % 20) }),
            physiology: Physiology(maxHeartRate: 190))
        #expect(a.splits(.km).count == 43)
        #expect(a.bestEfforts.last?.distanceMeters == 42_195)
    }
}

@Suite struct UnitsTests {
    @Test(arguments: [("1:35:27", 5727.0), ("45:00", 2700), ("95", 95), ("0:59.5", 59.5)])
    func parsesDurations(text: String, expected: Double) { #expect(Units.parseDuration(text) == expected) }

    @Test(arguments: ["", "1:60:00", "abc", "1::2", "-5:00", "4:5x"])
    func rejectsBadDurations(text: String) { #expect(Units.parseDuration(text) == nil) }

    @Test func parsesPacesPerKmAndMile() {
        #expect(Units.parsePace("4:37/km") == 277)
        #expect(Units.parsePace("4:37") == 277)
        #expect(abs(Units.parsePace("7:26/mi")! - 446 / 1.609344) < 1e-9)
        #expect(Units.parsePace("fast") == nil)
    }

    @Test func parsesDistances() {
        #expect(Units.parseDistance("half") == 21_097.5)
        #expect(Units.parseDistance("Marathon") == 42_195)
        #expect(Units.parseDistance("10 mi") == 16_093.44)
        #expect(Units.parseDistance("42.195 km") == 42_195)
        #expect(Units.parseDistance("26.2 mi") == 26.2 * 1609.344)
        #expect(Units.parseDistance("800 m") == 800)
        #expect(Units.parseDistance("5000") == 5000)
        #expect(Units.parseDistance("far") == nil)
    }
}

@Suite struct SportDisplayTests {
    @Test func eachSportReadsItsOwnWay() {
        let ride = SportDisplay(.cycling), swim = SportDisplay(.swimming), run = SportDisplay(.running)
        #expect(ride.speedText(meters: 28_800, seconds: 3600, unitMeters: 1000, unitName: "km") == "28.8 km/h")
        #expect(ride.speedText(meters: 28_800, seconds: 3600, unitMeters: 1609.344, unitName: "mi") == "17.9 mph")
        #expect(swim.speedText(meters: 1500, seconds: 1800, unitMeters: 1000, unitName: "km") == "2:00/100m")
        #expect(run.speedText(meters: 10_000, seconds: 3000, unitMeters: 1000, unitName: "km") == "5:00/km")
        #expect(run.speedText(meters: 10_000, seconds: 0, unitMeters: 1000, unitName: "km") == "-")
        #expect(run.speedText(meters: nil, seconds: 3000, unitMeters: 1000, unitName: "km") == "-")
        #expect(ride.cadenceUnit == "rpm" && run.cadenceUnit == "spm" && swim.cadenceUnit == "strokes/min")
        #expect(
            run.count(1) == "1 run" && ride.count(3) == "3 rides"
                && SportDisplay(.other).count(2) == "2 other activities")
    }
}
