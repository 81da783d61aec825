import Foundation
import Testing

@Suite struct RaceCLITests {
    static let setup = """
        name: Test Marathon
        distance: marathon
        target_time: "3:30:00"
        pacing: {strategy: positive, split_percent: 3}
        fueling: {carbs_per_hour_g: 60, gel_carbs_g: 30, start_after: "0:30:00"}
        hydration: {ml_per_hour: 500, sodium_mg_per_hour: 400, aid_stations_km: [5, 10, 15, 20, 25, 30, 35, 40]}
        """

    @Test func planPrintsTheContractJSON() throws {
        let cli = try CLI()
        try cli.write("Races/m.yaml", Self.setup)
        let r = try cli.run(["race", "plan", "Races/m.yaml", "--format", "json", "--unit", "mi"])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
        #expect(json["targetSeconds"] as? Double == 12_600)
        let splits = try #require(json["splits"] as? [[String: Any]])
        #expect(splits.count == 27 && splits.last!["partial"] as? Bool == true)
        #expect(splits.last!["cumulativeSeconds"] as? Double == 12_600)
        for key in [
            "index", "startMeters", "endMeters", "splitSeconds", "cumulativeSeconds", "paceSecondsPerKm",
            "gradePercent", "elevationMeters", "partial"
        ] {
            #expect(splits[0].keys.contains(key), "split key \(key)")
        }
        let cues = try #require(json["cues"] as? [[String: Any]])
        // 60 g/h over 3:30:00 of 30 g gels: 7.
        #expect(cues.filter { $0["kind"] as? String == "gel" }.count == 7)
        for key in ["kind", "distanceMeters", "clockSeconds", "carbsGrams", "fluidMl", "sodiumMg"] {
            #expect(cues[0].keys.contains(key))
        }
        let race = try #require(json["race"] as? [String: Any])
        #expect(
            race["distanceMeters"] as? Double == 42_195
                && (race["pacing"] as? [String: Any])?["splitPercent"] as? Double == 3)
        #expect(json["warnings"] is [Any] && json["totals"] is [String: Any])

        let csv = try cli.run(["race", "plan", "Races/m.yaml", "--format", "csv"])
        #expect(
            csv.stdout.hasPrefix(
                "index,start_km,end_km,split_time_s,cumulative_time_s,pace_s_per_km,elevation_m,grade_percent,partial,power_w\r\n"
            ))
        #expect(csv.stdout.split(separator: "\r\n").last!.hasPrefix("43,42.000,42.195,"))
        let cuesCSV = try cli.run(["race", "plan", "Races/m.yaml", "--format", "csv", "--table", "cues"])
        #expect(cuesCSV.stdout.split(separator: "\r\n").count == 1 + 8 + 8 + 7)
        let md = try cli.run(["race", "plan", "Races/m.yaml", "--format", "md"])
        #expect(
            md.stdout.hasPrefix("# Test Marathon") && md.stdout.contains("| 42.20 |")
                && md.stdout.contains("## Fueling and hydration"))
        let table = try cli.run(["race", "plan", "Races/m.yaml"])
        #expect(table.stdout.contains("3:30:00") && table.stdout.contains("gel 1: 30 g carbohydrate"))
    }

    @Test func badSetupsExitWithTheLineAndKey() throws {
        let cli = try CLI()
        try cli.write("bad.yaml", Self.setup.replacingOccurrences(of: "target_time", with: "goal_time"))
        let r = try cli.run(["race", "plan", "bad.yaml"])
        #expect(r.status == 65)
        #expect(r.stderr.contains("bad.yaml:3: goal_time: unknown key"), "\(r.stderr)")
        #expect(r.stdout.isEmpty)
        let missing = try cli.run(["race", "plan", "nope.yaml"])
        #expect(missing.status == 66 && missing.stderr.contains("nope.yaml: no such file"))
        try cli.write("course.yaml", Self.setup + "\ncourse: missing.gpx\n")
        let course = try cli.run(["race", "plan", "course.yaml"])
        #expect(
            course.status == 66 && course.stderr.contains("course.yaml:7: course: no such file"), "\(course.stderr)")
        try cli.write("flat.yaml", Self.setup)
        let noCourse = try cli.run(["race", "plan", "flat.yaml", "--export", "band,tcx", "--out", "plans"])
        #expect(noCourse.status == 64 && noCourse.stderr.contains("needs a course file"), "\(noCourse.stderr)")
        #expect(
            noCourse.stdout.isEmpty
                && !FileManager.default.fileExists(atPath: cli.workdir.appendingPathComponent("plans").path))
    }

    @Test func exportsAreWrittenAndReadBackByImport() throws {
        let cli = try CLI()
        var gpx =
            "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" creator=\"t\" xmlns=\"http://www.topografix.com/GPX/1/1\"><rte>\n"
        for i in 0...100 {
            gpx +=
                "<rtept lat=\"\(47 + Double(i) * 0.09 / 100)\" lon=\"8\"><ele>\(100 + (i > 50 ? 50 - Double(i - 50) : Double(i)))</ele></rtept>\n"
        }
        try cli.write("Races/courses/c.gpx", gpx + "</rte></gpx>\n")
        try cli.write(
            "Races/ten.yaml",
            "name: Ten K\ndistance: 10k\ntarget_time: \"50:00\"\ncourse: courses/c.gpx\nhydration: {ml_per_hour: 400, aid_stations_km: [5]}\n"
        )
        let r = try cli.run(["race", "plan", "Races/ten.yaml", "--export", "band,tcx,gpx", "--out", "plans"])
        #expect(r.status == 0, "\(r.stderr)")
        for f in ["ten-band.svg", "ten.tcx", "ten.gpx"] {
            #expect(
                FileManager.default.fileExists(atPath: cli.workdir.appendingPathComponent("plans/\(f)").path), "\(f)")
        }
        let back = try cli.run(["import", "plans/ten.tcx", "plans/ten.gpx", "--format", "json"])
        let results = try JSONSerialization.jsonObject(with: Data(back.stdout.utf8)) as! [[String: Any]]
        #expect(results.map { $0["status"] as? String } == ["skipped", "skipped"])
        #expect((results[0]["reason"] as? String)?.contains("course") == true)
        // The plan is slower up the first half's climb than down the second's.
        let json = try cli.run(["race", "plan", "Races/ten.yaml", "--format", "json"])
        let splits =
            (try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any])["splits"]
            as! [[String: Any]]
        #expect((splits[2]["splitSeconds"] as! Double) > (splits[7]["splitSeconds"] as! Double) + 15)
    }

    @Test func raceNewWritesATemplateThatPlans() throws {
        let cli = try CLI()
        let r = try cli.run([
            "race", "new", "Autumn Half", "--distance", "half", "--target", "1:50:00", "--date", "2026-10-18"
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let text = try String(contentsOf: cli.workdir.appendingPathComponent("Races/autumn-half.yaml"), encoding: .utf8)
        #expect(text.contains("target_time: \"1:50:00\"") && text.contains("# grade_model: road"))
        #expect(try cli.run(["race", "plan", "Races/autumn-half.yaml"]).status == 0)
        let again = try cli.run(["race", "new", "Autumn Half", "--distance", "half", "--target", "1:50:00"])
        #expect(again.status == 73 && again.stderr.contains("already exists"))

        // Without a target, one is suggested from the athlete's records.
        try cli.write("run.tcx", steadyTCX(seconds: 1300))   // 5.4 km at 4:00/km
        _ = try cli.run(["import", "run.tcx"])
        let suggested = try cli.run(["race", "new", "Spring 10k", "--distance", "10k", "--athlete", "default"])
        #expect(suggested.status == 0, "\(suggested.stderr)")
        #expect(suggested.stdout.contains("suggested from 5k in 20:00"), "\(suggested.stdout)")
        let ten = try String(contentsOf: cli.workdir.appendingPathComponent("Races/spring-10k.yaml"), encoding: .utf8)
        // 5K in 20:00: Riegel 41:42, VDOT 41:35ish, Cameron about 41:5x: the middle, up to 5 s.
        let line = try #require(ten.split(separator: "\n").first { $0.hasPrefix("target_time:") })
        #expect(line.contains("\"41:"), "\(line)")
        let none = try cli.run(["race", "new", "X", "--distance", "10k"])
        #expect(none.status == 64)
    }
}
