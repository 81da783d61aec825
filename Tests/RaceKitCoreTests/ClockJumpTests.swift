import Testing

@testable import RaceKitModel

/// A clock that jumps to another date inside one activity is repaired, never
/// the whole file skipped (issue 38, item 5).
@Suite struct ClockJumpTests {
    /// `n` points a second apart from `start`, moving north.
    static func points(_ n: Int, from start: Double, lat: Double = 48) -> [SamplePoint] {
        (0..<n).map { i in point(start + Double(i), lat: lat + Double(i) * 3e-5, lon: 11) }
    }

    @Test func aJumpForwardToAnotherDateMovesTheSmallerPieceOntoTheLarger() throws {
        let t0 = 1_772_348_400.0
        // 3 points, then the clock is 27.8 days ahead for 600 more.
        let raw = rawActivity(Self.points(3, from: t0) + Self.points(600, from: t0 + 2_404_722, lat: 48.0001))
        let a = try repaired(raw, .fit)
        #expect(a.samples.count == 603)
        // The larger piece keeps its clock; the 3 points end one step before it.
        #expect(a.samples.time[3] == t0 + 2_404_722)
        #expect(a.samples.time[2] == t0 + 2_404_721)
        #expect(a.samples.time[0] == t0 + 2_404_719)
        #expect(a.repairs.clockJumps == 1 && a.repairs.rebasedPoints == 3)
        #expect(
            a.repairs.importNotes.contains(
                "the clock jumps once (by up to 27.8 days): 3 points re-based onto the rest of the track"))
        #expect(a.segmentStarts.contains(3))
    }

    @Test func aJumpBackInsideASegmentIsRepairedNotDropped() throws {
        let t0 = 1_772_348_400.0
        // 400 points, then the clock goes back two days for 100 more.
        let raw = rawActivity(Self.points(400, from: t0) + Self.points(100, from: t0 - 172_800, lat: 48.02))
        let a = try repaired(raw, .fit)
        #expect(a.samples.count == 500)
        #expect(a.samples.time[400] == t0 + 400)
        #expect(a.repairs.droppedBackwardTime == 0 && a.repairs.rebasedPoints == 100)
    }

    @Test func aLongPauseIsNoJump() throws {
        let t0 = 1_772_348_400.0
        // A 10-hour overnight stop of a two-day hike stays as it is.
        let raw = rawActivity(Self.points(100, from: t0) + Self.points(100, from: t0 + 36_000, lat: 48.01))
        let a = try repaired(raw, .fit)
        #expect(a.samples.time[100] == t0 + 36_000)
        #expect(a.repairs.clockJumps == 0 && a.repairs.importNotes.isEmpty)
    }
}
