import ArgumentParser
import RaceKitModel
import RaceKitScriptWriter
import RaceKitWorkflows

extension RaceKitCommand.RaceCommand {
    struct Script: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "script",
            abstract: "Generate the branched race script of a race setup (JSON for a companion app).",
            discussion: """
                The personality comes from --personality, --personality-file, the setup's script.personality \
                (or script.personality_file), else calm_coach. The script is written beside the race file, \
                named after it (Races/hilly-half.yaml: Races/hilly-half.script.json), unless the setup's \
                script.output, --out DIR (a folder, created when missing) or --output FILE says otherwise; an \
                unchanged script (same input digest) is left alone \
                unless --force.

                  racekit race script Races/berlin-marathon-2026.yaml --personality calm_coach
                  racekit race script Races/hilly-half.yaml --personality-file my-voice.yaml
                """
        )
        @OptionGroup var storeOptions: StoreOptions
        @Argument(help: "The race setup (YAML).") var file: String
        @Option(help: "A shipped personality (or --personality-file).")
        var personality: ShippedPersonality?
        @Option(help: ArgumentHelp("A personality YAML of your own.", valueName: "file")) var personalityFile: String?
        @Option(help: ArgumentHelp("Folder for the script (created when missing).", valueName: "dir")) var out: String?
        @Option(help: ArgumentHelp("The script file (instead of --out).", valueName: "file")) var output: String?
        @Option(help: "Pace feedback every km or mi.") var unit: DistanceUnit = .km
        @Flag(help: "Write even when the script is up to date.") var force = false

        func validate() throws {
            if out != nil, output != nil { throw ValidationError("give --out DIR or --output FILE, not both") }
        }

        func run() throws {
            let options = RaceScriptJob.Options(
                personality: personality, personalityFile: personalityFile, output: output, outputDirectory: out,
                force: force)
            Console.out(
                try RaceScriptWorkflow.run(
                    setupFile: file, unitMeters: unit.meters, options: options, openStore: storeOptions.readIfExists,
                    storePath: storeOptions.name, note: { Console.error($0) }))
        }
    }
}

extension RaceKitCommand {
    struct ScriptCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "script",
            abstract: "Race scripts: validate, show, simulate against a stored run or the plan, and render to audio.",
            discussion: """
                  racekit script validate Races/berlin-marathon-2026.script.json
                  racekit script show Races/berlin-marathon-2026.script.json --format md
                  racekit script simulate Races/berlin-marathon-2026.script.json --run 01KKB8Q7
                  racekit script simulate Races/berlin.script.json --race Races/berlin.yaml
                  racekit script render Races/berlin-marathon-2026.script.json
                """,
            subcommands: [Validate.self, Show.self, Simulate.self, Render.self]
        )
    }
}

extension RaceKitCommand.ScriptCommand {
    struct Validate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "validate",
            abstract: "Check a script: structure, triggers, expressions, branches, placeholders.")
        @OptionGroup var storeOptions: StoreOptions
        @Argument(help: "The script (JSON).") var file: String
        @Option(help: "table or json.") var format: SummaryFormat = .table
        func run() throws {
            let s = try ScriptLoading.load(file)
            if format == .json { return Console.json(try SummaryJSON.validated(s, file: file)) }
            Console.out(
                "\(file): valid: \(s.messages.count) messages, \(s.branches.count) branches, personality \(s.personality), generator \(s.generator)"
            )
        }
    }

    enum ShowFormat: String, ExpressibleByArgument, CaseIterable { case table, md }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "Print a script for a coach, grouped by distance.")
        @OptionGroup var storeOptions: StoreOptions
        @Argument(help: "The script (JSON).") var file: String
        @Option(help: "table or md.") var format: ShowFormat = .table
        func run() throws {
            Console.out(ScriptListing.text(try ScriptLoading.load(file), markdown: format == .md))
        }
    }

    struct Simulate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "simulate",
            abstract: "Replay a stored run (or a run exactly on plan) through the script at 1 Hz.",
            discussion: """
                Prints every message that would have played and, for each that never did, why: window, \
                lower_priority, cooldown, branch_not_taken, never_triggered or stale. --audio FILE writes the race \
                as heard (every line said by the rendered clips, 1.5 s apart) and FILE's stem + .cues.txt.
                """
        )
        @OptionGroup var storeOptions: StoreOptions
        @Argument(help: "The script (JSON).") var file: String
        @Option(name: .customLong("run"), help: "A stored run (id or unique prefix).") var runID: String?
        @Option(
            help: ArgumentHelp(
                "Simulate a run that follows the plan exactly (the race setup the script was made from).",
                valueName: "file")) var race: String?
        @Option(help: "table, md or json.") var format: ShowFormatWithJSON = .table
        @Flag(help: "With --race: simulate even when the script was made from another version of the setup.")
        var allowStale = false
        @Option(help: ArgumentHelp("Write the race as heard: .opus, .ogg, .m4a or .wav.", valueName: "file"))
        var audio: String?
        @Flag(help: "With --audio: each line at its time in the race, the silences kept.") var realTime = false
        @Option(help: "With --audio: the espeak-ng voice of the clips (as script render).") var voice = "en-us"

        enum ShowFormatWithJSON: String, ExpressibleByArgument, CaseIterable { case table, md, json }

        func validate() throws {
            guard (runID == nil) != (race == nil) else { throw ValidationError("give --run ID or --race FILE") }
            if audio == nil, realTime { throw ValidationError("--real-time goes with --audio") }
        }

        func run() throws {
            if let audio { try ScriptSimulation.checkAudio(scriptPath: file, to: audio, voice: voice) }
            let simulation = try ScriptSimulation(
                file: file, source: runID.map { .run($0) } ?? .race(race!, allowStale: allowStale),
                openStore: storeOptions.read, note: { Console.error($0) })
            switch format {
            case .json: Console.json(try simulation.json())
            case .md: Console.out(simulation.markdown())
            case .table: Console.out(simulation.text())
            }
            guard let audio else { return }
            let heard = try simulation.writeAudio(
                scriptPath: file, to: audio, voice: voice, realTime: realTime,
                progress: Console.stderrIsTerminal ? RaceKitCommand.ScriptCommand.Render.drawProgress : nil)
            if Console.stderrIsTerminal { Console.clearProgress() }
            Console.error(heard.summary)
        }
    }
}
