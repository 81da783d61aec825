import ArgumentParser
import Foundation
import RaceKitCore
import RaceKitRace
import RaceKitScript
import RaceKitStore

extension RaceKitCommand.Race {
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
            let setup = try SetupLoader.load(path: file)
            let store = try unlink ? storeOptions.write() : storeOptions.writeIfPossible()
            let key = RaceLink.key(setupFile: file)
            if unlink {
                let was = try store.raceLink(setupKey: key, slug: setup.slug)
                guard try store.unlinkRace(setupKey: key, slug: setup.slug) else {
                    Console.out("\(file) was not linked to a run")
                    return
                }
                Console.out("unlinked \(file)\(was?.runID.map { " from run \($0)" } ?? "")")
                return
            }
            let plan = try RacePlanner.plan(setup, unitMeters: unit.meters)
            let link = try store.raceLink(setupKey: key, slug: setup.slug)
            let record = try findRun(store, setup: setup, link: link)
            let athlete = try store.athlete(id: record.athleteID)
            let physiology = athlete == nil ? nil : try store.physiology(athleteID: record.athleteID)
            let voice = try RaceScriptJob.personality(
                .init(personality: nil, personalityFile: nil, output: nil, force: false), setup: setup)
            let script = ScriptGenerator.generate(
                plan: plan, personality: voice, options: .init(physiology: physiology), digests: false)
            var review = try ReviewAnalyzer.review(
                plan,
                .init(
                    runID: record.id,
                    runName:
                        "\(record.sourceFile), started \(Format.localTime(record.startedAt, timeZone: athlete?.timeZone ?? "UTC"))",
                    samples: try store.samples(of: record), startEpoch: record.startedAt,
                    script: script, physiology: physiology,
                    timeZone: athlete.flatMap { TimeZone(identifier: $0.timeZone) } ?? TimeZone(identifier: "UTC")!,
                    acceptOffCourse: offCourse))
            if let w = ReviewMatching.dateWarning(
                raceDate: setup.date, runStart: record.startedAt,
                timeZone: athlete.flatMap { TimeZone(identifier: $0.timeZone) } ?? TimeZone(identifier: "UTC")!)
            {
                review.warnings.insert(w, at: 0)
            }
            for w in review.warnings { Console.error("warning: \(w)") }
            var reviewPath = link?.runID == record.id ? link?.reviewPath : nil
            if let out {
                let others = try othersReview(store, setup: setup, key: key, link: link, out: out)
                let written = try ReviewFiles.write(review, to: out)
                for other in others where store.access != .read {
                    try store.setReviewPath(nil, setupKey: other.setupKey)
                }
                reviewPath = URL(fileURLWithPath: written.markdown).standardizedFileURL.path
                Console.error("wrote \(written.markdown) and \(written.chart)")
            }
            let newLink = RaceLink(
                setupKey: key, setupSlug: setup.slug, setupFile: file, raceName: setup.name, raceDate: setup.date,
                targetSeconds: setup.targetSeconds, runID: record.id, actualSeconds: review.actualSeconds,
                reviewPath: reviewPath)
            // An unchanged link is not written again (a rerun changes nothing, not even the store's file).
            if newLink != link, store.access == .read {
                Console.error(
                    "warning: \(storeOptions.path): the store is read-only, so this review is not linked to its run (runs show and the weekly report do not show it)"
                )
            } else if newLink != link {
                try store.saveRaceLink(newLink)
            }
            switch format {
            case .json: Console.json(try JSONOutput.string(ReviewOutput.json(review, run: RunView(record).json)))
            case .csv: Console.csv(ReviewOutput.splitsCSV(review))
            case .md: Console.out(ReviewOutput.markdown(review, chart: nil).trimmingTrailingNewlines())
            case .table:
                Console.out(
                    ReviewOutput.text(review) { Format.table(header: $0, rows: $1, rightAligned: $2) }
                        .trimmingTrailingNewlines())
            }
        }

        /// The links of other setup files whose review is the one this review
        /// would write: refused (73, both setup files named) unless --force.
        func othersReview(_ store: RunStore, setup: RaceSetup, key: String, link: RaceLink?, out: String) throws
            -> [RaceLink]
        {
            let markdown = ReviewFiles.paths(setup, in: out).markdown
            let absolute = URL(fileURLWithPath: markdown).standardizedFileURL.path
            let others = try store.raceLinks(reviewPath: absolute).filter {
                $0.setupKey != key && $0.setupKey != link?.setupKey
            }
            if let other = others.first, !force {
                throw OutputError.exists(
                    path: markdown,
                    hint:
                        "made from \(other.setupFile), not \(file): give another --out, or --force to overwrite it")
            }
            return others
        }

        /// --run, else the linked run while it exists, else the run of the race date.
        func findRun(_ store: RunStore, setup: RaceSetup, link: RaceLink?) throws -> RunRecord {
            if let runID { return try RunLookup.find(store, runID) }
            if let id = link?.runID, let run = try store.run(id: id) { return run }
            guard let date = setup.date else { throw ReviewError.noDate(file: file) }
            let athleteID = setup.athlete ?? Athlete.defaultID
            let zone =
                try store.athlete(id: athleteID).flatMap { TimeZone(identifier: $0.timeZone) }
                ?? TimeZone(identifier: "UTC")!
            guard let day = ReviewMatching.dayBounds(date, timeZone: zone) else {
                throw ReviewError.noDate(file: file)
            }
            var filter = RunStore.RunFilter()
            filter.athleteID = athleteID
            filter.sport = .running
            filter.since = day.start
            filter.until = day.end - 0.001
            let runs = try store.runs(matching: filter)
            let chosen = try ReviewMatching.choose(
                runs.map {
                    ReviewCandidate(
                        id: $0.id, startedAt: $0.startedAt, distanceMeters: $0.distanceMeters,
                        elapsedSeconds: $0.elapsedSeconds)
                }, raceMeters: setup.distanceMeters, file: file, date: date, athlete: athleteID)
            return try runs.first { $0.id == chosen.id } ?? RunLookup.find(store, chosen.id)
        }
    }
}
