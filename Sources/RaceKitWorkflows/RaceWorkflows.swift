import Foundation
import RaceKitModel
import RaceKitOutput
import RaceKitPlan
import RaceKitScriptWriter
import RaceKitStore

/// `race plan`: a setup's pace plan with its cues, and the exports (pace band,
/// TCX and GPX course) beside it.
public struct RacePlanJob {
    public let file: String
    public private(set) var plan: RacePlan
    public let exports: [PlanExport]

    /// Plans the setup at `file`; a TCX or GPX export without a course file is a
    /// usage error, before anything is printed or written. With a `store`, a
    /// race within 7 days of `now` is checked against the athlete's readiness
    /// and form (`RaceWeekCheck`): its warnings join the plan's. `now`: `RACEKIT_NOW` or the clock.
    public init(
        setupFile file: String, unitMeters: Double, exports: [PlanExport], store: (any Store)? = nil,
        now: Double? = nil
    ) throws {
        self.file = file
        var setup = try SetupLoader.load(path: file)
        try PowerPlanning.fill(&setup, store: store)
        plan = try RacePlanner.plan(setup, unitMeters: unitMeters)
        if let store {
            plan.warnings += try RaceWeekCheck.warnings(
                store, athleteID: plan.setup.athlete ?? Athlete.defaultID, raceDate: plan.setup.date,
                now: try now ?? FormClock.checkedNow())
        }
        self.exports = exports
        if exports.contains(where: { $0 != .band }), plan.course == nil {
            throw Failure(
                .usage, "\(file): course: a TCX or GPX export needs a course file; add `course:` to the setup")
        }
    }

    public func json() throws -> String { try JSONOutput.string(PlanOutput.json(plan)) }
    public func markdown() -> String { PlanOutput.markdown(plan).trimmingTrailingNewlines() }
    /// The splits, or the cues when `cues`.
    public func csv(cues: Bool) -> String { cues ? PlanOutput.cuesCSV(plan) : PlanOutput.splitsCSV(plan) }
    public func text() -> String {
        PlanOutput.text(plan) { TextFormat.table(header: $0, rows: $1, rightAligned: $2) }.trimmingTrailingNewlines()
    }

    /// Writes the exports into `directory` (default: the setup file's folder);
    /// the paths written.
    public func writeExports(to directory: String?) throws -> [String] {
        guard !exports.isEmpty else { return [] }
        let dir = directory ?? URL(fileURLWithPath: file).deletingLastPathComponent().path
        return try PlanExport.write(exports, of: plan, to: dir)
    }
}

/// `race new`: the target of a new setup, given or suggested from the
/// athlete's best recent record, and the file written.
public struct NewRaceJob {
    public struct Options: Sendable {
        public var name: String
        public var distance: String
        public var distanceMeters: Double
        /// The target; nil: suggested from `athlete`'s records.
        public var targetSeconds: Double?
        public var athlete: String?
        public var course: String?
        public var date: String?
        public var directory: String
        public var force: Bool
        /// Suggest from the best record of the last N months (`RecentForm`).
        public var withinMonths: Int

        public init(
            name: String, distance: String, distanceMeters: Double, targetSeconds: Double?, athlete: String?,
            course: String? = nil, date: String? = nil, directory: String = "Races", force: Bool = false,
            withinMonths: Int = RecentForm.defaultMonths
        ) {
            (self.name, self.distance, self.distanceMeters, self.targetSeconds) =
                (name, distance, distanceMeters, targetSeconds)
            (self.athlete, self.course, self.date) = (athlete, course, date)
            (self.directory, self.force, self.withinMonths) = (directory, force, withinMonths)
        }
    }

    /// Writes the setup; what to say ("wrote PATH", with a suggested target and
    /// why, and what to do next). The store is opened (`openStore`) only to
    /// suggest a target; the record's warnings go to `note`.
    public static func run(_ o: Options, openStore: () throws -> any Store, note: (String) -> Void) throws -> String {
        var targetSeconds: Double
        var suggestion: String?
        if let target = o.targetSeconds {
            targetSeconds = target
        } else {
            let form = try BestRecord.recentForm(
                try openStore(), athlete: o.athlete ?? Athlete.defaultID, withinMonths: o.withinMonths,
                hint: "; give --target")
            let s = form.suggestTarget(to: o.distanceMeters)
            targetSeconds = s.seconds
            suggestion = s.text
            for w in form.warnings { note("warning: \(w)") }
            if !form.warnings.isEmpty { suggestion! += "; " + form.warnings.joined(separator: "; ") }
        }
        let path = try NewRace.write(
            .init(
                name: o.name, distance: o.distance, distanceMeters: o.distanceMeters, targetSeconds: targetSeconds,
                athlete: o.athlete, course: o.course, date: o.date, suggestion: suggestion, directory: o.directory,
                force: o.force))
        return "wrote \(path)"
            + (suggestion != nil ? " (target \(TextFormat.duration(targetSeconds)), \(suggestion!))" : "")
            + "\nnext: edit it, then racekit race plan \(path)"
    }
}

/// `race script`: the race's script with the athlete's physiology from the
/// store when there is one, and what to say about it.
public enum RaceScriptWorkflow {
    /// Plans the setup and writes its script (`RaceScriptJob`); warnings go to
    /// `note`. `openStore` gives nil when there is no store at `storePath`.
    public static func run(
        setupFile: String, unitMeters: Double, options: RaceScriptJob.Options, openStore: () throws -> (any Store)?,
        storePath: String, note: (String) -> Void
    ) throws -> String {
        var setup = try SetupLoader.load(path: setupFile)
        let store = try openStore()
        try PowerPlanning.fill(&setup, store: store)
        let plan = try RacePlanner.plan(setup, unitMeters: unitMeters)
        let athlete = plan.setup.athlete ?? Athlete.defaultID
        let physiology = try store.flatMap { store in
            try store.athlete(id: athlete) == nil ? nil : try store.physiology(athleteID: athlete)
        }
        var options = options
        options.physiology = physiology
        switch try RaceScriptJob.run(options, plan: plan) {
        case .upToDate(let path, let digest):
            return "\(path) is up to date (input digest \(digest.prefix(12))); --force rewrites it"
        case .written(let path, let s, let voice, let warnings):
            for w in warnings { note("warning: \(w)") }
            // Why there is no heart-rate message: no store at all (a wrong --store
            // is not an athlete without a threshold), or the athlete's settings.
            let heart =
                store == nil
                ? "; no heart-rate message (no store at \(storePath): give --store or RACEKIT_STORE)"
                : physiology?.thresholdHeartRate == nil && physiology?.maxHeartRate == nil
                    ? "; no heart-rate message (athlete '\(athlete)' has no threshold or max HR in the store)" : ""
            return
                "wrote \(path): \(s.messages) messages, \(s.branchPoints) branch points, \(s.gels) gels, \(s.drinks) drinks, \(s.hills) hill cues (\(voice))\(heart)"
        }
    }
}
