import Foundation
import RaceKitModel

/// Apple Health exports as real iPhones write them: the internal DTD with the
/// iOS 16 `ATTLIST` that lacks its `>`, records grouped by type before the
/// workouts, both shapes of workout (before iOS 16: distance in miles and the
/// route inline; since: statistics, events and a route file), and a stray `\x0b`.
enum AppleHealthGen {
    static let watch = "Mia’s Apple Watch"
    static let phone = "Mia’s iPhone"
    static let device =
        "&lt;&lt;HKDevice: 0x283c1e3a0&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:9.3&gt;"
    /// Central European Summer Time, as the exports write it.
    static let offset = 7200

    static let header = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE HealthData [
        <!-- HealthKit Export Version: 13 -->
        <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord|Audiogram|VisionPrescription)*)>
        <!ATTLIST HealthData
          locale CDATA #REQUIRED
        >
        <!ELEMENT ExportDate EMPTY>
        <!ATTLIST ExportDate
          value CDATA #REQUIRED
        >
        <!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>
        <!ATTLIST Record
          type          CDATA #REQUIRED
          unit          CDATA #IMPLIED
          value         CDATA #IMPLIED
          sourceName    CDATA #REQUIRED
          sourceVersion CDATA #IMPLIED
          device        CDATA #IMPLIED
          creationDate  CDATA #IMPLIED
          startDate     CDATA #REQUIRED
          endDate       CDATA #REQUIRED
        >
        <!ELEMENT Workout ((MetadataEntry|WorkoutEvent|WorkoutRoute|WorkoutStatistics)*)>
        <!ATTLIST Workout
          workoutActivityType   CDATA #REQUIRED
          duration              CDATA #IMPLIED
          durationUnit          CDATA #IMPLIED
          totalDistance         CDATA #IMPLIED
          totalDistanceUnit     CDATA #IMPLIED
          sourceName            CDATA #REQUIRED
          startDate             CDATA #REQUIRED
          endDate               CDATA #REQUIRED
        >
        <!ELEMENT VisionPrescription ((RightEye|LeftEye|Attachment|MetadataEntry)*)>
        <!ATTLIST VisionPrescription
          type             CDATA #REQUIRED
          dateIssued       CDATA #REQUIRED
          expirationDate   CDATA #IMPLIED
          brand            CDATA #IMPLIED
        <!ELEMENT RightEye EMPTY>
        <!ATTLIST RightEye
          sphere           CDATA #IMPLIED
        >
        ]>
        <HealthData locale="de_DE">
         <ExportDate value="2023-06-01 21:00:00 +0200"/>
         <Me HKCharacteristicTypeIdentifierDateOfBirth="1990-05-01" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale"/>

        """

    /// `2019-07-01 07:00:00 +0200` for seconds since the epoch.
    static func date(_ t: Double) -> String {
        let local = Int(t.rounded()) + offset
        var days = local / 86_400, rem = local % 86_400
        if rem < 0 { rem += 86_400; days -= 1 }
        let (y, m, d) = TimestampParser.civilFromDays(days)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(y)-\(two(m))-\(two(d)) \(two(rem / 3600)):\(two(rem / 60 % 60)):\(two(rem % 60)) +0200"
    }

    static func record(_ type: String, _ source: String, _ unit: String, _ from: Double, _ to: Double, _ value: String)
        -> String
    {
        let s = date(from), e = to == from ? s : date(to)
        return
            " <Record type=\"HKQuantityTypeIdentifier\(type)\" sourceName=\"\(source)\" sourceVersion=\"9.3\" device=\"\(device)\" unit=\"\(unit)\" creationDate=\"\(e)\" startDate=\"\(s)\" endDate=\"\(e)\" value=\"\(value)\"/>\n"
    }

    /// What kind of workout the i-th one is.
    enum Kind { case legacyRun, run, treadmill, ride, strength }

    static func kind(_ i: Int) -> Kind {
        switch i % 10 {
        case 0, 5: return .legacyRun
        case 3: return .treadmill
        case 7: return .ride
        case 9: return .strength
        default: return .run
        }
    }

    struct Planned {
        var kind: Kind
        var points: [SimPoint]
        var pause: (at: Double, length: Double)?
        var start: Double { points[0].time }
        var end: Double { points[points.count - 1].time }
    }

    static func plan(_ i: Int, rng: inout SeededRandom, first: Double, days: Double = 2) -> Planned {
        let kind = kind(i)
        let start = first + Double(i) * days * 86_400 + rng.uniform(0...1800).rounded()
        var run = RunPlan(
            start: start, workout: i % 4 == 2 ? .tempo : .easy, durationSeconds: rng.uniform(1800...3600).rounded(),
            easyPace: kind == .ride ? 130 : rng.uniform(310...360), sampleInterval: 1, treadmill: kind == .treadmill)
        var pause: (Double, Double)?
        if kind == .run, i % 4 == 1 {
            let at = (run.durationSeconds * 0.5).rounded()
            run.pauses = [(atSeconds: at, lengthSeconds: 120.0)]
            pause = (start + at, 120.0)
        }
        return Planned(kind: kind, points: Simulator.simulate(run, rng: &rng), pause: pause)
    }

    /// A folder `dir/apple_health_export` (export.xml, workout-routes/) and, beside
    /// it, `dir/strava/` with one of the runs again as a GPX (a duplicate to find).
    static func export(_ dir: String, workouts: Int) {
        var rng = SeededRandom(seed: 16)
        let first = TimestampParser.parse("2023-04-01T05:00:00Z")!.secondsSinceEpoch
        let plans = (0..<workouts).map { plan($0, rng: &rng, first: first) }
        let root = "\(dir)/apple_health_export"
        var xml = header
        // Records by type: heart rate, then distance, then steps; workouts last.
        for p in plans {
            if p.kind == .strength {
                for t in stride(from: p.start, through: p.end, by: 10) {
                    xml += record("HeartRate", watch, "count/min", t, t, "\(110 + Int(t) % 30)")
                }
                continue
            }
            for q in p.points where Int(q.time - p.start) % 5 == 0 {
                xml += record("HeartRate", watch, "count/min", q.time, q.time, "\(Int(q.hr))")
            }
            xml += record("HeartRate", watch, "count/min", p.end + 600, p.end + 600, "88")
        }
        xml += distanceRecords(plans)
        xml += record("StepCount", phone, "count", first, first + 600, "1200")
        for (i, p) in plans.enumerated() {
            xml += workout(p, index: i, root: root)
        }
        xml += "</HealthData>\n"
        write(xml, to: "\(root)/export.xml")
        // The first iOS 16 run again, as Strava exports it.
        if let k = plans.firstIndex(where: { $0.kind == .run }) {
            write(Dialect.stravaGPX.render(plans[k].points, name: "Morning Run"), to: "\(dir)/strava/morning-run.gpx")
        }
        let running = plans.filter { $0.kind == .legacyRun || $0.kind == .run || $0.kind == .treadmill }.count
        print("wrote \(root): \(workouts) workouts (\(running) runs), and 1 Strava GPX of one of them")
    }

    /// Walking/running distance: the watch's per minute during runs, the phone's per
    /// 5 minutes (a little more, as phones count) over the same time.
    static func distanceRecords(_ plans: [Planned]) -> String {
        var xml = ""
        for source in [watch, phone] {
            let step = source == watch ? 60 : 300
            let factor = source == watch ? 1.0 : 1.04
            for p in plans where p.kind == .treadmill || p.kind == .run || p.kind == .legacyRun {
                var k = 0
                while k + 1 < p.points.count {
                    let j = min(k + step, p.points.count - 1)
                    let meters = (p.points[j].distance - p.points[k].distance) * factor
                    xml += record(
                        "DistanceWalkingRunning", source, "km", p.points[k].time, p.points[j].time,
                        String(format: "%.5f", meters / 1000))
                    k = j
                }
            }
        }
        return xml
    }

    /// The `<Workout>`; its route file is written under `root` when given.
    static func workout(_ p: Planned, index i: Int, root: String?) -> String {
        let type: String
        switch p.kind {
        case .legacyRun, .run, .treadmill: type = "Running"
        case .ride: type = "Cycling"
        case .strength: type = "TraditionalStrengthTraining"
        }
        let moving = (p.end - p.start - (p.pause?.length ?? 0)) / 60
        let meters = p.points[p.points.count - 1].distance
        let (s, e) = (date(p.start), date(p.end))
        var xml =
            " <Workout workoutActivityType=\"HKWorkoutActivityType\(type)\" duration=\"\(String(format: "%.4f", moving))\" durationUnit=\"min\""
        if p.kind == .legacyRun {
            xml += " totalDistance=\"\(String(format: "%.4f", meters / 1609.344))\" totalDistanceUnit=\"mi\""
        }
        xml +=
            " sourceName=\"\(watch)\" sourceVersion=\"9.3\" device=\"\(device)\" creationDate=\"\(e)\" startDate=\"\(s)\" endDate=\"\(e)\">\n"
        xml += "  <MetadataEntry key=\"HKIndoorWorkout\" value=\"\(p.kind == .treadmill ? 1 : 0)\"/>\n"
        if i == 1 { xml += "  <MetadataEntry key=\"HKWeatherHumidity\" value=\"6500 %\u{0B}\"/>\n" }
        if let pause = p.pause {
            xml += "  <WorkoutEvent type=\"HKWorkoutEventTypePause\" date=\"\(date(pause.at))\"/>\n"
            xml += "  <WorkoutEvent type=\"HKWorkoutEventTypeResume\" date=\"\(date(pause.at + pause.length))\"/>\n"
        }
        if p.kind != .legacyRun, p.kind != .strength {
            let stat = p.kind == .ride ? "DistanceCycling" : "DistanceWalkingRunning"
            xml +=
                "  <WorkoutStatistics type=\"HKQuantityTypeIdentifier\(stat)\" startDate=\"\(s)\" endDate=\"\(e)\" sum=\"\(String(format: "%.5f", meters / 1000))\" unit=\"km\"/>\n"
            xml +=
                "  <WorkoutStatistics type=\"HKQuantityTypeIdentifierHeartRate\" startDate=\"\(s)\" endDate=\"\(e)\" average=\"150\" minimum=\"120\" maximum=\"175\" unit=\"count/min\"/>\n"
        }
        switch p.kind {
        case .legacyRun:
            xml +=
                "  <WorkoutRoute sourceName=\"\(watch)\" sourceVersion=\"12.3\" startDate=\"\(s)\" endDate=\"\(e)\">\n"
            for q in p.points {
                xml +=
                    "   <Location date=\"\(date(q.time))\" latitude=\"\(Dialect.f(q.lat, 6))\" longitude=\"\(Dialect.f(q.lon, 6))\" altitude=\"\(Dialect.f(q.ele, 1))\" horizontalAccuracy=\"3.5\" verticalAccuracy=\"2.8\" course=\"0\" speed=\"\(Dialect.f(q.speed, 2))\"/>\n"
            }
            xml += "  </WorkoutRoute>\n"
        case .run, .ride:
            let file = "route_\(date(p.start).prefix(10))_\(i).gpx"
            xml +=
                "  <WorkoutRoute sourceName=\"\(watch)\" sourceVersion=\"16.3\" startDate=\"\(s)\" endDate=\"\(e)\">\n"
            xml += "   <FileReference path=\"/workout-routes/\(file)\"/>\n  </WorkoutRoute>\n"
            if let root {
                write(Dialect.appleHealthGPX.render(p.points, name: "Route"), to: "\(root)/workout-routes/\(file)")
            }
        case .treadmill, .strength:
            break
        }
        return xml + " </Workout>\n"
    }

    /// One `export.xml` of about `megabytes` MB (no route files), grouped by type
    /// as Apple writes it: years of heart rate (every 5 minutes, every 5 s during
    /// the day's run), energy every minute, distance records, then a run a day, a
    /// quarter with the route inline (before iOS 16), the rest with a route file
    /// that is absent (their distance then comes from the records).
    static func big(_ path: String, megabytes: Int) {
        let first = TimestampParser.parse("2019-01-01T05:00:00Z")!.secondsSinceEpoch
        func planned(_ day: Int) -> Planned {
            var rng = SeededRandom(seed: UInt64(1000 + day))
            var p = plan(day, rng: &rng, first: first, days: 1)
            if p.kind != .legacyRun { p.kind = .run }
            return p
        }
        let passes: [(Int, Planned) -> String] = [heartRate, energy, { distanceRecords([$1]) }, workoutText]
        // Bytes a day, measured on the first ten days.
        var sample = 0
        for d in 0..<10 { sample += passes.reduce(0) { $0 + $1(d, planned(d)).utf8.count } }
        let days = max(1, megabytes * 1_048_576 / (sample / 10))
        guard let out = OutputStream(toFileAtPath: path, append: false) else { fail("cannot write \(path)") }
        out.open()
        defer { out.close() }
        func put(_ s: String) {
            var s = s
            s.withUTF8 { b in _ = out.write(b.baseAddress!, maxLength: b.count) }
        }
        put(header)
        for pass in passes {
            for d in 0..<days { put(pass(d, planned(d))) }
        }
        put("</HealthData>\n")
        print("wrote \(path): \(days) days, \(days) workouts")
    }

    /// A day's heart rate in time order: every 5 minutes, every 5 s during the run.
    static func heartRate(_ day: Int, _ p: Planned) -> String {
        var xml = ""
        let midnight = (p.start / 86_400).rounded(.down) * 86_400
        var t = midnight
        while t < p.start {
            xml += record("HeartRate", watch, "count/min", t, t, "62")
            t += 300
        }
        for q in p.points where Int(q.time - p.start) % 5 == 0 {
            xml += record("HeartRate", watch, "count/min", q.time, q.time, "\(Int(q.hr))")
        }
        while t <= p.end { t += 300 }
        while t < midnight + 86_400 {
            xml += record("HeartRate", watch, "count/min", t, t, "64")
            t += 300
        }
        return xml
    }

    static func energy(_ day: Int, _ p: Planned) -> String {
        let midnight = (p.start / 86_400).rounded(.down) * 86_400
        var xml = ""
        for m in stride(from: midnight, to: midnight + 86_400, by: 60) {
            xml += record("ActiveEnergyBurned", watch, "kcal", m, m + 60, "0.872")
        }
        return xml
    }

    static func workoutText(_ day: Int, _ p: Planned) -> String {
        workout(p, index: day, root: nil)
    }
}
