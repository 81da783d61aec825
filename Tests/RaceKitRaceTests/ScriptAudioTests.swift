import Foundation
import RaceKitScript
import Testing

@testable import RaceKitCore
@testable import RaceKitRace

/// Renders go through the real espeak-ng and opusenc: skipped, with the reason
/// shown, only when they are not installed.
let speechInstalled = SpeechTools.installed
/// The tests that render a script again and again (about 200 clips each) run
/// in `make test`; under a sanitizer (`make test-asan`, `make test-tsan` set
/// RACEKIT_SANITIZER) they are skipped with this reason, and one whole render
/// (`everyTextIsPlayableFromFilesAndTheVocabulary`) still runs there.
let repeatedRendersRun = speechInstalled && ProcessInfo.processInfo.environment["RACEKIT_SANITIZER"] == nil
let repeatedRendersReason: Comment =
    "espeak-ng and opusenc are needed (make deps); under a sanitizer (RACEKIT_SANITIZER) make test runs these"

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

    @Test(.enabled(if: speechInstalled, "espeak-ng and opusenc are needed (make deps)"))
    func everyTextIsPlayableFromFilesAndTheVocabulary() throws {
        let path = try Self.scriptFile()
        let outcome = try ScriptAudio.render(ScriptAudio.Options(scriptPath: path))
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

    @Test(.enabled(if: repeatedRendersRun, repeatedRendersReason))
    func aRenderFromNothingIsByteIdentical() throws {
        let path = try Self.scriptFile()
        let a = try ScriptAudio.render(ScriptAudio.Options(scriptPath: path, outputDirectory: Self.folder(path) + "/a"))
        let b = try ScriptAudio.render(ScriptAudio.Options(scriptPath: path, outputDirectory: Self.folder(path) + "/b"))
        #expect(a.rendered == b.rendered && b.reused == 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: a.directory).sorted()
        #expect(names == (try FileManager.default.contentsOfDirectory(atPath: b.directory).sorted()))
        // Every clip (the lock file is empty: InputFile, as FileManager.contents leaks on an empty file).
        for name in names where ScriptAudio.isAudioFileName(name) {
            #expect(InputFile.read(a.directory + "/" + name) == InputFile.read(b.directory + "/" + name), "\(name)")
        }
        #expect(names.filter(ScriptAudio.isAudioFileName).count == a.rendered)
    }

    @Test(.enabled(if: repeatedRendersRun, repeatedRendersReason))
    func secondRenderReusesEveryFileAndKeepsTheScriptBytes() throws {
        let path = try Self.scriptFile()
        let first = try ScriptAudio.render(ScriptAudio.Options(scriptPath: path))
        let bytes = try #require(FileManager.default.contents(atPath: path))
        let manifest = FileManager.default.contents(atPath: first.manifestPath)
        let second = try ScriptAudio.render(ScriptAudio.Options(scriptPath: path, tools: Self.noSpeech()))
        #expect(first.rendered > 0 && first.scriptChanged)
        #expect(second.rendered == 0 && second.reused == first.rendered && second.removed == 0)
        #expect(!second.scriptChanged && FileManager.default.contents(atPath: path) == bytes)
        #expect(FileManager.default.contents(atPath: first.manifestPath) == manifest)
    }

    @Test(.enabled(if: repeatedRendersRun, repeatedRendersReason))
    func aDamagedOrReplacedClipIsRenderedAgain() throws {
        let path = try Self.scriptFile()
        let first = try ScriptAudio.render(ScriptAudio.Options(scriptPath: path))
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
        for name in [flipped, cut, swapped, forged] {
            #expect(FileManager.default.contents(atPath: first.directory + "/" + name) == originals[name], "\(name)")
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

    @Test(.enabled(if: repeatedRendersRun, repeatedRendersReason))
    func aRenderWaitsForTheFoldersLock() throws {
        let path = try Self.scriptFile()
        let first = try ScriptAudio.render(ScriptAudio.Options(scriptPath: path))
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

    /// The real tools, except that speaking fails: a render that reuses every file passes.
    static func noSpeech() throws -> SpeechTools {
        let real = try SpeechTools.find()
        let fake = try temporaryFile(
            "espeak-ng",
            "#!/bin/sh\ncase \"$1\" in --*) exec \(real.espeak) \"$@\";; esac\necho 'must not speak' >&2; exit 9\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake)
        return SpeechTools(espeak: fake, opusenc: real.opusenc)
    }

    @Test(.enabled(if: repeatedRendersRun, repeatedRendersReason))
    func changedTextRendersExactlyOneNewFileAndRemovesTheOld() throws {
        let path = try Self.scriptFile()
        let first = try ScriptAudio.render(ScriptAudio.Options(scriptPath: path))
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

    @Test(.enabled(if: repeatedRendersRun, repeatedRendersReason))
    func variantsGetParallelPathsAndPartsInTheManifest() throws {
        var id = ""
        let path = try Self.scriptFile { s in
            let i = s.messages.firstIndex { $0.id.hasSuffix(".start") }!
            id = s.messages[i].id
            s.messages[i].variants = ["-Off we go, easy does it.", "Clock at {elapsed}, settle in."]
        }
        let out = Self.folder(path) + "/sub/audio"
        let outcome = try ScriptAudio.render(ScriptAudio.Options(scriptPath: path, outputDirectory: out, workers: 1))
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

    @Test(.enabled(if: speechInstalled, "espeak-ng and opusenc are needed (make deps)"))
    func unknownVoiceIsAUsageErrorNamingTheEnglishVoices() throws {
        let path = try Self.scriptFile()
        let error = try #require(throws: AudioError.self) {
            try ScriptAudio.render(ScriptAudio.Options(scriptPath: path, voice: "en-klingon"))
        }
        #expect(error.exitClass == .usage)
        #expect(error.description.contains("'en-klingon'") && error.description.contains("en-us, "))
        #expect(throws: Never.self) { try SpeechTools.find().checkVoice("en-gb+f3") }
    }

    @Test func failingEngineNamesEveryMessageAndWhatTheEngineSaid() throws {
        let path = try Self.scriptFile()
        let before = FileManager.default.contents(atPath: path)
        let script = try RaceScript.load(path: path)
        let id = script.messages[try Self.uniqueComplete(script)].id
        let fake = try temporaryFile(
            "espeak-ng",
            """
            #!/bin/sh
            case "$1" in
            --version) echo 'eSpeak NG text-to-speech: 0.0  Data at: /nowhere' ;;
            --voices) printf 'Pty Language Age/Gender VoiceName File Other Languages\\n 2 en-us --/M English gmw/en-US\\n' ;;
            --voices=*) echo 'Pty Language Age/Gender VoiceName File Other Languages' ;;
            *) echo 'synthesis exploded' >&2; exit 3 ;;
            esac
            """)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake)
        let tools = SpeechTools(espeak: fake, opusenc: "/bin/false")
        let error = try #require(throws: AudioError.self) {
            try ScriptAudio.render(ScriptAudio.Options(scriptPath: path, tools: tools))
        }
        guard case .failed(let failures) = error else { Issue.record("\(error)"); return }
        #expect(error.exitClass == .ioError && !failures.isEmpty)
        // Every clip fails: the speech in the engine, the pause (no speech) in the encoder (/bin/false).
        #expect(failures.filter { $0.tool == "espeak-ng" }.allSatisfy { $0.status == 3 })
        #expect(failures.filter { $0.tool != "espeak-ng" }.map(\.tool) == ["opusenc"])
        #expect(error.description.contains("\(id): espeak-ng failed (exit 3): synthesis exploded"))
        #expect(error.description.contains("vocabulary \"twenty-six\": espeak-ng failed (exit 3)"))
        #expect(FileManager.default.contents(atPath: path) == before, "the script must be left alone")
    }

    @Test func missingProgramsAreNamedWithTheirPackage() {
        #expect(throws: AudioError.toolMissing(tool: "espeak-ng", package: "espeak-ng")) {
            try SpeechTools.find(path: "/nonexistent")
        }
        #expect(
            AudioError.toolMissing(tool: "espeak-ng", package: "espeak-ng").description
                == "espeak-ng is not installed (make deps installs it)")
        #expect(AudioError.toolMissing(tool: "opusenc", package: "opus-tools").exitClass == .ioError)
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
        let key = ScriptAudio.FileKey(voice: "en-us", engine: "e 1", format: .opus)
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
            ScriptAudio.FileKey(voice: "en-gb", engine: "e 1", format: .opus),
            ScriptAudio.FileKey(voice: "en-us", engine: "e 2", format: .opus)
        ] {
            #expect(a != changed.fileName(clip))
        }
        let m4a = ScriptAudio.FileKey(voice: "en-us", engine: "e 1", format: .m4a).fileName(clip)
        #expect(m4a.hasSuffix(".m4a") && ScriptAudio.isAudioFileName(m4a))
        #expect(!ScriptAudio.isAudioFileName("manifest.json") && !ScriptAudio.isAudioFileName("0123456789ABCDEF.opus"))
        #expect(ScriptAudio.relativePath(from: "/a/b", to: "/a/b/c-audio") == "c-audio")
        #expect(ScriptAudio.relativePath(from: "/a/b", to: "/a/x/y") == "../x/y")
    }

    /// espeak-ng and opusenc ran without a time limit (6 minutes on a 100 KB text):
    /// a tool past its time is killed and the failure says so.
    @Test func aToolPastItsTimeIsKilled() throws {
        let started = Date()
        let run = try SpeechTools.run("/bin/sleep", ["30"], capture: .stderr, timeout: 1)
        #expect(run.status == -1)
        #expect(String(decoding: run.output, as: UTF8.self).hasPrefix("killed after 1 s (RACEKIT_TOOL_TIMEOUT)"))
        #expect(Date().timeIntervalSince(started) < 20)
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
