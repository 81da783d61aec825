import Foundation
import RaceKitCore
import RaceKitFormats
import RaceKitScript

/// `script render`: every message text that is complete at generation (no
/// run-time placeholder) spoken by an offline engine (espeak-ng), compressed to
/// Ogg Opus, and its path written into the script; `manifest.json` beside the files.
///
/// Files are content-addressed: the SHA-256 of the text, the voice, the engine's
/// version and the encoder settings names the file (16 hex digits + `.opus`), so
/// an unchanged text is never spoken again, and a changed one gets a new file
/// while the old one, referenced by no message any more, is removed.
public enum ScriptAudio {
    /// What to render and where.
    public struct Options: Sendable {
        /// The script (JSON); rewritten with each message's audio paths.
        public var scriptPath: String
        /// The audio folder; nil: `STEM-audio` beside the script (`audioStem`).
        public var outputDirectory: String?
        /// An espeak-ng voice: a language of `espeak-ng --voices` (`en-us`), optionally `+variant`.
        public var voice: String
        /// Engine and encoder processes at a time (1 or 2).
        public var workers: Int
        /// The programs; nil: `espeak-ng` and `opusenc` found on PATH.
        public var tools: SpeechTools?
        /// Called after each file is spoken and encoded: done, total (from the worker threads).
        public var progress: (@Sendable (Int, Int) -> Void)?

        public init(
            scriptPath: String, outputDirectory: String? = nil, voice: String = "en-us", workers: Int = 2,
            tools: SpeechTools? = nil, progress: (@Sendable (Int, Int) -> Void)? = nil
        ) {
            self.scriptPath = scriptPath
            self.outputDirectory = outputDirectory
            self.voice = voice
            self.workers = workers
            self.tools = tools
            self.progress = progress
        }
    }

    /// What a render did.
    public struct Outcome: Sendable, Equatable {
        /// Files spoken and encoded by this run.
        public var rendered: Int
        /// Files already there from an earlier run (same text, voice, engine and encoder).
        public var reused: Int
        /// Texts (messages and variants) left for live speech: they have run-time placeholders.
        public var live: Int
        /// Unreferenced `.opus` files of earlier runs removed from the folder.
        public var removed: Int
        /// The audio folder.
        public var directory: String
        /// `manifest.json` in the audio folder.
        public var manifestPath: String
        /// Size of every referenced audio file, in bytes.
        public var bytes: Int
        /// Speech in every referenced audio file, in seconds.
        public var seconds: Double
        /// Whether the script file was rewritten (false when its paths were already these).
        public var scriptChanged: Bool
    }

    /// Opus in Ogg, tuned for speech. 24 kbit/s rather than 16: at 16 Opus codes
    /// wideband (8 kHz of audio), at 24 super-wideband, which keeps all of
    /// espeak-ng's 11 kHz (22,050 Hz samples); measured 3.1 KB per second of
    /// speech, about 6 MB for 200 ten-second messages (budget 16 MB).
    public static let encoderArguments = ["--speech", "--bitrate", "24"]
    /// Part of every file's key: a change of encoder settings renders again.
    public static var encoderSettings: String { (["opusenc"] + encoderArguments).joined(separator: " ") }
    /// The manifest's file name in the audio folder.
    public static let manifestName = "manifest.json"

    /// One text to speak: a message's text (variant nil) or one of its variants.
    struct Item {
        var message: Int
        var variant: Int?
        var text: String
        /// The text as the engine reads it (`SpokenText`).
        var spoken: String
        var placeholders: [String]
        /// The audio file's name when the text is complete.
        var file: String?
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

    /// Renders the script's audio, reusing files already there, and rewrites the
    /// script's audio paths and the manifest. A failing tool fails the run after
    /// every file was tried (`AudioError.failed`, one line per text); what was
    /// rendered is kept for the next run, and the script is left unchanged.
    public static func render(_ o: Options) throws -> Outcome {
        var script = try RaceScript.load(path: o.scriptPath)
        let tools = try o.tools ?? SpeechTools.find()
        let engine = try tools.engineVersion()
        try tools.checkVoice(o.voice)
        let scriptFolder = folder(of: o.scriptPath)
        let dir =
            o.outputDirectory
            ?? ((o.scriptPath as NSString).deletingLastPathComponent as NSString)
            .appendingPathComponent("\(audioStem(o.scriptPath))-audio")
        try AtomicFile.createDirectory(dir)

        let items = Self.items(script, voice: o.voice, engine: engine)
        var first: [String: Item] = [:]   // file -> the first text that needs it
        for item in items { if let f = item.file, first[f] == nil { first[f] = item } }
        let missing = first.keys.sorted().filter { !existsNonEmpty((dir as NSString).appendingPathComponent($0)) }
        let jobs = missing.map {
            RenderJob(file: $0, item: first[$0]!, messageID: script.messages[first[$0]!.message].id)
        }
        let results = SpeechTools.parallel(
            jobs, workers: min(2, max(1, o.workers)), progress: o.progress
        ) { job in
            try tools.render(job.item.spoken, voice: o.voice, to: (dir as NSString).appendingPathComponent(job.file))
        }
        var durations: [String: Double] = [:]
        var failures: [ToolFailure] = []
        for (job, result) in zip(jobs, results) {
            switch result {
            case .success(let seconds): durations[job.file] = seconds
            case .failure(var failure):
                failure.messageID = job.messageID
                failure.variant = job.item.variant
                failures.append(failure)
            }
        }
        guard failures.isEmpty else { throw AudioError.failed(failures) }

        let previous = AudioManifest.previousDurations(in: dir)
        var sizes: [String: Int] = [:]
        for file in first.keys {
            let path = (dir as NSString).appendingPathComponent(file)
            let bytes = [UInt8](InputFile.read(path) ?? Data())
            sizes[file] = bytes.count
            if durations[file] == nil { durations[file] = previous[file] ?? AudioFormats.oggOpusSeconds(bytes) ?? 0 }
        }

        // The script's paths, relative to its folder.
        let relative = relativePath(from: scriptFolder, to: dir)
        let byMessage = Dictionary(grouping: items, by: \.message)
        for i in script.messages.indices {
            let mine = byMessage[i] ?? []
            let main = mine.first { $0.variant == nil }
            script.messages[i].prerenderedAudioPath = main?.file.map { relative + "/" + $0 }
            script.messages[i].variantAudioPaths =
                script.messages[i].variants == nil
                ? nil : mine.filter { $0.variant != nil }.map { $0.file.map { relative + "/" + $0 } ?? "" }
        }
        let manifest = AudioManifest(
            script: script, scriptPath: relativePath(from: dir, to: o.scriptPath), voice: o.voice, engine: engine,
            items: items, durations: durations, sizes: sizes)
        let manifestPath = (dir as NSString).appendingPathComponent(manifestName)
        try AtomicFile.write(try JSONOutput.string(manifest) + "\n", to: manifestPath)
        let text = Array(try script.json()) + Array("\n".utf8)
        let changed = InputFile.read(o.scriptPath).map { [UInt8]($0) } != text
        if changed { try AtomicFile.write(text, to: o.scriptPath) }
        let removed = try removeStale(in: dir, keeping: Set(first.keys))
        return Outcome(
            rendered: jobs.count, reused: first.count - jobs.count, live: manifest.live.count, removed: removed,
            directory: dir, manifestPath: manifestPath, bytes: manifest.totalBytes, seconds: manifest.totalSeconds,
            scriptChanged: changed)
    }

    /// Every text of the script, in message order (the text, then its variants).
    static func items(_ script: RaceScript, voice: String, engine: String) -> [Item] {
        var out: [Item] = []
        for (i, m) in script.messages.enumerated() {
            let texts = [(nil, m.text)] + (m.variants ?? []).enumerated().map { (Optional($0.offset), $0.element) }
            for (variant, text) in texts {
                let names = RaceScript.placeholderNames(in: text)
                let spoken = SpokenText.normalize(text)
                let file = names.isEmpty ? fileName(text: spoken, voice: voice, engine: engine) : nil
                out.append(
                    Item(message: i, variant: variant, text: text, spoken: spoken, placeholders: names, file: file))
            }
        }
        return out
    }

    /// The file of a spoken text: the first 16 hex digits of the SHA-256 of the
    /// text, voice, engine version, encoder settings and `SpokenText`'s rules
    /// (each length-prefixed, so no two different inputs run together), then `.opus`.
    public static func fileName(text: String, voice: String, engine: String) -> String {
        let parts = ["racekit-audio-1", engine, encoderSettings, "spoken-\(SpokenText.version)", voice, text]
        let material = parts.map { "\($0.utf8.count):\($0)" }.joined(separator: "\n")
        return String(ContentDigest.hex(of: material).prefix(16)) + ".opus"
    }

    /// True for names `script render` gives its files (16 lowercase hex digits + `.opus`).
    public static func isAudioFileName(_ name: String) -> Bool {
        guard name.hasSuffix(".opus") else { return false }
        let stem = name.dropLast(5)
        return stem.count == 16 && stem.allSatisfy { ("0"..."9").contains($0) || ("a"..."f").contains($0) }
    }

    /// Removes the folder's audio files no message refers to; other files are left alone.
    static func removeStale(in dir: String, keeping: Set<String>) throws -> Int {
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: dir) } catch {
            throw OutputError.cannotWrite(path: dir, reason: (error as NSError).localizedDescription)
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

    static func folder(of path: String) -> String {
        let dir = (path as NSString).deletingLastPathComponent
        return dir.isEmpty ? "." : dir
    }

    static func existsNonEmpty(_ path: String) -> Bool {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber).map { $0.intValue > 0 }
            ?? false   // try?: a file that cannot be examined is rendered again
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

/// One file to speak and encode.
struct RenderJob: Sendable {
    var file: String
    var item: ScriptAudio.Item
    var messageID: String
}

extension ScriptAudio.Item: Sendable {}
