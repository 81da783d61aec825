import ArgumentParser
import RaceKitWorkflows

extension RaceKitCommand {
    struct StoreCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "store",
            abstract: "Look after the store: check it, copy it into another.",
            subcommands: [Check.self, Copy.self]
        )

        struct Check: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "check",
                abstract: "Check the store: SQLite's integrity check, and every run's samples whole.",
                discussion:
                    "Reads only (a read-only store can be checked). Prints the store's content digest (`digest: sha256:HEX (N athletes, M runs, K race links)`), the same for the same data in any backend. Exit 0 when sound, 65 when something is wrong (each problem on stderr) or the store is from a newer RaceKit, 66 when there is no store."
            )

            @OptionGroup var storeOptions: StoreOptions
            @Option(help: "table or json (exit 65 all the same when unsound).") var format: SummaryFormat = .table

            func run() throws {
                let report = try StoreCheck.report(try storeOptions.read(), json: format == .json)
                for line in report.errors { Console.error(line) }
                Console.out(report.out)
                if !report.sound { throw Exit.code(.dataError) }
            }
        }

        struct Copy: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "copy",
                abstract: "Copy a store into a new or empty one (SQLite file or postgresql:// URL), losslessly.",
                discussion:
                    "Copies every athlete, run (samples byte for byte, every field), race link and id in one transaction, then prints both content digests, which must match (exit 70 if not). DESTINATION is created when missing; one holding runs, race links, wellness data or athletes besides 'default' is refused (exit 73). --store does not apply (it is taken, as by every command). Example: racekit store copy .racekit/racekit.sqlite postgresql://coach@db/club"
            )
            @OptionGroup var storeOptions: StoreOptions
            @Argument(help: "The store to copy: a SQLite file or a postgresql:// URL.") var source: String
            @Argument(help: "The new or empty store to copy into.") var destination: String

            func run() throws {
                let result = try StoreCopy.run(source: source, destination: destination)
                if result.created { StoreOptions.announceCreated(result.destination) }
                for line in result.lines { Console.out(line) }
            }
        }
    }
}
