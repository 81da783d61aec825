import ArgumentParser
import Foundation
import RaceKitAudio
import RaceKitWorkflows

extension RaceKitCommand.ScriptCommand {
    struct Render: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "render",
            abstract:
                "Render a script to audio a companion plays with no speech synthesizer (espeak-ng; Ogg Opus or M4A).",
            discussion: """
                Fixed fragments are spoken by espeak-ng once; run-time values ({split_time}, {gap}...) by joining \
                clips of a vocabulary rendered once per voice, every clip at -20 LUFS. The audio folder's \
                manifest.json lists each text's parts (docs/audio.md); unchanged clips are reused. Example:
                  racekit script render half.json --out audio/half --voice en-gb --codec m4a
                """
        )
        @OptionGroup var storeOptions: StoreOptions
        @Argument(help: "The script (JSON); rewritten with the audio paths.") var file: String
        @Option(help: ArgumentHelp("The audio folder (default: half-audio beside half.script.json).", valueName: "dir"))
        var out: String?
        @Option(help: "An espeak-ng voice: en-us, en-gb, ... (espeak-ng --voices), optionally +VARIANT.")
        var voice = "en-us"
        @Option(help: "opus (Ogg Opus, default) or m4a (AAC, through ffmpeg).") var codec: AudioFormat = .opus

        static let drawProgress: @Sendable (Int, Int) -> Void = { Console.progress("rendering \($0)/\($1)") }

        func run() throws {
            let outcome = try ScriptAudio.render(
                ScriptAudio.Options(
                    scriptPath: file, outputDirectory: out, voice: voice, format: codec,
                    progress: Console.stderrIsTerminal ? Self.drawProgress : nil))
            if Console.stderrIsTerminal { Console.clearProgress() }
            Console.out(outcome.summary)
        }
    }
}

extension AudioFormat: ExpressibleByArgument {}
