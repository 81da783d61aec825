import Testing

@testable import RaceKitMetrics
@testable import RaceKitModel
@testable import RaceKitStore

/// A stored run for the policy: only the fields it reads matter.
private func stored(
    _ id: String, start: Double, end: Double, distance: Double?, sha256: String = "old", index: Int = 0,
    heartRate: Bool = false, cadence: Bool = false, ascent: Bool = false, treadmill: Bool = false,
    points: Int = 100, sport: Sport = .running, declared: Bool = true
) -> RunRecord {
    RunRecord(
        id: id, athleteID: "default", sport: sport, sportDeclared: declared, name: nil, sourceFile: "a.fit",
        sourceFormat: .fit, sourceSHA256: sha256, activityIndex: index, creator: nil, startedAt: start,
        endedAt: end, elapsedSeconds: end - start, movingSeconds: nil, distanceMeters: distance,
        distanceSource: .device, ascentMeters: ascent ? 10 : nil, descentMeters: nil,
        avgHeartRate: heartRate ? 140 : nil, maxHeartRate: nil, heartRateCoveragePercent: nil,
        avgCadence: cadence ? 170 : nil, load: nil, loadSource: nil, label: nil, mode: .free,
        runType: treadmill ? .treadmill : .outdoor, perceivedEffort: nil, notes: nil, pointCount: points,
        repairs: "{}", analysisVersion: 1, importedAt: 0)
}

/// An incoming activity starting at 1000 s and ending at 4000 s (10 km) unless told.
private func incoming(
    start: Double = 1000, end: Double = 4000, distance: Double? = 10_000, sha256: String = "new", index: Int = 0,
    heartRate: Bool = false, cadence: Bool = false, ascent: Bool = false, indoor: Bool = false,
    points: Int = 100, sport: Sport = .running, declared: Bool = true
) -> DuplicateKeys {
    DuplicateKeys(
        sha256: sha256, activityIndex: index, startedAt: start, endedAt: end, distanceMeters: distance,
        sport: sport, sportDeclared: declared, hasHeartRate: heartRate, hasCadence: cadence, hasElevation: ascent,
        isIndoor: indoor, pointCount: points)
}

private func decide(_ keys: DuplicateKeys, _ candidates: [RunRecord], allow: Bool = false) -> DuplicateDecision {
    DuplicatePolicy.decide(keys, candidates: candidates, allowDuplicates: allow)
}

@Suite struct DuplicatePolicyTests {
    @Test func nothingStoredIsNew() {
        #expect(decide(incoming(), []) == .insert)
    }

    @Test func theSameBytesAreADuplicateEvenWhenDuplicatesAreAllowed() {
        let same = stored("A", start: 90_000, end: 93_000, distance: 5000, sha256: "new")
        #expect(decide(incoming(), [same]) == .duplicate(runID: "A", sameBytes: true))
        #expect(decide(incoming(), [same], allow: true) == .duplicate(runID: "A", sameBytes: true))
        // Another activity of the same file is not the same bytes.
        let other = stored("B", start: 90_000, end: 93_000, distance: 5000, sha256: "new", index: 1)
        #expect(decide(incoming(), [other]) == .insert)
    }

    @Test func theSameActivityIsStoredAgainWhenDuplicatesAreAllowed() {
        let copy = stored("A", start: 1000, end: 4000, distance: 10_000)
        #expect(decide(incoming(), [copy]) == .duplicate(runID: "A", sameBytes: false))
        #expect(decide(incoming(), [copy], allow: true) == .insert)
    }

    @Test func aStartMoreThanAMinuteApartIsAnotherActivity() {
        #expect(decide(incoming(), [stored("A", start: 1060, end: 4060, distance: 10_000)]) != .insert)
        #expect(decide(incoming(), [stored("A", start: 940, end: 3940, distance: 10_000)]) != .insert)
        #expect(decide(incoming(), [stored("A", start: 1061, end: 4000, distance: 10_000)]) == .insert)
        #expect(decide(incoming(), [stored("A", start: 939, end: 4000, distance: 10_000)]) == .insert)
    }

    @Test func endingTogetherIsOneActivityWhateverTheDistances() {
        let gps = stored("A", start: 1010, end: 4050, distance: 11_000)
        #expect(decide(incoming(), [gps]) == .duplicate(runID: "A", sameBytes: false))
    }

    @Test func distancesDecideWhenTheEndsDiffer() {
        // Within 2%: the same activity.
        #expect(decide(incoming(end: 4000), [stored("A", start: 1000, end: 4100, distance: 10_190)]) != .insert)
        // Both without a distance, or both at zero: the same activity.
        #expect(decide(incoming(distance: nil), [stored("A", start: 1000, end: 4100, distance: nil)]) != .insert)
        #expect(decide(incoming(distance: 0), [stored("A", start: 1000, end: 4100, distance: 0)]) != .insert)
        // Only one with a distance: another activity.
        #expect(decide(incoming(distance: nil), [stored("A", start: 1000, end: 4100, distance: 10_000)]) == .insert)
        #expect(decide(incoming(), [stored("A", start: 1000, end: 4100, distance: nil)]) == .insert)
    }

    @Test func aCutOffCopyIsTheSameActivity() {
        // The stored copy ends first and covers less: a watch that died mid-run.
        #expect(decide(incoming(), [stored("A", start: 1000, end: 2500, distance: 5000)]) != .insert)
        // The incoming copy is the cut-off one.
        #expect(
            decide(incoming(end: 2500, distance: 5000), [stored("A", start: 1000, end: 4000, distance: 10_000)])
                != .insert)
        // Ending first but covering over 2% more is another activity.
        #expect(decide(incoming(), [stored("A", start: 1000, end: 2500, distance: 10_300)]) == .insert)
    }

    @Test func theNearestStartIsChosenThenTheFirstGiven() {
        let far = stored("FAR", start: 1050, end: 4050, distance: 10_000)
        let near = stored("NEAR", start: 990, end: 3990, distance: 10_000)
        #expect(decide(incoming(), [far, near]) == .duplicate(runID: "NEAR", sameBytes: false))
        let twin = stored("TWIN", start: 1010, end: 4010, distance: 10_000)
        #expect(decide(incoming(), [near, twin]) == .duplicate(runID: "NEAR", sameBytes: false))
        #expect(decide(incoming(), [twin, near]) == .duplicate(runID: "TWIN", sameBytes: false))
        // A nearer candidate that is another activity does not hide a farther match.
        let other = stored("OTHER", start: 1000, end: 2000, distance: 12_000)
        #expect(decide(incoming(), [other, far]) == .duplicate(runID: "FAR", sameBytes: false))
    }

    @Test func aRicherCopyReplacesTheStoredOne() {
        let plain = stored("A", start: 1000, end: 4000, distance: 10_000, points: 100)
        // A channel more, none lost.
        #expect(decide(incoming(heartRate: true), [plain]) == .replace(stored: plain))
        // The same channels and 1.5 times the points.
        #expect(decide(incoming(points: 150), [plain]) == .replace(stored: plain))
        #expect(decide(incoming(points: 149), [plain]) == .duplicate(runID: "A", sameBytes: false))
        // Positions where the stored copy had none (a treadmill run).
        let treadmill = stored("T", start: 1000, end: 4000, distance: 10_000, treadmill: true)
        #expect(decide(incoming(), [treadmill]) == .replace(stored: treadmill))
    }

    @Test func aCopyThatLosesAChannelNeverReplaces() {
        let withHR = stored("A", start: 1000, end: 4000, distance: 10_000, heartRate: true, points: 100)
        #expect(decide(incoming(cadence: true, points: 1000), [withHR]) == .duplicate(runID: "A", sameBytes: false))
        let outdoor = stored("B", start: 1000, end: 4000, distance: 10_000)
        #expect(decide(incoming(heartRate: true, indoor: true), [outdoor]) == .duplicate(runID: "B", sameBytes: false))
    }

    @Test func declaredSportsThatDifferKeepTheStoredCopy() {
        let swim = stored("A", start: 1000, end: 4000, distance: 10_000, sport: .swimming)
        #expect(decide(incoming(heartRate: true), [swim]) == .duplicate(runID: "A", sameBytes: false))
        let inferred = stored("B", start: 1000, end: 4000, distance: 10_000, sport: .swimming, declared: false)
        #expect(decide(incoming(heartRate: true), [inferred]) == .replace(stored: inferred))
    }

    @Test func theKeysOfANewRunAreItsSummarys() throws {
        var raw = RawActivity()
        raw.sport = "running"
        for i in 0..<3 {
            var p = SamplePoint()
            p.time = 1000 + Double(i) * 10
            p.distance = Double(i) * 50
            p.heartRate = 140
            raw.samples.append(p)
        }
        raw.segmentStarts = [0]
        guard case .activity(let a) = TrackRepair.repair(raw, format: .tcx) else {
            Issue.record("the run must repair")
            return
        }
        let run = NewRun(activity: a, analysis: RunAnalyzer.analyse(a, physiology: Physiology()), activityIndex: 2)
        let keys = DuplicateKeys(run, sha256: "ab")
        #expect(keys.sha256 == "ab" && keys.activityIndex == 2 && keys.startedAt == 1000 && keys.endedAt == 1020)
        #expect(keys.distanceMeters == 100 && keys.hasHeartRate && !keys.hasCadence && keys.pointCount == 3)
        #expect(keys.isIndoor == a.isIndoor && keys.sport == a.sport)
    }
}

/// `RunRecord`'s typed accessors read the standard metrics at their index.
@Suite struct StandardMetricSlotTests {
    @Test func eachAccessorReadsItsOwnMetric() {
        var r = RunRecord(
            id: "x", athleteID: "default", sport: .running, sportDeclared: true, name: nil, sourceFile: "a.fit",
            sourceFormat: .fit, sourceSHA256: "s", activityIndex: 0, creator: nil, startedAt: 0, endedAt: 10,
            elapsedSeconds: 10, movingSeconds: 1, distanceMeters: 2, distanceSource: .device, ascentMeters: 3,
            descentMeters: 4, avgHeartRate: 5, maxHeartRate: 6, heartRateCoveragePercent: 7, avgCadence: 8, load: 9,
            loadSource: nil, label: nil, mode: .free, runType: .outdoor, perceivedEffort: nil, notes: nil,
            pointCount: 2, repairs: "{}", analysisVersion: 6, importedAt: 0, gradeAdjustedPaceSecondsPerKm: 10)
        let types: [any RunMetric.Type] = [
            Metric.MovingSeconds.self, Metric.DistanceMeters.self, Metric.AscentMeters.self,
            Metric.DescentMeters.self, Metric.AvgHeartRate.self, Metric.MaxHeartRate.self,
            Metric.HeartRateCoverage.self, Metric.AvgCadence.self, Metric.Load.self, Metric.GradeAdjustedPace.self
        ]
        for (i, m) in types.enumerated() { #expect(r.metrics[m] == Double(i + 1), "\(m)") }
        // The same through a registry that does not start with the standard list.
        let other = MetricRegistry(types.reversed())
        r = r.with(other)
        #expect(r.distanceMeters == 2 && r.gradeAdjustedPaceSecondsPerKm == 10 && r.movingSeconds == 1)
        r.load = 42
        #expect(r.metrics[Metric.Load.self] == 42)
    }
}
