import Foundation
import Testing

/// True when libespeak-ng and libopusenc load (what `script render` speaks and encodes with).
let speechToolsInstalled = ["libespeak-ng.so.1", "libopusenc.so.0"].allSatisfy { name in
    guard let handle = dlopen(name, RTLD_LAZY | RTLD_LOCAL) else { return false }
    dlclose(handle)
    return true
}
/// And ffmpeg, for M4A.
let m4aToolsInstalled =
    speechToolsInstalled
    && (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        .contains { FileManager.default.isExecutableFile(atPath: "\($0)/ffmpeg") }

@Suite struct ScriptRenderCLITests {
    static let setup =
        "name: Ten\ndistance: 5k\ntarget_time: \"20:00\"\nhydration: {ml_per_hour: 400, aid_stations_km: [2.5]}\n"

    /// `setup`'s script (Races/ten.script.json) rendered by `script render` from
    /// nothing, once per test process (196 clips): what the render said, and the
    /// folder it left, which tests needing the clips copy (`renderedCopy`).
    static let rendered: Result<(cli: CLI, first: CLI.Result), any Error> = Result {
        let cli = try CLI()
        try cli.write("Races/ten.yaml", setup)
        let script = try cli.run(["race", "script", "Races/ten.yaml"])
        guard script.status == 0 else { throw CLI.Failure("race script: \(script.status) \(script.stderr)") }
        return (cli, try cli.run(["script", "render", "Races/ten.script.json"]))
    }

    /// A fresh work folder holding a copy of `rendered`'s files, and what the render said.
    static func renderedCopy() throws -> (cli: CLI, first: CLI.Result) {
        let (template, first) = try rendered.get()
        let cli = try CLI()
        for name in try FileManager.default.contentsOfDirectory(atPath: template.workdir.path) {
            try FileManager.default.copyItem(
                at: template.workdir.appendingPathComponent(name), to: cli.workdir.appendingPathComponent(name))
        }
        return (cli, first)
    }

    @Test(.enabled(if: speechToolsInstalled, "libespeak-ng and libopusenc are needed (make deps)"))
    func rendersBesideTheScriptThenReusesEveryFile() throws {
        let (cli, first) = try Self.renderedCopy()
        #expect(first.status == 0, "\(first.stderr)")
        let pattern =
            #/^rendered (\d+), reused 0 → Races/ten-audio \((\d+\.\d\d) MB, (\d+\.\d) s of audio; all (\d+) texts playable offline\)\n$/#
        let m = try #require(first.stdout.wholeMatch(of: pattern), "\(first.stdout)")
        let rendered = try #require(Int(m.1))
        #expect(rendered > 100 && Double(m.3)! > 30 && Int(m.4)! > 10)
        let script = try String(contentsOfFile: cli.workdir.path + "/Races/ten.script.json", encoding: .utf8)
        #expect(script.contains("\"prerenderedAudioPath\" : \"ten-audio/"))
        #expect(FileManager.default.fileExists(atPath: cli.workdir.path + "/Races/ten-audio/manifest.json"))

        let again = try cli.run(["script", "render", "Races/ten.script.json"])
        #expect(again.status == 0 && again.stdout.hasPrefix("rendered 0, reused \(rendered) → "))
        let manifest = try String(contentsOfFile: cli.workdir.path + "/Races/ten-audio/manifest.json", encoding: .utf8)
        let problems = try Repository.validate(manifest, against: "audio-manifest.schema.json")
        #expect(problems.isEmpty, "\(problems.prefix(5))")
        #expect(try String(contentsOfFile: cli.workdir.path + "/Races/ten.script.json", encoding: .utf8) == script)
        // The script stays valid with its audio paths.
        #expect(try cli.run(["script", "validate", "Races/ten.script.json"]).status == 0)
    }

    @Test(.enabled(if: speechToolsInstalled, "libespeak-ng and libopusenc are needed (make deps)"))
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
        let r = try cli.run(
            ["script", "render", "Races/ten.script.json"], env: ["RACEKIT_SPEECH_LIBRARIES": "/nonexistent"])
        #expect(
            r.status == 74 && r.stderr.contains("libespeak-ng is not installed (make deps installs libespeak-ng1)"),
            "\(r.stderr)")
    }

    /// Seconds of an Ogg Opus file: its last page's granule less the pre-skip.
    static func oggSeconds(_ path: String) throws -> Double {
        let b = [UInt8](try #require(FileManager.default.contents(atPath: path)))
        #expect(b.starts(with: Array("OggS".utf8)))
        var i = b.count - 27
        while i > 0, !(b[i..<i + 4].elementsEqual("OggS".utf8)) { i -= 1 }
        let granule = (0..<8).reduce(0) { $0 | Int(b[i + 6 + $1]) << (8 * $1) }
        let preSkip = Int(b[38]) | Int(b[39]) << 8
        return Double(granule - preSkip) / 48_000
    }

    @Test(.enabled(if: speechToolsInstalled, "libespeak-ng and libopusenc are needed (make deps)"))
    func theRaceAsHeardHasEveryPlayedLineInOrderWithACueSheet() throws {
        // The clips already rendered (`script render`'s own test renders from nothing).
        let (cli, _) = try Self.renderedCopy()
        let r = try cli.run([
            "script", "simulate", "Races/ten.script.json", "--race", "Races/ten.yaml", "--format", "json", "--audio",
            "heard.opus"
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let played = try #require(json["played"] as? [[String: Any]])
        #expect(played.count > 5)
        #expect(r.stderr.contains("the race as heard: \(played.count) lines, "), "\(r.stderr)")
        #expect(r.stderr.contains("→ heard.opus (cue sheet heard.cues.txt; clips rendered 0, reused "), "\(r.stderr)")
        let cues = try String(contentsOfFile: cli.workdir.path + "/heard.cues.txt", encoding: .utf8)
        let rows = cues.split(separator: "\n").dropFirst(4)   // title, file, header, rule
        #expect(rows.count == played.count, "\(cues)")
        var lastAudio = -1.0
        for (row, p) in zip(rows, played) {
            let text = try #require(p["text"] as? String)
            #expect(row.hasSuffix(text), "\(row)")
            // The audio offsets grow line by line.
            let audio = try #require(row.split(separator: " ").first)
            let fields = audio.split(separator: ":").map { Double($0)! }
            let seconds = fields.reduce(0) { $0 * 60 + $1 }
            #expect(seconds > lastAudio)
            lastAudio = seconds
        }
        // The same race is heard byte for byte the same.
        let again = try cli.run([
            "script", "simulate", "Races/ten.script.json", "--race", "Races/ten.yaml", "--audio", "again.opus"
        ])
        #expect(again.status == 0)
        #expect(
            FileManager.default.contents(atPath: cli.workdir.path + "/again.opus")
                == FileManager.default.contents(atPath: cli.workdir.path + "/heard.opus"))
        // Shortened silences: the lines, 1.5 s between them, half a second at each end.
        let short = try Self.oggSeconds(cli.workdir.path + "/heard.opus")
        #expect(short > Double(played.count - 1) * 1.5 + 1 + Double(played.count) && short < 300, "\(short)")
        let real = try cli.run([
            "script", "simulate", "Races/ten.script.json", "--race", "Races/ten.yaml", "--audio", "real.opus",
            "--real-time"
        ])
        #expect(real.status == 0, "\(real.stderr)")
        let lastElapsed = try #require((played.last?["elapsedSeconds"] as? NSNumber)?.doubleValue)
        let long = try Self.oggSeconds(cli.workdir.path + "/real.opus")
        #expect(
            long > lastElapsed && long < lastElapsed + 60, "\(long) for a race whose last line is at \(lastElapsed)")
        // The clips were rendered once: the second run reused them all.
        #expect(real.stderr.contains("clips rendered 0, reused "), "\(real.stderr)")
        // A WAV is a WAV (decoded by opusfile in this process, 48 kHz).
        let wav = try cli.run([
            "script", "simulate", "Races/ten.script.json", "--race", "Races/ten.yaml", "--audio", "heard.wav"
        ])
        #expect(wav.status == 0, "\(wav.stderr)")
        let riff = [UInt8](try #require(FileManager.default.contents(atPath: cli.workdir.path + "/heard.wav")))
        #expect(riff.starts(with: Array("RIFF".utf8)) && riff[8..<12].elementsEqual("WAVE".utf8))
        // As long as the Opus file: 16-bit mono samples at the header's rate.
        let rate = Double((24..<28).reduce(0) { $0 | Int(riff[$1]) << (8 * ($1 - 24)) })
        #expect(rate == 48_000)
        #expect(abs(Double(riff.count - 44) / (rate * 2) - short) < 0.1, "\(riff.count) bytes at \(rate) Hz")
    }

    @Test(.enabled(if: speechToolsInstalled, "libespeak-ng and libopusenc are needed (make deps)"))
    func theRaceAsHeardNeedsAKnownContainerAndAPlaceToGo() throws {
        let cli = try CLI()
        try cli.write("Races/ten.yaml", Self.setup)
        _ = try cli.run(["race", "script", "Races/ten.yaml"])
        let r = try cli.run([
            "script", "simulate", "Races/ten.script.json", "--race", "Races/ten.yaml", "--audio", "heard.mp3"
        ])
        #expect(r.status == 64 && r.stderr.contains("give a file ending in .opus, .ogg, .m4a or .wav"), "\(r.stderr)")
        // Checked before the simulation prints: a folder to write in (created when
        // missing, as every output folder), the voice, not the clips' own folder.
        try FileManager.default.createDirectory(
            atPath: cli.workdir.path + "/Races/ten-audio", withIntermediateDirectories: true)
        try cli.write("afile", "not a folder")
        for (audio, extra, status, said) in [
            ("afile/heard.opus", [String](), Int32(73), "it exists and is not a folder"),
            ("fresh/heard.opus", ["--voice", "en-klingon"], 64, "unknown voice 'en-klingon'"),
            ("Races/ten-audio/0123456789abcdef.opus", [], 64, "that is the script's audio folder")
        ] {
            let r = try cli.run(
                ["script", "simulate", "Races/ten.script.json", "--race", "Races/ten.yaml", "--audio", audio] + extra)
            #expect(r.status == status && r.stdout.isEmpty && r.stderr.contains(said), "\(audio): \(r.stderr)")
        }
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: cli.workdir.path + "/fresh", isDirectory: &isFolder))
        #expect(isFolder.boolValue, "the missing folder of --audio is created")
        let alone = try cli.run([
            "script", "simulate", "Races/ten.script.json", "--race", "Races/ten.yaml", "--real-time"
        ])
        #expect(alone.status == 64 && alone.stderr.contains("--real-time goes with --audio"))
    }

    @Test(
        .enabled(if: m4aToolsInstalled, "libespeak-ng, libopusenc and ffmpeg are needed (make deps)"))
    func m4aRendersAndTheRaceAsHeardConverts() throws {
        // The Opus clips already rendered: the race as heard reuses them. The
        // script's first 12 messages: the vocabulary and their fragments for
        // ffmpeg to encode, not all 196 clips (7 s of the suite, now 4).
        let (cli, opus) = try Self.renderedCopy()
        let all = try #require(Int(opus.stdout.prefix { $0 != "," }.dropFirst("rendered ".count)), "\(opus.stdout)")
        let scriptPath = cli.workdir.path + "/Races/ten.script.json"
        var script = try #require(
            try JSONSerialization.jsonObject(with: try Data(contentsOf: URL(fileURLWithPath: scriptPath)))
                as? [String: Any])
        let messages = try #require(script["messages"] as? [Any])
        script["messages"] = Array(messages.prefix(12))
        try JSONSerialization.data(withJSONObject: script).write(to: URL(fileURLWithPath: scriptPath))
        // Under the working folder's lock (`run`, not `runHere`): ffmpeg is started
        // in the process's working folder, which must be this test's while it runs.
        let r = try cli.run(["script", "render", "Races/ten.script.json", "--codec", "m4a"])
        #expect(r.status == 0 && r.stdout.contains("→ Races/ten-audio-m4a ("), "\(r.stderr)")
        let folder = cli.workdir.path + "/Races/ten-audio-m4a"
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".m4a") }
        #expect(files.count > 50 && files.count < all, "\(files.count) of \(all)")
        let first = [UInt8](try #require(FileManager.default.contents(atPath: folder + "/" + files[0])))
        #expect(first.count > 100 && first[4..<8].elementsEqual("ftyp".utf8), "MPEG-4 starts with its ftyp box")
        let manifest = try String(contentsOfFile: folder + "/manifest.json", encoding: .utf8)
        #expect(manifest.contains("\"format\" : \"m4a\""))
        #expect(try Repository.validate(manifest, against: "audio-manifest.schema.json").isEmpty)
        let heard = try cli.run([
            "script", "simulate", "Races/ten.script.json", "--race", "Races/ten.yaml", "--audio", "heard.m4a"
        ])
        #expect(heard.status == 0 && heard.stderr.contains("clips rendered 0, reused "), "\(heard.stderr)")
        let m4a = [UInt8](try #require(FileManager.default.contents(atPath: cli.workdir.path + "/heard.m4a")))
        #expect(m4a.count > 10_000 && m4a[4..<8].elementsEqual("ftyp".utf8))
        let noFFmpeg = try cli.run(
            ["script", "render", "Races/ten.script.json", "--codec", "m4a"],
            env: ["PATH": try Self.emptyPath()])
        #expect(
            noFFmpeg.status == 74 && noFFmpeg.stderr.contains("ffmpeg is not installed (make deps installs it)"),
            "\(noFFmpeg.stderr)")
    }

    /// A PATH of one empty folder: no program at all (the engine and encoder are libraries).
    static func emptyPath() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("racekit-path-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }
}
