import Foundation
import RaceKitOutput
import RaceKitScript
import RaceKitScriptWriter

/// `manifest.json` in a script's audio folder (docs/audio.md,
/// docs/contracts/schemas/audio-manifest.schema.json): for every message text
/// and variant, the ordered parts a companion plays; the vocabulary of clips
/// the slots are said with; every file with what it says, its duration, size
/// and loudness.
public struct AudioManifest: Encodable, Sendable {
    /// The manifest's format: 2 (parts and vocabulary; 1 listed texts left for live speech).
    public var version = 2
    /// The script, relative to the manifest.
    public var script: String
    /// The espeak-ng voice.
    public var voice: String
    /// The engine's version line (`espeak-ng --version` without its data path).
    public var engine: String
    /// `opus` or `m4a`.
    public var format: String
    /// The encoder and its settings.
    public var encoder: String
    /// The unit paces are said in: `kilometre` or `mile`.
    public var unit: String
    /// The loudness every clip was brought to, and the peak ceiling.
    public var loudness: Loudness
    /// Bytes of all the files.
    public var totalBytes: Int
    /// Seconds of audio in all the files.
    public var totalSeconds: Double
    /// Every text of the script, in message order (text, then variants).
    public var messages: [Message]
    /// Each word slots are said with, and its file.
    public var vocabulary: [String: String]
    /// Every file, by name.
    public var files: [File]

    public struct Loudness: Encodable, Sendable {
        public var targetLUFS: Double
        public var ceilingDBFS: Double
    }

    /// One text and its parts.
    public struct Message: Encodable, Sendable {
        public var messageId: String
        /// Index into the message's `variants`; null for its main text.
        @Null public var variant: Int?
        public var text: String
        public var parts: [Part]

        /// The one file of a text that is a single fixed part.
        var singleFile: String? {
            parts.count == 1 ? parts[0].file : nil
        }
    }

    /// A part: a fixed fragment (`text`, and `file` to play, or `clips` of
    /// the vocabulary for a pause, or neither for spaces), or a slot (`slot`,
    /// the run-time value, and `speak`, how it is said).
    public struct Part: Encodable, Sendable {
        public var text: String?
        public var file: String?
        public var clips: [String]?
        public var slot: String?
        public var speak: String?
    }

    /// A file: what the engine read, how long it plays, its size and loudness.
    public struct File: Encodable, Sendable {
        public var file: String
        /// What the engine read (empty for the pause, which is silence).
        public var spoken: String
        /// Seconds of audio, the silences around the speech included.
        public var durationSeconds: Double
        public var bytes: Int
        /// SHA-256 of the file (hex): a clip is reused only when its bytes are the
        /// ones this manifest names (another clip of the same size is rendered again).
        public var sha256: String
        /// Integrated loudness of the speech (ITU-R BS.1770), before encoding; null for silence.
        @Null public var loudnessLUFS: Double?
    }

    init(
        script: RaceScript, scriptPath: String, voice: String, engine: String, format: AudioFormat,
        texts: [ScriptAudio.Text], key: ScriptAudio.FileKey, files: [File]
    ) {
        self.script = scriptPath
        self.voice = voice
        self.engine = engine
        self.format = format.rawValue
        self.encoder = key.encoder
        self.unit = script.plan.unit == 1000 ? "kilometre" : "mile"
        loudness = Loudness(targetLUFS: PCMAudio.targetLUFS, ceilingDBFS: PCMAudio.ceilingDBFS)
        messages = texts.map { t in
            Message(
                messageId: t.messageID, variant: t.variant, text: t.text,
                parts: t.parts.map { part in
                    switch part {
                    case .slot(let name, let kind): return Part(slot: name, speak: kind.rawValue)
                    case .fixed(let f) where f.spoken.isEmpty:
                        return Part(text: f.text, clips: f.isPause ? [SpokenWords.pause] : nil)
                    case .fixed(let f):
                        let clip = ScriptAudio.Clip(
                            spoken: f.spoken, lead: f.leadMilliseconds, trail: f.trailMilliseconds)
                        return Part(text: f.text, file: key.fileName(clip))
                    }
                })
        }
        vocabulary = Dictionary(
            uniqueKeysWithValues: ScriptAudio.vocabularyClips(unitMeters: script.plan.unit).map {
                ($0.word!, key.fileName($0))
            })
        self.files = files
        totalBytes = files.reduce(0) { $0 + $1.bytes }
        // The sum of the durations as listed (rounded), so that a render reusing
        // them from this manifest writes the same total.
        totalSeconds = TextFormat.rounded(files.reduce(0) { $0 + $1.durationSeconds }, 3)
    }

    /// What an earlier render measured, by file name: a reused file keeps the
    /// duration and loudness measured when it was made; its bytes must be the
    /// ones named (size and SHA-256). Empty when there is no readable manifest
    /// (try?, a manifest of an older RaceKit without digests included): every
    /// clip is then rendered again, so none is reused unmeasured (a killed
    /// render's clips came back with their loudness null).
    static func previousFiles(in dir: String) -> [String: (clip: RenderedClip, bytes: Int, sha256: String)] {
        struct Previous: Decodable {
            struct File: Decodable {
                var file: String
                var durationSeconds: Double
                var bytes: Int
                var sha256: String
                var loudnessLUFS: Double?
            }
            var files: [File]
        }
        let path = (dir as NSString).appendingPathComponent(ScriptAudio.manifestName)
        guard let data = InputFile.readRegular(path),
            let previous = try? JSONDecoder().decode(Previous.self, from: data)
        else { return [:] }
        return Dictionary(
            previous.files.filter { $0.durationSeconds.isFinite && $0.durationSeconds >= 0 }.map {
                ($0.file, (RenderedClip(seconds: $0.durationSeconds, loudness: $0.loudnessLUFS), $0.bytes, $0.sha256))
            },
            uniquingKeysWith: { a, _ in a })
    }
}
