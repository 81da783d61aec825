import ArgumentParser
import Foundation
import RaceKitCore
import RaceKitRace

extension RaceKitCommand.ScriptGroup {
    struct Render: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "render",
            abstract: "Pre-render a script's spoken messages to audio files (espeak-ng, Ogg Opus).",
            discussion: """
                Every message text without run-time placeholders is spoken by espeak-ng and compressed to Ogg Opus \
                (24 kbit/s) in the audio folder (default: half-audio beside half.script.json); its path, relative to the \
                script, is written into the script as prerenderedAudioPath (variantAudioPaths for variants), and \
                manifest.json lists every file with its text and duration, and the texts left for live speech. \
                Files are named by a hash of text, voice, engine version and encoder settings: an unchanged text \
                is reused, not spoken again; audio files no message refers to any more are removed.

                  racekit script render Races/berlin-marathon-2026.script.json
                  racekit script render half.json --out audio/half --voice en-gb
                """
        )
        @OptionGroup var storeOptions: StoreOptions
        @Argument(help: "The script (JSON); rewritten with the audio paths.") var file: String
        @Option(
            help: ArgumentHelp(
                "The audio folder (default: beside the script, half.script.json: half-audio).", valueName: "dir"))
        var out: String?
        @Option(help: "An espeak-ng voice: en-us, en-gb, ... (espeak-ng --voices), optionally +VARIANT.")
        var voice = "en-us"

        @Sendable static func drawProgress(_ done: Int, _ total: Int) {
            Console.progress("rendering \(done)/\(total)")
        }

        func run() throws {
            let terminal = Console.stderrIsTerminal
            let progress: (@Sendable (Int, Int) -> Void)? = terminal ? Self.drawProgress : nil
            let options = ScriptAudio.Options(scriptPath: file, outputDirectory: out, voice: voice, progress: progress)
            let outcome = try ScriptAudio.render(options)
            if terminal { Console.clearProgress() }
            let megabytes = TextFormat.fixed(Double(outcome.bytes) / 1_048_576, 2)
            Console.out(
                "rendered \(outcome.rendered), reused \(outcome.reused), live \(outcome.live) → \(outcome.directory) (\(megabytes) MB, \(TextFormat.fixed(outcome.seconds, 1)) s of speech)"
            )
        }
    }
}
