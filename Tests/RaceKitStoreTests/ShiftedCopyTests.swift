import Foundation
import Testing

@testable import RaceKitMetrics
@testable import RaceKitModel
@testable import RaceKitStore

/// A 50-minute run at 1 s around a 2 km loop, its pace and heart rate
/// wandering with `seed`, starting at `start`; `every`: keep one point in so many
/// (a re-save that thinned the recording).
func loopRun(start: Double, seed: UInt64, every: Int = 1, shiftSamples: Double = 0) -> NewRun {
    var raw = RawActivity()
    raw.sport = "running"
    var state = seed
    func noise() -> Double {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Double(state >> 11) / Double(1 << 53) - 0.5
    }
    var x = 0.0, speed = 3.3, hr = 150.0
    for i in 0..<3000 {
        speed = min(4, max(2.8, speed + noise() * 0.1))
        hr = min(175, max(135, hr + noise() * 1.5))
        x += speed
        if i % every != 0 { continue }
        let angle = x / 2000 * 2 * Double.pi
        var p = SamplePoint()
        p.time = start + Double(i) + shiftSamples
        p.latitude = 48.137 + 0.0029 * sin(angle)
        p.longitude = 11.575 + 0.0043 * cos(angle)
        p.distance = x
        p.heartRate = hr.rounded()
        raw.samples.append(p)
    }
    raw.segmentStarts = [0]
    guard case .activity(let a) = TrackRepair.repair(raw, format: .gpx) else { fatalError("test run must repair") }
    return NewRun(activity: a, analysis: RunAnalyzer.analyse(a, physiology: Physiology()), activityIndex: 0)
}

@Suite struct ShiftedCopyTests {
    static let start = 1_772_348_400.0

    func insert(_ store: any Store, _ run: NewRun, _ sha: String, allow: Bool = false) throws -> InsertOutcome {
        try store.insert(
            [run], athleteID: "default", sourceFile: "\(sha).gpx", format: .gpx, sha256: sha, allowDuplicates: allow
        )[0]
    }

    /// A re-save whose clock is 2:00 off, or 3:44 off and thinned to one
    /// point in two, is the stored run, said with its shift, on every backend.
    @Test(arguments: Backend.all) func aCopyWithItsClockShiftedIsOneRun(_ backend: Backend) throws {
        let store = try backend.make()
        guard case .inserted(let id) = try insert(store, loopRun(start: Self.start, seed: 7), "a") else {
            Issue.record("not inserted")
            return
        }
        let twoHours = try insert(store, loopRun(start: Self.start + 7200, seed: 7), "b")
        #expect(twoHours == .duplicate(existingRunID: id, sameBytes: false, clockShiftSeconds: 7200))
        let odd = try insert(store, loopRun(start: Self.start - 13_440, seed: 7, every: 2), "c")
        #expect(odd == .duplicate(existingRunID: id, sameBytes: false, clockShiftSeconds: -13_440))
        // Another run of the same loop at the same pace on average, a day later: a run.
        guard case .inserted = try insert(store, loopRun(start: Self.start + 86_400, seed: 8), "d") else {
            Issue.record("another run of the same loop was taken for a copy")
            return
        }
        // Asked for, the copy is stored again.
        guard case .inserted = try insert(store, loopRun(start: Self.start + 3600, seed: 7), "e", allow: true) else {
            Issue.record("--allow-duplicates did not store the copy")
            return
        }
        #expect(try store.runCount(athleteID: "default") == 3)
    }

    @Test func theShapeDecidesAndTheShiftIsSaid() throws {
        func samples(_ run: NewRun) throws -> SampleSeries { try SampleCodec.decode(run.encodedSamples) }
        let a = try samples(loopRun(start: 0, seed: 1))
        #expect(ShiftedCopy.sameShape(a, try samples(loopRun(start: 5000, seed: 1))))
        #expect(ShiftedCopy.sameShape(a, try samples(loopRun(start: 5000, seed: 1, every: 3))))
        #expect(!ShiftedCopy.sameShape(a, try samples(loopRun(start: 5000, seed: 2))))
        // A copy whose heart rate differs is not the same recording, whatever the positions say.
        var other = try samples(loopRun(start: 5000, seed: 1))
        other.modify(.heartRate) { h in for i in h.indices { h[i] += 6 } }
        #expect(!ShiftedCopy.sameShape(a, other))
        #expect(ShiftedCopy.describe(7200).hasPrefix("2:00:00 later (whole hours"))
        #expect(ShiftedCopy.describe(-13_440).hasPrefix("3:44:00 earlier (a constant offset"))
    }
}
