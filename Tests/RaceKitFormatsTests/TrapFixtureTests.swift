import Testing

@testable import RaceKitFormats
@testable import RaceKitMetrics
@testable import RaceKitModel

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

    /// Laps 2-5 stamp their first points 20, 65, 40 and 55 s before the previous
    /// lap's last point while the runner goes on (a real device's shape): the
    /// device's DistanceMeters is the run's distance, and without it the path
    /// through the dropped points still counts (it came out 14% short: 4,284 m,
    /// each lap's first minute lost as a GPS jump, and 40 s of pauses).
    @Test func lapsSteppingBackInTimeKeepTheirDistance() throws {
        // 4 + 13 + 8 + 11 points earlier than the point before them, and one at
        // each lap's seam merged for having the previous lap's last time.
        let device = try onlyActivity(try fixture("laps-step-back.tcx"))
        #expect(device.repairs.droppedBackwardTime == 36 && device.repairs.mergedDuplicateTime == 4)
        #expect(device.distanceSource == .device)
        #expect(device.distanceMeters == 4995)
        let gps = try onlyActivity(try fixture("laps-step-back-gps-only.tcx"))
        #expect(gps.repairs.droppedBackwardTime == 36)
        #expect(gps.distanceSource == .gps)
        // 4,992.2 m along every point of the file (haversine, the file's comment).
        #expect(abs(gps.distanceMeters! - 4992.2) < 0.5, "\(gps.distanceMeters!)")
        #expect(gps.repairs.gpsJumpPoints == 0 && gps.repairs.backwardPathMeters > 600)
        for activity in [device, gps] {
            let summary = RunAnalyzer.analyse(activity, physiology: Physiology()).summary
            #expect(summary.elapsedSeconds == 1150)
            #expect(summary.movingSeconds == 1150, "no lap's seam is a pause")
        }
    }

    /// One stale point that repeats an earlier place and time (the clock steps
    /// back once, the runner does not): its back-and-forth is not distance.
    @Test func aStalePointSteppingBackAddsNoDistance() throws {
        var raw = RawActivity()
        raw.sport = "Running"
        for k in 0..<120 {
            var p = SamplePoint()
            p.time = Double(k) * 5
            p.latitude = 47 + Double(k) * 15 / 111_195
            p.longitude = 8
            raw.samples.append(p)
            if k == 60 {
                var stale = SamplePoint()
                stale.time = 30 * 5
                stale.latitude = 47 + 30 * 15 / 111_195
                stale.longitude = 8
                raw.samples.append(stale)
            }
        }
        guard case .activity(let a) = TrackRepair.repair(raw, format: .tcx) else {
            Issue.record("a run with one stale point is a run"); return
        }
        #expect(a.repairs.droppedBackwardTime == 1 && a.repairs.backwardPathMeters == 0)
        #expect(abs(a.distanceMeters! - 119 * 15) < 1, "\(a.distanceMeters!)")
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
