import Foundation
import RaceKitFormats
import RaceKitOutput
import RaceKitScript
import RaceKitScriptWriter

/// `script render`: every message and variant of a script playable with no
/// speech synthesizer. The fixed fragments of each text are spoken once by an
/// offline engine (espeak-ng); the run-time values are said by joining clips of
/// a vocabulary rendered once per voice (`SpokenWords`); every clip is trimmed,
/// brought to one loudness (`PCMAudio`) and compressed (Ogg Opus, or AAC in
/// M4A). `manifest.json` says, for every text, the ordered parts a companion
/// plays (docs/audio.md); texts that are one fixed file also get their path in
/// the script.
///
/// Files are content-addressed: the SHA-256 of what is spoken, the silence
/// around it, the voice, the engine's version, the processing and the encoder
/// settings names the file (16 hex digits + extension), so an unchanged clip is
/// never spoken again, and one no text needs any more is removed.
public enum ScriptAudio {
    /// What to render and where.
    public struct Options: Sendable {
        /// The script (JSON); rewritten with the audio paths of single-file texts.
        public var scriptPath: String
        /// The audio folder; nil: `STEM-audio` beside the script (`STEM-audio-m4a` for M4A).
        public var outputDirectory: String?
        /// An espeak-ng voice: a language of `espeak-ng --voices` (`en-us`), optionally `+variant`.
        public var voice: String
        /// The container and codec of the files.
        public var format: AudioFormat
        /// Clips spoken and encoded at a time (1 or 2; the engine speaks one at a time).
        public var workers: Int
        /// The engine and encoder; nil: the system's libraries (`SpeechTools.find`).
        public var tools: SpeechTools?
        /// Called after each file is spoken and encoded: done, total (from the worker threads).
        public var progress: (@Sendable (Int, Int) -> Void)?
        /// The caller holds the folder's lock (`lock(_:)`) and keeps it past the render.
        public var lockHeld = false

        public init(
            scriptPath: String, outputDirectory: String? = nil, voice: String = "en-us", format: AudioFormat = .opus,
            workers: Int = 2, tools: SpeechTools? = nil, progress: (@Sendable (Int, Int) -> Void)? = nil
        ) {
            self.scriptPath = scriptPath
            self.outputDirectory = outputDirectory
            self.voice = voice
            self.format = format
            self.workers = workers
            self.tools = tools
            self.progress = progress
        }
    }

    /// What a render did.
    public struct Outcome: Sendable {
        /// Files spoken and encoded by this run.
        public var rendered: Int
        /// Files already there from an earlier run (same clip, voice, engine and encoder).
        public var reused: Int
        /// Unreferenced audio files of earlier runs removed from the folder.
        public var removed: Int
        /// Message texts and variants, every one playable from the files.
        public var texts: Int
        /// The audio folder.
        public var directory: String
        /// `manifest.json` in the audio folder.
        public var manifestPath: String
        /// Size of every referenced audio file, in bytes.
        public var bytes: Int
        /// Audio in every referenced file, in seconds.
        public var seconds: Double
        /// Whether the script file was rewritten (false when its paths were already these).
        public var scriptChanged: Bool
        /// What was written to `manifest.json`.
        public var manifest: AudioManifest

        /// The line `script render` prints.
        public var summary: String {
            let megabytes = TextFormat.fixed(Double(bytes) / 1_048_576, 2)
            return
                "rendered \(rendered), reused \(reused) → \(directory) (\(megabytes) MB, \(TextFormat.fixed(seconds, 1)) s of audio; all \(texts) texts playable offline)"
        }
    }

    /// The manifest's file name in the audio folder.
    public static let manifestName = "manifest.json"
    /// The comma clip's silence (between two words, each of which keeps its own `wordGap`).
    public static let pauseMilliseconds = AudioFragment.commaPause - 2 * AudioFragment.wordGap

    /// One file to make: a fragment or a vocabulary word (its speech and the
    /// silence around it), or the pause clip (no speech).
    struct Clip: Hashable, Sendable {
        var spoken: String
        var lead: Int
        var trail: Int
        /// The vocabulary word it says, for messages about it.
        var word: String?
        /// The first message (and variant) whose text has it, for messages about it.
        var usedBy: String?
    }

    /// The default audio folder's stem: the script file's name without `.json`
    /// and `.script` (`half.script.json`: `half`), so that two scripts of races
    /// with the same name never share (and prune) one audio folder.
    public static func audioStem(_ scriptPath: String) -> String {
        var name = (scriptPath as NSString).lastPathComponent
        for ext in [".json", ".script"] where name.lowercased().hasSuffix(ext) && name.count > ext.count {
            name = String(name.dropLast(ext.count))
        }
        return name
    }

    /// The audio folder a render writes to.
    public static func directory(_ o: Options) -> String {
        o.outputDirectory
            ?? ((o.scriptPath as NSString).deletingLastPathComponent as NSString)
            .appendingPathComponent("\(audioStem(o.scriptPath))-audio\(o.format == .opus ? "" : "-m4a")")
    }

    /// Renders the script's audio, reusing files already there, and rewrites the
    /// script's audio paths and the manifest. A failing tool fails the run after
    /// every file was tried (`AudioError.failed`, one line per clip); what was
    /// rendered is kept for the next run, and the script is left unchanged.
    public static func render(_ o: Options) throws -> Outcome {
        var script = try RaceScript.load(path: o.scriptPath)
        let tools = try o.tools ?? SpeechTools.find(format: o.format)
        let engine = try tools.engineVersion()
        try tools.checkVoice(o.voice)
        let dir = directory(o)
        let lock = o.lockHeld ? nil : try Self.lock(dir)
        defer { withExtendedLifetime(lock) {} }

        let texts = Self.texts(script)
        let key = FileKey(voice: o.voice, engine: engine, format: o.format, encoder: tools.encoderSettings(o.format))
        var clips: [String: Clip] = [:]   // file -> clip
        for clip in fragmentClips(texts) + vocabularyClips(unitMeters: script.plan.unit) {
            let file = key.fileName(clip)
            if clips[file] == nil { clips[file] = clip }
        }
        let byFile = clips
        let previous = AudioManifest.previousFiles(in: dir)
        // Reused: a file the last manifest names, with the same bytes. Anything
        // else in a clip's place (another clip, a damaged one, one no manifest
        // measured, a FIFO) is rendered again.
        let missing = clips.keys.sorted().filter { file in
            guard let known = previous[file] else { return true }
            return !isIntact(
                (dir as NSString).appendingPathComponent(file), format: o.format, bytes: known.bytes,
                sha256: known.sha256)
        }
        let workers = min(2, max(1, o.workers))
        let results: [Result<RenderedClip, ToolFailure>]
        switch o.format {
        case .opus:
            results = SpeechTools.parallel(missing, workers: workers, progress: o.progress) { file in
                try tools.render(
                    byFile[file]!, voice: o.voice, format: o.format, to: (dir as NSString).appendingPathComponent(file))
            }
        case .m4a:
            results = tools.renderM4A(
                missing.map { (byFile[$0]!, (dir as NSString).appendingPathComponent($0)) }, voice: o.voice,
                workers: workers, progress: o.progress)
        }
        var measured: [String: RenderedClip] = [:]
        var failures: [ToolFailure] = []
        for (file, result) in zip(missing, results) {
            switch result {
            case .success(let r): measured[file] = r
            case .failure(var failure):
                failure.messageID = clips[file]!.usedBy ?? "vocabulary \"\(clips[file]!.word ?? "")\""
                failures.append(failure)
            }
        }
        guard failures.isEmpty else { throw AudioError.failed(failures) }

        var files: [AudioManifest.File] = []
        for file in clips.keys.sorted() {
            let path = (dir as NSString).appendingPathComponent(file)
            // Read again only what this run wrote; a reused file is as the manifest says.
            let r: RenderedClip
            let size: Int
            let digest: String
            if let made = measured[file] {
                let bytes = [UInt8](InputFile.readRegular(path) ?? Data())
                (r, size, digest) = (made, bytes.count, ContentDigest.hex(of: bytes))
            } else {
                let known = previous[file]!
                (r, size, digest) = (known.clip, known.bytes, known.sha256)
            }
            files.append(
                AudioManifest.File(
                    file: file, spoken: clips[file]!.spoken, durationSeconds: TextFormat.rounded(r.seconds, 3),
                    bytes: size, sha256: digest, loudnessLUFS: r.loudness.map { TextFormat.rounded($0, 2) }))
        }

        let manifest = AudioManifest(
            script: script, scriptPath: relativePath(from: dir, to: o.scriptPath), voice: o.voice, engine: engine,
            format: o.format, texts: texts, key: key, files: files)
        let changed = try rewritePaths(&script, o.scriptPath, dir: dir, manifest: manifest)
        let manifestPath = (dir as NSString).appendingPathComponent(manifestName)
        try AtomicFile.write(try JSONOutput.string(manifest) + "\n", to: manifestPath)
        let removed = try removeStale(in: dir, keeping: Set(clips.keys))
        return Outcome(
            rendered: missing.count, reused: clips.count - missing.count, removed: removed, texts: texts.count,
            directory: dir, manifestPath: manifestPath, bytes: manifest.totalBytes, seconds: manifest.totalSeconds,
            scriptChanged: changed, manifest: manifest)
    }

    /// Writes each single-file text's path (relative to the script's folder)
    /// into the script: `prerenderedAudioPath`, `variantAudioPaths` (`""` for a
    /// variant of several parts: the manifest has them). True when the script changed.
    static func rewritePaths(
        _ script: inout RaceScript, _ scriptPath: String, dir: String, manifest: AudioManifest
    ) throws -> Bool {
        let relative = relativePath(from: folder(of: scriptPath), to: dir)
        let single = Dictionary(
            manifest.messages.map { ("\($0.messageId)#\($0.variant ?? -1)", $0.singleFile) },
            uniquingKeysWith: { a, _ in a })
        func path(_ id: String, _ variant: Int?) -> String? {
            (single["\(id)#\(variant ?? -1)"] ?? nil).map { relative + "/" + $0 }
        }
        for i in script.messages.indices {
            let m = script.messages[i]
            script.messages[i].prerenderedAudioPath = path(m.id, nil)
            script.messages[i].variantAudioPaths = m.variants.map { v in v.indices.map { path(m.id, $0) ?? "" } }
        }
        let text = Array(try script.json()) + Array("\n".utf8)
        guard InputFile.read(scriptPath).map({ [UInt8]($0) }) != text else { return false }
        try AtomicFile.write(text, to: scriptPath)
        return true
    }

    /// One text of the script: a message's text (variant nil) or one of its variants.
    struct Text: Sendable {
        var message: Int
        var messageID: String
        var variant: Int?
        var text: String
        var parts: [AudioPart]
    }

    /// Every text of the script, in message order (the text, then its variants).
    static func texts(_ script: RaceScript) -> [Text] {
        script.messages.enumerated().flatMap { (i, m) in
            ([(nil, m.text)] + (m.variants ?? []).enumerated().map { (Optional($0.offset), $0.element) }).map {
                Text(message: i, messageID: m.id, variant: $0.0, text: $0.1, parts: AudioPart.parts(of: $0.1))
            }
        }
    }

    static func fragmentClips(_ texts: [Text]) -> [Clip] {
        texts.flatMap { t in
            t.parts.compactMap {
                guard case .fixed(let f) = $0, !f.spoken.isEmpty else { return nil }
                return Clip(
                    spoken: f.spoken, lead: f.leadMilliseconds, trail: f.trailMilliseconds,
                    usedBy: t.messageID + (t.variant.map { " (variant \($0))" } ?? ""))
            }
        }
    }

    /// The vocabulary's clips: each word between two word gaps; the pause is silence.
    static func vocabularyClips(unitMeters: Double) -> [Clip] {
        SpokenWords.vocabulary(unitMeters: unitMeters).map { word in
            word == SpokenWords.pause
                ? Clip(spoken: "", lead: pauseMilliseconds, trail: 0, word: word)
                : Clip(spoken: word, lead: AudioFragment.wordGap, trail: AudioFragment.wordGap, word: word)
        }
    }

    /// What names a file: everything that changes its bytes.
    struct FileKey: Sendable {
        var voice: String
        var engine: String
        var format: AudioFormat
        /// The encoder and its settings (`SpeechTools.encoderSettings`).
        var encoder: String

        /// The first 16 hex digits of the SHA-256 of the engine version, the
        /// encoder settings, the text and processing rules' versions, the voice,
        /// the silences and the spoken text (each length-prefixed, so no two
        /// different inputs run together), then the format's extension.
        func fileName(_ clip: Clip) -> String {
            let parts = [
                "racekit-audio-2", engine, encoder, "spoken-\(SpokenText.version)",
                "pcm-\(PCMAudio.version)", voice, "\(clip.lead)", "\(clip.trail)", clip.spoken
            ]
            let material = parts.map { "\($0.utf8.count):\($0)" }.joined(separator: "\n")
            return String(ContentDigest.hex(of: material).prefix(16)) + "." + format.fileExtension
        }
    }

    /// True for names `script render` gives its files (16 lowercase hex digits + `.opus` or `.m4a`).
    public static func isAudioFileName(_ name: String) -> Bool {
        guard let ext = AudioFormat.allCases.first(where: { name.hasSuffix("." + $0.fileExtension) }) else {
            return false
        }
        let stem = name.dropLast(ext.fileExtension.count + 1)
        return stem.count == 16 && stem.allSatisfy { ("0"..."9").contains($0) || ("a"..."f").contains($0) }
    }

    /// Removes the folder's audio files no text refers to, and the temporary
    /// files of renders that were killed (`.racekit-PID-...` of a process that
    /// is gone); other files are left alone.
    static func removeStale(in dir: String, keeping: Set<String>) throws -> Int {
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: dir) } catch {
            throw OutputError.cannotWrite(path: dir, reason: (error as NSError).localizedDescription)
        }
        for name in names where isOrphanedTemporary(name) {
            unlink((dir as NSString).appendingPathComponent(name))
        }
        var removed = 0
        for name in names.sorted() where isAudioFileName(name) && !keeping.contains(name) {
            let path = (dir as NSString).appendingPathComponent(name)
            do { try FileManager.default.removeItem(atPath: path) } catch {
                throw OutputError.cannotWrite(path: path, reason: (error as NSError).localizedDescription)
            }
            removed += 1
        }
        return removed
    }

    /// A temporary file `.racekit-PID-N.EXT` whose process no longer runs.
    static func isOrphanedTemporary(_ name: String) -> Bool {
        guard name.hasPrefix(".racekit-") else { return false }
        let digits = name.dropFirst(".racekit-".count).prefix(while: \.isNumber)
        guard let pid = pid_t(digits), pid > 0, pid != getpid(),
            name.dropFirst(".racekit-".count + digits.count).hasPrefix("-")
        else { return false }
        return kill(pid, 0) != 0 && errno == ESRCH
    }

    public static func folder(of path: String) -> String {
        let dir = (path as NSString).deletingLastPathComponent
        return dir.isEmpty ? "." : dir
    }

    /// Creates the audio folder and takes its lock: two renders (or a render
    /// and the race as heard) into one folder never remove each other's files.
    /// Waits up to ten minutes, then `OutputError.busy`; an unwritable folder
    /// is one error, before any clip is tried.
    public static func lock(_ dir: String) throws -> OutputLock {
        try AtomicFile.createDirectory(dir)
        return try OutputLock(directory: dir, name: ".racekit-audio.lock", waitSeconds: 600)
    }

    /// Whether a file already in the folder can be reused (false: render it
    /// again): a regular file of the bytes the last manifest names (size and
    /// SHA-256), and for Ogg Opus every page's checksum right and its last page there.
    static func isIntact(_ path: String, format: AudioFormat, bytes expected: Int, sha256: String) -> Bool {
        guard let data = InputFile.readRegular(path), !data.isEmpty, data.count == expected,
            ContentDigest.hex(of: [UInt8](data)) == sha256
        else { return false }
        return intactSize(data, format: format) != nil
    }

    /// The size of a clip's bytes when they are a whole file of `format`.
    static func intactSize(_ path: String, format: AudioFormat, bytes expected: Int?) -> Int? {
        guard let data = InputFile.readRegular(path), !data.isEmpty, expected.map({ $0 == data.count }) ?? true else {
            return nil
        }
        return intactSize(data, format: format)
    }

    static func intactSize(_ data: Data, format: AudioFormat) -> Int? {
        let intact: Bool
        switch format {
        // try?: a damaged file is not intact.
        case .opus: intact = (try? OggOpus.read([UInt8](data)))?.packets.isEmpty == false
        case .m4a: intact = data.count > 8 && data[data.startIndex + 4..<data.startIndex + 8].elementsEqual("ftyp".utf8)
        }
        return intact ? data.count : nil
    }

    /// `target` as seen from the folder `from` ("audio", "../audio", "x/../y" never).
    public static func relativePath(from: String, to target: String) -> String {
        let base = URL(fileURLWithPath: from).standardizedFileURL.pathComponents
        let goal = URL(fileURLWithPath: target).standardizedFileURL.pathComponents
        var common = 0
        while common < min(base.count, goal.count), base[common] == goal[common] { common += 1 }
        let parts = Array(repeating: "..", count: base.count - common) + goal[common...]
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }
}

/// The containers `script render` writes.
public enum AudioFormat: String, Sendable, CaseIterable, Codable {
    /// Ogg Opus (libopusenc), the default: 24 kbit/s keeps espeak-ng's whole 11 kHz band.
    case opus
    /// AAC in MPEG-4 (ffmpeg), for players without Opus.
    case m4a

    public var fileExtension: String { rawValue }

    /// ffmpeg's arguments after its input (M4A).
    var encoderArguments: [String] {
        [
            "-c:a", "aac", "-b:a", "40k", "-threads", "1", "-map_metadata", "-1", "-fflags", "+bitexact",
            "-flags:a", "+bitexact"
        ]
    }

    /// Part of every M4A file's key: a change of encoder settings renders again
    /// (Ogg Opus: the library's, `OpusLibrary.settings`).
    public var encoderSettings: String { (["ffmpeg"] + encoderArguments).joined(separator: " ") }
}

/// What rendering one clip measured.
struct RenderedClip: Sendable {
    /// Seconds of audio, silences included.
    var seconds: Double
    /// Integrated loudness of the speech (nil for the pause).
    var loudness: Double?
}
