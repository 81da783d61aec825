import Foundation
import RaceKitTestSupport
import Testing

/// What a read command must never do, whatever is stored.
func expectNoCrash(_ r: CLI.Result, _ what: String) {
    #expect(![132, 134, 139].contains(r.status), "\(what) crashed: \(r.stderr.prefix(300))")
    #expect(!r.stderr.contains("Fatal error") && !r.stderr.contains("Backtrac"), "\(what): \(r.stderr.prefix(300))")
}

@Suite struct TrustCLITests {
    /// An absurd elevation, NaN, a huge HR: imported cleanly, and every read
    /// command works afterwards (they used to crash with exit 132).
    @Test func absurdValuesNeverReachTheStore() throws {
        let cli = try CLI()
        let values = ["1e30", "NaN", "-32768", "1e400", "9500"]
        try cli.write(
            "bad.gpx",
            trackGPX(seconds: 600, speed: 3, heartRate: 140, elevation: { k in k < values.count ? values[k] : "520" })
                .replacingOccurrences(
                    of: "<ns3:hr>140</ns3:hr>", with: "<ns3:hr>99999</ns3:hr>", options: [], range: nil))
        let imported = try cli.run(["import", "--format", "json", "bad.gpx"])
        #expect(imported.status == 0, "\(imported.stderr)")
        let list = try cli.run(["runs", "list", "--format", "csv"])
        expectNoCrash(list, "runs list")
        let id = String(list.stdout.split(separator: "\r\n")[1].split(separator: ",")[0])
        for args in [
            ["runs", "list"], ["runs", "list", "--format", "json"], ["runs", "show", id],
            ["runs", "show", id, "--format", "json"],
            ["runs", "splits", id], ["runs", "bests"], ["report", "weekly", "--week", "2026-W11", "--out", "reports"],
            ["store", "check"]
        ] {
            let r = try cli.run(args)
            expectNoCrash(r, args.joined(separator: " "))
            #expect(r.status == 0, "\(args): \(r.stderr)")
        }
        let show = try cli.run(["runs", "show", id, "--format", "json"])
        let json = try JSONSerialization.jsonObject(with: Data(show.stdout.utf8)) as! [String: Any]
        #expect(json["ascentMeters"] as? Double == 0, "no climb from the sentinels")
        #expect(json["avgHeartRate"] is NSNull, "99999 bpm is no heart rate")
    }

    /// A course with one -32768 elevation: no 1,595 m climb, and a warning.
    @Test func aNoDataSentinelInACourseIsIgnoredWithAWarning() throws {
        let cli = try CLI()
        try cli.write("flat.gpx", trackGPX(seconds: 1670, speed: 3, elevation: { k in k == 150 ? "-32768" : "35" }))
        try cli.write(
            "race.yaml",
            """
            name: Flat 5k
            date: 2026-06-01
            distance: 5k
            target_time: "21:00"
            course: flat.gpx
            """)
        let r = try cli.run(["race", "plan", "race.yaml", "--format", "json"])
        expectNoCrash(r, "race plan")
        #expect(r.status == 0, "\(r.stderr)")
        let plan = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
        let warnings = plan["warnings"] as! [String]
        #expect(warnings.contains { $0.contains("1 impossible elevation value") }, "\(warnings)")
        let paces = (plan["splits"] as! [[String: Any]]).map { $0["paceSecondsPerKm"] as! Double }
        #expect(paces.max()! - paces.min()! < 2, "a flat course is planned evenly: \(paces)")
    }

    /// A ride and a drive without a sport tag: stored as what they are, out of the
    /// records and predictions; `runs edit --sport` corrects it either way.
    @Test func ridesAndDrivesStayOutOfRunningRecords() throws {
        let cli = try CLI()
        try cli.write("export/run.gpx", trackGPX(seconds: 1800, speed: 3.4, type: nil, start: "2026-03-09T07:00:00Z"))
        try cli.write("export/ride.gpx", trackGPX(seconds: 1800, speed: 8, type: nil, start: "2026-03-10T07:00:00Z"))
        try cli.write("export/drive.gpx", trackGPX(seconds: 1800, speed: 25, type: nil, start: "2026-03-11T07:00:00Z"))
        #expect(try cli.run(["import", "export"]).status == 0)
        let list = try cli.run(["runs", "list", "--format", "csv"]).stdout
        #expect(list.contains(",cycling,") && list.contains(",driving,") && list.contains(",running,"))
        let bests = try cli.run(["runs", "bests", "--format", "json"])
        let efforts = try JSONSerialization.jsonObject(with: Data(bests.stdout.utf8)) as! [[String: Any]]
        let fiveK = try #require(efforts.first { $0["distanceMeters"] as? Double == 5000 })
        #expect((fiveK["elapsedSeconds"] as! Double) > 1400, "the 5k comes from the run, not the ride")
        let predict = try cli.run(["predict", "--from-athlete", "default", "--to", "marathon", "--format", "json"])
        let vdot =
            (try JSONSerialization.jsonObject(with: Data(predict.stdout.utf8)) as! [String: Any])["vdot"] as! Double
        #expect(vdot < 60, "VDOT \(vdot)")
        let rideID = list.split(separator: "\r\n").first { $0.contains(",cycling,") }!.split(separator: ",")[0]
        let show = try cli.run(["runs", "show", String(rideID)])
        #expect(show.stdout.contains("cycling (inferred: the file names no sport)"))
        // Corrected by hand, either way: the run set to cycling leaves the records...
        let runID = list.split(separator: "\r\n").first { $0.contains(",running,") }!.split(separator: ",")[0]
        let edit = try cli.run(["runs", "edit", String(runID), "--sport", "cycling"])
        #expect(edit.status == 0, "\(edit.stderr)")
        #expect(try cli.run(["runs", "bests"]).stdout.contains("No best efforts yet."))
        // ...and the ride set to running counts, but no stretch of it is faster than a human runs.
        #expect(try cli.run(["runs", "edit", String(rideID), "--sport", "running"]).status == 0)
        #expect(try cli.run(["runs", "bests"]).stdout.contains("No best efforts yet."))
        #expect(try cli.run(["runs", "edit", String(runID), "--sport", "running"]).status == 0)
        let after =
            try JSONSerialization.jsonObject(with: Data(try cli.run(["runs", "bests", "--format", "json"]).stdout.utf8))
            as! [[String: Any]]
        #expect((after.first { $0["distanceMeters"] as? Double == 5000 }!["elapsedSeconds"] as! Double) > 1400)
        let shown = try cli.run(["runs", "show", String(rideID), "--format", "json"]).stdout
        #expect(shown.contains("\"sportInferred\" : false"))
    }

    /// The same run arrives again with heart rate: the stored run is upgraded in
    /// place, keeping its id and label; a poorer copy stays a duplicate.
    @Test func aRicherDuplicateUpgradesTheStoredRun() throws {
        let cli = try CLI()
        try cli.write("plain.gpx", trackGPX(seconds: 1200, speed: 3))
        try cli.write("with-hr.gpx", trackGPX(seconds: 1200, speed: 3, heartRate: 150))
        #expect(try cli.run(["import", "plain.gpx"]).status == 0)
        let id = String(
            try cli.run(["runs", "list", "--format", "csv"]).stdout.split(separator: "\r\n")[1].split(separator: ",")[0]
        )
        #expect(try cli.run(["runs", "edit", id, "--label", "Tempo", "--rpe", "7"]).status == 0)
        let r = try cli.run(["import", "--format", "json", "with-hr.gpx"])
        let results = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [[String: Any]]
        #expect(results[0]["status"] as? String == "upgraded")
        #expect(results[0]["runIds"] as? [String] == [id])
        let show =
            try JSONSerialization.jsonObject(
                with: Data(try cli.run(["runs", "show", id, "--format", "json"]).stdout.utf8)) as! [String: Any]
        #expect(show["avgHeartRate"] as? Double == 150)
        #expect(show["label"] as? String == "Tempo" && show["perceivedEffort"] as? Double == 7)
        #expect(show["sourceFile"] as? String == "with-hr.gpx")
        let again = try cli.run(["import", "plain.gpx"])
        #expect(again.stdout.contains("1 duplicate") || again.stdout.contains("Nothing new"), "\(again.stdout)")
        #expect(try cli.run(["runs", "list", "--format", "csv"]).stdout.split(separator: "\r\n").count == 2)
        let text = try cli.run(["import", "with-hr.gpx"]).stdout
        #expect(text.contains("Nothing new"))
    }

    /// A TCX whose laps step back in time up to 65 s while the runner goes on
    /// (the fixture of RaceKitFormatsTests): as the runner meets it, the run is
    /// its whole distance and no lap seam is a pause, with or without the
    /// device's per-point distance.
    @Test func lapsSteppingBackInTimeListTheirWholeDistance() throws {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../RaceKitFormatsTests/Fixtures")
        for (name, meters) in [("laps-step-back.tcx", 4995.0), ("laps-step-back-gps-only.tcx", 4992.2)] {
            let cli = try CLI()
            try cli.write(name, try String(contentsOf: fixtures.appendingPathComponent(name), encoding: .utf8))
            #expect(try cli.run(["import", name]).status == 0)
            let list = try cli.run(["runs", "list", "--format", "json"])
            let runs = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as! [[String: Any]]
            let run = try #require(runs.first)
            #expect(abs((run["distanceMeters"] as! Double) - meters) < 0.5, "\(name): \(run["distanceMeters"]!)")
            #expect(run["movingSeconds"] as? Double == 1150 && run["elapsedSeconds"] as? Double == 1150, "\(name)")
        }
    }
}
