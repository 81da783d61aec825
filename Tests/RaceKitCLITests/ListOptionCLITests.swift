import Foundation
import Testing

/// The typed options `--export`, `report weekly --format` and `--personality`:
/// the spellings they always took, and a usage error (64) naming the value given
/// and the allowed ones, with nothing written.
@Suite struct ListOptionCLITests {
    func exists(_ cli: CLI, _ path: String) -> Bool {
        FileManager.default.fileExists(atPath: cli.workdir.appendingPathComponent(path).path)
    }

    @Test func exportTakesACommaListWithBlanks() throws {
        let cli = try CLI()
        try cli.write("ten.yaml", RaceCLITests.setup)
        let r = try cli.run(["race", "plan", "ten.yaml", "--export", " band ,,", "--out", "plans"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.components(separatedBy: "wrote ").count - 1 == 1, "\(r.stderr)")
        #expect(exists(cli, "plans/ten-band.svg") && !exists(cli, "plans/ten.tcx"))
    }

    @Test func anUnknownExportIsAUsageErrorNamingItAndTheAllowedLists() throws {
        let cli = try CLI()
        try cli.write("ten.yaml", RaceCLITests.setup)
        for value in ["band,svg", "", " , ", "BAND"] {
            let r = try cli.run(["race", "plan", "ten.yaml", "--export", value, "--out", "plans"])
            #expect(r.status == 64, "\(value): \(r.stderr)")
            #expect(r.stderr.contains("The value '\(value)' is invalid for '--export <list>'"), "\(r.stderr)")
            for allowed in ["- band\n", "- tcx\n", "- gpx\n", "- band,tcx,gpx"] {
                #expect(r.stderr.contains(allowed), "\(allowed) in \(r.stderr)")
            }
            #expect(r.stdout.isEmpty && !exists(cli, "plans"))
        }
    }

    @Test func reportFormatIsCSVMarkdownOrBoth() throws {
        let cli = try CLI()
        _ = try cli.run(["athlete", "set", "default", "--max-hr", "190", "--resting-hr", "50"])
        try cli.write("a.tcx", steadyTCX(start: "2026-11-10T06:00:00Z", seconds: 900))
        #expect(try cli.run(["import", "a.tcx"]).status == 0)
        let expected: [(String, csv: Bool, md: Bool)] = [
            ("md", false, true), ("md, csv", true, true), ("csv", true, false)
        ]
        for (value, csv, md) in expected {
            let out = "rep-\(csv)-\(md)"
            let r = try cli.run(
                ["report", "weekly", "--week", "2026-W46", "--format", value, "--out", out, "--quiet"],
                env: ["RACEKIT_NOW": "2026-11-25T12:00:00Z"])
            #expect(r.status == 0, "\(value): \(r.stderr)")
            #expect(exists(cli, "\(out)/default/weekly.csv") == csv, "\(value)")
            #expect(exists(cli, "\(out)/default/2026-W46.md") == md, "\(value)")
        }
        let bad = try cli.run(["report", "weekly", "--week", "2026-W46", "--format", "csv,pdf", "--out", "bad"])
        #expect(bad.status == 64)
        #expect(
            bad.stderr.contains(
                "The value 'csv,pdf' is invalid for '--format <format>'. Please provide one of 'csv', 'md' or 'csv,md'."
            ), "\(bad.stderr)")
        #expect(!exists(cli, "bad"))
    }

    @Test func anUnknownPersonalityIsAUsageErrorNamingTheShippedOnes() throws {
        let cli = try CLI()
        try cli.write("Races/m.yaml", RaceCLITests.setup)
        let r = try cli.run(["race", "script", "Races/m.yaml", "--personality", "angry_coach"])
        #expect(r.status == 64)
        #expect(
            r.stderr.contains(
                "The value 'angry_coach' is invalid for '--personality <personality>'. Please provide one of 'calm_coach', 'roast_coach' or 'drill_sergeant'."
            ), "\(r.stderr)")
        #expect(r.stderr.contains("--personality-file"), "\(r.stderr)")
        #expect(!exists(cli, "Races/m.script.json"))
        let ok = try cli.run(["race", "script", "Races/m.yaml", "--personality", "drill_sergeant"])
        #expect(ok.status == 0 && ok.stdout.contains("(drill_sergeant)"), "\(ok.stderr)")
    }
}
