import ArgumentParser
import Foundation
import RaceKitCore
import RaceKitStore

extension RaceKitCommand.Runs {
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List stored runs (oldest first unless sorted otherwise).",
            discussion: """
                  racekit runs list
                  racekit runs list --since 2026-01-01 --sport running --format csv > runs.csv
                  racekit runs list --sort distance --reverse --limit 10
                """
        )

        enum SortKey: String, ExpressibleByArgument, CaseIterable { case date, distance, time, pace, load }

        @OptionGroup var storeOptions: StoreOptions
        @Option(help: "Only this athlete's runs.") var athlete: String?
        @Option(help: "Only this sport: \(Sport.allCases.map(\.rawValue).joined(separator: ", ")).") var sport: Sport?
        @Option(help: "Only runs starting on or after this date (YYYY-MM-DD, UTC).") var since: String?
        @Option(help: "Only runs starting on or before this date (YYYY-MM-DD, UTC).") var until: String?
        @Option(help: "Sort by date, distance, time (elapsed), pace or load.") var sort: SortKey = .date
        @Flag(help: "Reverse the order.") var reverse = false
        @Option(help: "At most this many runs (after sorting; with date order, the newest; 1 to 100000).") var limit:
            Int?
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

        /// Counts and distances per sport, runs first: "8 runs 120.3 km, 3 rides
        /// 95.1 km, 1 swim 2.0 km" (a ride's kilometres are not a runner's).
        static func totals(_ runs: [RunRecord], unit: DistanceUnit) -> String {
            Sport.allCases.compactMap { sport -> String? in
                let these = runs.filter { $0.sport == sport }
                guard !these.isEmpty else { return nil }
                let meters = these.compactMap(\.distanceMeters).reduce(0, +)
                return
                    "\(SportDisplay(sport).count(these.count)) \(Format.distance(meters, unit, digits: 1)) \(unit.rawValue)"
            }.joined(separator: ", ")
        }

        static func day(_ text: String) -> Double? {
            TimestampParser.parse(text + "T00:00:00Z")?.secondsSinceEpoch
        }

        func run() throws {
            let store = try storeOptions.read()
            var filter = RunFilter()
            filter.athleteID = athlete
            filter.sport = sport
            filter.since = since.flatMap(Self.day)
            filter.until = until.flatMap(Self.day).map { $0 + 86_399.999 }
            var runs = try store.runs(matching: filter)
            switch sort {
            case .date: break
            case .distance: runs.sort { ($0.distanceMeters ?? -1) > ($1.distanceMeters ?? -1) }
            case .time: runs.sort { $0.elapsedSeconds > $1.elapsedSeconds }
            case .pace:
                runs.sort {
                    (RunView($0).avgPaceSecondsPerKm ?? .infinity) < (RunView($1).avgPaceSecondsPerKm ?? .infinity)
                }
            case .load: runs.sort { ($0.load ?? -1) > ($1.load ?? -1) }
            }
            if reverse { runs.reverse() }
            if let limit { runs = sort == .date && !reverse ? Array(runs.suffix(limit)) : Array(runs.prefix(limit)) }
            let views = runs.map(RunView.init)
            switch format {
            case .json:
                Console.out(bytes: try JSONOutput.line(views.map(\.json)))
            case .csv:
                Console.csv(CSV.document(header: RunView.csvHeader, rows: views.map(\.csvCells)))
            case .table:
                if views.isEmpty { Console.out("No runs match. Import some with: racekit import PATH"); return }
                Console.out(
                    Format.table(
                        header: [
                            "id", "start (UTC)", "sport", unit.rawValue, "time", "moving", "pace or speed",
                            "elev+", "avg HR", "load", "name / source"
                        ],
                        rows: views.map { v in
                            let r = v.record
                            return [
                                r.id, String(v.startedAt.prefix(16)).replacingOccurrences(of: "T", with: " "),
                                r.sport.rawValue,
                                Format.distance(r.distanceMeters, unit), Format.duration(r.elapsedSeconds),
                                Format.duration(r.movingSeconds),
                                SportDisplay(r.sport).speedText(
                                    meters: r.distanceMeters, seconds: r.movingSeconds ?? r.elapsedSeconds,
                                    unitMeters: unit.meters, unitName: unit.rawValue),
                                Format.number(r.ascentMeters, digits: 0), Format.number(r.avgHeartRate, digits: 0),
                                Format.number(r.load, digits: 0), r.label ?? r.name ?? r.sourceFile
                            ]
                        }, rightAligned: [3, 4, 5, 6, 7, 8, 9]))
                Console.out(Self.totals(views.map(\.record), unit: unit))
            }
        }
    }
}
