import Foundation
import RaceKitFormats
import RaceKitScript
import Testing

@testable import RaceKitAudio
@testable import RaceKitModel
@testable import RaceKitOutput
@testable import RaceKitPlan
@testable import RaceKitScriptWriter

/// Renders go through the real libespeak-ng and libopusenc, in this process:
/// skipped, with the reason shown, only when they are not installed.
let speechInstalled = SpeechTools.installed
let speechReason: Comment = "libespeak-ng and libopusenc are needed (make deps)"
/// ffmpeg on PATH (M4A).
let m4aInstalled = SpeechTools.which("ffmpeg", path: ProcessInfo.processInfo.environment["PATH"]) != nil

/// An engine with the real one's voices and version that fails to speak:
/// a render that reuses every file passes.
struct MuteEngine: SpeechEngine {
    var real: any SpeechEngine
    func version() throws -> String { try real.version() }
    func voices() throws -> (voices: Set<String>, variants: Set<String>) { try real.voices() }
    func speak(_ text: String, voice: String) throws -> PCMAudio {
        throw ToolFailure(tool: "espeak-ng", status: 9, stderr: "must not speak", inProcess: true)
    }
}

@Suite struct ScriptAudioTests {
    static let yaml = """
        name: Audio Five
        distance: 5k
        target_time: "22:00"
        hydration: {ml_per_hour: 400, aid_stations_km: [2.5]}
        """

    /// A generated 5k script in a fresh folder; returns the script's path.
    static func scriptFile(edit: (inout RaceScript) -> Void = { _ in }) throws -> String {
        let plan = try RacePlanner.plan(try SetupLoader.parse(yaml: yaml, file: "five.yaml"))
        var script = ScriptGenerator.generate(plan: plan, personality: try Personality.named("calm_coach"))
        edit(&script)
        return try temporaryFile("five.script.json", String(decoding: try script.json(), as: UTF8.self) + "\n")
    }

    /// What a first render of the 5k script left: its folder and counts.
    struct FirstRender: Sendable {
        var directory: String
        var manifestPath: String
        var rendered: Int
        var scriptChanged: Bool
    }

    /// The 5k script rendered once per test process (194 clips, some 5 s of a
    /// 2-core machine in a debug build): tests that start from a rendered folder
    /// get a copy of it, the script beside its `five-audio` as a render leaves them.
    /// Read only: a test that changes the folder works on `renderedFive()`'s copy.
    static let template: Result<(path: String, outcome: ScriptAudio.Outcome), any Error> = Result {
        let path = try scriptFile()
        return (path, try ScriptAudio.render(ScriptAudio.Options(scriptPath: path)))
    }

    /// A fresh copy of the rendered 5k script and its audio folder; returns the script's path and the first render.
    static func renderedFive() throws -> (path: String, first: FirstRender) {
        let (original, first) = try template.get()
        let path = try temporaryFile("five.script.json", "")
        let folder = Self.folder(path)
        unlink(path)
        for name in ["five.script.json", "five-audio"] {
            try FileManager.default.copyItem(atPath: Self.folder(original) + "/" + name, toPath: folder + "/" + name)
        }
        let dir = folder + "/five-audio"
        return (
            path,
            FirstRender(
                directory: dir, manifestPath: dir + "/" + ScriptAudio.manifestName, rendered: first.rendered,
                scriptChanged: first.scriptChanged)
        )
    }

    static func manifest(_ outcome: ScriptAudio.Outcome) throws -> [String: Any] {
        let data = try #require(FileManager.default.contents(atPath: outcome.manifestPath))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static func folder(_ path: String) -> String { (path as NSString).deletingLastPathComponent }

    /// Every text of a script: its messages' texts and their variants.
    static func texts(_ s: RaceScript) -> [(id: String, variant: Int?, text: String)] {
        s.messages.flatMap { m in
            [(m.id, nil, m.text)] + (m.variants ?? []).enumerated().map { (m.id, $0.offset, $0.element) }
        }
    }

    static func isComplete(_ text: String) -> Bool { RaceScript.placeholderNames(in: text).isEmpty }

    /// The first message whose text is complete and said by no other message or variant.
    static func uniqueComplete(_ s: RaceScript) throws -> Int {
        let all = texts(s).map(\.text)
        return try #require(
            s.messages.firstIndex { m in isComplete(m.text) && all.filter { $0 == m.text }.count == 1 })
    }

    @Test(.enabled(if: speechInstalled, speechReason))
    func everyTextIsPlayableFromFilesAndTheVocabulary() throws {
        let (path, outcome) = try Self.template.get()   // the 5k script rendered from nothing
        #expect(outcome.directory == Self.folder(path) + "/five-audio")
        let script = try RaceScript.load(path: path)
        let texts = Self.texts(script)
        #expect(texts.contains { !Self.isComplete($0.text) }, "the 5k script needs texts with slots")
        #expect(outcome.texts == texts.count && outcome.reused == 0)
        let json = try Self.manifest(outcome)
        let files = try #require(json["files"] as? [[String: Any]])
        let vocabulary = try #require(json["vocabulary"] as? [String: String])
        let names = Set(files.compactMap { $0["file"] as? String })
        #expect(outcome.rendered == names.count && names.count == files.count)
        #expect(Set(vocabulary.keys) == Set(SpokenWords.vocabulary(unitMeters: 1000)))
        #expect(Set(vocabulary.values).isSubset(of: names))
        let messages = try #require(json["messages"] as? [[String: Any]])
        #expect(messages.count == texts.count)
        for (m, t) in zip(messages, texts) {
            #expect(m["messageId"] as? String == t.id && m["text"] as? String == t.text)
            let parts = try #require(m["parts"] as? [[String: Any]])
            // Every fixed part's file is there; every slot is one the engine fills.
            var joined = ""
            for part in parts {
                if let file = part["file"] as? String { #expect(names.contains(file), "\(t.id): \(file)") }
                if let slot = part["slot"] as? String {
                    #expect(SpokenWords.kind(of: slot)?.rawValue == part["speak"] as? String)
                    joined += "{\(slot)}"
                } else {
                    joined += try #require(part["text"] as? String)
                }
            }
            #expect(joined == t.text, "\(t.id)")
        }
        // Single-file texts have their path in the script; the rest are parts.
        for m in script.messages {
            let single = Self.isComplete(m.text)
            #expect((m.prerenderedAudioPath != nil) == single, "\(m.id)")
            if let rel = m.prerenderedAudioPath {
                #expect(
                    rel.hasPrefix("five-audio/") && ScriptAudio.isAudioFileName((rel as NSString).lastPathComponent))
            }
        }
        for f in files {
            let d = try #require((f["durationSeconds"] as? NSNumber)?.doubleValue)
            let spoken = try #require(f["spoken"] as? String)
            #expect(spoken.isEmpty ? abs(d - 0.12) < 0.01 : d > 0.2 && d < 30, "\(f)")
            let opus = [UInt8](FileManager.default.contents(atPath: outcome.directory + "/\(f["file"]!)") ?? Data())
            #expect(opus.starts(with: Array("OggS".utf8)) && opus.count == (f["bytes"] as? NSNumber)?.intValue)
            // The WAV's duration and the Opus stream's agree.
            #expect(abs((AudioFormats.oggOpusSeconds(opus) ?? 0) - d) < 0.03, "\(f)")
        }
        // One voice: every clip with speech within 2 LU (measured before encoding).
        let loudness = files.compactMap { ($0["loudnessLUFS"] as? NSNumber)?.doubleValue }
        #expect(loudness.count == files.count - 1, "all but the pause are measured")
        #expect((loudness.max() ?? 0) - (loudness.min() ?? -99) <= 2, "\(loudness.min() ?? 0)...\(loudness.max() ?? 0)")
        #expect(loudness.allSatisfy { abs($0 - PCMAudio.targetLUFS) <= 1.5 })
        #expect(json["script"] as? String == "../five.script.json" && json["voice"] as? String == "en-us")
        #expect(json["unit"] as? String == "kilometre" && json["format"] as? String == "opus")
        #expect(
            abs(((json["totalSeconds"] as? NSNumber)?.doubleValue ?? 0) - outcome.seconds) < 0.01 && outcome.seconds > 5
        )
    }

    /// Two renders from nothing name the same files for the same texts, and each
    /// clip says the same thing as long (within 10% or 30 ms; 6.4% seen once,
    /// 1.528 s then 1.43 s) and as loud. The second render is of the script's
    /// first messages (the whole vocabulary and their fragments, a third of the
    /// clips): a second full render was 7 s of the suite.
    /// Not byte for byte: the engine carries its pitch flutter from one text to
    /// the next within a process (a static in libespeak-ng's wave generator), so
    /// a clip's samples depend on what was spoken before it.
    @Test(.enabled(if: speechInstalled, speechReason))
    func aRenderFromNothingNamesTheSameFilesAsLongAndAsLoud() throws {
        let a = try Self.template.get().outcome   // the whole script, rendered earlier in this process
        let path = try Self.scriptFile { $0.messages = Array($0.messages.prefix(12)) }
        let b = try ScriptAudio.render(ScriptAudio.Options(scriptPath: path, outputDirectory: Self.folder(path) + "/b"))
        let vocabulary = Set(SpokenWords.vocabulary(unitMeters: 1000)).count
        #expect(b.reused == 0 && b.rendered > vocabulary + 12 && b.rendered < a.rendered, "\(b.summary)")
        let names = try FileManager.default.contentsOfDirectory(atPath: b.directory).filter(ScriptAudio.isAudioFileName)
        #expect(names.count == b.rendered && Set(names).isSubset(of: a.manifest.files.map(\.file)))
        #expect(b.manifest.vocabulary == a.manifest.vocabulary)
        // Each text is said by the same files in the same order.
        let said = Dictionary(
            a.manifest.messages.map { ("\($0.messageId)/\($0.variant ?? -1)", "\($0.parts)") },
            uniquingKeysWith: { x, _ in x })
        #expect(b.manifest.messages.count >= 12)
        for m in b.manifest.messages {
            #expect(said["\(m.messageId)/\(m.variant ?? -1)"] == "\(m.parts)", "\(m.messageId)")
        }
        let first = Dictionary(uniqueKeysWithValues: a.manifest.files.map { ($0.file, $0) })
        for g in b.manifest.files {
            let f = try #require(first[g.file])
            #expect(
                f.spoken == g.spoken
                    && abs(f.durationSeconds - g.durationSeconds) <= max(0.03, 0.1 * f.durationSeconds),
                "\(g.file): \(f.durationSeconds) s, then \(g.durationSeconds) s")
            #expect(abs((f.loudnessLUFS ?? 0) - (g.loudnessLUFS ?? 0)) < 0.3, "\(g.file)")
        }
    }

    @Test(.enabled(if: speechInstalled, speechReason))
    func secondRenderReusesEveryFileAndKeepsTheScriptBytes() throws {
        let (path, first) = try Self.renderedFive()
        let bytes = try #require(FileManager.default.contents(atPath: path))
        let manifest = FileManager.default.contents(atPath: first.manifestPath)
        let second = try ScriptAudio.render(ScriptAudio.Options(scriptPath: path, tools: Self.noSpeech()))
        #expect(first.rendered > 0 && first.scriptChanged)
        #expect(second.rendered == 0 && second.reused == first.rendered && second.removed == 0)
        #expect(!second.scriptChanged && FileManager.default.contents(atPath: path) == bytes)
        #expect(FileManager.default.contents(atPath: first.manifestPath) == manifest)
    }

    @Test(.enabled(if: speechInstalled, speechReason))
    func aDamagedOrReplacedClipIsRenderedAgain() throws {
        let (path, first) = try Self.renderedFive()
        let names = try FileManager.default.contentsOfDirectory(atPath: first.directory)
            .filter(ScriptAudio.isAudioFileName).sorted()
        let (flipped, cut, swapped, forged) = (names[0], names[1], names[2], names[4])
        var originals: [String: Data] = [:]
        for name in [flipped, cut, swapped, forged] {
            originals[name] = try #require(FileManager.default.contents(atPath: first.directory + "/" + name))
        }
        var bytes = [UInt8](originals[flipped]!)
        for i in (bytes.count / 2)..<(bytes.count / 2 + 20) { bytes[i] ^= 0x5A }
        try AtomicFile.write(bytes, to: first.directory + "/" + flipped)
        // Cut at a page boundary: every page left is whole, the last is missing.
        let whole = [UInt8](originals[cut]!)
        let lastPage = try #require((1..<whole.count - 4).last { whole[$0..<$0 + 4].elementsEqual("OggS".utf8) })
        try AtomicFile.write(Array(whole[..<lastPage]), to: first.directory + "/" + cut)
        // Another valid clip in its place.
        let other = try #require(FileManager.default.contents(atPath: first.directory + "/" + names[3]))
        try AtomicFile.write([UInt8](other), to: first.directory + "/" + swapped)
        // A valid clip of the same size with other bytes: a byte of its last page
        // changed and the page's checksum made right again.
        var same = [UInt8](originals[forged]!)
        let last = try #require((1..<same.count - 4).last { same[$0..<$0 + 4].elementsEqual("OggS".utf8) })
        same[same.count - 1] ^= 0x01
        for k in 22..<26 { same[last + k] = 0 }
        let crc = OggOpus.crc32(Array(same[last...]))
        for k in 0..<4 { same[last + 22 + k] = UInt8((crc >> (8 * UInt32(k))) & 0xFF) }
        #expect((try? OggOpus.read(same)) != nil && same.count == originals[forged]!.count)
        try AtomicFile.write(same, to: first.directory + "/" + forged)
        let second = try ScriptAudio.render(ScriptAudio.Options(scriptPath: path))
        #expect(second.rendered == 4 && second.reused == first.rendered - 4)
        // Each is spoken again: a whole clip of what it says, as the new manifest measured it.
        let measured = Dictionary(uniqueKeysWithValues: second.manifest.files.map { ($0.file, $0) })
        for name in [flipped, cut, swapped, forged] {
            let file = try #require(measured[name])
            let bytes = try #require(InputFile.read(first.directory + "/" + name))
            #expect(ContentDigest.hex(of: [UInt8](bytes)) == file.sha256 && bytes.count == file.bytes, "\(name)")
            #expect(!(try OggOpus.read([UInt8](bytes))).packets.isEmpty, "\(name)")
            #expect(abs((AudioFormats.oggOpusSeconds([UInt8](bytes)) ?? 0) - file.durationSeconds) < 0.03, "\(name)")
        }
        // A render killed before its manifest leaves clips no manifest measured:
        // they are rendered again, and every clip's loudness is known.
        unlink(first.manifestPath)
        let third = try ScriptAudio.render(ScriptAudio.Options(scriptPath: path))
        #expect(third.rendered == first.rendered && third.reused == 0)
        let files = try #require(try Self.manifest(third)["files"] as? [[String: Any]])
        let unmeasured = files.filter { ($0["spoken"] as? String)?.isEmpty == false && $0["loudnessLUFS"] is NSNull }
        #expect(unmeasured.isEmpty, "\(unmeasured.count) clips without loudness")
        #expect(files.allSatisfy { ($0["sha256"] as? String)?.count == 64 })
    }

    @Test(.enabled(if: speechInstalled, speechReason))
    func aRenderWaitsForTheFoldersLock() throws {
        let (path, first) = try Self.renderedFive()
        var lock: OutputLock? = try ScriptAudio.lock(first.directory)
        let done = Locked<Date?>(nil)
        let thread = Thread {
            _ = try? ScriptAudio.render(ScriptAudio.Options(scriptPath: path))
            done.withLock { $0 = Date() }
        }
        thread.start()
        Thread.sleep(forTimeInterval: 1.5)
        #expect(done.withLock { $0 } == nil, "the render went on while another held the folder")
        let released = Date()
        lock = nil
        _ = lock
        let deadline = Date().addingTimeInterval(60)
        while done.withLock({ $0 }) == nil, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect((done.withLock { $0 } ?? .distantPast) >= released)
    }

    @Test func toolArgumentsAreNeverOptionsAndTemporaryNamesStayShort() {
        #expect(SpeechTools.arg("-aud/x.wav") == "./-aud/x.wav" && SpeechTools.arg("/a/-b.wav") == "/a/-b.wav")
        let long = "/tmp/" + String(repeating: "a", count: 250) + ".opus"
        let temp = SpeechTools.temporary(beside: long, "wav")
        #expect(temp.hasPrefix("/tmp/.racekit-") && temp.hasSuffix(".wav") && temp.count < 60)
        #expect(SpeechTools.temporary(beside: long, "wav") != temp)
    }

    /// The real engine and encoder, except that speaking fails.
    static func noSpeech() throws -> SpeechTools {
        var tools = try SpeechTools.find()
        tools.engine = MuteEngine(real: tools.engine)
        return tools
    }

    @Test(.enabled(if: speechInstalled, speechReason))
    func changedTextRendersExactlyOneNewFileAndRemovesTheOld() throws {
        let (path, first) = try Self.renderedFive()
        var script = try RaceScript.load(path: path)
        let i = try Self.uniqueComplete(script)
        let old = try #require(script.messages[i].prerenderedAudioPath)
        script.messages[i].text = "Finished. Walk it off slowly."
        try AtomicFile.write(String(decoding: try script.json(), as: UTF8.self), to: path)

        let second = try ScriptAudio.render(ScriptAudio.Options(scriptPath: path))
        #expect(second.rendered == 1 && second.reused == first.rendered - 1 && second.removed == 1)
        let new = try #require(try RaceScript.load(path: path).messages[i].prerenderedAudioPath)
        #expect(new != old)
        #expect(!FileManager.default.fileExists(atPath: Self.folder(path) + "/" + old))
        #expect(FileManager.default.fileExists(atPath: Self.folder(path) + "/" + new))
        let files = try FileManager.default.contentsOfDirectory(atPath: second.directory)
        #expect(files.filter(ScriptAudio.isAudioFileName).count == first.rendered)
    }

    @Test(.enabled(if: speechInstalled, speechReason))
    func variantsGetParallelPathsAndPartsInTheManifest() throws {
        var id = ""
        let path = try Self.scriptFile { s in
            let i = s.messages.firstIndex { $0.id.hasSuffix(".start") }!
            id = s.messages[i].id
            s.messages[i].variants = ["-Off we go, easy does it.", "Clock at {elapsed}, settle in."]
        }
        // The clips of the script as it was are there already: only the variants' are spoken.
        let out = Self.folder(path) + "/sub/audio"
        try FileManager.default.createDirectory(atPath: Self.folder(out), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: try Self.template.get().outcome.directory, toPath: out)
        let outcome = try ScriptAudio.render(ScriptAudio.Options(scriptPath: path, outputDirectory: out, workers: 1))
        #expect(outcome.rendered >= 2 && outcome.rendered <= 4 && outcome.reused > 150, "\(outcome.summary)")
        let m = try #require(try RaceScript.load(path: path).messages.first { $0.id == id })
        let paths = try #require(m.variantAudioPaths)
        #expect(paths.count == 2 && paths[0].hasPrefix("sub/audio/") && paths[1].isEmpty)
        #expect(FileManager.default.fileExists(atPath: Self.folder(path) + "/" + paths[0]))
        let messages = try #require(try Self.manifest(outcome)["messages"] as? [[String: Any]])
        let variant = try #require(
            messages.first { $0["messageId"] as? String == id && ($0["variant"] as? NSNumber)?.intValue == 1 })
        let parts = try #require(variant["parts"] as? [[String: Any]])
        #expect(parts.count == 3 && parts[0]["text"] as? String == "Clock at " && parts[0]["file"] != nil)
        #expect(parts[1]["slot"] as? String == "elapsed" && parts[1]["speak"] as? String == "clock")
        #expect(parts[2]["text"] as? String == ", settle in." && parts[2]["file"] != nil)
    }

    @Test(.enabled(if: speechInstalled, speechReason))
    func unknownVoiceIsAUsageErrorNamingTheEnglishVoices() throws {
        let path = try Self.scriptFile()
        let error = try #require(throws: AudioError.self) {
            try ScriptAudio.render(ScriptAudio.Options(scriptPath: path, voice: "en-klingon"))
        }
        #expect(error.exitClass == .usage)
        #expect(error.description.contains("'en-klingon'") && error.description.contains("en-us, "))
        #expect(throws: Never.self) { try SpeechTools.find().checkVoice("en-gb+f3") }
    }

    struct ExplodingEngine: SpeechEngine {
        func version() throws -> String { "eSpeak NG text-to-speech: 0.0" }
        func voices() throws -> (voices: Set<String>, variants: Set<String>) { (["en-us", "gmw/en-US"], []) }
        func speak(_ text: String, voice: String) throws -> PCMAudio {
            throw ToolFailure(tool: "espeak-ng", status: 3, stderr: "synthesis exploded", inProcess: true)
        }
    }

    /// A tenth of a second of tone for every text: a render without the engine's time.
    struct ToneEngine: SpeechEngine {
        static let beep = PCMAudio(rate: 22_050, samples: Array(ScriptAudioTests.tone.samples.prefix(2_205)))
        func version() throws -> String { "eSpeak NG text-to-speech: 0.0" }
        func voices() throws -> (voices: Set<String>, variants: Set<String>) { (["en-us"], []) }
        func speak(_ text: String, voice: String) throws -> PCMAudio { Self.beep }
    }

    /// The system's ffmpeg, behind a script that counts its runs (one line of
    /// inputs a run, in `ffmpeg.runs` beside it) and, with `batches: false`,
    /// refuses its first run of more than one input (`mkdir` claims the refusal:
    /// batches run side by side, and a test-then-create let two be refused).
    static func countingFFmpeg(batches: Bool) throws -> String {
        let real = try #require(SpeechTools.which("ffmpeg", path: ProcessInfo.processInfo.environment["PATH"]))
        let path = Self.folder(try temporaryFile("ffmpeg", "")) + "/ffmpeg"
        try AtomicFile.write(
            """
            #!/bin/sh
            n=0
            for a in "$@"; do [ "$a" = -i ] && n=$((n + 1)); done
            echo "$n" >> "$0.runs"
            \(batches ? "" : "[ \"$n\" -gt 1 ] && mkdir \"$0.refused\" 2>/dev/null && { echo 'not now' >&2; exit 1; }")
            exec '\(real)' "$@"

            """, to: path)
        #expect(chmod(path, 0o755) == 0)
        return path
    }

    /// M4A clips were encoded by one ffmpeg each (110 processes for a 5k script):
    /// one ffmpeg now takes a batch of `SpeechTools.m4aBatch`. A batch ffmpeg
    /// refuses is encoded clip by clip, so every clip is still written.
    @Test(.enabled(if: m4aInstalled, "ffmpeg is needed (make deps)"))
    func m4aClipsAreEncodedABatchAtATimeAndAloneWhenABatchFails() throws {
        for batches in [true, false] {
            let ffmpeg = try Self.countingFFmpeg(batches: batches)
            let tools = SpeechTools(engine: ToneEngine(), encoder: BrokenEncoder(), ffmpeg: ffmpeg)
            let o = try ScriptAudio.render(
                ScriptAudio.Options(scriptPath: try Self.scriptFile(), format: .m4a, tools: tools))
            let runs = try String(contentsOfFile: ffmpeg + ".runs", encoding: .utf8).split(separator: "\n")
            let batch = SpeechTools.m4aBatch
            let full = (o.rendered + batch - 1) / batch
            #expect(o.rendered > 4 * batch && o.reused == 0)
            #expect(runs.compactMap { Int($0) }.reduce(0, +) == o.rendered + (batches ? 0 : batch), "\(runs)")
            if batches {
                // Full batches but one; batches run on parallel workers, so the
                // short one need not be the last to start.
                #expect(runs.count == full, "\(runs)")
                #expect(runs.filter { $0 != "\(batch)" }.count <= 1, "\(runs)")
            } else {
                // The refused batch, its clips one by one, the other batches.
                #expect(runs.count == 1 + batch + full - 1, "\(runs)")
                #expect(runs.filter { $0 == "1" }.count == batch)
            }
            let entries = try FileManager.default.contentsOfDirectory(atPath: o.directory)
            #expect(!entries.contains { $0.hasPrefix(".racekit-") && !$0.hasSuffix(".lock") }, "\(entries)")
            let clips = entries.filter { $0.hasSuffix(".m4a") }
            #expect(clips.count == o.rendered)
            for clip in clips {
                let bytes = [UInt8](try #require(FileManager.default.contents(atPath: o.directory + "/" + clip)))
                #expect(bytes.count > 100 && bytes[4..<8].elementsEqual("ftyp".utf8), "\(clip)")
            }
            #expect((try Self.manifest(o)["files"] as? [Any])?.count == o.rendered)
        }
    }

    struct BrokenEncoder: OpusEncoding {
        var settings: String { "broken" }
        func encode(_ pcm: PCMAudio, serial: Int32) throws -> [UInt8] {
            throw ToolFailure(tool: "libopusenc", status: -2, stderr: "write: internal error", inProcess: true)
        }
    }

    @Test func failingEngineNamesEveryMessageAndWhatTheEngineSaid() throws {
        let path = try Self.scriptFile()
        let before = FileManager.default.contents(atPath: path)
        let script = try RaceScript.load(path: path)
        let id = script.messages[try Self.uniqueComplete(script)].id
        let tools = SpeechTools(engine: ExplodingEngine(), encoder: BrokenEncoder())
        let error = try #require(throws: AudioError.self) {
            try ScriptAudio.render(ScriptAudio.Options(scriptPath: path, tools: tools))
        }
        guard case .failed(let failures) = error else { Issue.record("\(error)"); return }
        #expect(error.exitClass == .ioError && !failures.isEmpty)
        // Every clip fails: the speech in the engine, the pause (no speech) in the encoder.
        #expect(failures.filter { $0.tool == "espeak-ng" }.allSatisfy { $0.status == 3 })
        #expect(failures.filter { $0.tool != "espeak-ng" }.map(\.tool) == ["libopusenc"])
        #expect(error.description.contains("\(id): espeak-ng failed (error 3): synthesis exploded"))
        #expect(error.description.contains("vocabulary \"twenty-six\": espeak-ng failed (error 3)"))
        #expect(FileManager.default.contents(atPath: path) == before, "the script must be left alone")
    }

    @Test func missingLibrariesAndProgramsAreNamedWithTheirPackage() {
        #expect(ESpeakLibrary(path: "/nonexistent/libespeak-ng.so.1") == nil)
        #expect(OpusLibrary(path: "/nonexistent/libopusenc.so.0") == nil)
        #expect(OpusDecoder(path: "/nonexistent/libopusfile.so.0") == nil)
        #expect(throws: AudioError.toolMissing(tool: "ffmpeg", package: "ffmpeg")) {
            try SpeechTools.find(format: .m4a, path: "/nonexistent")
        }
        #expect(
            AudioError.toolMissing(tool: "libespeak-ng", package: "libespeak-ng1").description
                == "libespeak-ng is not installed (make deps installs libespeak-ng1)")
        #expect(AudioError.toolMissing(tool: "libopusenc", package: "libopusenc0").exitClass == .ioError)
    }

    /// A second of a 440 Hz tone at the engine's rate.
    static let tone = PCMAudio(
        rate: 22_050, samples: (0..<22_050).map { Int16(8_000 * sin(2 * Double.pi * 440 * Double($0) / 22_050)) })

    @Test(.enabled(if: speechInstalled, speechReason))
    func theEngineSpeaksInThisProcessAndTheEncoderIsDeterministic() throws {
        let tools = try SpeechTools.find()
        #expect(try tools.engineVersion().hasPrefix("eSpeak NG text-to-speech: 1."))
        let words = try tools.engine.speak("twenty-six", voice: "en-us")
        #expect(words.rate == 22_050 && words.seconds > 0.3 && words.seconds < 3)
        #expect(words.loudness > -40, "speech, not silence")
        // A text that reads like an option is only text.
        #expect(try tools.engine.speak("-v xx --help", voice: "en-us").seconds > 0.3)
        let female = try tools.engine.speak("twenty-six", voice: "en-us+f3")
        #expect(female.samples != words.samples, "the variant changes the voice")
        // The same clip and serial give the same bytes; the serial is in every page.
        let a = try tools.encoder.encode(Self.tone, serial: 0x1234_5678)
        #expect(a == (try tools.encoder.encode(Self.tone, serial: 0x1234_5678)))
        let stream = try OggOpus.read(a)
        #expect(a.starts(with: Array("OggS".utf8)) && Array(a[14..<18]) == [0x78, 0x56, 0x34, 0x12])
        #expect(abs((AudioFormats.oggOpusSeconds(a) ?? 0) - 1) < 0.001 && !stream.packets.isEmpty)
        #expect(tools.encoder.settings.hasPrefix("libopusenc ") && tools.encoder.settings.contains("bitrate=24000"))
    }

    @Test(.enabled(if: speechInstalled, speechReason))
    func theRaceAsHeardDecodesToAWAVABlockAtATime() throws {
        let tools = try SpeechTools.find()
        let opus = try tools.encoder.encode(Self.tone, serial: 7)
        let path = try temporaryFile("heard.wav", "")
        try tools.convert(opus, to: path, .wav)
        let data = try #require(InputFile.read(path))
        let wav = try #require(AudioFormats.WAV(data))
        #expect(wav.sampleRate == 48_000 && wav.channels == 1 && wav.bitsPerSample == 16)
        #expect(wav.dataBytes == data.count - 44 && abs(wav.seconds - 1) < 0.001)
        let pcm = try #require(PCMAudio(wav: data))
        #expect(abs(pcm.loudness - Self.tone.loudness) < 1, "the tone survives the round trip")
        // Not an Ogg Opus stream: an error naming the decoder, the file left as it was.
        #expect(throws: ToolFailure.self) { try tools.convert(Array("not opus".utf8), to: path, .wav) }
        #expect(InputFile.read(path) == data)
    }

    @Test func readsTheWAVHeaderChunkByChunk() throws {
        func le(_ v: Int, _ n: Int) -> [UInt8] { (0..<n).map { UInt8((v >> (8 * $0)) & 0xFF) } }
        let fmt =
            Array("fmt ".utf8) + le(16, 4) + le(1, 2) + le(2, 2) + le(22_050, 4) + le(88_200, 4) + le(4, 2)
            + le(16, 2)
        let list = Array("LIST".utf8) + le(3, 4) + [1, 2, 3, 0]   // odd size: padded
        let samples = [UInt8](repeating: 0, count: 44_100)   // 0.5 s of stereo 16-bit
        let data = Array("data".utf8) + le(0x7FFF_FFFF, 4) + samples   // streamed: placeholder size
        let wav = try #require(
            AudioFormats.WAV(Data(Array("RIFF".utf8) + le(0, 4) + Array("WAVE".utf8) + fmt + list + data)))
        #expect(wav.sampleRate == 22_050 && wav.channels == 2 && wav.bitsPerSample == 16)
        #expect(wav.dataBytes == 44_100 && abs(wav.seconds - 0.5) < 1e-9)
        #expect(AudioFormats.WAV(Data("RIFF....WAVEdata".utf8)) == nil)
    }

    @Test func readsClockTimesAndUnitsAsWords() {
        #expect(
            SpokenText.normalize("Towards 3:15:00, plan at 1:05:03.")
                == "Towards three hours, fifteen, plan at one hour, five oh three.")
        #expect(
            SpokenText.normalize("Gel at 25 km with 500 ml, 25g carbs, 75 mg caffeine; 1 mi to go, within 2 s.")
                == "Gel at 25 kilometres with 500 millilitres, 25 grams carbs, 75 milligrams caffeine; 1 mile to go, within 2 seconds."
        )
        // A pace or a split as a runner says it; a gap with its units; a word is not a unit.
        #expect(SpokenText.normalize("Pace 4:05 at 25 k, 5 gels") == "Pace four oh five at 25 k, 5 gels")
        #expect(SpokenText.normalize("You are 4:45 ahead of plan") == "You are four minutes forty-five ahead of plan")
        #expect(SpokenText.normalize("1:30 behind, split 10:00") == "one minute thirty behind, split ten minutes")
        // A minus sign is said; phoneme brackets are not read as phonemes.
        #expect(
            SpokenText.normalize("Gap -0:45, was -1:00 behind")
                == "Gap minus forty-five seconds, was minus one minute behind")
        #expect(SpokenText.normalize("say [[h@'loU]]") == "say [ [h@'loU] ]")
        // A unit right after a slot's number is a word too; otherwise it stays.
        #expect(SpokenText.normalize(" km to go", afterNumber: true) == " kilometres to go")
        #expect(SpokenText.normalize(" km to go") == " km to go")
    }

    @Test func namesFilesByWhatTheySayAndEverythingThatChangesTheirBytes() {
        let key = ScriptAudio.FileKey(voice: "en-us", engine: "e 1", format: .opus, encoder: "o 1")
        let clip = ScriptAudio.Clip(spoken: "Gel now.", lead: 40, trail: 40)
        let a = key.fileName(clip)
        #expect(ScriptAudio.isAudioFileName(a) && a.count == 21 && a.hasSuffix(".opus"))
        #expect(a == key.fileName(clip))
        var other = clip
        other.spoken = "Gel now!"
        #expect(a != key.fileName(other))
        other = clip
        other.trail = 200
        #expect(a != key.fileName(other))
        for changed in [
            ScriptAudio.FileKey(voice: "en-gb", engine: "e 1", format: .opus, encoder: "o 1"),
            ScriptAudio.FileKey(voice: "en-us", engine: "e 2", format: .opus, encoder: "o 1"),
            ScriptAudio.FileKey(voice: "en-us", engine: "e 1", format: .opus, encoder: "o 2")
        ] {
            #expect(a != changed.fileName(clip))
        }
        let m4a = ScriptAudio.FileKey(voice: "en-us", engine: "e 1", format: .m4a, encoder: "f 1").fileName(clip)
        #expect(m4a.hasSuffix(".m4a") && ScriptAudio.isAudioFileName(m4a))
        #expect(!ScriptAudio.isAudioFileName("manifest.json") && !ScriptAudio.isAudioFileName("0123456789ABCDEF.opus"))
        #expect(ScriptAudio.relativePath(from: "/a/b", to: "/a/b/c-audio") == "c-audio")
        #expect(ScriptAudio.relativePath(from: "/a/b", to: "/a/x/y") == "../x/y")
    }

    /// The tools (now ffmpeg, for M4A) ran without a time limit (6 minutes on a
    /// 100 KB text): a tool past its time is killed and the failure says so.
    @Test func aToolPastItsTimeIsKilled() throws {
        // Every worker of the global queue busy (as during a render or a parallel test
        // run): the kill still comes on time (it waited for a free worker, 27 s under ASan).
        // The workers spin until the run returns, or for 6 s at most: a kill that waits
        // for a free worker comes after 6 s, one on time ends the spinning at once.
        let busyUntil = Date().addingTimeInterval(6)
        let returned = Locked(false)
        defer { returned.withLock { $0 = true } }
        let workers = ProcessInfo.processInfo.activeProcessorCount * 4
        for _ in 0..<workers {
            DispatchQueue.global().async {
                while Date() < busyUntil, !returned.withLock({ $0 }) {}
            }
        }
        let started = Date()
        let run = try SpeechTools.run("/bin/sleep", ["30"], capture: .stderr, timeout: 1)
        returned.withLock { $0 = true }
        #expect(Date().timeIntervalSince(started) < 5, "killed only when a global worker was free")
        #expect(run.status == -1)
        #expect(String(decoding: run.output, as: UTF8.self).hasPrefix("killed after 1 s (RACEKIT_TOOL_TIMEOUT)"))
        #expect(Date().timeIntervalSince(started) < 20)
        // A tool whose child holds its stderr (a wrapper script): the kill ends the
        // run, which does not wait the 12 s the child keeps the pipe (and Foundation's
        // own descriptor) open; it took 30 s a run. What the tool said is kept.
        let wrapped = Date()
        let wrapper = try SpeechTools.run(
            "/bin/sh", ["-c", "echo starting >&2; sleep 12 & exec sleep 12"], capture: .stderr, timeout: 0.5)
        #expect(Date().timeIntervalSince(wrapped) < 10)
        #expect(wrapper.status == -1 && String(decoding: wrapper.output, as: UTF8.self).hasSuffix("starting\n"))
        let chatty = try SpeechTools.run("/bin/sh", ["-c", "head -c 1000000 /dev/zero >&2"], capture: .stderr)
        #expect(chatty.status == 0)
        #expect(chatty.output.count == SpeechTools.maxOutputBytes)
    }
}

/// What a render finds in its folder that it did not write as a regular file
/// is replaced, never read: a FIFO would block the render (holding the folder's
/// lock) forever, a link would read what is elsewhere.
@Suite struct AudioFolderSafetyTests {
    @Test func aFIFOInAClipsOrTheManifestsPlaceIsNotRead() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rk-audio-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let clip = (dir as NSString).appendingPathComponent("0123456789abcdef.opus")
        #expect(mkfifo(clip, 0o644) == 0)
        #expect(mkfifo((dir as NSString).appendingPathComponent(ScriptAudio.manifestName), 0o644) == 0)
        let started = Date()
        #expect(ScriptAudio.intactSize(clip, format: .opus, bytes: nil) == nil)
        #expect(AudioManifest.previousFiles(in: dir).isEmpty)
        #expect(Date().timeIntervalSince(started) < 5)
        // removeStale takes the FIFO away like any clip no text needs.
        #expect(try ScriptAudio.removeStale(in: dir, keeping: []) == 1)
    }

    @Test func aKilledRendersTemporaryFilesAreRemovedAndALiveOnesKept() throws {
        // Above Linux's largest pid (2^22): no such process.
        #expect(ScriptAudio.isOrphanedTemporary(".racekit-4194305-77.raw.wav"))
        #expect(!ScriptAudio.isOrphanedTemporary(".racekit-\(getpid())-77.raw.wav"))
        #expect(!ScriptAudio.isOrphanedTemporary(".racekit-1-77.wav"))   // init is alive
        #expect(!ScriptAudio.isOrphanedTemporary(".racekit-audio.lock"))
        #expect(!ScriptAudio.isOrphanedTemporary(".racekit-4194305.wav"))
    }
}
