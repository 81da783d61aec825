import Foundation
import RaceKitModel
import RaceKitOutput
import RaceKitPlan
import RaceKitScript

/// Why a run cannot be reviewed against a race setup.
public enum ReviewError: RaceKitError, Equatable {
    case noDistance(runID: String)
    case distanceMismatch(runID: String, runMeters: Double, raceMeters: Double)
    case noDate(file: String)
    // The candidates as one line each, joined: a String, not an array, so that the
    // error is one allocation (LeakSanitizer flagged the array's buffer at exit).
    case noCandidate(file: String, date: String, athlete: String, sameDay: String)
    case severalCandidates(file: String, date: String, athlete: String, candidates: String)
    /// The run is not on the setup's course (`CourseFit`); `problem` says how far.
    case offCourse(runID: String, file: String, course: String, problem: String)

    public var exitClass: ExitClass { .dataError }

    public var description: String {
        switch self {
        case .noDistance(let id):
            return "run \(id) has no distance stream to align on the course"
        case .distanceMismatch(let id, let run, let race):
            return
                "run \(id) is \(TextFormat.fixed(run / 1000, 2)) km but the race is \(TextFormat.fixed(race / 1000, 2)) km "
                + "(more than \(Int(RaceReview.alignmentTolerance * 100))% apart): is it the right run?"
        case .noDate(let file):
            return "\(file): the setup has no date to find the run by; add `date:` or give --run ID"
        case .noCandidate(let file, let date, let athlete, let sameDay):
            return "\(file): no run of athlete '\(athlete)' on \(date) within "
                + "\(Int(RaceReview.alignmentTolerance * 100))% of the race distance"
                + (sameDay.isEmpty ? " (no run that day)" : "; that day: " + sameDay)
                + "; give --run ID"
        case .severalCandidates(let file, let date, let athlete, let candidates):
            return "\(file): several runs of athlete '\(athlete)' on \(date) could be the race: "
                + candidates + "; give --run ID"
        case .offCourse(let id, let file, let course, let problem):
            return "\(file): run \(id) is not on the course \(course): \(problem); "
                + "give --run with the race's run, or --off-course to review it anyway"
        }
    }
}

/// A stored run that could be the race.
public struct ReviewCandidate: Sendable, Equatable {
    public var id: String
    /// Seconds since the epoch (UTC).
    public var startedAt: Double
    public var distanceMeters: Double?
    public var elapsedSeconds: Double

    public init(id: String, startedAt: Double, distanceMeters: Double?, elapsedSeconds: Double) {
        self.id = id; self.startedAt = startedAt; self.distanceMeters = distanceMeters
        self.elapsedSeconds = elapsedSeconds
    }

    /// "01M7F0F1… 21.11 km in 1:35:27 at 07:06 UTC".
    public var line: String {
        "\(id) \(distanceMeters.map { TextFormat.fixed($0 / 1000, 2) + " km" } ?? "no distance") in "
            + "\(TextFormat.duration(elapsedSeconds)) at \(TimestampParser.format(startedAt).dropFirst(11).prefix(5)) UTC"
    }
}

/// One split of the plan against the run.
public struct ReviewSplit: Sendable, Equatable {
    public var index: Int
    /// Along the course, in metres.
    public var startMeters: Double
    public var endMeters: Double
    /// The plan's clock at the boundaries, unrounded.
    public var plannedSeconds: Double
    public var actualSeconds: Double
    /// Clock minus the plan's clock at the split's end (positive: behind).
    public var gapSeconds: Double
    /// Seconds stood still inside the split (stops).
    public var stoppedSeconds: Double
    public var plannedPaceSecondsPerKm: Double
    public var actualPaceSecondsPerKm: Double
    public var gradeAdjustedPaceSecondsPerKm: Double?
    public var gradePercent: Double?
    public var avgHeartRate: Double?
    /// Time-weighted average power in watts (nil without 10 s of power in the split).
    public var avgPowerWatts: Double?
    public var partial: Bool
}

/// A stop seen in the samples: moving slower than `stopSpeed` for `minimumStopSeconds` or more.
public struct ReviewStop: Sendable, Equatable {
    /// Course metres where it began.
    public var atMeters: Double
    public var seconds: Double
    /// Race clock when it began.
    public var clockSeconds: Double
}

/// A planned gel, drink or aid station, and where the runner was.
public struct ReviewCue: Sendable, Equatable {
    public var kind: Cue.Kind
    public var number: Int
    public var plannedMeters: Double
    public var plannedClockSeconds: Double
    /// When the runner reached the cue's distance.
    public var actualClockSeconds: Double
    /// Where the runner was at the planned clock time (course metres).
    public var metersAtPlannedClock: Double
    /// Seconds stood still within `aidWindowMeters` of the cue.
    public var stopSeconds: Double
    /// Seconds lost through that window against the runner's pace just before
    /// and after it (stops included); 0 when none.
    public var slowdownSeconds: Double
}

/// What the race script would have said.
public struct ReviewScript: Sendable {
    public var report: ScriptReplay.Report
    /// Toned lines played: ahead of, on, behind the plan (checkpoints, by
    /// the running total; per-unit lines by the split: quicker, on, slower).
    public var ahead = 0, onPlan = 0, behind = 0
    /// Condition messages played (role, course km).
    public var conditions: [(role: String, meters: Double)] = []
}

/// A race reviewed: the plan against the run, split by split, with the findings.
public struct RaceReview: Sendable {
    /// A run further than this share from the race distance is not the race.
    public static let alignmentTolerance = ScriptReplay.alignmentTolerance

    public var plan: RacePlan
    public var runID: String
    /// The run's name in files (no id: see `ReviewAnalyzer.Input.runName`).
    public var runName: String
    /// The watch's distance and the course's over it (course = watch × scale).
    public var recordedMeters: Double
    public var scale: Double
    public var targetSeconds: Double
    public var actualSeconds: Double
    public var splits: [ReviewSplit]
    /// Where the plan broke (course metres; nil: it held): where the loss
    /// began inside the first split that started it (`ReviewFindings`).
    public var brokeAtMeters: Double?
    public var fadePercent: Double
    public var cues: [ReviewCue]
    public var stops: [ReviewStop]
    public var script: ReviewScript?
    public var findings: [ReviewFinding]
    /// The temperature it was run in (the run's channel, else the setup's
    /// forecast) and what the heat cost; nil when neither tells one.
    public var conditions: ReviewConditions? = nil
    /// What makes the review doubtful (a run off the course, reviewed with
    /// `--off-course`), shown above the verdict.
    public var warnings: [String] = []
    /// The course profile (metres, elevation) for the chart: the plan's course,
    /// else the recorded elevation smoothed; empty without either.
    public var profile: [(meters: Double, elevation: Double)]
    /// The running gap every 100 m of course, for the chart.
    public var gapTrace: [(meters: Double, seconds: Double)]

    /// The findings in words, distances in the plan's unit.
    public var verdict: [String] { findings.map { $0.sentence(unitMeters: plan.unitMeters) } }
}
