import RaceKitTestSupport
import Testing

@testable import RaceKitMetrics
@testable import RaceKitModel

struct PowerSeriesTests {
    /// Points at `times` with `watts` (NaN: a record without power).
    static func series(_ points: [(t: Double, w: Double)]) -> SampleSeries {
        var s = SampleSeries()
        for p in points {
            var point = SamplePoint()
            point.time = 1_700_000_000 + p.t
            point.power = p.w
            s.append(point)
        }
        return s
    }

    /// Normalized power the plain way: every 30-second mean, from the 30th second on.
    static func plainNormalized(_ w: [Double]) -> Double {
        var sum = 0.0, n = 0.0
        for i in 29..<w.count {
            let mean = w[(i - 29)...i].reduce(0, +) / 30
            sum += pow4(mean); n += 1
        }
        return (sum / n).squareRoot().squareRoot()
    }

    static func pow4(_ x: Double) -> Double { x * x * x * x }

    @Test func aSteadyEffortHasItsPowerAsAverageAndNormalizedAndAVariabilityOfOne() throws {
        let s = Self.series((0...600).map { (Double($0), 250) })
        let p = PowerSeries(s)
        #expect(p.watts.count == 600)
        #expect(p.average == 250 && p.maximum == 250)
        #expect(abs(try #require(p.normalized) - 250) < 1e-9)
    }

    @Test func normalizedPowerIsTheFourthPowerMeanOfTheRollingMeanOnRandomRides() throws {
        var rng = SplitMix64(seed: 38)
        for round in 0..<40 {
            let n = Int.random(in: 60...3000, using: &rng)
            let watts = (0..<n).map { _ in
                Int.random(in: 0..<5, using: &rng) == 0 ? 0 : Double(Int.random(in: 50...900, using: &rng))
            }
            let p = PowerSeries(
                Self.series(watts.enumerated().map { (Double($0.offset), $0.element) } + [(Double(n), 0)]))
            #expect(p.watts == watts, "round \(round)")
            let np = try #require(p.normalized)
            #expect(abs(np - Self.plainNormalized(watts)) < 1e-6 * np, "round \(round)")
            #expect(abs(try #require(p.average) - watts.reduce(0, +) / Double(n)) < 1e-9)
        }
    }

    @Test func smartRecordingIsHeldAndAPauseIsLeftOut() {
        // 200 W every 5 s for 100 s (held: 100 seconds), a 10-minute pause (not held), 300 W each second for 100 s.
        var points = stride(from: 0.0, through: 100, by: 5).map { ($0, 200.0) }
        points += (0...100).map { (700 + Double($0), 300.0) }
        let p = PowerSeries(Self.series(points))
        #expect(p.watts.count == 200)
        #expect(p.watts.prefix(100).allSatisfy { $0 == 200 } && p.watts.suffix(100).allSatisfy { $0 == 300 })
        #expect(p.average == 250)
    }

    @Test func spikesDropoutsAndRecordsWithoutPowerAreNoPower() {
        var points = (0..<120).map { (Double($0), 200.0) }
        points[10].1 = 65_535   // a dropout's invalid value read as a number
        points[20].1 = .nan
        points[30].1 = -5
        let p = PowerSeries(Self.series(points))
        #expect(p.watts.count == 116)
        #expect(p.maximum == 200 && p.average == 200)
    }

    @Test func underAMinuteOfPowerTellsNoFigures() {
        let p = PowerSeries(Self.series((0...59).map { (Double($0), 300) }))
        #expect(p.watts.count == 59)
        #expect(p.average == nil && p.maximum == nil && p.normalized == nil)
        #expect(PowerSeries(SampleSeries()).average == nil)
    }

    @Test func theRegistryStoresTheRunsPowerFigures() throws {
        // Intervals: 60 s at 400 W, 60 s at 100 W, four times.
        let watts = (0..<480).map { ($0 / 60) % 2 == 0 ? 400.0 : 100 }
        var activity = straightRun(seconds: 480, speed: 8)
        activity.samples.power = ContiguousArray(watts + [100])
        let m = RunAnalyzer.analyse(activity, physiology: Physiology()).metrics
        #expect(m[Metric.AvgPower.self] == 250)
        #expect(m[Metric.MaxPower.self] == 400)
        let np = try #require(m[Metric.NormalizedPower.self])
        #expect(abs(np - Self.plainNormalized(watts)) < 1e-6)
        #expect(np > 280 && np < 320)
        #expect(abs(try #require(m[Metric.VariabilityIndex.self]) - np / 250) < 1e-12)
    }

    @Test func eachSplitHasItsAveragePower() throws {
        // 8 m/s: a kilometre every 125 s; 100 W over the first, 300 W after.
        var activity = straightRun(seconds: 400, speed: 8)
        activity.samples.power = ContiguousArray((0..<activity.samples.count).map { $0 < 125 ? 100.0 : 300 })
        let splits = RunAnalyzer.analyse(activity, physiology: Physiology()).splits(.km)
        #expect(splits.count == 4)
        #expect(abs(try #require(splits[0].avgPowerWatts) - 100) < 2)   // the boundary falls inside a step
        #expect(abs(try #require(splits[1].avgPowerWatts) - 300) < 2)
        #expect(splits[2].avgPowerWatts == 300)
        // Without power, none.
        let plain = RunAnalyzer.analyse(straightRun(seconds: 400, speed: 8), physiology: Physiology()).splits(.km)
        #expect(plain.allSatisfy { $0.avgPowerWatts == nil })
    }
}
