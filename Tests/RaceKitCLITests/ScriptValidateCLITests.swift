import Foundation
import Testing

@Suite struct ScriptValidateCLITests {
    /// Every script `race script` writes passes `script validate`: no key the
    /// schema does not know, no trigger past the finish.
    @Test(arguments: ["calm_coach", "roast_coach", "drill_sergeant"])
    func everyGeneratedScriptValidates(personality: String) throws {
        let cli = try CLI()
        let races = [
            ("m", RaceCLITests.setup),
            ("h", "name: Hilly Half\ndistance: half\ntarget_time: \"1:45:00\"\n"),
            ("u", "name: Hundred\ndistance: \"100 km\"\ntarget_time: \"11:00:00\"\n")
        ]
        for (name, setup) in races {
            try cli.write("Races/\(name).yaml", setup)
            let out = "\(name)-\(personality).json"
            let made = try cli.run([
                "race", "script", "Races/\(name).yaml", "--personality", personality, "--output", out
            ])
            #expect(made.status == 0, "\(name): \(made.stderr)")
            let r = try cli.run(["script", "validate", out])
            #expect(r.status == 0 && r.stdout.hasPrefix("\(out): valid: "), "\(name): \(r.stdout)\(r.stderr)")
            #expect(r.stderr.isEmpty, "\(r.stderr)")
        }
    }

    @Test func invalidScriptsListEveryProblemWithTheFileAndExit65() throws {
        let cli = try CLI()
        try cli.write("Races/m.yaml", RaceCLITests.setup)
        #expect(try cli.run(["race", "script", "Races/m.yaml", "--output", "s.json"]).status == 0)
        let text = try String(contentsOf: cli.workdir.appendingPathComponent("s.json"), encoding: .utf8)
        var object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        var engine = object["engine"] as! [String: Any]
        engine["windowSecnds"] = 45
        object["engine"] = engine
        var messages = object["messages"] as! [[String: Any]]
        var trigger = messages[6]["trigger"] as! [String: Any]
        trigger["type"] = "distanse"
        messages[6]["trigger"] = trigger
        messages[3]["priority"] = "high"
        object["messages"] = messages
        let id6 = messages[6]["id"] as! String, id3 = messages[3]["id"] as! String
        try cli.write(
            "bad.json",
            String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self))
        let r = try cli.run(["script", "validate", "bad.json"])
        #expect(r.status == 65)
        let said: [String] = r.stderr.split(separator: "\n").map(String.init)
        let expected: [String] = [
            "racekit: bad.json: engine.windowSecnds: unknown key (did you mean 'windowSeconds'?)",
            "racekit: bad.json: messages[3] (\(id3)).priority: expected a whole number, found a string",
            "racekit: bad.json: messages[6] (\(id6)).trigger.type: 'distanse' is not a trigger type (did you mean 'distance'? known: distance, time, halfway, near_finish, condition, fatigue_zone)"
        ]
        #expect(said == expected, "\(r.stderr)")
        #expect(r.stdout.isEmpty)

        // A trigger at 99,999 m in a 42.2 km race.
        var far = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        var farMessages = far["messages"] as! [[String: Any]]
        farMessages[1]["trigger"] = ["type": "distance", "atMeters": 99_999]
        far["messages"] = farMessages
        try cli.write(
            "far.json",
            String(decoding: try JSONSerialization.data(withJSONObject: far, options: [.sortedKeys]), as: UTF8.self))
        let past = try cli.run(["script", "validate", "far.json"])
        #expect(past.status == 65)
        #expect(
            past.stderr
                == "racekit: far.json: messages[1] (\(farMessages[1]["id"] as! String)).trigger.atMeters: 99999 m is past the finish (42195 m)\n",
            "\(past.stderr)")

        // Truncated: where the document ends.
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        try cli.write("cut.json", lines[0..<5].joined(separator: "\n") + "\n")
        let cut = try cli.run(["script", "validate", "cut.json"])
        #expect(cut.status == 65)
        #expect(
            cut.stderr
                == "racekit: cut.json: not valid JSON: unexpected end of the document at line 5, column \(lines[4].count + 1)\n",
            "\(cut.stderr)")
        try cli.write("empty.json", "")
        let empty = try cli.run(["script", "validate", "empty.json"])
        #expect(empty.status == 65 && empty.stderr == "racekit: empty.json: the file is empty\n", "\(empty.stderr)")
    }

    /// A `race` slug that is a path (`../../escaped`) or a text of 100 KB was read
    /// and rendered: audio and manifest two folders above the script, a 594 MB WAV.
    /// Validate refuses both, and render refuses what validate refuses.
    @Test func pathSlugsAndHugeTextsAreRefusedByValidateAndRender() throws {
        let cli = try CLI()
        try cli.write("Races/m.yaml", RaceCLITests.setup)
        try FileManager.default.createDirectory(
            at: cli.workdir.appendingPathComponent("deep/er"), withIntermediateDirectories: true)
        let made = try cli.run(["race", "script", "Races/m.yaml", "--output", "deep/er/s.json"])
        #expect(made.status == 0, "\(made.stderr)")
        let path = cli.workdir.appendingPathComponent("deep/er/s.json")
        var object = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: path)) as? [String: Any])
        object["race"] = "../../escaped"
        var messages = object["messages"] as! [[String: Any]]
        messages[0]["text"] = String(repeating: "Run. ", count: 20_000)
        object["messages"] = messages
        try JSONSerialization.data(withJSONObject: object).write(to: path)
        let r = try cli.run(["script", "validate", "deep/er/s.json"])
        #expect(r.status == 65)
        #expect(r.stderr.contains("deep/er/s.json: race: must be a slug"), "\(r.stderr)")
        #expect(r.stderr.contains("100000 characters; a message text holds at most 1000"), "\(r.stderr)")
        let render = try cli.run(["script", "render", "deep/er/s.json"])
        #expect(render.status == 65, "\(render.stderr)")
        #expect(render.stderr.contains("race: must be a slug"))
        let escaped = cli.workdir.appendingPathComponent("escaped-audio").path
        #expect(!FileManager.default.fileExists(atPath: escaped))
        let entries = try FileManager.default.contentsOfDirectory(atPath: cli.workdir.path)
        #expect(!entries.contains { $0.hasSuffix("-audio") }, "\(entries)")
    }
}
