import ArgumentParser
import Foundation
import RaceKitStore

extension RaceKitCommand {
    struct AthleteCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "athlete",
            abstract: "Manage athletes (the default athlete 'default' always exists).",
            subcommands: [Add.self, List.self]
        )

        struct Add: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Add an athlete.",
                discussion: "  racekit athlete add anna --name \"Anna K\" --time-zone Europe/Berlin")

            @OptionGroup var storeOptions: StoreOptions
            @Argument(help: "Athlete id: lower-case letters, digits and dashes.") var id: String
            @Option(help: "Display name (default: the id).") var name: String?
            @Option(help: "IANA time zone, e.g. Europe/Berlin.") var timeZone = "UTC"

            func validate() throws {
                guard !id.isEmpty, id.allSatisfy({ ($0.isLetter && $0.isLowercase) || $0.isNumber || $0 == "-" }), id.first != "-" else {
                    throw ValidationError("athlete id '\(id)' must be lower-case letters, digits and dashes")
                }
                guard TimeZone(identifier: timeZone) != nil else {
                    throw ValidationError("--time-zone: '\(timeZone)' is not an IANA time zone (e.g. Europe/Berlin)")
                }
            }

            func run() throws {
                let store = try storeOptions.open()
                do {
                    try store.addAthlete(Athlete(id: id, name: name ?? id, timeZone: timeZone,
                                                 createdAt: Date().timeIntervalSince1970))
                } catch StoreError.athleteExists(let id) {
                    Console.error("racekit: athlete '\(id)' already exists")
                    throw ExitCode(Exit.dataError)
                }
                Console.out("Added athlete \(id).")
            }
        }

        struct List: ParsableCommand {
            static let configuration = CommandConfiguration(abstract: "List athletes.")
            @OptionGroup var storeOptions: StoreOptions

            func run() throws {
                let store = try storeOptions.open()
                let athletes = try store.athletes()
                Console.out(Format.table(header: ["id", "name", "time zone"],
                                         rows: athletes.map { [$0.id, $0.name, $0.timeZone] }))
            }
        }
    }
}
