import ArgumentParser
import RaceKitModel
import RaceKitStore
import RaceKitWorkflows

extension RaceKitCommand.RunsCommand {
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List stored runs (oldest first unless sorted otherwise).",
            discussion: """
                  racekit runs list
                  racekit runs list --since 2026-01-01 --sport running --format csv > runs.csv
                  racekit runs list --sort distance --limit 10     # the ten longest
                """
        )

        enum SortKey: String, ExpressibleByArgument, CaseIterable { case date, distance, time, pace, load }

        @OptionGroup var storeOptions: StoreOptions
        @Option(help: "Only this athlete's runs.") var athlete: String?
        @Option(help: "Only this sport: \(Sport.allCases.map(\.rawValue).joined(separator: ", ")).") var sport: Sport?
        @Option(help: "Only runs starting on or after this date (YYYY-MM-DD, UTC).") var since: String?
        @Option(help: "Only runs starting on or before this date (YYYY-MM-DD, UTC).") var until: String?
        @Option(help: "date (oldest first), distance, time, load (largest first) or pace (fastest first).")
        var sort: SortKey = .date
        @Flag(help: "Reverse the order (distance: shortest first).") var reverse = false
        @Option(help: "At most this many runs, 1-100000 (after sorting; date order: the newest).") var limit: Int?
        @Option(help: "km or mi for the table.") var unit: DistanceUnit = .km
        @Option(help: "table, csv or json.") var format: OutputFormat = .table

        func validate() throws {
            if let since, Self.day(since) == nil {
                throw ValidationError("--since: '\(since)' is not a date (YYYY-MM-DD)")
            }
            if let until, Self.day(until) == nil {
                throw ValidationError("--until: '\(until)' is not a date (YYYY-MM-DD)")
            }
            if let limit { try ArgumentRanges.check(limit, in: ArgumentRanges.listLimit, option: "--limit") }
        }

        static func day(_ text: String) -> Double? {
            TimestampParser.parse(text + "T00:00:00Z")?.secondsSinceEpoch
        }

        func run() throws {
            let options = RunList.Options(
                athleteID: athlete, sport: sport, since: since.flatMap(Self.day),
                until: until.flatMap(Self.day).map { $0 + 86_399.999 }, order: sort.order, reversed: reverse,
                limit: limit)
            let list = try RunList(try storeOptions.read(), options)
            switch format {
            case .json: Console.out(bytes: try list.json())
            case .csv: Console.csv(list.csv())
            case .table: Console.out(list.text(unit: unit))
            }
        }
    }
}

extension RaceKitCommand.RunsCommand.List.SortKey {
    /// The store's order for the key.
    var order: RunOrder {
        switch self {
        case .date: .startedAt
        case .distance: .distance
        case .time: .elapsedTime
        case .pace: .pace
        case .load: .load
        }
    }
}
