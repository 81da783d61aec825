import Foundation
import RaceKitMetrics
import RaceKitModel
import RaceKitOutput
import RaceKitReports
import RaceKitStore

/// Writes the weekly reports of one or all athletes: per athlete
/// `<out>/<athlete>/weekly.csv` (a row per week) and, for the report's week,
/// `<out>/<athlete>/<YYYY-Www>.md` with its chart `<YYYY-Www>.svg`; with all
/// athletes, a roster `<out>/index.md`. Holds the folder's lock while writing;
/// every file is written atomically; the content depends only on the store and
/// the options (no timestamps unless `stamp`), so reruns give identical bytes.
/// With a `shard`, only that shard's athletes are written, and the roster (of
/// every athlete) only by shard 1: N shards together write one run's files,
/// whatever order they run or finish in.
public struct WeeklyReportJob: Sendable {
    /// Which week the report ends with.
    public enum Through: Sendable, Equatable {
        case week(ISOWeek)
        /// The last week that has ended in the athlete's time zone.
        case lastComplete
        /// The week holding today in the athlete's time zone.
        case current
    }

    public struct Options: Sendable {
        public var athleteIDs: [String] = [Athlete.defaultID]
        public var allAthletes = false
        public var weeks = 12
        public var through = Through.lastComplete
        public var outputDirectory = "Reports"
        public var csv = true
        public var markdown = true
        /// Adds the generation time to the Markdown (breaks byte-identical reruns).
        public var stamp = false
        /// Seconds since the epoch taken as "now".
        public var now = Date().timeIntervalSince1970
        /// How long to wait for another run's lock.
        public var lockWaitSeconds = 10.0
        /// This worker's share of the athletes (nil: all of them): it writes their
        /// folders; shard 1 also writes the roster, which lists every athlete.
        public var shard: Shard?
        public init() {}
    }

    /// A written file and what it is.
    public struct Written: Sendable, Equatable {
        public var path: String
        public var athlete: String?
    }

    public let store: any Store
    public let options: Options

    public init(store: any Store, options: Options) {
        self.store = store
        self.options = options
    }

    public func run() throws -> [Written] {
        // A week that has not started anywhere yet (today plus a day for the time
        // zones ahead of UTC): its report would be all zeros, silently.
        if case .week(let w) = options.through {
            let today = LocalCalendar(identifier: "UTC").day(of: options.now)
            if w.monday > today + 1 {
                throw Failure(
                    .usage,
                    "the report week \(w) is in the future (this is \(ISOWeek(containing: today))): its report would be empty"
                )
            }
        }
        let athletes: [Athlete]
        if options.allAthletes {
            athletes = try store.athletes().filter {
                try store.runCount(athleteID: $0.id) > 0 || $0.id != Athlete.defaultID
            }
        } else {
            athletes = try options.athleteIDs.map { id in
                guard let a = try store.athlete(id: id) else { throw StoreError.unknownAthlete(id) }
                return a
            }
        }
        // Each athlete's reports go to a folder named after their id: an id that is
        // not one safe path component (a store written by another tool) is refused.
        for athlete in athletes where !PathComponent.isSafe(athlete.id) {
            throw Failure(
                .dataError,
                "athlete id \(athlete.id.debugDescription) cannot name a report folder (letters, digits, '-', '_', '.')"
            )
        }
        try AtomicFile.createDirectory(options.outputDirectory)
        let locks = try self.locks()
        defer { withExtendedLifetime(locks) {} }

        let writesRoster = options.allAthletes && options.markdown && (options.shard?.index ?? 1) == 1
        var written: [Written] = []
        var roster: [(Athlete, AthleteWeeks)] = []
        for athlete in athletes {
            let mine = options.shard?.contains(athlete.id) ?? true
            guard mine || writesRoster else { continue }
            let weeks = try self.weeks(for: athlete)
            roster.append((athlete, weeks))
            guard mine else { continue }
            let dir = (options.outputDirectory as NSString).appendingPathComponent(athlete.id)
            try AtomicFile.createSubdirectory(dir)
            if options.csv {
                let path = (dir as NSString).appendingPathComponent("weekly.csv")
                try AtomicFile.write(WeeklyCSV.render(weeks), to: path)
                written.append(Written(path: path, athlete: athlete.id))
            }
            if options.markdown, let last = weeks.rows.last {
                let svg = "\(last.week).svg"
                let svgPath = (dir as NSString).appendingPathComponent(svg)
                try AtomicFile.write(WeeklyChart.render(weeks), to: svgPath)
                let mdPath = (dir as NSString).appendingPathComponent("\(last.week).md")
                try AtomicFile.write(WeeklyMarkdown.render(weeks, chartFile: svg, stamp: stampText), to: mdPath)
                written += [Written(path: mdPath, athlete: athlete.id), Written(path: svgPath, athlete: athlete.id)]
            }
        }
        if writesRoster {
            let path = (options.outputDirectory as NSString).appendingPathComponent("index.md")
            try AtomicFile.write(Self.roster(roster, stamp: stampText), to: path)
            written.append(Written(path: path, athlete: nil))
        }
        return written
    }

    /// The folder's lock, exclusive for a whole run. A shard shares it with the
    /// other shards (they write different athletes' files, so they run side by
    /// side, and a whole run waits for them all) and holds its own shard's lock
    /// exclusively (the same shard started twice waits). Waits `lockWaitSeconds`
    /// in all.
    func locks() throws -> [OutputLock] {
        let dir = options.outputDirectory
        guard let shard = options.shard else {
            return [try OutputLock(directory: dir, waitSeconds: options.lockWaitSeconds)]
        }
        let deadline = Date().addingTimeInterval(options.lockWaitSeconds)
        let own = try OutputLock(
            directory: dir, name: ".racekit-report.shard-\(shard.index)-of-\(shard.count).lock",
            waitSeconds: options.lockWaitSeconds)
        let folder = try OutputLock(
            directory: dir, shared: true, waitSeconds: max(0, deadline.timeIntervalSinceNow))
        return [own, folder]
    }

    /// What to say when a run wrote nothing: no athlete had runs, or none is in the shard.
    public var nothingWritten: String {
        "No athlete \(options.shard.map { "of shard \($0)" } ?? "with runs"): nothing written."
    }

    var stampText: String? { options.stamp ? TimestampParser.format(options.now.rounded(), fractional: false) : nil }

    /// The report's last week for an athlete.
    func lastWeek(_ athlete: Athlete) -> ISOWeek {
        let today = LocalCalendar(identifier: athlete.timeZone).day(of: options.now)
        switch options.through {
        case .week(let w): return w
        case .current: return ISOWeek(containing: today)
        case .lastComplete: return ISOWeek(containing: today).adding(weeks: -1)
        }
    }

    /// Loads an athlete's running history and aggregates it.
    public func weeks(for athlete: Athlete) throws -> AthleteWeeks {
        // The runs up to the last week shown (a report of a past week does not
        // read the history after it); zones and efforts only for the runs the
        // rows show; the records before them as one fastest effort per distance.
        let through = lastWeek(athlete)
        let since = Self.windowStart(through: through, weeks: options.weeks)
        let until = Self.windowEnd(through: through)
        var filter = RunFilter()
        filter.athleteID = athlete.id
        filter.sport = .running
        filter.until = until
        let records = try store.runs(matching: filter)
        let zones = try store.zonesByRun(athleteID: athlete.id, since: since, until: until)
        let efforts = try store.bestEffortsByRun(athleteID: athlete.id, since: since, until: until)
        let earlierBest = try store.fastestEfforts(athleteID: athlete.id, before: since)
        let races = try store.raceLinksByRun(athleteID: athlete.id)
        let calendar = LocalCalendar(identifier: athlete.timeZone)
        let reportDir = (options.outputDirectory as NSString).appendingPathComponent(athlete.id)
        let runs = records.map { r in
            var run = ReportRun(
                id: r.id, startedAt: r.startedAt, day: calendar.day(of: r.startedAt), name: r.name, label: r.label,
                mode: r.mode, distanceMeters: r.distanceMeters, movingSeconds: r.movingSeconds,
                elapsedSeconds: r.elapsedSeconds, ascentMeters: r.ascentMeters, avgHeartRate: r.avgHeartRate,
                heartRateCoveragePercent: r.heartRateCoveragePercent, load: r.load,
                zoneSeconds: Dictionary((zones[r.id] ?? []).map { ($0.name, $0.seconds) }, uniquingKeysWith: +),
                bestEfforts: efforts[r.id] ?? [])
            run.powerStress = r.metrics[Metric.PowerStressScore.self]
            run.race = races[r.id].map { l in
                ReportRace(
                    name: l.raceName, targetSeconds: l.targetSeconds, actualSeconds: l.actualSeconds,
                    reviewLink: l.reviewPath.flatMap { Self.relativeLink(to: $0, from: reportDir) })
            }
            return run
        }
        let physiology = athlete.physiology
        let model = HeartRateZones.resolve(physiology.zoneModel, physiology: physiology)
        let zoneNames = HeartRateZones.fractions(model).map(\.0)
        var weeks = WeeklyAggregator.weeks(
            athleteID: athlete.id, athleteName: athlete.name, timeZone: athlete.timeZone,
            zoneNames: zoneNames, runs: runs, through: through, count: options.weeks, earlierBest: earlierBest)
        // Wellness: the weeks shown and the 60 days before them (the baselines).
        let measurements = try store.measurements(
            athleteID: athlete.id, kind: nil, from: since - Double(ReadinessModel.baselineDays + 2) * 86_400,
            until: until)
        WeeklyWellness.attach(&weeks, measurements: measurements, sourceOrder: athlete.sourceOrder ?? [])
        return weeks
    }

    /// A moment (epoch seconds) before every run of the rows of `weeks` weeks
    /// through `through` and of the week before the first (its changes), in any
    /// time zone: a day before that Monday's midnight in UTC (zones are at most
    /// 14 hours off UTC).
    static func windowStart(through: ISOWeek, weeks: Int) -> Double {
        Double(through.adding(weeks: -max(1, weeks)).monday - 1) * 86_400
    }

    /// A moment after every run of the week `through`, in any time zone: the
    /// midnight in UTC two days after its Sunday.
    static func windowEnd(through: ISOWeek) -> Double { Double(through.sunday + 2) * 86_400 }

    /// `path` relative to the folder `directory` (both resolved against the
    /// current directory), when the file exists.
    static func relativeLink(to path: String, from directory: String) -> String? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let target = URL(fileURLWithPath: path).standardizedFileURL.pathComponents
        let base = URL(fileURLWithPath: directory).standardizedFileURL.pathComponents
        var common = 0
        while common < min(target.count - 1, base.count), target[common] == base[common] { common += 1 }
        let up = Array(repeating: "..", count: base.count - common)
        return (up + target[common...]).joined(separator: "/")
    }

    static func roster(_ entries: [(Athlete, AthleteWeeks)], stamp: String?) -> String {
        let f = TextFormat.fixed
        var out = ["# Weekly reports", ""]
        if let stamp { out += ["Generated \(stamp).", ""] }
        out.append("| athlete | week | runs | km | load | fitness | form | warnings | report |")
        out.append("|---|---|---:|---:|---:|---:|---:|---:|---|")
        for (athlete, weeks) in entries {
            guard let w = weeks.rows.last else { continue }
            let warnings = WeeklyMarkdown.warnings(weeks.rows, runs: weeks.runsByWeek[w.week] ?? []).count
            out.append(
                "| \(athlete.name) | \(w.week) | \(w.runs) | \(f(w.distanceKm, 1)) | \(f(w.load, 0)) | \(f(w.fitnessEnd, 1)) | \(f(w.formEnd, 1)) | \(warnings) | [\(w.week)](\(athlete.id)/\(w.week).md) · [csv](\(athlete.id)/weekly.csv) |"
            )
        }
        return DisplayText.escaped(out.joined(separator: "\n") + "\n")
    }
}
