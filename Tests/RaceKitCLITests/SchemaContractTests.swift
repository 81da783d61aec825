import Foundation
import RaceKitTestSupport
import RaceKitWorkflows
import Testing

/// `racekit-gen`, built beside `racekit`.
private let generatorTool = CLI.binary.deletingLastPathComponent().appendingPathComponent("racekit-gen")
private let haveGeneratorTool = FileManager.default.isExecutableFile(atPath: generatorTool.path)

/// The binary's JSON output against the schemas of docs/contracts/schemas:
/// one store made from `racekit-gen sample-export` (the demo's export, with a
/// broken file added), then every JSON output of the contract over it and the
/// example races of Races/.
@Suite(.enabled(if: haveGeneratorTool, "racekit-gen is not built beside racekit"))
struct SchemaContractTests {
    /// The work folder with the imported store, and the import's JSON.
    struct Fixture {
        var cli: CLI
        var importJSON: String
        var raceRunID: String
    }

    /// Made once for the suite (the import of 45 files is the slow part).
    static let fixture: Result<Fixture, any Error> = Result {
        let cli = try CLI()
        let export = cli.workdir.appendingPathComponent("export")
        let gen = Process()
        gen.currentDirectoryURL = WorkingFolder.url   // not a CLI run's
        gen.executableURL = generatorTool
        gen.arguments = ["sample-export", export.path]
        gen.standardOutput = FileHandle.nullDevice
        try gen.run()
        gen.waitUntilExit()
        guard gen.terminationStatus == 0 else { throw CocoaError(.executableLoad) }
        try cli.write("export/broken.gpx", "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\">\n<trk><trkseg>\n")
        let imported = try cli.run(["--store", "s.sqlite", "import", "--format", "json", "export"])
        let list = try cli.run(["--store", "s.sqlite", "runs", "list", "--limit", "1", "--format", "csv"])
        let raceRunID = String(list.stdout.split(separator: "\r\n").last?.split(separator: ",").first ?? "")
        return Fixture(cli: cli, importJSON: imported.stdout, raceRunID: raceRunID)
    }

    /// The fixture, or the error that stopped it.
    func prepared() throws -> Fixture { try Self.fixture.get() }

    /// Runs racekit against the fixture's store (with a fixed "now"), expects
    /// exit 0 and returns stdout.
    func output(_ args: [String]) throws -> String {
        let f = try prepared()
        let r = try f.cli.run(
            ["--store", "s.sqlite"] + args, env: ["RACEKIT_NOW": "2026-11-25T12:00:00Z", "TZ": "UTC"])
        try #require(r.status == 0, "racekit \(args.joined(separator: " ")): \(r.stderr)")
        return r.stdout
    }

    /// A setup of the repository's Races/ folder (the course files beside them).
    func race(_ name: String) -> String { Repository.root.appendingPathComponent("Races/\(name)").path }

    func expectValid(_ json: String, _ schema: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let problems = try Repository.validate(json, against: schema)
        #expect(
            problems.isEmpty, "\(schema): \(problems.prefix(10).joined(separator: "\n"))",
            sourceLocation: sourceLocation)
    }

    @Test func importResults() throws {
        let f = try prepared()
        try expectValid(f.importJSON, "import-results.schema.json")
        // Every status the demo export gives, and the broken file's failure, are in the output checked.
        for status in ["imported", "duplicate", "skipped", "failed"] {
            #expect(f.importJSON.contains("\"status\" : \"\(status)\""), "no \(status) result")
        }
    }

    @Test func runsListAndShow() throws {
        try expectValid(try output(["runs", "list", "--format", "json"]), "runs-list.schema.json")
        let f = try prepared()
        let review = try output(["race", "review", race("munich-half-2026.yaml"), "--out", f.cli.workdir.path])
        #expect(review.contains("Verdict:"))
        // The run with its splits, zones, efforts and the race link the review made.
        let show = try output(["runs", "show", f.raceRunID, "--format", "json"])
        #expect(show.contains("\"slug\" : \"munich-half-2026\""))
        try expectValid(show, "run.schema.json")
        try expectValid(
            try output(["runs", "show", f.raceRunID, "--format", "json", "--unit", "mi"]), "run.schema.json")
    }

    @Test(arguments: [
        "berlin-marathon-2026.yaml", "hilly-half.yaml", "munich-half-2026.yaml", "spring-10k.yaml",
        "warm-marathon.yaml",
        "hilly-half-power.yaml"
    ])
    func racePlans(_ setup: String) throws {
        try expectValid(try output(["race", "plan", race(setup), "--format", "json"]), "plan.schema.json")
    }

    @Test func reviewScriptAndSimulation() throws {
        let f = try prepared()
        try expectValid(
            try output(["race", "review", race("munich-half-2026.yaml"), "--run", f.raceRunID, "--format", "json"]),
            "review.schema.json")
        let script = f.cli.workdir.appendingPathComponent("hilly.script.json").path
        _ = try output(["race", "script", race("hilly-half.yaml"), "--output", script])
        try expectValid(try String(contentsOfFile: script, encoding: .utf8), "script.schema.json")
        let simulated = try output(["script", "simulate", script, "--run", f.raceRunID, "--format", "json"])
        #expect(simulated.contains("\"played\""))
        try expectValid(simulated, "simulate.schema.json")
        try expectValid(
            try output(["script", "simulate", script, "--race", race("hilly-half.yaml"), "--format", "json"]),
            "simulate.schema.json")
    }

    @Test func predictions() throws {
        try expectValid(try output(["predict", "--to", "marathon", "--format", "json"]), "predict.schema.json")
        try expectValid(
            try output(["predict", "--from", "10k=45:00", "--to", "marathon", "--format", "json"]),
            "predict.schema.json")
    }

    /// The schemas are strict: an output with a key added, a key missing or a
    /// value of the wrong type is refused, so the tests above can fail.
    @Test func theSchemasRefuseADriftedOutput() throws {
        let list = try output(["runs", "list", "--limit", "1", "--format", "json"])
        let added = list.replacingOccurrences(of: "\"athlete\" :", with: "\"coach\" : 1, \"athlete\" :")
        #expect(try Repository.validate(added, against: "runs-list.schema.json") == ["$[0]: unknown key 'coach'"])
        let missing = list.replacingOccurrences(of: "\"athlete\" : \"default\",", with: "")
        #expect(
            try Repository.validate(missing, against: "runs-list.schema.json") == [
                "$[0]: missing required key 'athlete'"
            ])
        let wrongType = list.replacingOccurrences(of: "\"mode\" : \"free\"", with: "\"mode\" : \"jog\"")
        #expect(try Repository.validate(wrongType, against: "runs-list.schema.json").count == 1)
    }
}

/// The CSV headers of docs/contracts/csv.md against the binary's output.
extension SchemaContractTests {
    /// The header rows of csv.md's "Columns" table, by output name.
    static func documentedHeaders() throws -> [String: String] {
        let page = try String(
            contentsOf: Repository.root.appendingPathComponent("docs/contracts/csv.md"), encoding: .utf8)
        var headers: [String: String] = [:]
        for line in page.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 2 else { continue }
            headers[cells[0]] = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
        }
        return headers
    }

    @Test func csvHeadersAreTheDocumentedOnes() throws {
        let f = try prepared()
        let documented = try Self.documentedHeaders()
        let review = race("munich-half-2026.yaml")
        let outputs: [String: [String]] = [
            "`runs list`": ["runs", "list"],
            "`runs show`, `runs splits`": ["runs", "splits", f.raceRunID],
            "`runs bests`": ["runs", "bests"],
            "`runs bests --power SPORT`": ["runs", "bests", "--power", "running"],
            "`race plan`": ["race", "plan", race("hilly-half.yaml")],
            "`race plan --table cues`": ["race", "plan", race("hilly-half.yaml"), "--table", "cues"],
            "`race review`": ["race", "review", review, "--run", f.raceRunID],
            "`wellness list`": ["wellness", "list"]
        ]
        #expect(Set(outputs.keys).isSubset(of: Set(documented.keys)), "\(documented.keys.sorted())")
        for (name, args) in outputs {
            let header = try output(args + ["--format", "csv"]).split(separator: "\r\n").first.map(String.init)
            var expected = documented[name]
            if name == "`runs list`", let row = expected, row.hasSuffix(",…") {
                // `…`: the metrics newer than 0.4.0, after notes, in the registry's order.
                let newer = RunView.csvHeader(.standard).drop { $0 != "notes" }.dropFirst()
                expected = String(row.dropLast()) + newer.joined(separator: ",")
                #expect(!newer.isEmpty)
            }
            #expect(header == expected, "\(name)")
        }
        // runs show's CSV is its splits, with runs splits' header.
        let show = try output(["runs", "show", f.raceRunID, "--format", "csv"]).split(separator: "\r\n").first
        #expect(show.map(String.init) == documented["`runs show`, `runs splits`"])
        // weekly.csv: the documented columns with the athlete's zone columns in place of hr_zone_…_s.
        let weekly = try #require(documented["`report weekly` (`weekly.csv`)"])
        _ = try output(["report", "weekly", "--out", f.cli.workdir.appendingPathComponent("reports").path, "--quiet"])
        let csv = try String(
            contentsOf: f.cli.workdir.appendingPathComponent("reports/default/weekly.csv"), encoding: .utf8)
        let real = String(csv.split(separator: "\r\n").first ?? "")
        let zones = real.split(separator: ",").filter { $0.hasPrefix("hr_zone_") }.joined(separator: ",")
        #expect(!zones.isEmpty)
        #expect(real == weekly.replacingOccurrences(of: "hr_zone_…_s", with: zones))
    }
}
