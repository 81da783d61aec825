import ArgumentParser
import RaceKitFormats
import RaceKitImport
import RaceKitOutput
import RaceKitStore
import RaceKitWorkflows

extension RaceKitCommand {
    struct ImportCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract:
                "Import \(ActivityReaders.standard.names()) files, export archives and Apple Health exports into the store.",
            discussion: """
                Folders are walked recursively for \(ActivityReaders.standard.extensionNames()) files (plain or .gz) \
                and for archives (.zip, .tar, .tar.gz), read entry by entry without unpacking \
                them to disk, archives inside archives included (Garmin Connect's export); \
                results name an entry ARCHIVE!path/inside. Strava's activities.csv gives the \
                labels, sports and descriptions of the files it lists. An archive that crosses \
                a limit against archive bombs (size, ratio, entries, depth) is refused and \
                nothing from it is kept. Each file is stored in one transaction: a broken file \
                leaves nothing behind and the other files still import. Importing the same \
                bytes again changes nothing; the same activity from another file (same athlete, \
                start within 60 s, and end within 60 s, distance within 2% or a cut-off copy) \
                is reported as a duplicate unless --allow-duplicates; a richer copy replaces \
                the stored run's samples (upgraded).

                An Apple Health export (its export.xml, export.zip, or a folder holding it) gives one \
                result per workout, each stored in its own transaction; its workout-routes/ \
                files are read as routes, not imported on their own.

                The store (and its folder) is created when missing: "created store PATH" on \
                stderr unless --quiet.

                Exit status: 0 when no file failed, 1 when some failed, 65 when an Apple \
                Health export was refused as a whole or the store was written by a newer \
                RaceKit, 64 on usage errors, 66 when no input path exists, 73 when the store \
                is read-only, 74 or 77 when it can no longer be written (stopped there; kept what it stored).

                  racekit import ~/Downloads/export/
                  racekit import --format json run.gpx ride.tcx.gz
                  racekit import ~/Downloads/export_12345678.zip ~/Downloads/export.zip
                """
        )

        @OptionGroup var storeOptions: StoreOptions

        @Argument(help: ArgumentHelp("Files and folders to import.", valueName: "path"))
        var paths: [String]

        @Option(help: "Athlete the runs belong to.")
        var athlete: String = Athlete.defaultID

        @Option(help: "Files parsed at once, 1-256 (default: number of cores).")
        var jobs: Int?

        @Flag(help: "Print nothing on success (failures still go to stderr).")
        var quiet = false

        @Option(help: "Output format: text or json.")
        var format: ImportFormat = .text

        @Flag(help: "Store an activity even when the same one is already stored from another file.")
        var allowDuplicates = false

        enum ImportFormat: String, ExpressibleByArgument, CaseIterable { case text, json }

        func validate() throws {
            if let jobs, !(1...256).contains(jobs) { throw ValidationError("--jobs must be between 1 and 256") }
            if paths.isEmpty { throw ValidationError("give at least one file or folder to import") }
        }

        func run() throws {
            var options = ImportOptions()
            options.athleteID = athlete
            options.allowDuplicates = allowDuplicates
            if let jobs { options.jobs = jobs }
            let draw = !quiet && format == .text && Console.stderrIsTerminal
            let run = try ImportJob.run(
                paths: paths, location: try storeOptions.location(), options: options,
                progress: draw ? ImportJob.throttled { Console.progress($0) } : nil)
            if run.showedProgress { Console.clearProgress() }
            if !quiet, run.createdStore { StoreOptions.announceCreated(storeOptions.name) }
            try report(run.results)
            if let error = run.error { throw error }
            if let exit = run.exit { throw Exit.code(exit) }
        }

        private func report(_ results: [FileResult]) throws {
            if format == .json { return Console.json(try JSONOutput.string(results)) }
            let text = ImportReport.text(results, quiet: quiet)
            text.errors.forEach(Console.error)
            text.out.forEach(Console.out)
        }
    }
}
