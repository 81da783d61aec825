import Testing

@testable import RaceKitCore
@testable import RaceKitFormats

/// Real-world traps that are not in the shared corpus, each on a small fixture
/// (docs/numbers.md, "Real-world repairs" and "Plausibility").
@Suite struct TrapFixtureTests {
    /// Some exporters write steps per minute into TCX `RunCadence` (per leg in the
    /// schema): doubling gave 336-344 spm at 5:33/km.
    @Test func runCadenceThatIsAlreadyStepsIsNotDoubled() throws {
        let a = try onlyActivity(try fixture("runcadence-already-steps.tcx"))
        #expect(a.repairs.cadenceAlreadySteps)
        #expect(!a.repairs.cadenceDoubled)
        #expect(a.samples.cadence.allSatisfy { (168...172).contains($0) })
        let summary = RunAnalyzer.analyse(a, physiology: Physiology()).summary
        #expect(abs(summary.avgCadence! - 170) < 1.5)
        // A real per-leg RunCadence (85 strides/min) is still doubled.
        let forerunner = try onlyActivity(try fixture("garmin-forerunner.tcx"))
        #expect(forerunner.repairs.cadenceDoubled)
        #expect(!forerunner.repairs.cadenceAlreadySteps)
        #expect(Array(forerunner.samples.cadence) == [170, 172, 174])
    }

    /// Lap 2 starts 3 s before lap 1's last point: that point is dropped, no step
    /// is negative, and DistanceMeters stays the run's distance.
    @Test func aLapStartingBeforeThePreviousLapEndsGivesNoNegativePause() throws {
        let a = try onlyActivity(try fixture("laps-overlap-backward-time.tcx"))
        #expect(a.repairs.droppedBackwardTime == 1)
        for k in 1..<a.samples.count { #expect(a.samples.time[k] > a.samples.time[k - 1]) }
        #expect(a.distanceSource == .device)
        #expect(a.distanceMeters == 1800)
        let summary = RunAnalyzer.analyse(a, physiology: Physiology()).summary
        #expect(summary.elapsedSeconds == 597)
        #expect(summary.movingSeconds! <= summary.elapsedSeconds)
        #expect(summary.movingSeconds! >= 590)
    }

    /// Elevation 0 for the first 30 s, then the real 520 m: the zeros are
    /// placeholders, not a 520 m climb.
    @Test func leadingZeroElevationIsNotAClimb() throws {
        let a = try onlyActivity(try fixture("leading-zero-elevation.gpx"))
        #expect(a.repairs.edgeZeroElevation == 6)
        #expect(a.samples.elevation[0].isNaN)
        let summary = RunAnalyzer.analyse(a, physiology: Physiology()).summary
        #expect(summary.ascentMeters! < 2)
    }

    /// Heart rate and cadence in the first and third of three segments, 15 minutes
    /// apart: averaged over the recorded time inside segments (100 s at 120 and
    /// 100 s at 160), never held across a gap.
    @Test func averagesStayInsideSegments() throws {
        let a = try onlyActivity(try fixture("segments-partial-heart-rate.gpx"))
        #expect(a.segmentStarts == [0, 11, 22])
        let summary = RunAnalyzer.analyse(a, physiology: Physiology()).summary
        #expect(abs(summary.avgHeartRate! - 140) < 1e-9)
        #expect(abs(summary.avgCadence! - 170) < 1e-9)   // 160 and 180 spm after doubling strides
        // 200 s held out of 300 s recorded inside segments.
        #expect(abs(summary.heartRateCoveragePercent! - 200.0 / 3) < 1e-9)
    }
}
