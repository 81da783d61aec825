import ArgumentParser
import Foundation
import RaceKitReports
import RaceKitStore
import RaceKitWorkflows

extension RaceKitCommand {
    struct ReportCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "report",
            abstract: "Write reports.",
            subcommands: [Weekly.self]
        )

        struct Weekly: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "weekly",
                abstract: "Weekly trend reports: a CSV row per week and a Markdown report with a chart.",
                discussion: """
                    For each athlete, writes OUT/ATHLETE/weekly.csv (one row per ISO week, in the \
                    athlete's time zone, empty weeks as zeros), and for the last week \
                    OUT/ATHLETE/YYYY-Www.md with its chart YYYY-Www.svg; --all-athletes also writes \
                    OUT/index.md. Running only. Reruns over the same data write identical bytes \
                    (unless --stamp); files are replaced atomically; a second run started while one \
                    is writing waits up to --wait seconds, then exits 75. With --shard K/N, N workers \
                    (shard 1 writing index.md) together write what one run writes, side by side.

                    Exit codes: 0 written, 64 usage, 65 a store from a newer RaceKit, 66 no store at \
                    the path (nothing written), 73 cannot create the folder, 74 cannot write, 75 \
                    another report run is busy. RACEKIT_NOW (ISO-8601) overrides "now" for tests.

                      racekit report weekly          # default athlete, 12 weeks to last week
                      racekit report weekly --all-athletes --quiet
                      racekit report weekly --all-athletes --shard 2/3 --quiet   # worker 2 of 3
                      racekit report weekly --athlete anna --week 2026-W46 --weeks 26 --format csv
                    """
            )

            enum Through: String, ExpressibleByArgument, CaseIterable {
                case lastComplete = "last-complete", current
            }

            /// The files a weekly report writes: the CSV table, the Markdown page.
            enum FileFormat: String, ExpressibleByArgument, CaseIterable { case csv, md }

            @OptionGroup var storeOptions: StoreOptions
            @Option(help: "The athlete (default: default).") var athlete: String?
            @Flag(help: "Every athlete with runs, plus a roster index.md.") var allAthletes = false
            @Option(help: "Weeks in the CSV and the trend (1 to 520).") var weeks = 12
            @Option(help: "The report's week, YYYY-Www.") var week: String?
            @Option(help: "last-complete or current (when --week is not given).") var through: Through = .lastComplete
            @Option(help: "Output folder.") var out = "Reports"
            @Option(help: "The files to write, comma-separated.") var format = CommaList<FileFormat>([.csv, .md])
            @Flag(help: "Print nothing on success.") var quiet = false
            @Flag(help: "Put the generation time in the Markdown (reruns then differ).") var stamp = false
            @Option(help: "Seconds to wait for another report run's lock (0 to 3600).") var wait = 10.0
            @Option(parsing: .unconditional, help: .shard("With --all-athletes, only ")) var shard: Shard?

            func validate() throws {
                if athlete != nil && allAthletes { throw ValidationError("give --athlete or --all-athletes, not both") }
                if let shard, !allAthletes { throw ValidationError("--shard \(shard) works with --all-athletes only") }
                try ArgumentRanges.check(weeks, in: ArgumentRanges.weeks, option: "--weeks")
                if let week, ISOWeek(week) == nil {
                    throw ValidationError("--week: '\(week)' is not an ISO week like 2026-W09")
                }
                try ArgumentRanges.check(wait, in: ArgumentRanges.lockWaitSeconds, option: "--wait", unit: "s")
            }

            func run() throws {
                let store = try storeOptions.read()
                var options = WeeklyReportJob.Options()
                options.athleteIDs = [athlete ?? Athlete.defaultID]
                options.allAthletes = allAthletes
                options.weeks = weeks
                options.through =
                    week.flatMap(ISOWeek.init).map { .week($0) } ?? (through == .current ? .current : .lastComplete)
                options.outputDirectory = out
                options.csv = format.contains(.csv)
                options.markdown = format.contains(.md)
                options.stamp = stamp
                options.lockWaitSeconds = wait
                options.now = try FormClock.checkedNow()
                options.shard = shard
                let job = WeeklyReportJob(store: store, options: options)
                let written = try job.run()
                guard !quiet else { return }
                for w in written { Console.out("wrote \(w.path)") }
                if written.isEmpty { Console.out(job.nothingWritten) }
            }
        }
    }
}
