import Foundation
import RaceKitMetrics
import RaceKitModel
import RaceKitScript
import RaceKitTestSupport

// racekit-gen: developer tool that writes synthetic watch exports.
//
//   racekit-gen sample-export DIR              10 weeks of running in 9 vendor dialects (make demo)
//   racekit-gen bench-big FILE [--megabytes N] one long 1 Hz GPX with HR (make bench)
//   racekit-gen bench-folder DIR [--count N] [--interval S]   N ordinary files (make bench)
//   racekit-gen bench-analysis                 times the analysis of a 4-hour 1 Hz run (make bench)
//   racekit-gen long-run FILE                  a 4-hour 1 Hz TCX run with HR (make bench)
//   racekit-gen health-export DIR [--workouts N]   an Apple Health export folder (+ a Strava copy of one run)
//   racekit-gen health-big FILE [--megabytes N]    one large Apple Health export.xml (make bench)
//   racekit-gen fit-run FILE                   the 4-hour 1 Hz run as a FIT file (make bench)
//   racekit-gen fit-folder DIR [--count N]     N ordinary FIT runs (make bench)
//   racekit-gen fit-seeds DIR                  small FIT files seeding the fuzzer (make fuzz)
//   racekit-gen bench-fit-decode FILE [--rounds N]  median FITReader time over a FIT file (make bench)
//   racekit-gen course FILE --kind hilly-half|bench-marathon [--points N]
//                                              an untimed GPX course track (Races/ examples, make bench)

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("racekit-gen: \(message)\n".utf8))
    exit(64)
}

func option(_ name: String, in args: [String], default value: Int) -> Int {
    guard let i = args.firstIndex(of: name) else { return value }
    guard i + 1 < args.count, let v = Int(args[i + 1]), v > 0 else { fail("\(name) needs a positive number") }
    return v
}

func write(_ text: String, to path: String, gzip: Bool = false) {
    let url = URL(fileURLWithPath: gzip ? String(path.dropLast(3)) : path)
    try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    do { try Data(text.utf8).write(to: url) } catch { fail("cannot write \(url.path): \(error)") }
    if gzip {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/gzip")
        p.arguments = ["-n", "-f", url.path]
        do { try p.run() } catch { fail("cannot run gzip: \(error)") }
        p.waitUntilExit()
    }
}

/// Ten weeks (2026-09-07 to 2026-11-15) of a runner training for a half marathon.
func sampleExport(_ dir: String) {
    var rng = SeededRandom(seed: 2026)
    let firstMonday = TimestampParser.parse("2026-09-07T00:00:00Z")!.secondsSinceEpoch
    let dialects = Dialect.allCases.filter { $0 != .treadmillTCX }
    var n = 0
    for week in 0..<10 {
        // (day offset, workout, minutes, UTC hour)
        var sessions: [(Int, Workout, Double, Double)] = [
            (1, week % 2 == 0 ? .intervals : .tempo, 50, 16.5), (3, .easy, 45, 5.5),
            (5, .recovery, 35, 7.5), (6, .long, 70 + Double(min(week, 6)) * 8, 7.0)
        ]
        if week % 3 == 1 { sessions.append((2, .easy, 40, 16.75)) }
        if week == 9 { sessions = [(1, .easy, 40, 16.5), (3, .tempo, 35, 5.5), (6, .race, 0, 7.0)] }
        for (day, workout, minutes, hour) in sessions.sorted(by: { $0.0 < $1.0 }) {
            let start = firstMonday + Double(week * 7 + day) * 86_400 + hour * 3600 + rng.uniform(0...600).rounded()
            let treadmill = workout == .easy && week >= 8
            let easyPace = 345 - Double(week) * 2 + rng.uniform(-5...5)
            var plan = RunPlan(
                start: start, workout: workout, durationSeconds: minutes * 60, easyPace: easyPace,
                sampleInterval: workout == .race ? 1 : [1, 2, 3][n % 3], treadmill: treadmill)
            if workout == .race {
                // The race: 21.12 km on the watch, a 12 s stop at the 15 km drink
                // station, and a fade from 16 km (6% slower at the finish).
                plan.durationSeconds = 21_097.5 / 1000 * easyPace * 0.84
                plan.finishMeters = 21_115
                plan.stops = [(15_010, 12)]
                plan.fadeFrom = 0.75
                plan.fadeShare = 0.06
            }
            if workout == .long { plan.pauses = [(minutes * 60 * 0.45, 95 + rng.uniform(0...60).rounded())] }
            if workout == .easy, !treadmill, n % 4 == 0 { plan.pauses = [(minutes * 60 * 0.6, 40)] }
            let points = Simulator.simulate(plan, rng: &rng)
            let dialect: Dialect =
                treadmill ? .treadmillTCX : (workout == .race ? .garminTCX : dialects[n % dialects.count])
            let date = String(TimestampParser.format(start).prefix(10))
            let name = workout == .race ? "Munich Half Marathon" : "\(workout.rawValue.capitalized) run"
            let gz = n % 5 == 2
            let file =
                "\(dir)/\(dialect.rawValue)/\(date)-\(workout.rawValue).\(dialect.fileExtension)\(gz ? ".gz" : "")"
            write(dialect.render(points, name: name), to: file, gzip: gz)
            if week == 2, workout == .long {
                // The same long run exported twice: the importer must store it once.
                write(Dialect.garminTCX.render(points, name: name), to: "\(dir)/garminTCX/\(date)-long.tcx")
            }
            n += 1
        }
    }
    // A planned course (no timestamps) and a TCX course: skipped, not imported.
    var rngCourse = SeededRandom(seed: 7)
    let course = Simulator.simulate(
        RunPlan(start: 0, workout: .easy, durationSeconds: 600, easyPace: 300, sampleInterval: 5),
        rng: &rngCourse)
    var route =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.1\" creator=\"StravaGPX\" xmlns=\"http://www.topografix.com/GPX/1/1\">\n <trk>\n  <name>Munich Half course</name>\n  <type>Run</type>\n  <trkseg>\n"
    for p in course {
        route +=
            "   <trkpt lat=\"\(Dialect.f(p.lat, 7))\" lon=\"\(Dialect.f(p.lon, 7))\"><ele>\(Dialect.f(p.ele, 1))</ele></trkpt>\n"
    }
    route += "  </trkseg>\n </trk>\n</gpx>\n"
    write(route, to: "\(dir)/courses/munich-half-route.gpx")
    // The same ten weeks of nights from the phone and the watch (an Apple
    // Health export with no workouts): sleep, HRV, resting heart rate, and a
    // cold in mid-October.
    let health = WellnessExport(nights: 70, illness: 38..<43, seed: 2026, first: "2026-09-07", person: "Mia")
    write(health.xml, to: "\(dir)/apple-health/export.xml")
    print("wrote \(n + 2) activity files, 1 route and 70 nights of wellness to \(dir)")
}

/// One GPX of about `megabytes` MB at 1 Hz with HR and cadence (Strava dialect).
func benchBig(_ path: String, megabytes: Int) {
    var rng = SeededRandom(seed: 42)
    let bytesPerPoint = 237.0
    let seconds = Double(megabytes) * 1_048_576 / bytesPerPoint
    let plan = RunPlan(start: 1_767_250_800, workout: .easy, durationSeconds: seconds, easyPace: 330, sampleInterval: 1)
    let points = Simulator.simulate(plan, rng: &rng)
    write(Dialect.stravaGPX.render(points, name: "Bench"), to: path)
    let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    print("wrote \(path): \(points.count) points, \(size / 1_048_576) MB")
}

/// `count` ordinary files, 20-70 minutes each, in rotating dialects (all
/// well-formed XML, so that `xmllint --stream` reads the same files as the floor).
/// `interval` > 0 forces the sampling interval (sparse files for store benchmarks).
func benchFolder(_ dir: String, count: Int, interval: Int = 0) {
    var rng = SeededRandom(seed: 99)
    let dialects = Dialect.allCases.filter { $0 != .polarGPX }
    let start = TimestampParser.parse("2020-01-01T06:00:00Z")!.secondsSinceEpoch
    for i in 0..<count {
        let dialect = dialects[i % dialects.count]
        let plan = RunPlan(
            start: start + Double(i) * 86_400, workout: .easy, durationSeconds: rng.uniform(1200...4200),
            easyPace: rng.uniform(300...380), sampleInterval: interval > 0 ? Double(interval) : [1, 2, 3][i % 3],
            treadmill: dialect == .treadmillTCX)
        let points = Simulator.simulate(plan, rng: &rng)
        write(dialect.render(points, name: "Run \(i)"), to: String(format: "%@/%04d.%@", dir, i, dialect.fileExtension))
    }
    print("wrote \(count) files to \(dir)")
}

/// The four-hour 1 Hz run the analysis benchmark and `make bench` use.
func fourHourRun() -> [SimPoint] {
    var rng = SeededRandom(seed: 4)
    return Simulator.simulate(
        RunPlan(
            start: 1_767_250_800, workout: .long, durationSeconds: 4 * 3600, easyPace: 340,
            sampleInterval: 1, pauses: [(7200, 120)]), rng: &rng)
}

/// Median time of `RunAnalyzer.analyse` over a 4-hour 1 Hz run, 31 runs.
func benchAnalysis() {
    var raw = RawActivity()
    raw.sport = "running"
    for p in fourHourRun() {
        var s = SamplePoint()
        s.time = p.time; s.latitude = p.lat; s.longitude = p.lon; s.elevation = p.ele
        s.heartRate = p.hr.rounded(); s.cadence = (p.cadence / 2).rounded(); s.distance = p.distance
        s.power = benchPower(raw.samples.count)
        raw.samples.append(s)
    }
    raw.segmentStarts = [0]
    guard case .activity(let activity) = TrackRepair.repair(raw, format: .tcx) else { fail("no activity") }
    let physiology = Physiology(maxHeartRate: 190, restingHeartRate: 50, thresholdHeartRate: 170, sex: .female)
    var times: [Double] = []
    var splits = 0
    for _ in 0..<31 {
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            let a = RunAnalyzer.analyse(activity, physiology: physiology)
            splits = a.splits(.km).count
        }
        times.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000)
    }
    times.sort()
    print(
        String(
            format: "analysis of a 4-hour 1 Hz run (%d points, %d km splits): median %.2f ms, min %.2f ms",
            activity.samples.count, splits, times[times.count / 2], times[0]))
    // The power figures alone (issue 38's target: under 2 ms), the per-second
    // series made anew each time: average, max, normalized, variability, the
    // 16 points of the power-duration curve, intensity and stress.
    let power = MetricRegistry(
        [
            Metric.AvgPower.self, Metric.MaxPower.self, Metric.NormalizedPower.self, Metric.VariabilityIndex.self,
            Metric.PowerSeconds.self, Metric.PowerIntensity.self, Metric.PowerStressScore.self
        ] + PeakPowerCurve.metrics.map { $0 as any RunMetric.Type })
    let analysis = RunAnalyzer.analyse(activity, physiology: physiology)
    var powerTimes: [Double] = []
    var np = 0.0
    for _ in 0..<31 {
        var context = MetricContext(
            samples: activity.samples, sport: activity.sport, summary: analysis.summary, moving: analysis.moving,
            physiology: physiology, load: nil)
        context.criticalPower = CriticalPower(watts: 280, wPrimeJoules: 15_000, model: .set)
        let elapsed = ContinuousClock().measure { np = power.compute(context)[Metric.NormalizedPower.self] ?? 0 }
        powerTimes.append(
            Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000)
    }
    powerTimes.sort()
    print(
        String(
            format:
                "power figures of that run (average, max, normalized %.0f W, variability, 16-point curve, intensity, stress): median %.2f ms (target < 2 ms)",
            np, powerTimes[powerTimes.count / 2]))
}

/// An untimed GPX 1.1 course track. `hilly-half`: 21.1 km with two climbs and
/// descents and 2 m of elevation noise per point, points about 15 m apart (a
/// course drawn on a map). `bench-marathon`: 42.4 km at one point a second of a
/// 3:30 runner (`points`, default 40,000) with the same noise (a recorded course).
func course(_ path: String, kind: String, points: Int) {
    var rng = SeededRandom(seed: 21)
    let length: Double, n: Int
    switch kind {
    case "hilly-half": length = 21_150; n = 1400
    case "bench-marathon": length = 42_400; n = points
    default: fail("--kind must be hilly-half or bench-marathon")
    }
    // Elevation over distance (km): smooth hills built from raised cosines.
    func hill(_ km: Double, from a: Double, to b: Double, height: Double) -> Double {
        guard km > a else { return 0 }
        guard km < b else { return height }
        return height * (1 - cos((km - a) / (b - a) * .pi)) / 2
    }
    func elevation(_ x: Double) -> Double {
        let km = x / 1000
        if kind == "hilly-half" {
            return 210 + hill(km, from: 3, to: 6.5, height: 85) - hill(km, from: 8, to: 11, height: 95)
                + hill(km, from: 13, to: 15.5, height: 70) - hill(km, from: 17.5, to: 20.5, height: 60)
        }
        return 35 + 6 * sin(km / 3) + hill(km, from: 30, to: 33, height: 18) - hill(km, from: 34, to: 36, height: 18)
    }
    var lat = 52.5163, lon = 13.3777, heading = 0.3
    var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    out += "<gpx version=\"1.1\" creator=\"racekit-gen\" xmlns=\"http://www.topografix.com/GPX/1/1\">\n"
    out += "  <trk>\n    <name>\(kind)</name>\n    <trkseg>\n"
    let step = length / Double(n - 1)
    for i in 0..<n {
        let x = Double(i) * step
        let ele = elevation(x) + rng.gaussian(2)
        out +=
            "      <trkpt lat=\"\(String(format: "%.7f", lat))\" lon=\"\(String(format: "%.7f", lon))\"><ele>\(String(format: "%.1f", ele))</ele></trkpt>\n"
        heading += sin(x / 1700) * 0.02 + rng.gaussian(0.01)
        lat += step * cos(heading) / 111_195
        lon += step * sin(heading) / (111_195 * cos(lat * .pi / 180))
    }
    out += "    </trkseg>\n  </trk>\n</gpx>\n"
    write(out, to: path)
    print("wrote \(path): \(n) points over \(Int(length)) m")
}

/// Median time of a 200-message script simulated over a 5-hour 1 Hz run (make bench).
func benchSimulate() {
    let distance = 50_000.0, target = 5 * 3600.0
    let plan = ScriptPlan(
        distanceMeters: distance, targetSeconds: target, stepMeters: 1000,
        clockSeconds: (0...50).map { Double($0) * 360 })
    var messages: [ScriptMessage] = []
    var branches: [String: String] = [:]
    for i in 1...150 {
        messages.append(
            ScriptMessage(
                id: "d\(i)", trigger: .distance(Double(i) * 330), text: "at {distance_km} km, {gap}", priority: 40))
    }
    for c in 1...10 {
        let x = Double(c) * 4500
        for (role, e) in [
            ("ahead", "avg_pace < 356.4"), ("on", "avg_pace >= 356.4 AND avg_pace <= 363.6"),
            ("behind", "avg_pace > 363.6")
        ] {
            branches["\(role)_\(c)"] = e
            messages.append(
                ScriptMessage(
                    id: "\(role)_\(c)", trigger: .distance(x), branchKey: "\(role)_\(c)",
                    text: "\(role) {projected_finish}", priority: 60))
        }
    }
    for c in 1...10 {
        messages.append(
            ScriptMessage(
                id: "c\(c)",
                trigger: Trigger(
                    type: .condition, expression: "hr > \(150 + c) AND pace_3min_ratio < 1.02 OR cadence < \(160 - c)"),
                text: "hr {hr}", priority: 70, playOnce: false))
    }
    for g in 1...10 {
        messages.append(
            ScriptMessage(id: "gel\(g)", trigger: .distance(Double(g) * 4700 + 120), text: "gel", priority: 92))
    }
    let script = RaceScript(
        id: "bench", race: "bench", personality: "calm_coach", generator: "bench", inputDigest: "", plan: plan,
        branches: branches, messages: messages)
    var rng = SeededRandom(seed: 5)
    var d = [0.0], hr = [120.0], cad = [170.0]
    for k in 1...Int(target) {
        d.append(d[k - 1] + distance / target * (1 + 0.1 * sin(Double(k) / 600)) + rng.gaussian(0.2))
        hr.append(140 + 20 * sin(Double(k) / 900) + rng.gaussian(2))
        cad.append(168 + rng.gaussian(3))
    }
    var metrics: [Metrics] = []
    var buildTimes: [Double] = [], simTimes: [Double] = []
    var played = 0
    let clock = ContinuousClock()
    func ms(_ d: Duration) -> Double { Double(d.components.attoseconds) / 1e15 + Double(d.components.seconds) * 1000 }
    for _ in 0..<21 {
        buildTimes.append(
            ms(
                clock.measure {
                    metrics = LiveMetrics.series(
                        distances: d, hr: hr, cadence: cad, startEpoch: 1_767_250_800, plan: plan,
                        zonesLowBpm: [95, 114, 133, 152, 171], timeZone: TimeZone(identifier: "Europe/Berlin")!)
                }))
        simTimes.append(
            ms(clock.measure { played = (try? TriggerEngine.simulate(script, metrics: metrics))?.played.count ?? -1 }))
    }
    buildTimes.sort(); simTimes.sort()
    print(
        String(
            format:
                "simulation: %d messages over %d seconds (%d played): engine median %.1f ms, live metrics median %.1f ms, together %.1f ms",
            messages.count, metrics.count, played, simTimes[10], buildTimes[10], simTimes[10] + buildTimes[10]))
}

let args = Array(CommandLine.arguments.dropFirst())
switch args.first {
case "sample-export":
    guard args.count >= 2 else { fail("usage: racekit-gen sample-export DIR") }
    sampleExport(args[1])
case "bench-big":
    guard args.count >= 2 else { fail("usage: racekit-gen bench-big FILE [--megabytes N]") }
    benchBig(args[1], megabytes: option("--megabytes", in: args, default: 100))
case "bench-folder":
    guard args.count >= 2 else { fail("usage: racekit-gen bench-folder DIR [--count N]") }
    benchFolder(
        args[1], count: option("--count", in: args, default: 1000),
        interval: args.contains("--interval") ? option("--interval", in: args, default: 1) : 0)
case "bench-analysis":
    benchAnalysis()
case "bench-simulate":
    benchSimulate()
case "long-run":
    guard args.count >= 2 else { fail("usage: racekit-gen long-run FILE") }
    write(Dialect.garminTCX.render(fourHourRun(), name: "Long run"), to: args[1])
case "health-export":
    guard args.count >= 2 else { fail("usage: racekit-gen health-export DIR [--workouts N]") }
    AppleHealthGen.export(args[1], workouts: option("--workouts", in: args, default: 30))
case "health-big":
    guard args.count >= 2 else { fail("usage: racekit-gen health-big FILE [--megabytes N]") }
    AppleHealthGen.big(args[1], megabytes: option("--megabytes", in: args, default: 1024))
case "fit-run":
    guard args.count >= 2 else { fail("usage: racekit-gen fit-run FILE") }
    fitRun(args[1])
case "fit-folder":
    guard args.count >= 2 else { fail("usage: racekit-gen fit-folder DIR [--count N]") }
    fitFolder(args[1], count: option("--count", in: args, default: 1000))
case "fit-seeds":
    guard args.count >= 2 else { fail("usage: racekit-gen fit-seeds DIR") }
    fitSeeds(args[1])
case "fit-sessions":
    guard args.count >= 2 else { fail("usage: racekit-gen fit-sessions FILE [--sessions S] [--records R]") }
    writeBytes(
        multisportFIT(
            sessions: option("--sessions", in: args, default: 1000),
            records: option("--records", in: args, default: 100_000)),
        to: args[1])
case "bench-fit-decode":
    guard args.count >= 2 else { fail("usage: racekit-gen bench-fit-decode FILE [--rounds N]") }
    benchFITDecode(args[1], rounds: option("--rounds", in: args, default: 21))
case "course":
    guard args.count >= 2, let k = args.firstIndex(of: "--kind"), k + 1 < args.count else {
        fail("usage: racekit-gen course FILE --kind hilly-half|bench-marathon [--points N]")
    }
    course(args[1], kind: args[k + 1], points: option("--points", in: args, default: 40_000))
default:
    fail(
        "usage: racekit-gen course FILE --kind hilly-half|bench-marathon [--points N] | sample-export DIR | bench-big FILE [--megabytes N] | bench-folder DIR [--count N] [--interval S] | bench-analysis | long-run FILE | health-export DIR [--workouts N] | health-big FILE [--megabytes N] | fit-run FILE | fit-folder DIR [--count N] | fit-seeds DIR | fit-sessions FILE [--sessions S] [--records R] | bench-fit-decode FILE [--rounds N]"
    )
}
