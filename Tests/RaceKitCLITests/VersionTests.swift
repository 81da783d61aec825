import Foundation
import RaceKitModel
import Testing

/// One version: what `racekit --version` prints, what a generated script names
/// as its generator, and a section of CHANGELOG.md.
@Suite struct VersionTests {
    @Test func theBinaryPrintsTheVersionConstant() throws {
        let r = try CLI().launch(["--version"])   // the binary itself
        #expect(r.status == 0)
        #expect(r.stdout == RaceKitVersion.current + "\n")
        #expect(RaceKitVersion.current.split(separator: ".").count == 3)
    }

    @Test func theChangelogHasASectionForIt() throws {
        let changelog = try String(
            contentsOf: Repository.root.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        #expect(changelog.contains("\n## \(RaceKitVersion.current) "), "no '## \(RaceKitVersion.current)' section")
    }

    @Test func aGeneratedScriptNamesTheVersion() throws {
        let cli = try CLI()
        try cli.write("ten.yaml", "name: Ten\ndistance: 10k\ntarget_time: \"50:00\"\n")
        let r = try cli.run(["race", "script", "ten.yaml", "--output", "ten.script.json", "--store", "s.sqlite"])
        #expect(r.status == 0, "\(r.stderr)")
        let script = try String(contentsOf: cli.workdir.appendingPathComponent("ten.script.json"), encoding: .utf8)
        #expect(script.contains("\"generator\" : \"racekit \(RaceKitVersion.current) script-generator 2\""))
    }
}
