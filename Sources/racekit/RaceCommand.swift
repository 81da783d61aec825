import ArgumentParser
import RaceKitModel
import RaceKitPlan
import RaceKitStore
import RaceKitWorkflows

extension RaceKitCommand {
    struct RaceCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "race",
            abstract:
                "Race setups: write one, plan it over its course, export a pace band and a course, review the race.",
            discussion: """
                  racekit race new "Berlin Marathon 2026" --distance marathon --target 3:15:00
                  racekit race plan Races/berlin-marathon-2026.yaml --unit km
                  racekit race plan Races/hilly-half.yaml --export band,tcx,gpx --out plans/
                  racekit race review Races/berlin-marathon-2026.yaml --out Reports/reviews
                """,
            subcommands: [New.self, Plan.self, Script.self, Review.self]
        )
    }
}

extension RaceKitCommand.RaceCommand {
    enum PlanFormat: String, ExpressibleByArgument, CaseIterable { case table, md, csv, json }
    enum CSVTable: String, ExpressibleByArgument, CaseIterable { case splits, cues }

    struct Plan: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "plan",
            abstract:
                "Print a race's pace plan, fueling and hydration cues and warnings; export a pace band, TCX or GPX.",
            discussion: """
                Splits every km or mile (--unit) or at the setup's checkpoints, with split time, pace, the clock \
                time to see on the watch and, over a course, elevation and grade. Cumulative times are whole \
                seconds and the last one is the target. Exports (--export band,tcx,gpx) go to --out (default: \
                the race file's folder), named after the race file (Races/hilly-half.yaml: hilly-half-band.svg, \
                hilly-half.tcx, hilly-half.gpx): the band, a TCX Course whose times follow the plan, with \
                CoursePoints for gels, drinks, aid stations and markers, and a GPX with waypoints and the track.

                  racekit race plan Races/berlin-marathon-2026.yaml
                  racekit race plan Races/hilly-half.yaml --unit mi --format md
                  racekit race plan Races/hilly-half.yaml --format csv --table cues
                  racekit race plan Races/hilly-half.yaml --export band,tcx,gpx --out plans/
                """
        )

        @OptionGroup var storeOptions: StoreOptions
        @Argument(help: "The race setup (YAML).") var file: String
        @Option(help: "Split unit: km or mi.") var unit: DistanceUnit = .km
        @Option(help: "table, md, csv or json.") var format: PlanFormat = .table
        @Option(help: "With --format csv: splits or cues.") var table: CSVTable = .splits
        @Option(help: ArgumentHelp("Files to write, comma-separated.", valueName: "list")) var export:
            CommaList<PlanExport>?
        @Option(help: ArgumentHelp("Folder for exports (default: the race file's folder).", valueName: "dir")) var out:
            String?

        func validate() throws {
            if out != nil, export == nil { throw ValidationError("--out needs --export") }
        }

        func run() throws {
            let store = (try? storeOptions.readIfExists()) ?? nil   // the race-week check's, when readable
            let job = try RacePlanJob(
                setupFile: file, unitMeters: unit.meters, exports: export?.elements ?? [], store: store)
            switch format {
            case .json: Console.json(try job.json())
            case .md: Console.out(job.markdown())
            case .csv: Console.csv(job.csv(cues: table == .cues))
            case .table: Console.out(job.text())
            }
            for path in try job.writeExports(to: out) { Console.error("wrote \(path)") }
        }
    }

    struct New: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "new",
            abstract: "Write a commented race setup into Races/ to edit.",
            discussion: """
                Without --target, the target is suggested from the athlete's best efforts of the last 12 months \
                (--within-months; an older record only when there is nothing newer, with its age and a warning): \
                the middle of the Riegel, VDOT and Cameron predictions (for a marathon from a half or less, the \
                slowest); see racekit predict. Ranges: --distance 400 m to 250 km; --target such that the pace is \
                2:00/km to 20:00/km (what race plan accepts). The file is SLUG.yaml in --out (default: Races).

                  racekit race new "Berlin 2026" --distance marathon --target 3:15:00
                  racekit race new "Spring 10k" --distance 10k --athlete anna
                  racekit race new "Hill Half" --distance half --course courses/hill.gpx
                """
        )

        @OptionGroup var storeOptions: StoreOptions
        @Argument(help: "The race's name; the file is Races/SLUG.yaml.") var name: String
        @Option(help: "The distance: 5k, 10k, half, marathon, \"42.195 km\", \"26.2 mi\" (400 m to 250 km).")
        var distance: String
        @Option(
            help:
                "The target time (h:mm:ss; a pace of 2:00/km to 20:00/km); suggested from --athlete's records when left out."
        )
        var target: String?
        @Option(help: "The athlete (slug).") var athlete: String?
        @Option(help: "A course file (GPX route or track, TCX course), relative to the race file's folder or absolute.")
        var course: String?
        @Option(help: "The race date (YYYY-MM-DD).") var date: String?
        @Option(help: ArgumentHelp("Folder to write into (default: Races).", valueName: "dir")) var out: String?
        /// The old name of --out, kept working and out of the help.
        @Option(name: .customLong("dir"), help: .hidden) var dir: String?
        @Flag(help: "Overwrite an existing file.") var force = false
        @Option(
            help:
                "Suggest the target from the athlete's best of the last N months (default 12; 1 to 600); an older record is used only when there is nothing newer, with a warning."
        )
        var withinMonths = RecentForm.defaultMonths

        func validate() throws {
            if out != nil, dir != nil { throw ValidationError("--dir is the old name of --out: give one") }
            let meters = try ArgumentRanges.distance(distance, option: "--distance")
            if let target {
                _ = try ArgumentRanges.time(target, over: meters, option: "--target", what: "a race target")
            }
            if target == nil, athlete == nil {
                throw ValidationError("give --target, or --athlete to suggest one from the athlete's records")
            }
            try ArgumentRanges.check(withinMonths, in: RecentForm.monthsRange, option: "--within-months")
            if let date, !date.isEmpty, !SetupLoader.isDate(date) {
                throw ValidationError("--date: '\(date)' is not a date (YYYY-MM-DD)")
            }
        }

        func run() throws {
            let meters = try ArgumentRanges.distance(distance, option: "--distance")
            let options = NewRaceJob.Options(
                name: name, distance: distance, distanceMeters: meters,
                targetSeconds: try target.map {
                    try ArgumentRanges.time($0, over: meters, option: "--target", what: "a race target")
                }, athlete: athlete, course: course, date: date, directory: out ?? dir ?? "Races", force: force,
                withinMonths: withinMonths)
            Console.out(try NewRaceJob.run(options, openStore: storeOptions.read, note: { Console.error($0) }))
        }
    }
}
