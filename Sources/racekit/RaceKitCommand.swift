import ArgumentParser
import CMalloc
import Foundation
import RaceKitFormats
import RaceKitModel
import RaceKitWorkflows

@main
struct RaceKitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "racekit",
        abstract: "Race-day planning and running analytics from your watch exports.",
        discussion: """
            Import \(ActivityReaders.standard.names()) files (plain or .gz), zip and tar archives of them, an Apple Health export (export.zip or export.xml) and Strava and Garmin Connect bulk exports into an embedded store; look at runs with moving time, splits, elevation, heart-rate zones, best efforts and training load; write weekly trend reports; plan races over their course with fueling cues; generate branched race scripts and replay runs through them. The store is .racekit/racekit.sqlite in the current folder unless --store (before or after the subcommand) or RACEKIT_STORE says otherwise; import and athlete add/set create it when missing, every other command exits 66 then and creates nothing.

              racekit import ~/Downloads/export/
              racekit runs list
              racekit runs show 01M7F0F1
              racekit report weekly --all-athletes
              racekit race plan Races/hilly-half.yaml --export band,tcx,gpx
              racekit race script Races/hilly-half.yaml
              racekit script simulate Races/hilly-half.script.json --run 01M7F0F1

            Exit codes: 0 success, 1 some inputs failed, 64 usage error, 65 bad input data (or a store written by a newer RaceKit), 66 input or store missing, 73/74 cannot create/write output (73: a read-only store), 75 busy.
            """,
        version: RaceKitVersion.current,
        subcommands: [
            ImportCommand.self, RunsCommand.self, AthleteCommand.self, WellnessCommand.self, ReportCommand.self,
            StoreCommand.self, PredictCommand.self,
            RaceCommand.self,
            ScriptCommand.self
        ]
    )

    /// `--store PATH` is global: given before the subcommand (`racekit --store s.sqlite runs list`) it is
    /// moved behind the subcommand path, where every store-using command declares it.
    static func main() {
        racekit_keep_freed_memory()
        Foundation.exit(execute(Array(CommandLine.arguments.dropFirst())))
    }

    /// Runs one command line, its output through `Console`; returns its exit
    /// status (the CLI tests run commands in their own process through this).
    static func execute(_ given: [String]) -> Int32 {
        var arguments = given
        var hoisted: [String] = []
        var i = 0
        while i < arguments.count, arguments[i].hasPrefix("-") {
            if arguments[i] == "--store", i + 1 < arguments.count {
                hoisted += [arguments[i], arguments[i + 1]]
                arguments.removeSubrange(i...(i + 1))
            } else if arguments[i].hasPrefix("--store=") {
                hoisted.append(arguments.remove(at: i))
            } else {
                i += 1
            }
        }
        if !hoisted.isEmpty {
            // Insert after the subcommand path (the leading non-option words).
            var end = 0
            while end < arguments.count, !arguments[end].hasPrefix("-") { end += 1 }
            end = min(end, subcommandDepth(arguments))
            arguments.insert(contentsOf: hoisted, at: end)
        }
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
            return Console.takeWriteFailure() ? ExitClass.ioError.rawValue : 0
        } catch let error where Exit.isArgumentParsers(error) {
            // ArgumentParser's own (help, a usage error, an exit status): its
            // message on stdout when the status is 0, else on stderr.
            let status = exitCode(for: error).rawValue, message = fullMessage(for: error)
            if !message.isEmpty { status == 0 ? Console.out(message) : Console.error(message) }
            return Console.takeWriteFailure() && status == 0 ? ExitClass.ioError.rawValue : status
        } catch {
            // Every other error, once: its message on stderr (each line prefixed)
            // and its sysexits class, never ArgumentParser's bare exit 1.
            for line in Exit.message(of: error).split(separator: "\n", omittingEmptySubsequences: false) {
                Console.error("racekit: \(line)")
            }
            return ExitClass(of: error).rawValue
        }
    }

    /// How many leading words name subcommands.
    static func subcommandDepth(_ arguments: [String]) -> Int {
        var command: ParsableCommand.Type = RaceKitCommand.self
        var depth = 0
        while depth < arguments.count,
            let sub = command.configuration.subcommands.first(where: { $0._commandName == arguments[depth] })
        {
            command = sub
            depth += 1
        }
        return depth
    }
}
