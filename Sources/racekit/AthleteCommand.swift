import ArgumentParser
import Foundation
import RaceKitMetrics
import RaceKitStore
import RaceKitWorkflows

extension RaceKitCommand {
    struct AthleteCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "athlete",
            abstract: "Athletes and the physiology zones and load need (the athlete 'default' always exists).",
            subcommands: [Add.self, Set.self, Show.self, List.self]
        )
    }
}

/// The profile options `add` and `set` share.
struct ProfileOptions: ParsableArguments {
    @Option(help: "Display name.") var name: String?
    @Option(help: "Maximum heart rate (25 to 250 bpm).") var maxHr: Double?
    @Option(help: "Resting heart rate (25 to 250 bpm).") var restingHr: Double?
    @Option(help: "Lactate-threshold heart rate (25 to 250 bpm).") var thresholdHr: Double?
    @Option(help: "Threshold pace, e.g. 4:15/km or 6:50/mi (2:00/km to 20:00/km).") var thresholdPace: String?
    @Option(help: "female or male (for TRIMP).") var sex: Sex?
    @Option(help: "IANA time zone, e.g. Europe/Berlin.") var timeZone: String?
    @Option(help: "auto (Friel with a threshold HR, else %HRmax), hrmax5, friel or seiler3.") var zoneModel: ZoneModel?
    @Option(help: "Wellness sources to prefer, comma-separated (\"\": most records).") var sourceOrder: String?

    var change: ProfileChange {
        ProfileChange(
            name: name, maxHr: maxHr, restingHr: restingHr, thresholdHr: thresholdHr, thresholdPace: thresholdPace,
            sex: sex, timeZone: timeZone, zoneModel: zoneModel, sourceOrder: sourceOrder)
    }
    var isEmpty: Bool { change.isEmpty }
    func validate() throws { if let p = change.problem { throw ValidationError(p) } }
    func apply(to a: inout Athlete) { change.apply(to: &a) }
}

/// `athlete set`'s critical power (docs/numbers.md, "Critical power").
struct PowerOptions: ParsableArguments {
    @Option(help: "Critical power in watts (20 to 2000): replaces the fit; the runs' intensities follow at once.")
    var cp: Double?
    @Option(help: "W′ in kJ with --cp (0.5 to 100).") var wPrime: Double?
    @Option(help: "running or cycling: the sport --cp is for.") var cpSport: PowerSport = .running
    @Option(help: "The first day --cp is in force, YYYY-MM-DD (default: now).") var cpFrom: String?
    @Flag(help: "Forget the critical powers set for --cp-sport: the fits take over.") var clearCp = false

    var change: PowerChange {
        PowerChange(criticalPower: cp, wPrimeKJ: wPrime, sport: cpSport.sport, from: cpFrom, clear: clearCp)
    }
    func validate() throws { if let p = change.problem { throw ValidationError(p) } }
}

extension PowerSport: ExpressibleByArgument {}
extension Sex: ExpressibleByArgument {}
extension ZoneModel: ExpressibleByArgument {}

extension RaceKitCommand.AthleteCommand {
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add an athlete.",
            discussion:
                "  racekit athlete add anna --name \"Anna K\" --max-hr 188 --resting-hr 48 --sex female --time-zone Europe/Berlin"
        )

        @OptionGroup var storeOptions: StoreOptions
        @Argument(help: "Athlete id: lower-case letters, digits and dashes.") var id: String
        @OptionGroup var profile: ProfileOptions

        func validate() throws { if let why = AthleteJobs.idProblem(id) { throw ValidationError(why) } }

        func run() throws {
            let store = try storeOptions.create()
            var athlete = Athlete(id: id, name: id, createdAt: Date().timeIntervalSince1970)
            profile.apply(to: &athlete)
            try store.addAthlete(athlete)
            Console.out("Added athlete \(id).")
        }
    }

    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Change an athlete's profile; their runs' zones and load are recomputed.",
            discussion: """
                  racekit athlete set default --max-hr 192 --threshold-hr 172 --threshold-pace 4:20/km
                  racekit athlete set default --cp 285 --w-prime 14.5 --cp-from 2026-10-01
                """)

        @OptionGroup var storeOptions: StoreOptions
        @Argument(help: "Athlete id.") var id: String
        @OptionGroup var profile: ProfileOptions
        @OptionGroup(title: "Critical power") var power: PowerOptions
        @Flag(help: "Do not recompute the athlete's runs now (`racekit runs recompute` later).") var noRecompute = false

        func validate() throws {
            if profile.isEmpty && power.change.isEmpty {
                throw ValidationError("nothing to change: give at least one option (see --help)")
            }
        }

        func run() throws {
            let store = try storeOptions.create()
            if !profile.isEmpty {
                try AthleteJobs.update(
                    store, id: id, change: profile.apply, recompute: !noRecompute,
                    say: { Console.out($0) }, note: { Console.error($0) })
            }
            guard !power.change.isEmpty else { return }
            let now = Date().timeIntervalSince1970
            for line in try PowerJobs.apply(power.change, store: store, athleteID: id, now: now) { Console.out(line) }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Show an athlete's profile, with the estimates used where values are not set.")

        @OptionGroup var storeOptions: StoreOptions
        @Argument(help: "Athlete id.") var id: String = Athlete.defaultID
        @Option(help: "table or json.") var format: OutputFormat = .table

        func run() throws {
            let profile = try AthleteProfile(try storeOptions.read(), id: id)
            if format == .json { Console.json(try profile.json()) } else { Console.out(profile.text()) }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List athletes.")
        @OptionGroup var storeOptions: StoreOptions
        @Option(help: "table or json.") var format: SummaryFormat = .table

        func run() throws {
            let store = try storeOptions.read()
            Console.out(format == .json ? try SummaryJSON.athletes(store) : try AthleteJobs.roster(store))
        }
    }
}
