import ArgumentParser
import RaceKitModel
import RaceKitStore
import RaceKitWorkflows

extension RaceKitCommand {
    struct WellnessCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "wellness",
            abstract: "Sleep, HRV, resting heart rate and a readiness band: from Apple Health exports, or by hand.",
            subcommands: [List.self, Add.self])
        struct List: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "list",
                abstract: "One row a day: sleep, HRV, resting heart rate, ..., the readiness band.",
                discussion: "  racekit wellness list --since 2026-11-01 --format csv")

            @OptionGroup var storeOptions: StoreOptions
            @Option(help: "The athlete.") var athlete: String = Athlete.defaultID
            @Option(help: "Only days on or after this date (YYYY-MM-DD, the athlete's time zone).") var since: String?
            @Option(help: "Only days on or before this date (YYYY-MM-DD, the athlete's time zone).") var until: String?
            @Option(help: "table, csv or json.") var format: OutputFormat = .table

            func validate() throws { if let p = WellnessEntry.rangeProblem(since, until) { throw ValidationError(p) } }

            func run() throws {
                let rows = try WellnessJobs.rows(
                    try storeOptions.read(), athleteID: athlete, from: since.flatMap(LocalCalendar.day(parsing:)),
                    until: until.flatMap(LocalCalendar.day(parsing:)))
                switch format {
                case .table: Console.out(WellnessJobs.table(rows))
                case .csv: Console.csv(WellnessJobs.csv(rows))
                case .json: Console.json(try WellnessJobs.json(rows))
                }
            }
        }

        struct Add: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "add", abstract: "Enter a day by hand (a second entry for the day replaces the first).",
                discussion: "  racekit wellness add 2026-11-30 --hrv 62 --resting-hr 46 --sleep 7:40")

            @OptionGroup var storeOptions: StoreOptions
            @Argument(help: "The day (YYYY-MM-DD, the athlete's time zone).") var date: String
            @Option(help: "The athlete.") var athlete: String = Athlete.defaultID
            @Option(help: "The morning's HRV, RMSSD in ms (0.01 to 300).") var hrv: Double?
            @Option(help: "Resting heart rate (25 to 150 bpm).") var restingHr: Double?
            @Option(help: "The night before's sleep, H:MM (0:00 to 20:00).") var sleep: String?
            @Option(help: "Body mass (20 to 300 kg).") var bodyMass: Double?

            var entry: WellnessEntry {
                .init(date: date, hrvMs: hrv, restingHeartRate: restingHr, sleep: sleep, bodyMassKg: bodyMass)
            }
            func validate() throws { if let p = entry.problem { throw ValidationError(p) } }

            func run() throws {
                try WellnessJobs.add(
                    try storeOptions.write(), athleteID: athlete, entry, say: Console.out, note: Console.error)
            }
        }
    }
}
