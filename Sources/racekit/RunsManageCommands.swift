import ArgumentParser
import Foundation
import RaceKitMetrics
import RaceKitModel
import RaceKitStore
import RaceKitWorkflows

#if canImport(Glibc)
import Glibc
#endif

extension RaceKitCommand.RunsCommand {
    struct Bests: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "bests",
            abstract: "Personal records: the fastest 400 m, 1 km, mile, 5k, 10k, half and marathon inside runs.",
            discussion: """
                  racekit runs bests              # one record per distance (athlete 'default')
                  racekit runs bests --distance 5k        # the 10 fastest 5 km efforts
                  racekit runs bests --athlete mia
                  racekit runs bests --power running      # the power-duration curve, 5 s to 2 h

                Running only: rides, drives and ski days (declared, inferred or set with 'runs edit --sport') never count.
                """
        )

        @OptionGroup var storeOptions: StoreOptions
        @Option(help: "The athlete whose records to show.") var athlete = "default"
        @Option(help: "One distance (400m, 800m, 1k, 1mi, 3k, 5k, 10k, 15k, 10mi, half, 30k, marathon, 50k).")
        var distance: String?
        @Option(help: "How many efforts with --distance (1-1000).") var limit = 10
        @Option(help: "running or cycling: the best power for 5 s to 2 h, with the critical power it gives.")
        var power: PowerSport?
        @Option(help: "km or mi for paces.") var unit: DistanceUnit = .km
        @Option(help: "table, csv or json.") var format: OutputFormat = .table

        func validate() throws {
            try ArgumentRanges.check(limit, in: ArgumentRanges.bestsLimit, option: "--limit")
            if power != nil, distance != nil { throw ValidationError("--power and --distance: give one of them") }
            if let distance, BestEfforts.standardDistance(distance) == nil {
                throw ValidationError(
                    "--distance: '\(distance)' is not one of \(BestEfforts.standardDistances.map(\.name).joined(separator: ", "))"
                )
            }
        }

        func run() throws {
            if let power {
                let c = try PowerCurveReport(try storeOptions.read(), athlete: athlete, sport: power.sport)
                return try emit(c.json, c.csv, c.text)
            }
            let records = try PersonalRecords(
                try storeOptions.read(), athlete: athlete, distance: distance.flatMap(BestEfforts.standardDistance),
                limit: limit)
            try emit(records.json, records.csv) { records.text(unit: unit) }
        }

        func emit(_ json: () throws -> String, _ csv: () -> String, _ text: () -> String) throws {
            switch format {
            case .json: Console.json(try json())
            case .csv: Console.csv(csv())
            case .table: Console.out(text())
            }
        }
    }

    struct Edit: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit",
            abstract: "Set a run's label, mode, type, perceived effort, notes or sport.",
            discussion: """
                An empty value clears a field. --sport corrects a sport the file declared or RaceKit inferred (a ride stored as a run, or a run taken for a ride); the run is analysed again and counts (or stops counting) in running records, predictions and reports.

                  racekit runs edit 01M7F0F1 --label "Race - Munich Half" --mode race --rpe 9
                  racekit runs edit 01M7F0F1 --sport cycling
                """
        )

        @OptionGroup var storeOptions: StoreOptions
        @Argument(help: "Run id (or a unique prefix).") var id: String
        @Option(help: "A label, e.g. \"Long run\".") var label: String?
        @Option(help: "free, training or race.") var mode: RunMode?
        @Option(name: .customLong("type"), help: "outdoor or treadmill.") var runType: RunType?
        @Option(help: "Perceived effort 1-10 (empty to clear).") var rpe: String?
        @Option(help: "Notes.") var notes: String?
        @Option(help: "The sport: \(Sport.allCases.map(\.rawValue).joined(separator: ", ")).") var sport: Sport?

        func validate() throws {
            if label == nil, mode == nil, runType == nil, rpe == nil, notes == nil, sport == nil {
                throw ValidationError("nothing to change: give --label, --mode, --type, --rpe, --notes or --sport")
            }
            if let rpe, !rpe.isEmpty, !(Int(rpe).map { (1...10).contains($0) } ?? false) {
                throw ValidationError("--rpe must be a whole number from 1 to 10")
            }
        }

        func run() throws {
            var e = RunEdit()
            if let label { e.label = .some(label.isEmpty ? nil : label) }
            if let notes { e.notes = .some(notes.isEmpty ? nil : notes) }
            if let rpe { e.perceivedEffort = .some(rpe.isEmpty ? nil : Int(rpe)) }
            e.mode = mode
            e.runType = runType
            e.sport = sport
            Console.out(try RunJobs.edit(try storeOptions.write(), id: id, e))
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete",
            abstract: "Delete a run with its samples.",
            discussion: "Asks first on a terminal; elsewhere (scripts) --yes is required.")

        @OptionGroup var storeOptions: StoreOptions
        @Argument(help: "Run id (or a unique prefix).") var id: String
        @Flag(help: "Do not ask.") var yes = false

        func run() throws {
            let store = try storeOptions.write()
            let r = try RunLookup.find(store, id)
            let what = RunJobs.describe(r)
            if !yes {
                guard Console.stdinIsTerminal else {
                    throw Failure(.usage, "not deleting \(r.id) without --yes (standard input is not a terminal)")
                }
                Console.prompt("Delete run \(what)? [y/N] ")
                guard let answer = readLine(), ["y", "yes"].contains(answer.lowercased().trimmingBlanks()) else {
                    Console.out("Kept \(r.id).")
                    return
                }
            }
            try store.delete(runID: r.id)
            Console.out("Deleted run \(what).")
            // Its efforts may have held up a critical power: the others' intensities follow.
            try PowerRefresh.run(store, athleteID: r.athleteID)
        }
    }

    struct Recompute: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "recompute",
            abstract: "Analyse stored runs again after an athlete's profile or the analysis changed.",
            discussion: """
                Runs analysed by an older version of RaceKit, or with other physiology than the \
                athlete's current one, are redone; --all redoes every run. --shard K/N splits the \
                athletes among N workers (by a hash of the id): together they recompute each once.
                """
        )

        @OptionGroup var storeOptions: StoreOptions
        @Option(help: "Only this athlete (default: all athletes).") var athlete: String?
        @Flag(help: "Redo every run, not only stale ones.") var all = false
        @Option(parsing: .unconditional, help: .shard("Only ")) var shard: Shard?
        @Option(help: "table or json.") var format: SummaryFormat = .table

        func validate() throws {
            if athlete != nil, shard != nil { throw ValidationError("give --athlete or --shard, not both") }
        }

        func run() throws {
            let total = try RunJobs.recompute(try storeOptions.write(), athlete: athlete, all: all, shard: shard)
            for f in total.failed { Console.error("failed: \(f)") }
            Console.out(format == .json ? try SummaryJSON.recompute(total) : total.summary)
            if !total.failed.isEmpty { throw Exit.code(.someFailed) }
        }
    }
}
