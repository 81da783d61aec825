import Foundation
import RaceKitCore
import RaceKitScript

/// `manifest.json` in a script's audio folder: every pre-rendered file with its
/// text and duration, and the texts that need live speech with their placeholders.
public struct AudioManifest: Encodable, Sendable {
    /// The script, relative to the manifest.
    public var script: String
    /// The espeak-ng voice.
    public var voice: String
    /// The engine's version line (`espeak-ng --version` without its data path).
    public var engine: String
    /// The encoder and its settings.
    public var encoder: String
    /// Bytes of all the files (each counted once).
    public var totalBytes: Int
    /// Seconds of speech in all the files (each counted once).
    public var totalSeconds: Double
    /// One entry per pre-rendered text, in message order; texts said by several
    /// messages share a file.
    public var files: [File]
    /// Texts with run-time placeholders: the app speaks them live.
    public var live: [Live]

    /// A pre-rendered text.
    public struct File: Encodable, Sendable {
        public var messageId: String
        /// Index into the message's `variants`; null for its main text.
        @Null public var variant: Int?
        public var text: String
        /// The audio file, relative to the manifest.
        public var file: String
        /// Seconds of speech (from the engine's WAV: data bytes / (rate × channels × bytes per sample)).
        public var durationSeconds: Double
        /// Size of the Ogg Opus file in bytes.
        public var bytes: Int
    }

    /// A text that needs live speech, and why.
    public struct Live: Encodable, Sendable {
        public var messageId: String
        /// Index into the message's `variants`; null for its main text.
        @Null public var variant: Int?
        /// The run-time placeholders in the text, in order.
        public var placeholders: [String]
    }

    init(
        script: RaceScript, scriptPath: String, voice: String, engine: String, items: [ScriptAudio.Item],
        durations: [String: Double], sizes: [String: Int]
    ) {
        self.script = scriptPath
        self.voice = voice
        self.engine = engine
        self.encoder = ScriptAudio.encoderSettings
        var files: [File] = []
        var live: [Live] = []
        for item in items {
            let id = script.messages[item.message].id
            if let f = item.file {
                files.append(
                    File(
                        messageId: id, variant: item.variant, text: item.text, file: f,
                        durationSeconds: TextFormat.rounded(durations[f] ?? 0, 3), bytes: sizes[f] ?? 0))
            } else {
                live.append(Live(messageId: id, variant: item.variant, placeholders: item.placeholders))
            }
        }
        self.files = files
        self.live = live
        let unique = Set(files.map(\.file))
        totalBytes = unique.reduce(0) { $0 + (sizes[$1] ?? 0) }
        // The sum of the durations as listed (rounded), so that a render reusing
        // them from this manifest writes the same total.
        totalSeconds = TextFormat.rounded(unique.reduce(0) { $0 + TextFormat.rounded(durations[$1] ?? 0, 3) }, 3)
    }

    /// The durations an earlier render recorded, by file name: a reused file keeps
    /// the duration measured from its WAV. Empty when there is no readable manifest
    /// (try?: the durations are then read from the Opus files, nothing is lost).
    static func previousDurations(in dir: String) -> [String: Double] {
        struct Previous: Decodable {
            struct File: Decodable {
                var file: String
                var durationSeconds: Double
            }
            var files: [File]
        }
        let path = (dir as NSString).appendingPathComponent(ScriptAudio.manifestName)
        guard let data = InputFile.read(path),
            let previous = try? JSONDecoder().decode(Previous.self, from: data)
        else { return [:] }
        return Dictionary(previous.files.map { ($0.file, $0.durationSeconds) }, uniquingKeysWith: { a, _ in a })
    }
}
