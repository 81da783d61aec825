import Foundation
import Testing

@testable import RaceKitMetrics
@testable import RaceKitPlan

@Suite struct CoursePacingTests {
    /// Flat 0-5 km, a 4% climb 5-7 km, flat 7-12, a 4% descent 12-14, flat to the end.
    static func hill(_ x: Double) -> Double {
        switch x {
        case ..<5000: return 100
        case ..<7000: return 100 + (x - 5000) * 0.04
        case ..<12_000: return 180
        case ..<14_000: return 180 - (x - 12_000) * 0.04
        default: return 100
        }
    }

    @Test func evenEffortIsSlowerUphillAndFasterDownhill() throws {
        let course = try CourseProfile(
            samples: syntheticCourse(length: 21_097.5, elevation: Self.hill), raceMeters: 21_097.5)
        let plan = try PacePlan(
            distanceMeters: 21_097.5, targetSeconds: 6300, strategy: .even, cost: course.cost(.road))
        let splits = plan.splits(everyMeters: 1000)
        #expect(splits.last!.cumulativeSeconds == 6300)
        let flat = splits[2].splitSeconds   // km 3, flat
        let up = splits[5].splitSeconds   // km 6, mid-climb
        let down = splits[12].splitSeconds   // km 13, mid-descent
        #expect(up > flat + 40, "4% uphill: Minetti's cost is about 1.24x, got \(up) vs \(flat)")
        #expect(down < flat - 15, "4% downhill is faster, got \(down) vs \(flat)")
        #expect(splits[9].splitSeconds == flat || abs(splits[9].splitSeconds - flat) <= 1, "flat km on the plateau")
        // The road model gives back less on the descent than Minetti's full saving.
        let minetti = try PacePlan(
            distanceMeters: 21_097.5, targetSeconds: 6300, strategy: .even, cost: course.cost(.minetti)
        )
        .splits(everyMeters: 1000)
        #expect(minetti[12].splitSeconds < down)
    }

    @Test func gradeCostModels() {
        #expect(abs(GradeCostModel.minetti(0) - 3.6) < 1e-12)
        #expect(GradeCostModel.road.cost(grade: 0) == 1)
        #expect(GradeCostModel.road.cost(grade: 0.1) == GradeCostModel.minetti.cost(grade: 0.1))
        // Road: half Minetti's saving on a 5% descent; the largest saving at -10%.
        let m5 = GradeCostModel.minetti.cost(grade: -0.05)
        #expect(abs(GradeCostModel.road.cost(grade: -0.05) - (1 + (m5 - 1) / 2)) < 1e-12)
        #expect(GradeCostModel.road.cost(grade: -0.10) < GradeCostModel.road.cost(grade: -0.15))
        #expect(abs(GradeCostModel.road.cost(grade: -0.25) - 1) < 1e-12)
        #expect(GradeCostModel.flat.cost(grade: 0.2) == 1)
    }

    @Test func smoothingRemovesGPSNoiseButKeepsRealHills() throws {
        let noisyFlat = try CourseProfile(
            samples: syntheticCourse(length: 10_000, spacing: 3, noise: 1.5) { _ in 50 },
            raceMeters: 10_000)
        #expect(
            noisyFlat.rawClimbMeters > 1000, "3 m spacing with 1.5 m noise: \(noisyFlat.rawClimbMeters) m of fake climb"
        )
        #expect(noisyFlat.climbMeters < 10, "after smoothing: \(noisyFlat.climbMeters) m")
        let hills = try CourseProfile(
            samples: syntheticCourse(length: 21_097.5, spacing: 5, noise: 1.5, elevation: Self.hill),
            raceMeters: 21_097.5)
        #expect(abs(hills.climbMeters - 80) < 8, "the real 80 m climb stays: \(hills.climbMeters)")
        #expect(hills.rawClimbMeters > 500)
    }

    @Test func courseOfADifferentLengthIsScaledOrRefused() throws {
        let long = try CourseProfile(samples: syntheticCourse(length: 10_200) { _ in 0 }, raceMeters: 10_000)
        #expect(abs(long.scale - 10_000 / 10_200) < 1e-3)
        #expect(long.grid.last == 10_000)
        #expect(throws: CourseError.self) {
            try CourseProfile(samples: syntheticCourse(length: 12_000) { _ in 0 }, raceMeters: 10_000)
        }
        var setup = RaceSetup(
            file: "r.yaml", name: "R", distanceText: "10k", distanceMeters: 10_000, targetSeconds: 2700)
        setup.strategy = .even
        var warnings: [String] = []
        _ = try RacePlanner.plan(setup, course: long, unitMeters: 1000, warnings: &warnings)
        #expect(warnings.contains { $0.contains("10.200 km") && $0.contains("scaled") })
    }

    @Test(arguments: [1.0, 3.0])
    func negativeSplitIsExactOverAHillyCourse(percent: Double) throws {
        let course = try CourseProfile(
            samples: syntheticCourse(length: 21_097.5, elevation: Self.hill), raceMeters: 21_097.5)
        let plan = try PacePlan(
            distanceMeters: 21_097.5, targetSeconds: 6300, strategy: .negative(percent: percent),
            cost: course.cost(.road))
        let first = plan.clockSeconds(at: 21_097.5 / 2), second = 6300 - first
        #expect(abs(second / first - (1 - percent / 100)) < 1e-9)
        #expect(abs(plan.clockSeconds(at: 21_097.5) - 6300) < 1e-6)
    }

    @Test func randomPlansOverCoursesLandOnTheTarget() throws {
        var rng = Xorshift(seed: 99)
        let course = syntheticCourse(length: 42_300, spacing: 20, noise: 2, elevation: Self.hill)
        for _ in 0..<60 {
            let d = [5000, 10_000, 21_097.5, 42_195][Int(rng.next() * 4)]
            let t = (d / 1000) * (200 + rng.next() * 300)
            let strategies: [PacingStrategy] = [
                .even, .negative(percent: rng.next() * 5), .positive(percent: rng.next() * 5),
                .custom([
                    .init(untilMeters: d / 3, intensity: .effort(1.02)),
                    .init(untilMeters: d, intensity: .effort(0.99))
                ])
            ]
            let strategy = strategies[Int(rng.next() * 4)]
            let profile: CostProfile? =
                d == 42_195 ? try CourseProfile(samples: course, raceMeters: d).cost(.road) : nil
            let plan = try PacePlan(distanceMeters: d, targetSeconds: t, strategy: strategy, cost: profile)
            for unit in [1000, 1609.344] {
                let splits = plan.splits(everyMeters: unit)
                #expect(splits.last!.cumulativeSeconds == Int(t.rounded()))
                #expect(splits.reduce(0) { $0 + $1.splitSeconds } == Int(t.rounded()))
            }
        }
    }
}

/// A course from a recording whose segments are far apart (a pause with the
/// watch on the move) is refused, never joined by a straight line.
@Suite struct CourseSegmentGapTests {
    static func gpx(gapDegrees: Double) -> String {
        func seg(_ lat0: Double, _ t0: Int) -> String {
            "<trkseg>"
                + (0..<50).map { i in
                    let t = t0 + i * 10
                    return
                        "<trkpt lat=\"\(lat0 + Double(i) * 0.0003)\" lon=\"11.5\"><time>2026-03-01T\(String(format: "%02d:%02d:%02d", 7 + t / 3600, t / 60 % 60, t % 60))Z</time></trkpt>"
                }.joined() + "</trkseg>"
        }
        return
            "<?xml version=\"1.0\"?><gpx version=\"1.1\" creator=\"t\" xmlns=\"http://www.topografix.com/GPX/1/1\"><trk>"
            + seg(48.1, 0) + seg(48.1 + 50 * 0.0003 + gapDegrees, 3600) + "</trk></gpx>"
    }

    @Test func farApartSegmentsAreRefusedNearOnesJoined() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rk-gap-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let far = dir.appendingPathComponent("far.gpx").path
        try Self.gpx(gapDegrees: 0.062).write(toFile: far, atomically: false, encoding: .utf8)
        let near = dir.appendingPathComponent("near.gpx").path
        try Self.gpx(gapDegrees: 0.0003).write(toFile: near, atomically: false, encoding: .utf8)
        let setup = try SetupLoader.parse(
            yaml: "name: T\ndistance: \"3.3 km\"\ntarget_time: \"16:30\"\n", file: "t.yaml")
        #expect {
            _ = try RacePlanner.readCourse(setup, path: far)
        } throws: { error in
            "\(error)".contains("segments 1 and 2 are 6.9") && "\(error)".contains("51:50 apart")
        }
        _ = try RacePlanner.readCourse(setup, path: near)
    }
}
