import Foundation
import RaceKitOutput
import RaceKitPlan
import RaceKitReview
import RaceKitScript
import RaceKitScriptWriter
import RaceKitStore

/// `race review`: finds the run a race setup became (or takes the one given),
/// plans the race, generates its script, reviews the plan against the run,
/// writes the review files when asked and links the setup file to the run in
/// the store. The setup is loaded first, so a bad setup file is reported before
/// the store is opened.
public struct RaceReviewJob {
    public struct Options: Sendable {
        /// The run (id or unique prefix) instead of the one on the race date.
        public var runID: String?
        /// Split length in metres.
        public var unitMeters: Double
        /// Also write STEM-review.md and STEM-review.svg here.
        public var outputDirectory: String?
        /// Overwrite a review in `outputDirectory` another setup file made.
        public var force: Bool
        /// Review a run that is not on the setup's course (with a warning).
        public var acceptOffCourse: Bool
        /// The store as messages name it (`--store`).
        public var storeName: String

        public init(
            runID: String? = nil, unitMeters: Double = 1000, outputDirectory: String? = nil, force: Bool = false,
            acceptOffCourse: Bool = false, storeName: String = "the store"
        ) {
            self.storeName = storeName
            self.runID = runID
            self.unitMeters = unitMeters
            self.outputDirectory = outputDirectory
            self.force = force
            self.acceptOffCourse = acceptOffCourse
        }
    }

    /// A review and the run it is of.
    public struct Outcome {
        public var review: RaceReview
        public var record: RunRecord

        public func json() throws -> String {
            try JSONOutput.string(ReviewOutput.json(review, run: RunView(record).json))
        }
        public func csv() -> String { ReviewOutput.splitsCSV(review) }
        public func markdown() -> String { ReviewOutput.markdown(review, chart: nil).trimmingTrailingNewlines() }
        public func text() -> String {
            ReviewOutput.text(review) { TextFormat.table(header: $0, rows: $1, rightAligned: $2) }
                .trimmingTrailingNewlines()
        }
    }

    public let file: String
    public let setup: RaceSetup
    /// The setup file's key in the store's links (`RaceLink.key(setupFile:)`).
    public let key: String

    /// Loads the race setup at `file`.
    public init(setupFile file: String) throws {
        self.file = file
        setup = try SetupLoader.load(path: file)
        key = RaceLink.key(setupFile: file)
    }

    /// Forgets the setup file's link: what to say ("unlinked FILE from run ID",
    /// or that it was not linked).
    public func unlink(_ store: any Store) throws -> String {
        let was = try store.raceLink(setupKey: key, slug: setup.slug)
        guard try store.unlinkRace(setupKey: key, slug: setup.slug) else { return "\(file) was not linked to a run" }
        return "unlinked \(file)\(was?.runID.map { " from run \($0)" } ?? "")"
    }

    /// Reviews the race; warnings and the files written are told to `note` as
    /// they come (a later failure does not hide them).
    public func run(_ store: any Store, _ options: Options, note: (String) -> Void) throws -> Outcome {
        var setup = setup
        let link = try store.raceLink(setupKey: key, slug: setup.slug)
        let record = try findRun(store, runID: options.runID, link: link)
        // The power figures as they were before the race: later runs do not move the review.
        try PowerPlanning.fill(&setup, store: store, before: record.startedAt)
        let plan = try RacePlanner.plan(setup, unitMeters: options.unitMeters)
        let review = try analyse(store, plan: plan, record: record, acceptOffCourse: options.acceptOffCourse)
        for w in review.warnings { note("warning: \(w)") }
        var reviewPath = link?.runID == record.id ? link?.reviewPath : nil
        if let out = options.outputDirectory {
            let others = try othersReview(store, link: link, out: out, force: options.force)
            let written = try ReviewFiles.write(review, to: out)
            for other in others where store.access != .read {
                try store.setReviewPath(nil, setupKey: other.setupKey)
            }
            reviewPath = URL(fileURLWithPath: written.markdown).standardizedFileURL.path
            note("wrote \(written.markdown) and \(written.chart)")
        }
        let newLink = RaceLink(
            setupKey: key, setupSlug: setup.slug, setupFile: file, raceName: setup.name, raceDate: setup.date,
            targetSeconds: setup.targetSeconds, runID: record.id, actualSeconds: review.actualSeconds,
            reviewPath: reviewPath)
        // An unchanged link is not written again (a rerun changes nothing, not even the store's file).
        // A store the user cannot write: the review stands, only its link is not kept.
        if newLink != link, store.access == .read {
            note(
                "warning: \(options.storeName): the store is read-only, so this review is not linked to its run (runs show and the weekly report do not show it)"
            )
        } else if newLink != link {
            try store.saveRaceLink(newLink)
        }
        return Outcome(review: review, record: record)
    }

    /// The plan against the run, with the script the race would have had; a
    /// run on another day than the race's date is the first warning.
    func analyse(_ store: any Store, plan: RacePlan, record: RunRecord, acceptOffCourse: Bool) throws -> RaceReview {
        let athlete = try store.athlete(id: record.athleteID)
        let physiology = athlete == nil ? nil : try store.physiology(athleteID: record.athleteID)
        let voice = try RaceScriptJob.personality(
            .init(personality: nil, personalityFile: nil, output: nil, force: false), setup: setup)
        let script = ScriptGenerator.generate(
            plan: plan, personality: voice, options: .init(physiology: physiology), digests: false)
        let zone = athlete.flatMap { TimeZone(identifier: $0.timeZone) } ?? TimeZone(identifier: "UTC")!
        var review = try ReviewAnalyzer.review(
            plan,
            .init(
                runID: record.id,
                runName:
                    "\(record.sourceFile), started \(TextFormat.localTime(record.startedAt, timeZone: athlete?.timeZone ?? "UTC"))",
                samples: try store.samples(of: record), startEpoch: record.startedAt,
                script: script, physiology: physiology, timeZone: zone, acceptOffCourse: acceptOffCourse))
        if let w = ReviewMatching.dateWarning(raceDate: setup.date, runStart: record.startedAt, timeZone: zone) {
            review.warnings.insert(w, at: 0)
        }
        return review
    }

    /// The links of other setup files whose review is the one this review
    /// would write: refused (73, both setup files named) unless `force`.
    func othersReview(_ store: any Store, link: RaceLink?, out: String, force: Bool) throws -> [RaceLink] {
        let markdown = ReviewFiles.paths(setup, in: out).markdown
        let absolute = URL(fileURLWithPath: markdown).standardizedFileURL.path
        let others = try store.raceLinks(reviewPath: absolute).filter {
            $0.setupKey != key && $0.setupKey != link?.setupKey
        }
        if let other = others.first, !force {
            throw OutputError.exists(
                path: markdown,
                hint: "made from \(other.setupFile), not \(file): give another --out, or --force to overwrite it")
        }
        return others
    }

    /// `runID`, else the linked run while it exists, else the run of the race date.
    func findRun(_ store: any Store, runID: String?, link: RaceLink?) throws -> RunRecord {
        if let runID { return try RunLookup.find(store, runID) }
        if let id = link?.runID, let run = try store.run(id: id) { return run }
        guard let date = setup.date else { throw ReviewError.noDate(file: file) }
        let athleteID = setup.athlete ?? Athlete.defaultID
        let zone =
            try store.athlete(id: athleteID).flatMap { TimeZone(identifier: $0.timeZone) }
            ?? TimeZone(identifier: "UTC")!
        guard let day = ReviewMatching.dayBounds(date, timeZone: zone) else { throw ReviewError.noDate(file: file) }
        var filter = RunFilter()
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
