import ArgumentParser
import Foundation

extension RaceKitCommand {
    struct Store: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "store",
            abstract: "Look after the store file.",
            subcommands: [Check.self]
        )

        struct Check: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "check",
                abstract: "Check the store: SQLite's integrity check, and every run's samples whole.",
                discussion:
                    "Reads only (a read-only store can be checked). Exit 0 when sound, 65 when something is wrong (each problem on stderr) or the store is from a newer RaceKit, 66 when there is no store."
            )

            @OptionGroup var storeOptions: StoreOptions

            func run() throws {
                let store = try storeOptions.read()
                let (runs, problems) = try store.verify()
                for p in problems { Console.error("problem: \(p)") }
                guard problems.isEmpty else { throw Exit.code(.dataError) }
                Console.out("ok: \(runs) runs, integrity check passed, every run's samples whole.")
            }
        }
    }
}
