import Foundation
import RaceKitMetrics
import RaceKitModel

/// One run as the weekly report needs it.
public struct ReportRun: Sendable {
    public var id: String
    /// Seconds since the epoch (UTC).
    public var startedAt: Double
    /// Local calendar day in the athlete's time zone.
    public var day: Int
    public var name: String?
    public var label: String?
    public var mode: RunMode
    public var distanceMeters: Double?
    public var movingSeconds: Double?
    public var elapsedSeconds: Double
    public var ascentMeters: Double?
    public var avgHeartRate: Double?
    public var heartRateCoveragePercent: Double?
    public var load: Double?
    /// Power stress against the critical power of the run's day; nil without.
    public var powerStress: Double?
    /// Seconds per zone name (`1`...`5`, or `5a`...).
    public var zoneSeconds: [String: Double]
    public var bestEfforts: [BestEffort]
    /// The race setup the run became (`race review`), nil when none is linked.
    public var race: ReportRace?

    public init(
        id: String, startedAt: Double, day: Int, name: String? = nil, label: String? = nil, mode: RunMode = .free,
        distanceMeters: Double?, movingSeconds: Double?, elapsedSeconds: Double, ascentMeters: Double? = nil,
        avgHeartRate: Double? = nil, heartRateCoveragePercent: Double? = nil, load: Double? = nil,
        zoneSeconds: [String: Double] = [:], bestEfforts: [BestEffort] = []
    ) {
        self.id = id; self.startedAt = startedAt; self.day = day; self.name = name; self.label = label; self.mode = mode
        self.distanceMeters = distanceMeters; self.movingSeconds = movingSeconds; self.elapsedSeconds = elapsedSeconds
        self.ascentMeters = ascentMeters; self.avgHeartRate = avgHeartRate
        self.heartRateCoveragePercent = heartRateCoveragePercent; self.load = load; self.zoneSeconds = zoneSeconds
        self.bestEfforts = bestEfforts
    }

    /// True for races: linked to a race setup, mode `race`, or a label or name that says so.
    public var isRace: Bool {
        race != nil || mode == .race || [label, name].contains { $0?.lowercased().contains("race") == true }
    }
}

/// A race setup a run is linked to, as the weekly report shows it.
public struct ReportRace: Sendable, Equatable {
    public var name: String
    public var targetSeconds: Double
    /// The finish clock the review measured.
    public var actualSeconds: Double?
    /// The review's Markdown relative to the report's folder, when it exists.
    public var reviewLink: String?

    public init(name: String, targetSeconds: Double, actualSeconds: Double?, reviewLink: String?) {
        self.name = name; self.targetSeconds = targetSeconds; self.actualSeconds = actualSeconds
        self.reviewLink = reviewLink
    }
}

/// Daily fitness, fatigue and form (see `LoadModel`).
public struct LoadDay: Sendable, Equatable {
    public var load: Double
    public var fitness: Double
    public var fatigue: Double
    /// Yesterday's fitness minus yesterday's fatigue.
    public var form: Double
}

/// Fitness and fatigue as exponentially weighted daily loads (Banister's
/// impulse-response model as TrainingPeaks' CTL/ATL use it):
/// C_d = C_{d-1} + (1 − e^(−1/τ)) (L_d − C_{d-1}), τ = 42 days for fitness and 7
/// for fatigue, rest days L = 0, C = 0 before the first run; form_d =
/// fitness_{d-1} − fatigue_{d-1}.
public enum LoadModel {
    public static let fitnessDays = 42.0
    public static let fatigueDays = 7.0
    /// Fitness is "warming up" while the history is shorter than three time
    /// constants (126 days): it still underestimates the athlete.
    public static var warmupDays: Int { Int(3 * fitnessDays) }
    /// The chronic window of the acute:chronic ratio: no ratio before the history
    /// covers it.
    public static let chronicDays = 28

    /// One entry per day from `first` to `last` (inclusive).
    public static func days(loads: [Int: Double], first: Int, last: Int) -> [LoadDay] {
        let kFit = 1 - exp(-1 / fitnessDays), kFat = 1 - exp(-1 / fatigueDays)
        var out: [LoadDay] = []
        out.reserveCapacity(max(0, last - first + 1))
        var fitness = 0.0, fatigue = 0.0
        guard first <= last else { return [] }
        for day in first...last {
            let load = loads[day] ?? 0
            let form = fitness - fatigue
            fitness += kFit * (load - fitness)
            fatigue += kFat * (load - fatigue)
            out.append(LoadDay(load: load, fitness: fitness, fatigue: fatigue, form: form))
        }
        return out
    }
}

/// One athlete-week: the CSV row.
public struct WeekRow: Sendable, Equatable {
    public var athlete: String
    public var week: ISOWeek
    public var runs: Int
    public var distanceKm: Double
    public var movingSeconds: Double
    public var elapsedSeconds: Double
    public var elevationGainMeters: Double
    public var longestRunKm: Double
    /// The longest run that is not a race (the long run of training), in km.
    public var longestTrainingRunKm: Double
    public var avgPaceSecondsPerKm: Double?
    public var avgHeartRate: Double?
    public var heartRateCoveragePercent: Double?
    public var load: Double
    public var runsWithoutLoad: Int
    /// The week's power stress: the sum over the runs that have one; nil when none has.
    public var powerStress: Double? = nil
    /// Runs with a power stress.
    public var runsWithPowerStress = 0
    /// Seconds per zone, in the athlete's zone order.
    public var zoneSeconds: [Double]
    public var fitnessEnd: Double
    public var fatigueEnd: Double
    public var formEnd: Double
    public var ramp7d: Double
    public var monotony: Double?
    public var strain: Double?
    public var distanceChangePercent: Double?
    public var loadChangePercent: Double?
    /// Acute (7 days) over chronic (28 days) load; nil until the history covers
    /// the 28 days of the chronic window (a first week's ratio was 4.00).
    public var acwr: Double?
    public var fitnessWarmup: Bool
    /// Days of history up to the week's Sunday (the first run's day counts).
    public var historyDays: Int
    /// The week's sleep, HRV, resting heart rate and bands; nil without wellness data.
    public var wellness: WeekWellness? = nil
}

/// Everything needed to render one athlete's reports.
public struct AthleteWeeks: Sendable {
    public var athleteID: String
    public var athleteName: String
    public var timeZone: String
    public var zoneNames: [String]
    /// Oldest first; the last is the report's week.
    public var rows: [WeekRow]
    /// Runs of the report's week and of the weeks shown, by week.
    public var runsByWeek: [ISOWeek: [ReportRun]]
    /// Best effort before each of this week's runs, per distance (for records).
    public var priorBest: [Double: Double]
    public var days: [Int: LoadDay]
    /// The wellness of the days of the weeks shown, by day.
    public var wellness: [Int: DayWellness] = [:]
}
