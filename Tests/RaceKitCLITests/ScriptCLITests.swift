import Foundation
import Testing

@Suite struct ScriptCLITests {
    @Test func generateValidateShowAndSimulate() throws {
        let cli = try CLI()
        try cli.write("Races/m.yaml", RaceCLITests.setup + "\nscript: {personality: roast_coach}\n")
        let r = try cli.run(["race", "script", "Races/m.yaml"])
        #expect(r.status == 0 && r.stdout.contains("roast_coach"), "\(r.stderr)")
        let path = cli.workdir.appendingPathComponent("Races/m.script.json").path
        let first = try String(contentsOfFile: path, encoding: .utf8)
        let again = try cli.run(["race", "script", "Races/m.yaml"])
        #expect(again.status == 0 && again.stdout.contains("is up to date"))
        // A hand edit keeps the input digest: without --force the file is left
        // alone, with --force it is generated again.
        let edited = first.replacingOccurrences(of: "\"priority\" : 95", with: "\"priority\" : 94")
        #expect(edited != first)
        try edited.write(toFile: path, atomically: false, encoding: .utf8)
        #expect(try cli.run(["race", "script", "Races/m.yaml"]).stdout.contains("is up to date"))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == edited)
        let forced = try cli.run(["race", "script", "Races/m.yaml", "--force"])
        #expect(forced.status == 0 && forced.stdout.contains("roast_coach"))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == first)
        // Another personality is another input: written without --force.
        let other = try cli.run(["race", "script", "Races/m.yaml", "--personality", "calm_coach"])
        #expect(other.status == 0 && other.stdout.contains("calm_coach"))
        #expect(try String(contentsOfFile: path, encoding: .utf8) != first)

        let valid = try cli.run(["script", "validate", "Races/m.script.json"])
        #expect(valid.status == 0 && valid.stdout.contains("valid:"))
        let md = try cli.run(["script", "show", "Races/m.script.json", "--format", "md"])
        #expect(
            md.stdout.hasPrefix("# Race script: test-marathon") && md.stdout.contains("## 21.10 km")
                && md.stdout.contains("## Any time (conditions)"))

        let sim = try cli.run([
            "script", "simulate", "Races/m.script.json", "--race", "Races/m.yaml", "--format", "json"
        ])
        #expect(sim.status == 0, "\(sim.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(sim.stdout.utf8)) as! [String: Any]
        let played = try #require(json["played"] as? [[String: Any]])
        for key in ["elapsedSeconds", "distanceMeters", "messageId", "triggerType", "branchKey", "priority", "text"] {
            #expect(played[0].keys.contains(key))
        }
        #expect(played.contains { $0["messageId"] as? String == "test-marathon.on_pace_half" })
        #expect(played.last?["messageId"] as? String == "test-marathon.finish_met")
        let notPlayed = try #require(json["notPlayed"] as? [[String: Any]])
        let reasons = Set(notPlayed.compactMap { $0["reason"] as? String })
        #expect(reasons.isSubset(of: ["branch_not_taken", "never_triggered"]), "\(reasons)")
        #expect((json["summary"] as? [String: Any])?["played"] as? Double == Double(played.count))
    }

    @Test func simulatesAStoredRun() throws {
        let cli = try CLI()
        try cli.write(
            "Races/ten.yaml",
            "name: Ten\ndistance: 5k\ntarget_time: \"20:00\"\nhydration: {ml_per_hour: 400, aid_stations_km: [2.5]}\n")
        _ = try cli.run(["race", "script", "Races/ten.yaml", "--output", "ten.json"])
        try cli.write("run.tcx", steadyTCX(seconds: 1300))   // 5.4 km at 4:00/km
        _ = try cli.run(["import", "run.tcx"])
        let list = try cli.run(["runs", "list", "--format", "csv"])
        let id = String(list.stdout.split(separator: "\r\n")[1].split(separator: ",")[0])
        let r = try cli.run(["script", "simulate", "ten.json", "--run", id])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("drink_1") && r.stdout.contains("ahead_of_pace_half") && r.stdout.contains("finish"))
        #expect(r.stdout.contains("Not played:") && r.stdout.contains("branch_not_taken"))
    }

    /// The heart-rate message comes from the athlete's threshold HR, estimated
    /// from their runs when not set (the default athlete has none set): after a
    /// run at 190 bpm, the 5k script speaks above 184 bpm (89% of 190, plus the
    /// 5k effort's 6% and the 3% margin), so the run at 190 hears it. Without a
    /// store there is no heart-rate message.
    @Test func theHeartRateMessageUsesTheAthletesEstimatedThreshold() throws {
        let cli = try CLI()
        try cli.write("Races/ten.yaml", "name: Ten\ndistance: 5k\ntarget_time: \"20:00\"\n")
        let before = try cli.run(["race", "script", "Races/ten.yaml", "--output", "ten.json"])
        #expect(before.stdout.contains("no heart-rate message (no store at "), "\(before.stdout)")
        #expect(
            !(try String(contentsOf: cli.workdir.appendingPathComponent("ten.json"), encoding: .utf8)).contains("hr >"))
        try cli.write("run.tcx", steadyTCX(seconds: 1300, hr: 190))
        _ = try cli.run(["import", "run.tcx"])
        _ = try cli.run(["race", "script", "Races/ten.yaml", "--output", "ten.json"])
        #expect(
            try String(contentsOf: cli.workdir.appendingPathComponent("ten.json"), encoding: .utf8).contains(
                "hr > 184"))
        let list = try cli.run(["runs", "list", "--format", "csv"])
        let id = String(list.stdout.split(separator: "\r\n")[1].split(separator: ",")[0])
        let r = try cli.run(["script", "simulate", "ten.json", "--run", id, "--format", "json"])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
        let played = try #require(json["played"] as? [[String: Any]])
        #expect(
            played.contains { ($0["messageId"] as? String)?.hasSuffix(".hr_high") == true },
            "\(played.map { $0["messageId"] ?? "" })")
    }

    @Test func badScriptsExit65WithEveryProblem() throws {
        let cli = try CLI()
        try cli.write("Races/ten.yaml", "name: Ten\ndistance: 10k\ntarget_time: \"45:00\"\n")
        _ = try cli.run(["race", "script", "Races/ten.yaml", "--output", "s.json"])
        let text = try String(contentsOf: cli.workdir.appendingPathComponent("s.json"), encoding: .utf8)
        try cli.write(
            "bad.json",
            text.replacingOccurrences(of: "pace_vs_plan < 0.96", with: "pace_vs_plan << 0.96")
                .replacingOccurrences(of: "\"priority\" : 95", with: "\"priority\" : 195"))
        let r = try cli.run(["script", "validate", "bad.json"])
        #expect(r.status == 65)
        #expect(r.stderr.contains("trigger.expression: column") && r.stderr.contains("^"), "\(r.stderr)")
        #expect(r.stderr.contains("priority: must be 0 to 100"))
        #expect(try cli.run(["script", "validate", "missing.json"]).status == 66)
        try cli.write("notjson.json", "{")
        #expect(try cli.run(["script", "show", "notjson.json"]).status == 65)
        #expect(try cli.run(["script", "simulate", "s.json", "--race", "Races/missing.yaml"]).status == 66)
        try cli.write("Races/other.yaml", "name: Other\ndistance: 10k\ntarget_time: \"45:00\"\n")
        let wrongRace = try cli.run(["script", "simulate", "s.json", "--race", "Races/other.yaml"])
        #expect(wrongRace.status == 64)
        #expect(wrongRace.stderr.contains("is race 'other' but the script is for 'ten'"), "\(wrongRace.stderr)")
    }
}
