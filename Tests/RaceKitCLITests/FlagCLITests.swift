import ArgumentParser
import Foundation
import RaceKitTestSupport
import Testing

@testable import racekit

/// One flag per idea: `--out` for every output folder (created when missing),
/// `--output` where a file is meant, `--athlete` for every athlete; the old
/// spellings still work and are not in the help; help text is wrapped by the
/// terminal, not by line breaks in the source.
@Suite struct FlagCLITests {
    @Test func raceScriptOutIsAFolderAndOutputAFile() throws {
        let cli = try CLI()
        try cli.write("Races/m.yaml", RaceCLITests.setup)
        let out = try cli.run(["race", "script", "Races/m.yaml", "--out", "gen/scripts"])
        let file = try cli.run(["race", "script", "Races/m.yaml", "--output", "deep/new/b.json"])
        #expect(out.status == 0 && file.status == 0, "\(out.stderr) \(file.stderr)")
        let a = try String(contentsOf: cli.workdir.appendingPathComponent("gen/scripts/m.script.json"), encoding: .utf8)
        let b = try String(contentsOf: cli.workdir.appendingPathComponent("deep/new/b.json"), encoding: .utf8)
        #expect(a == b && a.contains("\"messages\""))
        let json = try cli.run(["race", "script", "Races/m.yaml", "--out", "a.json"])
        #expect(
            json.status == 64 && json.stderr.contains("--out is a folder (created when missing); give --output a.json"))
        let both = try cli.run(["race", "script", "Races/m.yaml", "--out", "gen", "--output", "b.json"])
        #expect(both.status == 64 && both.stderr.contains("give --out DIR or --output FILE, not both"))
        let help = try cli.run(["race", "script", "--help"])
        #expect(help.stdout.contains("--out <dir>") && help.stdout.contains("--output <file>"))
    }

    @Test func predictTakesAthleteAndStillFromAthlete() throws {
        let cli = try CLI()
        try cli.write("run.gpx", trackGPX(seconds: 3000, speed: 3.4))
        #expect(try cli.run(["import", "run.gpx", "--store", "s.sqlite"]).status == 0)
        let new = try cli.run(["predict", "--athlete", "default", "--to", "half", "--store", "s.sqlite"])
        let old = try cli.run(["predict", "--from-athlete", "default", "--to", "half", "--store", "s.sqlite"])
        #expect(new.status == 0 && new.stdout.contains("Range: "), "\(new.stderr)")
        #expect(old.status == 0 && old.stdout == new.stdout)
        let both = try cli.run([
            "predict", "--athlete", "default", "--from-athlete", "default", "--to", "half", "--store", "s.sqlite"
        ])
        #expect(both.status == 64 && both.stderr.contains("--from-athlete is the old name of --athlete"))
        let help = try cli.run(["predict", "--help"])
        #expect(help.stdout.contains("--athlete <athlete>") && !help.stdout.contains("from-athlete"))
    }

    @Test func raceNewTakesOutAndStillDir() throws {
        let cli = try CLI()
        let out = try cli.run(["race", "new", "A Race", "--distance", "10k", "--target", "45:00", "--out", "x"])
        let old = try cli.run(["race", "new", "B Race", "--distance", "10k", "--target", "45:00", "--dir", "y"])
        #expect(out.status == 0 && out.stdout.hasPrefix("wrote x/a-race.yaml"), "\(out.stdout) \(out.stderr)")
        #expect(old.status == 0 && old.stdout.hasPrefix("wrote y/b-race.yaml"), "\(old.stdout) \(old.stderr)")
        #expect(!(try cli.run(["race", "new", "--help"]).stdout.contains("--dir")))
    }

    /// Every option that names where output goes is `--out`.
    @Test func everyOutputFolderOrFileIsOut() throws {
        let cli = try CLI()
        for command in [
            ["race", "plan"], ["race", "script"], ["race", "review"], ["race", "new"],
            ["script", "render"], ["report", "weekly"]
        ] {
            let help = try cli.run(command + ["--help"]).stdout
            #expect(help.contains("--out <"), "\(command): \(help)")
            #expect(command == ["race", "script"] || !help.contains("--output"), "\(command)")
            #expect(!help.contains("--dir "), "\(command)")
        }
    }

    @Test func theTopLevelHelpListsEverythingImportReads() throws {
        let help = try CLI().run(["--help"]).stdout
        for thing in ["GPX", "TCX", "FIT", ".gz", "zip", "tar", "Apple Health", "Strava", "Garmin"] {
            #expect(help.contains(thing), "\(thing) missing from the top-level help")
        }
    }

    /// The prose lines of a help text: consecutive lines of one paragraph
    /// (examples are indented), where a line ended before the next word would
    /// have fitted: a line break written in the source.
    static func hardBreaks(_ help: String, columns: Int) -> [String] {
        let lines = help.components(separatedBy: "\n")
        let prose = lines.prefix { !$0.hasPrefix("USAGE:") }
        var out: [String] = []
        for (a, b) in zip(prose, prose.dropFirst())
        where !a.isEmpty && !b.isEmpty && !a.hasPrefix(" ") && !b.hasPrefix(" ") {
            let word = b.prefix { $0 != " " }
            if a.count + 1 + word.count < columns - 1 { out.append("'\(a)' / '\(b)'") }
        }
        return out
    }

    @Test(arguments: [100, 160, 240])
    func helpTextWrapsNaturally(columns: Int) {
        for (path, type) in CommandTreeTests.commands() {
            let help = RaceKitCommand.helpMessage(for: type, columns: columns)
            #expect(Self.hardBreaks(help, columns: columns) == [], "racekit \(path.dropFirst().joined(separator: " "))")
        }
        // The check finds a hard break.
        #expect(Self.hardBreaks("OVERVIEW: x\n\nRiegel's formula tends\nto be optimistic.\n", columns: 80).count == 1)
    }
}
