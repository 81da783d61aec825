import Foundation
import Testing

/// True when espeak-ng and opusenc are on PATH (what `script render` runs).
let speechToolsInstalled: Bool = ["espeak-ng", "opusenc"].allSatisfy { tool in
    (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        .contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)") }
}

@Suite struct ScriptRenderCLITests {
    static let setup =
        "name: Ten\ndistance: 5k\ntarget_time: \"20:00\"\nhydration: {ml_per_hour: 400, aid_stations_km: [2.5]}\n"

    @Test(.enabled(if: speechToolsInstalled, "espeak-ng and opusenc are needed (make deps)"))
    func rendersBesideTheScriptThenReusesEveryFile() throws {
        let cli = try CLI()
        try cli.write("Races/ten.yaml", Self.setup)
        #expect(try cli.run(["race", "script", "Races/ten.yaml"]).status == 0)
        let first = try cli.run(["script", "render", "Races/ten.script.json"])
        #expect(first.status == 0, "\(first.stderr)")
        let pattern =
            #/^rendered (\d+), reused 0, live (\d+) → Races/ten-audio \((\d+\.\d\d) MB, (\d+\.\d) s of speech\)\n$/#
        let m = try #require(first.stdout.wholeMatch(of: pattern), "\(first.stdout)")
        let rendered = try #require(Int(m.1))
        #expect(rendered > 5 && Int(m.2)! > 0 && Double(m.4)! > 5)
        let script = try String(contentsOfFile: cli.workdir.path + "/Races/ten.script.json", encoding: .utf8)
        #expect(script.contains("\"prerenderedAudioPath\" : \"ten-audio/"))
        #expect(FileManager.default.fileExists(atPath: cli.workdir.path + "/Races/ten-audio/manifest.json"))

        let again = try cli.run(["script", "render", "Races/ten.script.json"])
        #expect(again.status == 0 && again.stdout.hasPrefix("rendered 0, reused \(rendered), live \(m.2) → "))
        #expect(try String(contentsOfFile: cli.workdir.path + "/Races/ten.script.json", encoding: .utf8) == script)
        // The script stays valid with its audio paths.
        #expect(try cli.run(["script", "validate", "Races/ten.script.json"]).status == 0)
    }

    @Test(.enabled(if: speechToolsInstalled, "espeak-ng and opusenc are needed (make deps)"))
    func unknownVoiceIsAUsageErrorNamingTheEnglishVoices() throws {
        let cli = try CLI()
        try cli.write("Races/ten.yaml", Self.setup)
        _ = try cli.run(["race", "script", "Races/ten.yaml"])
        let r = try cli.run(["script", "render", "Races/ten.script.json", "--voice", "en-klingon"])
        #expect(r.status == 64 && r.stdout.isEmpty)
        #expect(
            r.stderr.contains("unknown voice 'en-klingon'") && r.stderr.contains("en-gb") && r.stderr.contains("en-us"))
        #expect(!FileManager.default.fileExists(atPath: cli.workdir.path + "/Races/ten-audio"))
    }

    @Test func missingScriptIsNoInput() throws {
        let cli = try CLI()
        let r = try cli.run(["script", "render", "nowhere.script.json"])
        #expect(r.status == 66 && r.stderr.contains("nowhere.script.json: no such file"), "\(r.stderr)")
    }

    @Test func missingEngineSaysHowToInstallIt() throws {
        let cli = try CLI()
        try cli.write("Races/ten.yaml", Self.setup)
        _ = try cli.run(["race", "script", "Races/ten.yaml"])
        let r = try cli.run(["script", "render", "Races/ten.script.json"], env: ["PATH": "/nonexistent"])
        #expect(
            r.status == 74 && r.stderr.contains("espeak-ng is not installed (make deps installs it)"), "\(r.stderr)")
    }
}
