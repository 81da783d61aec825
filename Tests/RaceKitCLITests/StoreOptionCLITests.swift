import ArgumentParser
import Foundation
import RaceKitAudio
import RaceKitTestSupport
import Testing

@testable import racekit

/// `--store` is global: every command accepts it before and after the
/// subcommand, and `RACEKIT_STORE` is used when it is not given.
@Suite struct StoreOptionCLITests {
    /// Arguments that make each command do its work on the files `prepare` writes.
    static let invocations: [String: [String]] = [
        "import": ["run.gpx"], "runs list": [], "runs show": ["RUN"], "runs splits": ["RUN"], "runs bests": [],
        "runs edit": ["RUN", "--label", "x"], "runs delete": ["RUN", "--yes"], "runs recompute": [],
        "athlete add": ["anna"], "athlete set": ["default", "--max-hr", "190"], "athlete show": [], "athlete list": [],
        "wellness list": [], "wellness add": ["2026-03-10", "--hrv", "55"], "report weekly": ["--out", "reports"],
        "store check": [], "store copy": ["s.sqlite", "copy.sqlite"],
        "predict": ["--from", "10k=45:00", "--to", "half"],
        "race new": ["Some Race", "--distance", "10k", "--target", "45:00", "--dir", "new"],
        "race plan": ["Races/m.yaml"], "race script": ["Races/m.yaml"], "race review": ["Races/r.yaml"],
        "script validate": ["Races/m.script.json"], "script show": ["Races/m.script.json"],
        "script simulate": ["Races/m.script.json", "--race", "Races/m.yaml"],
        "script render": ["Races/ten.script.json"]
    ]

    static let speechEngine = SpeechTools.installed

    static var leaves: [String] {
        CommandTreeTests.commands().filter { $0.type.configuration.subcommands.isEmpty }.map {
            $0.path.dropFirst().joined(separator: " ")
        }
    }

    @Test func everyLeafCommandIsInTheTable() {
        #expect(Set(Self.leaves) == Set(Self.invocations.keys))
    }

    /// A work folder with a store (`s.sqlite`, one imported run), race setups and
    /// scripts, made once: a copy of `script render`'s own test folder (a 5k
    /// setup, Races/ten.yaml, its script and, with the speech libraries, every
    /// clip rendered), so the `script render` case reuses every clip instead of
    /// speaking them all again.
    static let template: Result<(cli: CLI, runID: String), any Error> = Result {
        let (cli, _) = try ScriptRenderCLITests.renderedCopy()
        try cli.write("run.gpx", trackGPX(seconds: 1800, speed: 3.2))
        try cli.write("Races/m.yaml", RaceCLITests.setup)
        // The imported run's day and distance (1800 s at 3.2 m/s), for `race review`.
        try cli.write("Races/r.yaml", "name: R\ndate: 2026-03-10\ndistance: 5760\ntarget_time: \"30:00\"\n")
        let imported = try cli.run(["import", "run.gpx", "--store", "s.sqlite", "--format", "json"])
        #expect(imported.status == 0, "\(imported.stderr)")
        let list = try cli.run(["runs", "list", "--store", "s.sqlite", "--format", "csv"])
        let runID = String(list.stdout.split(separator: "\r\n").last?.split(separator: ",").first ?? "")
        #expect(try cli.run(["race", "script", "Races/m.yaml"]).status == 0)
        return (cli, runID)
    }

    /// A fresh work folder with a copy of `template`'s files.
    static func prepared() throws -> (CLI, runID: String) {
        let (template, runID) = try Self.template.get()
        let cli = try CLI()
        for name in try FileManager.default.contentsOfDirectory(atPath: template.workdir.path) {
            try FileManager.default.copyItem(
                at: template.workdir.appendingPathComponent(name), to: cli.workdir.appendingPathComponent(name))
        }
        return (cli, runID)
    }

    @Test(arguments: ["before", "after", "env"])
    func everyCommandTakesTheStore(_ place: String) throws {
        let (cli, runID) = try Self.prepared()
        // One work folder for all; the run is deleted last.
        for leaf in Self.leaves.sorted(by: { ($0 == "runs delete" ? 1 : 0, $0) < ($1 == "runs delete" ? 1 : 0, $1) }) {
            let path = leaf.split(separator: " ").map(String.init)
            let rest = (Self.invocations[leaf] ?? []).map { $0 == "RUN" ? runID : $0 }
            let args: [String], env: [String: String]
            switch place {
            case "before": args = ["--store", "s.sqlite"] + path + rest; env = [:]
            case "after": args = path + rest + ["--store", "s.sqlite"]; env = [:]
            default: args = path + rest; env = ["RACEKIT_STORE": "s.sqlite"]
            }
            let r = try cli.run(args, env: env)
            // Without libespeak-ng and libopusenc, `script render` fails (74) after taking the option.
            let ok = leaf == "script render" && !Self.speechEngine ? r.status == 74 : r.status == 0
            #expect(ok, "racekit \(args.joined(separator: " ")) (\(place)): \(r.status) \(r.stderr)")
            // The default store was never created: the given one was used.
            #expect(
                !FileManager.default.fileExists(atPath: cli.workdir.appendingPathComponent(".racekit").path),
                "racekit \(args.joined(separator: " ")) (\(place)) used the default store")
        }
    }

    /// Help is ArgumentParser's: printed on stdout, exit 0, for the root and every command.
    @Test func helpWorksEverywhere() throws {
        let cli = try CLI()
        for leaf in [""] + Self.leaves + ["race", "runs", "script"] {
            let args = leaf.split(separator: " ").map(String.init) + ["--help"]
            let r = try cli.run(args)
            #expect(
                r.status == 0 && r.stdout.contains("USAGE:") && r.stderr.isEmpty,
                "racekit \(args): \(r.status) \(r.stderr)")
        }
        let bare = try cli.run([])
        #expect(bare.status == 0 && bare.stdout.contains("OVERVIEW:"), "\(bare.stderr)")
    }
}
