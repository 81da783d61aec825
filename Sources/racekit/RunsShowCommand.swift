import ArgumentParser
import RaceKitModel
import RaceKitOutput
import RaceKitWorkflows

extension RaceKitCommand.RunsCommand {
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Show one run the way a coach reads it.",
            discussion: """
                Distance, elapsed and moving time, pace, elevation, heart rate, cadence and load; \
                splits per km (or mile with --unit mi) with pace, elevation, HR and cadence; time in \
                heart-rate zones; best efforts. The id may be shortened to a unique prefix.

                  racekit runs show 01M7F0F1
                  racekit runs show 01M7F0F1 --unit mi --format json
                """
        )

        @OptionGroup var storeOptions: StoreOptions
        @Argument(help: "Run id (or a unique prefix).") var id: String
        @Option(help: "km or mi (splits and human output).") var unit: DistanceUnit = .km
        @Option(help: "table, csv (splits) or json.") var format: OutputFormat = .table

        func run() throws {
            let store = try storeOptions.read()
            let detail = try RunDetail.load(store, id: id)
            let splits = detail.analysis.splits(unit)
            switch format {
            case .json:
                Console.json(try JSONOutput.string(try detail.json(splits: splits, unit: unit)))
            case .csv:
                Console.csv(SplitTable.csv(splits, unit: unit))
            case .table:
                Console.out(try detail.text(splits: splits, unit: unit))
            }
        }
    }

    struct Splits: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "splits",
            abstract: "Splits of one run per km or mile, timed at the exact boundary.",
            discussion: "  racekit runs splits 01M7F0F1 --unit mi --format csv")

        @OptionGroup var storeOptions: StoreOptions
        @Argument(help: "Run id (or a unique prefix).") var id: String
        @Option(help: "km or mi.") var unit: DistanceUnit = .km
        @Option(help: "table, csv or json.") var format: OutputFormat = .table

        func run() throws {
            let store = try storeOptions.read()
            let splits = try RunDetail.load(store, id: id).analysis.splits(unit)
            switch format {
            case .json: Console.json(try JSONOutput.string(splits.map(SplitTable.json)))
            case .csv: Console.csv(SplitTable.csv(splits, unit: unit))
            case .table:
                Console.out(
                    splits.isEmpty ? "No splits: this run has no distance." : SplitTable.text(splits, unit: unit))
            }
        }
    }
}
