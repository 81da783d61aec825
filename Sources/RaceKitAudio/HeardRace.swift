import Foundation
import RaceKitModel
import RaceKitOutput
import RaceKitPlan
import RaceKitScript
import RaceKitScriptWriter

/// "The race as heard": every line a simulation played, in order, said by the
/// rendered clips with its values as they were at that moment, joined into one
/// Ogg Opus stream at the packet level (nothing decoded or encoded again), the
/// silences between lines shortened (or kept, `realTime`), and a cue per line.
public enum HeardRace {
    /// One line in the audio.
    public struct Cue: Sendable, Equatable {
        /// Where the line starts in the audio, seconds.
        public var audioSeconds: Double
        /// Its length in the audio, seconds.
        public var durationSeconds: Double
        public var elapsedSeconds: Int
        public var distanceMeters: Double
        public var messageId: String
        public var variant: Int?
        public var text: String
    }

    /// The joined stream and its cues.
    public struct Audio: Sendable {
        /// An Ogg Opus file.
        public var bytes: [UInt8]
        public var cues: [Cue]
        /// Length of the audio, seconds.
        public var seconds: Double
    }

    /// Silence before the first line, seconds.
    public static let leadIn = 0.5

    /// Joins the clips of `render`'s folder for every line of `played`.
    /// `gapSeconds`: the silence between lines; `realTime`: each line starts at
    /// its time in the race instead (or right after the line before, when that
    /// one is still speaking). A line's slot values come from the play.
    public static func build(
        played: [PlayedMessage], render: ScriptAudio.Outcome, gapSeconds: Double = 1.5, realTime: Bool = false
    ) throws -> Audio {
        let manifest = render.manifest
        var streams: [String: OggOpus.Stream] = [:]
        func stream(_ file: String) throws -> OggOpus.Stream {
            if let s = streams[file] { return s }
            let path = (render.directory as NSString).appendingPathComponent(file)
            guard let data = InputFile.read(path) else {
                throw Failure(.noInput, "\(path): cannot be read; run racekit script render again")
            }
            do {
                let s = try OggOpus.read([UInt8](data))
                streams[file] = s
                return s
            } catch OggOpus.ReadError.notOggOpus(let why) {
                throw Failure(.dataError, "\(path): not an Ogg Opus file (\(why)); run racekit script render again")
            }
        }
        guard manifest.format == AudioFormat.opus.rawValue, let pauseFile = manifest.vocabulary[SpokenWords.pause]
        else { throw Failure(.usage, "the race as heard is joined from Ogg Opus clips") }
        let pause = try stream(pauseFile)
        guard let silent = pause.packets.dropFirst(pause.packets.count / 2).first else {
            throw Failure(.dataError, "\(pauseFile): the pause clip holds no audio; run racekit script render again")
        }
        let silentSamples = max(1, OggOpus.samples(of: silent))
        var packets: [[UInt8]] = []
        var samples = 0
        func silence(_ seconds: Double) {
            let count = Int((seconds * 48_000 / Double(silentSamples)).rounded())
            for _ in 0..<max(0, count) { packets.append(silent) }
            samples += max(0, count) * silentSamples
        }
        let texts = Dictionary(
            manifest.messages.map { ("\($0.messageId)#\($0.variant ?? -1)", $0) }, uniquingKeysWith: { a, _ in a })
        let unit = manifest.unit == "kilometre" ? 1000 : Units.metersPerMile
        var cues: [Cue] = []
        silence(leadIn)
        for p in played {
            let now = Double(samples) / 48_000
            if realTime {
                silence(max(cues.isEmpty ? 0 : gapSeconds / 3, Double(p.elapsedSeconds) + leadIn - now))
            } else if !cues.isEmpty {
                silence(gapSeconds)
            }
            let start = samples
            guard let text = texts["\(p.messageId)#\(p.variant ?? -1)"] else {
                throw Failure(
                    .dataError,
                    "\(render.manifestPath) has no text for message \(p.messageId); run racekit script render again")
            }
            for file in try files(of: text, values: p.values, vocabulary: manifest.vocabulary, unitMeters: unit) {
                let s = try stream(file)
                guard s.head.count >= 10, s.head[9] == pause.head[9] else {
                    throw Failure(.dataError, "\(file): not a mono clip like the rest; run racekit script render again")
                }
                packets += s.packets
                samples += s.samples
            }
            cues.append(
                Cue(
                    audioSeconds: Double(start) / 48_000, durationSeconds: Double(samples - start) / 48_000,
                    elapsedSeconds: p.elapsedSeconds, distanceMeters: p.distanceMeters, messageId: p.messageId,
                    variant: p.variant, text: p.text))
        }
        silence(leadIn)
        let bytes = OggOpus.write(head: pause.head, packets: packets, vendor: "racekit", serial: 1)
        return Audio(bytes: bytes, cues: cues, seconds: Double(samples) / 48_000)
    }

    /// The files a text's parts play for these slot values, in order.
    public static func files(
        of text: AudioManifest.Message, values: [String: String], vocabulary: [String: String], unitMeters: Double
    ) throws -> [String] {
        var out: [String] = []
        for part in text.parts {
            if let file = part.file { out.append(file) }
            var words = part.clips ?? []
            if let slot = part.slot, let kind = SpokenWords.Kind(rawValue: part.speak ?? "") {
                words = SpokenWords.words(kind, values[slot] ?? "unknown", unitMeters: unitMeters) ?? ["unknown"]
            }
            for word in words {
                guard let file = vocabulary[word] else {
                    throw Failure(
                        .dataError, "the audio vocabulary has no clip for \"\(word)\"; run racekit script render again")
                }
                out.append(file)
            }
        }
        return out
    }
}
