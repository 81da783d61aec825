import Testing

@testable import RaceKitPlan

@Suite struct PacePlanTests {
    let marathon = 42_195.0

    @Test func evenPlanLandsExactlyOnTheTarget() throws {
        let plan = try PacePlan(distanceMeters: marathon, targetSeconds: 11_700, strategy: .even)   // 3:15:00
        let splits = plan.splits()
        #expect(splits.count == 43)
        #expect(splits.last!.cumulativeSeconds == 11_700)
        #expect(splits.last!.partial && abs(splits.last!.endMeters - splits.last!.startMeters - 195) < 1e-6)
        #expect(splits.reduce(0) { $0 + $1.splitSeconds } == 11_700)
        #expect(splits.dropLast().allSatisfy { (277...278).contains($0.splitSeconds) })   // 277.28 s/km
        #expect(abs(plan.clockSeconds(at: 21_097.5) - 5850) < 1e-9)
    }

    @Test(arguments: [2.0, 5.0])
    func negativeSplitHalvesDifferByExactlyThePercent(percent: Double) throws {
        let plan = try PacePlan(distanceMeters: marathon, targetSeconds: 11_700, strategy: .negative(percent: percent))
        let first = plan.clockSeconds(at: marathon / 2)
        let second = plan.clockSeconds(at: marathon) - first
        #expect(abs(second / first - (1 - percent / 100)) < 1e-12)
        #expect(abs(first + second - 11_700) < 1e-9)
        let splits = plan.splits()
        #expect(splits.last!.cumulativeSeconds == 11_700)
        #expect(splits[0].splitSeconds > splits[40].splitSeconds)   // slowing down is the wrong way round
    }

    @Test func positiveSplitSlowsTheSecondHalf() throws {
        let plan = try PacePlan(distanceMeters: 21_097.5, targetSeconds: 6300, strategy: .positive(percent: 3))
        let first = plan.clockSeconds(at: 21_097.5 / 2)
        #expect(abs((6300 - first) / first - 1.03) < 1e-12)
    }

    @Test func customEffortSegmentsShareTheTarget() throws {
        // Half marathon: first 5 km 2% easier than the rest, 1:45:00 in all.
        let plan = try PacePlan(
            distanceMeters: 21_097.5, targetSeconds: 6300,
            strategy: .custom([
                .init(untilMeters: 5000, intensity: .effort(1.02)),
                .init(untilMeters: 21_097.5, intensity: .effort(1.0))
            ]))
        let base = 6300 / (5 * 1.02 + 16.0975)   // s per km at effort 1.0
        #expect(abs(plan.clockSeconds(at: 5000) - 5 * 1.02 * base) < 1e-9)
        #expect(plan.splits().last!.cumulativeSeconds == 6300)
    }

    @Test func customFixedPacesMustAddUpToTheTarget() throws {
        #expect(throws: PacePlanError.self) {
            try PacePlan(
                distanceMeters: 10_000, targetSeconds: 2400,
                strategy: .custom([
                    .init(untilMeters: 5000, intensity: .pace(250)), .init(untilMeters: 10_000, intensity: .pace(250))
                ]))
        }
        let ok = try PacePlan(
            distanceMeters: 10_000, targetSeconds: 2450,
            strategy: .custom([
                .init(untilMeters: 5000, intensity: .pace(250)), .init(untilMeters: 10_000, intensity: .pace(240))
            ]))
        #expect(ok.splits().map(\.splitSeconds) == [250, 250, 250, 250, 250, 240, 240, 240, 240, 240])
    }

    @Test func customSegmentsMustCoverTheDistanceInOrder() {
        #expect(throws: PacePlanError.self) {
            try PacePlan(
                distanceMeters: 10_000, targetSeconds: 2400,
                strategy: .custom([.init(untilMeters: 9000, intensity: .effort(1))]))
        }
        #expect(throws: PacePlanError.self) {
            try PacePlan(
                distanceMeters: 10_000, targetSeconds: 2400,
                strategy: .custom([
                    .init(untilMeters: 6000, intensity: .effort(1)), .init(untilMeters: 5000, intensity: .effort(1)),
                    .init(untilMeters: 10_000, intensity: .effort(1))
                ]))
        }
    }

    @Test func impossibleTargetsAreRefused() {
        #expect(throws: PacePlanError.self) { try PacePlan(distanceMeters: 5000, targetSeconds: 300, strategy: .even) }
        #expect(throws: PacePlanError.self) {
            try PacePlan(distanceMeters: 5000, targetSeconds: 1200, strategy: .negative(percent: 25))
        }
    }

    @Test func checkpointSplits() throws {
        let plan = try PacePlan(distanceMeters: 10_000, targetSeconds: 2400, strategy: .even)
        let splits = plan.splits(checkpoints: [2500, 5000, 7500])
        #expect(splits.map(\.cumulativeSeconds) == [600, 1200, 1800, 2400])
        #expect(!splits.contains { $0.partial })
    }
}
