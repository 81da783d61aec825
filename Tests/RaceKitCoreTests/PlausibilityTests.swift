import RaceKitTestSupport
import Testing

@testable import RaceKitMetrics
@testable import RaceKitModel

/// Plausibility by channel and sport sanity (docs/numbers.md, "Plausibility" and "Sport sanity").
@Suite struct PlausibilityTests {
    /// A track moving north at `speed` m/s for `seconds`, one point a second.
    func track(
        seconds: Int, speed: Double, sport: String? = "running", start: Int = 0,
        speedAt: (Int) -> Double? = { _ in nil }
    ) -> RawActivity {
        var points: [SamplePoint] = []
        var lat = 48.0
        for i in start...(start + seconds) {
            var p = point(Double(1_772_348_400 + i), lat: lat, lon: 11, ele: 500, hr: 140, cad: 85)
            p.power = 250
            p.temperature = 12
            points.append(p)
            lat += (speedAt(i) ?? speed) / 111_195
        }
        return rawActivity(points, sport: sport)
    }

    /// A long track's steep outliers are voted in two halves side by side: the
    /// same outliers, in the same order, as one vote over the whole track (a
    /// test-local copy of the single-thread vote), around the split too.
    @Test func steepOutliersOfALongTrackAreThoseOfOneVote() {
        var rng = SplitMix64(seed: 0x57ee9)
        for n in [19_999, 20_000, 60_001] {
            var e = ContiguousArray<Double>(), axis = ContiguousArray<Double>()
            var x = 0.0, h = 500.0
            for k in 0..<n {
                x += Double.random(in: 0...5, using: &rng)
                h += Double.random(in: -0.5...0.5, using: &rng)
                let junk = Int.random(in: 0..<25, using: &rng) == 0 || (k > n / 2 - 8 && k < n / 2 + 8 && k % 2 == 0)
                e.append(Int.random(in: 0..<60, using: &rng) == 0 ? .nan : junk ? h + 300 : h)
                axis.append(x)
            }
            let got = Plausibility.steepOutliers(e, along: axis, maxRate: 0.5, floor: 1)
            let expected = Self.oneVote(e, along: axis, maxRate: 0.5, floor: 1)
            #expect(got == expected, "\(n) points")
            #expect(got.count > n / 40, "\(got.count) outliers of \(n)")
        }
    }

    static func oneVote(
        _ e: ContiguousArray<Double>, along axis: ContiguousArray<Double>, maxRate: Double, floor: Double
    ) -> [Int] {
        let valid = e.indices.filter { !e[$0].isNaN && $0 < axis.count && axis[$0].isFinite }
        guard valid.count >= 3 else { return [] }
        var out: [Int] = []
        for k in valid.indices {
            let i = valid[k]
            var votes = 0, against = 0
            for m in max(0, k - 5)..<min(valid.count, k + 6) where m != k {
                votes += 1
                if abs(e[i] - e[valid[m]]) > maxRate * max(floor, abs(axis[i] - axis[valid[m]])) { against += 1 }
            }
            if against * 2 > votes { out.append(i) }
        }
        return out
    }

    @Test func impossibleValuesAreDroppedAndCountedByChannel() throws {
        var raw = track(seconds: 60, speed: 3)
        raw.samples.elevation[5] = 1e30
        raw.samples.elevation[6] = -32768
        raw.samples.elevation[7] = 9500
        raw.samples.heartRate[8] = 300
        raw.samples.heartRate[9] = .infinity
        raw.samples.cadence[10] = 400   // 800 spm once doubled
        raw.samples.power[11] = 1e9
        raw.samples.temperature[12] = 500
        raw.samples.cadence[13] = -.infinity
        let a = try repaired(raw)
        #expect(a.repairs.droppedElevation == 3)
        #expect(a.repairs.droppedHeartRate == 2)
        #expect(a.repairs.droppedCadence == 1)
        #expect(a.repairs.droppedOtherValues == 3)
        for i in 5...7 { #expect(a.samples.elevation[i].isNaN) }
        #expect(a.samples.heartRate[8].isNaN && a.samples.heartRate[9].isNaN)
        #expect(a.samples.cadence[10].isNaN && a.samples.power[11].isNaN && a.samples.temperature[12].isNaN)
        let summary = RunAnalyzer.analyse(a, physiology: Physiology()).summary
        #expect(summary.ascentMeters == 0)
        #expect(summary.avgHeartRate == 140)
        #expect(summary.avgCadence == 170)
        #expect(
            a.repairs.descriptions.contains(
                "3 impossible elevation values removed (outside -500...9000 m, or climbing faster than 10 m/s)"))
    }

    /// One -32768 in a flat course used to give a 1,595 m climb.
    @Test func aNoDataSentinelIsNoClimb() throws {
        var raw = track(seconds: 300, speed: 3)
        raw.samples.elevation[150] = -32768
        let a = try repaired(raw)
        let summary = RunAnalyzer.analyse(a, physiology: Physiology()).summary
        #expect(summary.ascentMeters == 0 && summary.descentMeters == 0)
    }

    /// A 10-minute run at a constant 500 m whose first 40 points alternate junk
    /// and real values stored 385 m of ascent: values no one climbs to that fast
    /// are no data, whatever their neighbours.
    @Test func elevationJunkAlternatingWithRealValuesNeverClimbs() throws {
        var raw = track(seconds: 600, speed: 3)
        let junk: [Double] = [0, 0, 512, 1e30, .nan, -32768, 514, 515, .infinity, 517]
        for i in 0..<40 { raw.samples.elevation[i] = junk[i % 10] }
        let a = try repaired(raw)
        let summary = RunAnalyzer.analyse(a, physiology: Physiology()).summary
        #expect((summary.ascentMeters ?? 0) < 25, "\(String(describing: summary.ascentMeters))")
        #expect((summary.descentMeters ?? 0) < 25)
        // The zeros in the middle (not at the edge) went by their vertical speed.
        #expect(a.samples.elevation[10].isNaN && a.samples.elevation[11].isNaN)
        #expect(a.samples.elevation[12] == 512)
        // A real steep climb at 0.5 m/s and a cable car at 5 m/s stay.
        var climb = track(seconds: 600, speed: 1)
        for i in 0...600 { climb.samples.elevation[i] = 500 + Double(i) * (i < 300 ? 0.5 : 5) }
        let steep = try repaired(climb)
        #expect(steep.samples.elevation.allSatisfy { !$0.isNaN })
        #expect(steep.repairs.droppedElevation == 0)
    }

    @Test func aTrailingRunOfZerosIsAPlaceholderButRealSeaLevelStays() throws {
        var raw = track(seconds: 60, speed: 3)
        for i in 50...60 { raw.samples.elevation[i] = 0 }
        let a = try repaired(raw)
        #expect(a.repairs.edgeZeroElevation == 11)
        // At the sea front: 0 m next to 3 m is real.
        var beach = track(seconds: 60, speed: 3)
        for i in 0...60 { beach.samples.elevation[i] = i < 10 ? 0 : 3 }
        #expect(try repaired(beach).repairs.edgeZeroElevation == 0)
    }

    @Test func aSummaryNeverHoldsNonFiniteOrImpossibleFigures() {
        var s = RunSummary(startedAt: 0, endedAt: 100, elapsedSeconds: 100, pointCount: 2)
        s.distanceMeters = .infinity; s.avgHeartRate = .nan; s.maxHeartRate = 400; s.movingSeconds = 200
        s.ascentMeters = -5; s.avgCadence = 150; s.heartRateCoveragePercent = 50
        let clean = s.sanitised()
        #expect(clean.distanceMeters == nil && clean.avgHeartRate == nil && clean.maxHeartRate == nil)
        #expect(clean.movingSeconds == nil && clean.ascentMeters == nil)
        #expect(clean.avgCadence == 150 && clean.heartRateCoveragePercent == 50)
    }

    @Test func anActivitySpanningMoreThanAWeekIsRefused() {
        // Points 20 hours apart (no step a clock jump) over 8.3 days; a single
        // 30-day step is a clock jump, repaired (ClockJumpTests).
        var raw = track(seconds: 10, speed: 3)
        let t0 = raw.samples.time[0]
        for i in 0...10 { raw.samples.time[i] = t0 + Double(i) * 72_000 }
        guard case .notAnActivity(let reason) = TrackRepair.repair(raw, format: .gpx) else {
            Issue.record("an 8-day span was stored"); return
        }
        #expect(reason.contains("8.3 days"))
    }

    @Test func undeclaredRidesAndDrivesAreInferredFromSpeedRunsStayRuns() throws {
        let ride = try repaired(track(seconds: 900, speed: 8, sport: nil))
        #expect(ride.sport == .cycling && !ride.sportDeclared)
        #expect(ride.repairs.inferredSport == "cycling")
        #expect(ride.samples.cadence[0] == 85, "a ride's cadence is rpm: not doubled")
        let drive = try repaired(track(seconds: 900, speed: 22, sport: nil))
        #expect(drive.sport == .driving)
        let run = try repaired(track(seconds: 900, speed: 4.2, sport: nil))
        #expect(run.sport == .running && run.repairs.inferredSport == nil)
        // A declared sport is never second-guessed.
        #expect(try repaired(track(seconds: 900, speed: 8, sport: "running")).sport == .running)
        // Too short to tell: running assumed.
        #expect(try repaired(track(seconds: 120, speed: 8, sport: nil)).sport == .running)
    }

    @Test func aSkiDayIsInferredFromFastDescents() throws {
        var raw = track(seconds: 1800, speed: 3, sport: nil, speedAt: { i in i % 600 < 300 ? 2 : 12 })
        // Lift up at 2 m/s (+1 m/s), ski down at 12 m/s (-2 m/s: a 17% slope).
        var ele = 1500.0
        for i in 0..<raw.samples.count {
            raw.samples.elevation[i] = ele
            ele += i % 600 < 300 ? 1 : -2
        }
        let a = try repaired(raw)
        #expect(a.sport == .skiing)
    }

    /// Records stay clean (issue 36, item 5): a navigation track at 5.1 m/s
    /// and a ski tour, neither naming a sport, are no runs; a 333 m, 3 s "run"
    /// has no pace load.
    @Test func inferenceKeepsRecordsClean() throws {
        let navigation = try repaired(track(seconds: 1800, speed: 5.1, sport: nil))
        #expect(navigation.sport == .other && navigation.repairs.inferredSport == "other")
        #expect(try repaired(track(seconds: 1800, speed: 4.8, sport: nil)).sport == .running)
        // Skins up at 0.8 m/s for 50 minutes (+0.1 m/s), down at 9 m/s for 4 (-1.25 m/s):
        // 7% of the moving windows, 47% of the distance.
        var raw = track(seconds: 3240, speed: 1, sport: nil, speedAt: { i in i < 3000 ? 0.8 : 9 })
        var ele = 1500.0
        for i in 0..<raw.samples.count {
            raw.samples.elevation[i] = ele
            ele += i < 3000 ? 0.1 : -1.25
        }
        #expect(try repaired(raw).sport == .skiing)
        let threshold = Physiology(thresholdPaceSecondsPerKm: 250)
        #expect(TrainingLoadModel.pace(movingSeconds: 3, movingMeters: 333, physiology: threshold) == nil)
        #expect(TrainingLoadModel.pace(movingSeconds: 1500, movingMeters: 5000, physiology: threshold) != nil)
    }

    /// A declared run with a bus ride in it: the run stays, the ride is no best effort.
    @Test func aStretchFasterThanAHumanIsLeftOutOfBestEfforts() throws {
        let raw = track(seconds: 3600, speed: 3.3, speedAt: { i in (600..<900).contains(i) ? 10 : nil })
        let a = try repaired(raw)
        let analysis = RunAnalyzer.analyse(a, physiology: Physiology())
        let fiveK = try #require(analysis.bestEfforts.first { $0.distanceMeters == 5000 })
        #expect(fiveK.elapsedSeconds > 5000 / 3.3 - 1, "the 5k is run at 3.3 m/s, not through the bus ride")
        let flags = BestEfforts.inhumanSteps(a.samples)
        #expect(flags[700] && !flags[100] && !flags[2500])
        // Without the exclusion the bus would make the 1 km in 100 s.
        let raw1k = BestEfforts.compute(a.samples, distances: [1000])
        #expect(raw1k[0].elapsedSeconds < 101)
        #expect(analysis.bestEfforts.first { $0.distanceMeters == 1000 }!.elapsedSeconds > 290)
    }
}
