import ArgumentParser
import RaceKitModel
import RaceKitWorkflows

extension RaceKitCommand.RaceCommand {
    struct Review: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "review",
            abstract: "Review a race: the plan against the run it became, split by split, with a verdict.",
            discussion: """
                Finds the athlete's run on the setup's date within 10% of the race distance (or takes --run), \
                links it to the setup in the store (shown by runs show and the weekly report), and prints the \
                plan against the run: per split the planned and actual time and pace, the running gap, grade and \
                grade-adjusted pace, heart rate; where the plan broke and the fade over the last quarter; where \
                the runner was at each gel and drink and the stops near them; what the race script would have \
                said; and a verdict. The watch's distance is scaled to the course's (GPS runs 1-2% long). \
                With a course file, grade and grade-adjusted pace are the course's, and a run that is not on \
                the course (its start more than 1 km from the course's start, or more than 10% of its track \
                more than 300 m from the course) is refused unless --off-course. Each setup file has its own \
                link and its own review files (named after the file); a review in --out that another setup \
                file made is not overwritten unless --force.

                  racekit race review Races/berlin-marathon-2026.yaml
                  racekit race review Races/berlin-marathon-2026.yaml --run 01KKB8Q7
                  racekit race review Races/berlin-marathon-2026.yaml --out Reports/reviews
                  racekit race review Races/berlin-marathon-2026.yaml --unlink
                """
        )

        enum ReviewFormat: String, ExpressibleByArgument, CaseIterable { case table, md, csv, json }

        @OptionGroup var storeOptions: StoreOptions
        @Argument(help: "The race setup (YAML).") var file: String
        @Option(name: .customLong("run"), help: "The run (id or unique prefix) instead of the one on the race date.")
        var runID: String?
        @Flag(help: "Forget the setup's link to its run, and stop.") var unlink = false
        @Option(help: "Split unit: km or mi.") var unit: DistanceUnit = .km
        @Option(help: "table, md, csv (the splits) or json.") var format: ReviewFormat = .table
        @Option(
            help: ArgumentHelp(
                "Also write STEM-review.md and STEM-review.svg into this folder (STEM: the setup file's name).",
                valueName: "dir"))
        var out: String?
        @Flag(help: "Overwrite a review in --out that another setup file made.") var force = false
        @Flag(help: "Review a run that is not on the setup's course (with a warning) instead of refusing it.")
        var offCourse = false

        func validate() throws {
            if unlink, runID != nil || out != nil { throw ValidationError("--unlink takes no --run or --out") }
        }

        func run() throws {
            let job = try RaceReviewJob(setupFile: file)
            let store = try unlink ? storeOptions.write() : storeOptions.writeIfPossible()
            if unlink {
                Console.out(try job.unlink(store))
                return
            }
            let options = RaceReviewJob.Options(
                runID: runID, unitMeters: unit.meters, outputDirectory: out, force: force, acceptOffCourse: offCourse,
                storeName: storeOptions.name)
            let outcome = try job.run(store, options) { Console.error($0) }
            switch format {
            case .json: Console.json(try outcome.json())
            case .csv: Console.csv(outcome.csv())
            case .md: Console.out(outcome.markdown())
            case .table: Console.out(outcome.text())
            }
        }
    }
}
