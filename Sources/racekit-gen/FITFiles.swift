import CMalloc
import Foundation
import RaceKitFormats
import RaceKitModel

// FIT inputs for `make bench` (written with RaceKitFormats' FITWriter).

/// Simulated points as the samples a watch records (cadence in strides per minute).
func fitSamples(_ points: [SimPoint]) -> [SamplePoint] {
    points.map { p in
        var s = SamplePoint()
        s.time = p.time; s.latitude = p.lat; s.longitude = p.lon; s.elevation = p.ele
        s.heartRate = p.hr.rounded(); s.cadence = p.cadence / 2; s.distance = p.distance; s.speed = p.speed
        return s
    }
}

func writeBytes(_ bytes: [UInt8], to path: String) {
    let url = URL(fileURLWithPath: path)
    try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    do { try Data(bytes).write(to: url) } catch { fail("cannot write \(path): \(error)") }
}

/// The four-hour 1 Hz run of `long-run` as a FIT file (Garmin, with its pause),
/// its power as a Stryd developer field.
func fitRun(_ path: String) {
    let points = fourHourRun()
    var info = FITWriter.ActivityInfo()
    info.productName = "Forerunner 965"
    info.developerPower = true
    if let resume = points.indices.dropFirst().first(where: { points[$0].time - points[$0 - 1].time > 60 }) {
        info.resumeAt = [resume]
    }
    var samples = fitSamples(points)
    for i in samples.indices { samples[i].power = benchPower(i) }
    let bytes = FITWriter.activity(samples, info: info)
    writeBytes(bytes, to: path)
    print("wrote \(path): \(points.count) records with developer power, \(bytes.count) bytes")
}

/// `count` ordinary FIT runs (20-70 minutes, 1-3 s recording), as `bench-folder` writes GPX/TCX.
func fitFolder(_ dir: String, count: Int) {
    var rng = SeededRandom(seed: 99)
    let start = TimestampParser.parse("2020-01-01T06:00:00Z")!.secondsSinceEpoch
    for i in 0..<count {
        let plan = RunPlan(
            start: start + Double(i) * 86_400, workout: .easy, durationSeconds: rng.uniform(1200...4200),
            easyPace: rng.uniform(300...380), sampleInterval: [1, 2, 3][i % 3])
        var info = FITWriter.ActivityInfo()
        info.bigEndian = i % 4 == 3
        let bytes = FITWriter.activity(fitSamples(Simulator.simulate(plan, rng: &rng)), info: info)
        writeBytes(bytes, to: String(format: "%@/%04d.fit", dir, i))
    }
    print("wrote \(count) FIT files to \(dir)")
}

/// Median time of `FITReader.read` over a file (decode only: no repair, no
/// analysis, no store), `rounds` rounds after one warm-up.
func benchFITDecode(_ path: String, rounds: Int) {
    // The reader as racekit runs it: with racekit's allocator settings.
    racekit_keep_freed_memory()
    var times: [Double] = []
    var records = 0
    let clock = ContinuousClock()
    for round in 0...rounds {
        let elapsed = clock.measure {
            do {
                let result = try FITReader.read(FileByteStream(path: path))
                if case .document(let d) = result.outcome { records = d.activities.reduce(0) { $0 + $1.samples.count } }
            } catch {
                fail("\(error)")
            }
        }
        if round > 0 {
            times.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000)
        }
    }
    times.sort()
    print(
        String(format: "fit decode: %d records, median %.2f ms over %d rounds", records, times[times.count / 2], rounds)
    )
}

/// Small FIT files for the fuzzer's seed corpus: an activity in each byte
/// order, and one with compressed timestamps, developer fields and two files chained.
func fitSeeds(_ dir: String) {
    var rng = SeededRandom(seed: 11)
    let points = Array(
        fitSamples(
            Simulator.simulate(
                RunPlan(start: 1_767_250_800, workout: .easy, durationSeconds: 60, easyPace: 330, sampleInterval: 1),
                rng: &rng)
        ).prefix(40))
    var info = FITWriter.ActivityInfo()
    info.resumeAt = [20]
    writeBytes(FITWriter.activity(points, info: info), to: "\(dir)/seed-little.fit")
    info.bigEndian = true
    info.productName = "Edge 540"
    writeBytes(FITWriter.activity(points, info: info), to: "\(dir)/seed-big.fit")
    var w = FITWriter()
    let t = FITWriter.timestamp(1_767_250_800)
    w.define(local: 0, global: 20, fields: [.init(253, .uint32), .init(3, .uint8)], developer: [.init(0, size: 2)])
    w.write(local: 0, [.int(t), .int(120)], developer: [[1, 2]])
    w.define(local: 1, global: 20, fields: [.init(3, .uint8), .init(5, .uint32)])
    for k in 1...8 {
        w.writeCompressed(
            local: 1, timeOffset: UInt8((t + Int64(k)) & 31), [.int(120 + Int64(k)), .int(Int64(k) * 300)])
    }
    w.define(local: 2, global: 206, fields: [.init(0, .uint8), .init(1, .uint8), .init(3, .string, size: 8)])
    w.write(local: 2, [.int(0), .int(0), .string("Power")])
    writeBytes(w.file(headerSize: 12) + w.file(), to: "\(dir)/seed-compressed-chained.fit")
    writeBytes(multisportFIT(sessions: 12, records: 120), to: "\(dir)/seed-multisport.fit")
    print("wrote 4 FIT seeds to \(dir)")
}

/// A multisport FIT of `sessions` sessions over `records` 1 Hz records (the
/// hostile pass's shape: its cost was sessions x records). Each session is a run.
func multisportFIT(sessions: Int, records: Int) -> [UInt8] {
    var w = FITWriter()
    let t = FITWriter.timestamp(1_767_250_800)
    w.define(local: 0, global: 0, fields: [.init(0, .enumeration)])
    w.write(local: 0, [.int(4)])
    w.define(local: 1, global: 20, fields: [.init(253, .uint32), .init(5, .uint32)])
    for k in 0..<records { w.write(local: 1, [.int(t + Int64(k)), .int(Int64(k) * 300)]) }
    w.define(local: 2, global: 18, fields: [.init(253, .uint32), .init(2, .uint32), .init(5, .enumeration)])
    let each = max(1, records / max(1, sessions))
    for k in 0..<sessions {
        let start = t + Int64(k * each)
        w.write(local: 2, [.int(start + Int64(each - 1)), .int(start), .int(1)])
    }
    return w.file()
}

/// A runner's power at second `i` of the four-hour run: about 240 W with a
/// minute-long surge every ten minutes and some noise.
func benchPower(_ i: Int) -> Double {
    240 + (i % 600 < 60 ? 80 : 0) + 15 * sin(Double(i) / 7)
}
