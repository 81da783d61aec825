import Foundation
import Testing

@testable import RaceKitMetrics
@testable import RaceKitModel

/// A 12 km run at constant effort over a hill (80 m up over 3 km, down over
/// 3 km, raised cosines): the speed at each point is the flat speed divided by
/// the `road` model's cost at the hill's grade there.
func constantEffortHillRun(flatPace: Double = 300) -> Activity {
    func elevation(_ x: Double) -> Double {
        func rise(_ a: Double, _ b: Double, _ h: Double) -> Double {
            x <= a ? 0 : x >= b ? h : h * (1 - cos((x - a) / (b - a) * .pi)) / 2
        }
        return 100 + rise(3000, 6000, 80) - rise(6000, 9000, 80)
    }
    var raw = RawActivity()
    raw.sport = "running"
    let metersPerDegree = Double.pi / 180 * Geodesy.earthRadiusMeters
    var x = 0.0, t = 0.0
    while x < 12_000 {
        var p = SamplePoint()
        p.time = 1_772_348_400 + t
        p.latitude = 48 + x / metersPerDegree
        p.longitude = 11
        p.elevation = elevation(x)
        raw.samples.append(p)
        let grade = (elevation(x + 5) - elevation(x - 5)) / 10
        x += 1000 / flatPace / GradeCostModel.road.cost(grade: grade)
        t += 1
    }
    raw.segmentStarts = [0]
    guard case .activity(let a) = TrackRepair.repair(raw, format: .gpx) else { fatalError("test run must repair") }
    return a
}

@Suite struct GradeAdjustedPaceTests {
    @Test func constantEffortOverAHillIsFlatWithinTwoPercent() throws {
        let analysis = RunAnalyzer.analyse(constantEffortHillRun(), physiology: Physiology())
        let splits = analysis.splits(.km).filter { !$0.partial }
        #expect(splits.count == 11)
        // The raw pace swings with the hill; the grade-adjusted one does not.
        let paces = splits.compactMap(\.paceSecondsPerKm)
        #expect((paces.max() ?? 0) - (paces.min() ?? 0) > 30)
        for s in splits {
            let gap = try #require(s.gradeAdjustedPaceSecondsPerKm)
            #expect(abs(gap / 300 - 1) < 0.02, "split \(s.index): GAP \(gap) s/km")
        }
        let whole = try #require(analysis.summary.gradeAdjustedPaceSecondsPerKm)
        #expect(abs(whole / 300 - 1) < 0.02)
    }

    @Test func aFlatRunsGapIsItsPace() throws {
        let a = straightRun(seconds: 1200, speed: 3.5, elevation: { _, _ in 250 })
        let analysis = RunAnalyzer.analyse(a, physiology: Physiology())
        let pace = 1000 / 3.5
        #expect(abs(try #require(analysis.summary.gradeAdjustedPaceSecondsPerKm) - pace) < 0.5)
        for s in analysis.splits(.km) where !s.partial {
            #expect(abs(try #require(s.gradeAdjustedPaceSecondsPerKm) - pace) < 0.5)
        }
    }

    @Test func noElevationMeansNoGap() {
        let analysis = RunAnalyzer.analyse(straightRun(seconds: 600, speed: 3), physiology: Physiology())
        #expect(analysis.summary.gradeAdjustedPaceSecondsPerKm == nil)
        #expect(analysis.splits(.km).allSatisfy { $0.gradeAdjustedPaceSecondsPerKm == nil })
    }

    @Test func hostileSeriesGiveNoProfile() {
        var s = SampleSeries()
        var p = SamplePoint()
        p.time = 0; p.distance = .infinity; p.elevation = 5
        s.append(p)
        p.time = 1; p.distance = 1e15; p.elevation = .nan
        s.append(p)
        #expect(GradeProfile(s) == nil)
        #expect(GradeProfile(s, scale: .nan) == nil)
        #expect(GradeProfile(SampleSeries()) == nil)
    }
}
