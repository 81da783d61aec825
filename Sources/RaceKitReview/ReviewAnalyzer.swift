import Foundation
import RaceKitMetrics
import RaceKitModel
import RaceKitPlan
import RaceKitScript

/// Reviews a recorded run against a race plan (docs/review.md).
public enum ReviewAnalyzer {
    /// Slower than this (course metres per second) is standing still.
    public static let stopSpeedMetersPerSecond = 0.5
    /// A stop lasts at least this long, in seconds.
    public static let minimumStopSeconds = 5.0
    /// A stop or slowdown this close to a cue (metres before or after) is at it.
    public static let aidWindowMeters = 150.0
    /// The pace a slowdown is measured against: this many metres before and after the window.
    public static let slowdownReferenceMeters = 400.0
    /// A slowdown at a cue is mentioned from this many seconds lost.
    public static let slowdownNoticeSeconds = 5.0
    /// Standing still this close to the finish is after the race, not a stop.
    public static let finishZoneMeters = 20.0

    /// What a review needs besides the plan: the run and what replays it.
    public struct Input: Sendable {
        public var runID: String
        /// How the Markdown names the run (ids are random: a file must not
        /// change when the same export is imported again), e.g. the source file.
        public var runName: String = ""
        public var samples: SampleSeries
        /// The run's start (UTC epoch seconds), for the script's time of day.
        public var startEpoch: Double
        /// The script the setup makes (nil: no replay).
        public var script: RaceScript?
        public var physiology: Physiology?
        public var timeZone: TimeZone
        /// Review a run that is not on the setup's course (`CourseFit`) with a
        /// warning instead of refusing it.
        public var acceptOffCourse = false

        public init(
            runID: String, runName: String = "", samples: SampleSeries, startEpoch: Double, script: RaceScript?,
            physiology: Physiology?, timeZone: TimeZone, acceptOffCourse: Bool = false
        ) {
            self.runID = runID; self.runName = runName; self.samples = samples; self.startEpoch = startEpoch;
            self.script = script
            self.physiology = physiology; self.timeZone = timeZone; self.acceptOffCourse = acceptOffCourse
        }
    }

    /// Why the run is not on the setup's course, or nil (no course, no
    /// positions, or on it); throws `ReviewError.offCourse` unless accepted.
    static func courseWarning(_ plan: RacePlan, _ input: Input) throws -> String? {
        guard let course = plan.course, let fit = CourseFit.check(input.samples, course: course),
            let problem = fit.problem
        else { return nil }
        let name = plan.setup.course ?? "of the setup"
        guard input.acceptOffCourse else {
            throw ReviewError.offCourse(
                runID: input.runID, file: plan.setup.file, course: name, problem: problem)
        }
        return "Not on the course \(name): \(problem); reviewed anyway (--off-course)."
    }

    public static func review(_ plan: RacePlan, _ input: Input) throws -> RaceReview {
        let s = input.samples
        let race = plan.setup.distanceMeters
        guard s.count >= 2, s.distance.count == s.count,
            let recorded = s.distance.lazy.filter({ $0.isFinite }).max(), recorded > 0
        else { throw ReviewError.noDistance(runID: input.runID) }
        guard abs(recorded / race - 1) <= RaceReview.alignmentTolerance else {
            throw ReviewError.distanceMismatch(runID: input.runID, runMeters: recorded, raceMeters: race)
        }
        let warning = try courseWarning(plan, input)
        let scale = race / recorded
        let line = ReviewTimeline(s, scale: scale)
        let grades = GradeProfile(s, scale: scale)
        let stops = line.stops(speed: stopSpeedMetersPerSecond, minimum: minimumStopSeconds, finish: race)
        let splits = self.splits(plan, line: line, grades: grades, stops: stops)
        let cues = plan.cues.cues.map { cue(plan, $0, line: line, stops: stops) }
        let actual = line.time(at: race)
        let broke = ReviewFindings.brokeAt(splits).map { start in
            ReviewFindings.lossStart(
                splitFrom: start, to: splits.first { $0.startMeters == start }?.endMeters ?? start, plan: plan,
                line: line, stops: stops)
        }
        let fade = ReviewFindings.fade(plan, line: line, stops: stops)
        var script: ReviewScript?
        if let rs = input.script {
            script = replay(rs, input: input, scale: scale)
        }
        var review = RaceReview(
            plan: plan, runID: input.runID, runName: input.runName, recordedMeters: recorded, scale: scale,
            targetSeconds: plan.plannedSeconds.rounded(), actualSeconds: actual, splits: splits, brokeAtMeters: broke,
            fadePercent: fade, cues: cues, stops: stops, script: script, findings: [],
            warnings: warning.map { [$0] } ?? [], profile: profile(plan, grades: grades), gapTrace: [])
        review.gapTrace = stride(from: 0.0, through: race, by: 100).map { m in
            (m, line.time(at: m) - plan.pacePlan.clockSeconds(at: m))
        }
        review.conditions = ReviewConditions.measure(
            s, actualSeconds: actual, weather: plan.setup.weather, timeZone: input.timeZone)
        review.findings = ReviewFindings.findings(review, line: line)
        return review
    }

    /// The splits. Grade and grade-adjusted pace are the course's (the plan's
    /// grade column, the setup's grade model) when the plan has a course with
    /// elevation, else the recorded elevation's.
    static func splits(_ plan: RacePlan, line: ReviewTimeline, grades: GradeProfile?, stops: [ReviewStop])
        -> [ReviewSplit]
    {
        let courseCost = plan.course.flatMap { $0.hasElevation ? $0.cost(plan.setup.gradeModel) : nil }
        return plan.splits.map { row in
            let p = row.split
            let km = (p.endMeters - p.startMeters) / 1000
            let a0 = line.time(at: p.startMeters), a1 = line.time(at: p.endMeters)
            let c1 = plan.pacePlan.clockSeconds(at: p.endMeters)
            let actual = a1 - a0
            let stopped = stops.filter { $0.atMeters >= p.startMeters && $0.atMeters < p.endMeters }
                .reduce(0) { $0 + $1.seconds }
            let pace = km > 0 ? actual / km : 0
            let gap =
                courseCost.map { c in
                    pace > 0 ? pace / c.meanFactor(from: p.startMeters, to: p.endMeters) : nil
                } ?? grades?.adjusted(pace, from: p.startMeters, to: p.endMeters)
            let grade =
                courseCost != nil
                ? row.gradePercent : grades?.gradePercent(from: p.startMeters, to: p.endMeters) ?? row.gradePercent
            // The planned split is the plan's own (its clock rounded once to the
            // second at each end: one clock with `race plan`, the band and the
            // script); the gap is against the unrounded clock.
            let planned = Double(p.splitSeconds)
            return ReviewSplit(
                index: p.index, startMeters: p.startMeters, endMeters: p.endMeters, plannedSeconds: planned,
                actualSeconds: actual, gapSeconds: a1 - c1, stoppedSeconds: stopped,
                plannedPaceSecondsPerKm: km > 0 ? planned / km : 0, actualPaceSecondsPerKm: pace,
                gradeAdjustedPaceSecondsPerKm: gap, gradePercent: grade,
                avgHeartRate: line.averageHeartRate(from: a0, to: a1),
                avgPowerWatts: line.averagePower(from: a0, to: a1),
                partial: p.partial)
        }
    }

    static func cue(_ plan: RacePlan, _ c: Cue, line: ReviewTimeline, stops: [ReviewStop]) -> ReviewCue {
        let d = c.distanceMeters, w = aidWindowMeters, r = slowdownReferenceMeters
        let race = plan.setup.distanceMeters
        let stopped = stops.filter { abs($0.atMeters - d) <= w }.reduce(0) { $0 + $1.seconds }
        let a = max(0, d - w), b = min(race, d + w)
        let before = max(0, a - r), after = min(race, b + r)
        let window = line.time(at: b) - line.time(at: a)
        let reference = (line.time(at: a) - line.time(at: before)) + (line.time(at: after) - line.time(at: b))
        let referenceMeters = (a - before) + (after - b)
        let expected = referenceMeters > 0 ? reference / referenceMeters * (b - a) : window
        return ReviewCue(
            kind: c.kind, number: c.number, plannedMeters: d, plannedClockSeconds: Double(c.clockSeconds),
            actualClockSeconds: line.time(at: d), metersAtPlannedClock: line.meters(at: Double(c.clockSeconds)),
            stopSeconds: stopped, slowdownSeconds: max(0, window - expected))
    }

    /// The script replayed on the run with the course's distances.
    static func replay(_ script: RaceScript, input: Input, scale: Double) -> ReviewScript? {
        // Aligned to the course as the review's own timeline (`scale`).
        let metrics = ScriptReplay.recorded(
            input.samples, startEpoch: input.startEpoch, script: script, physiology: input.physiology,
            timeZone: input.timeZone)
        // A script that does not run (it was validated when generated) gives no summary.
        guard !metrics.isEmpty, let result = try? TriggerEngine.simulate(script, metrics: metrics) else { return nil }
        var out = ReviewScript(report: ScriptReplay.Report(result))
        for p in result.played {
            let key = p.branchKey ?? ""
            // Checkpoints are toned by the running total, per-unit lines by the split.
            if key.hasPrefix("ahead") || key == "split_quick" {
                out.ahead += 1
            } else if key.hasPrefix("behind") || key == "split_slow" {
                out.behind += 1
            } else if key.hasPrefix("on_") || key == "split_on" {
                out.onPlan += 1
            }
            if p.triggerType == .condition {
                out.conditions.append((String(p.messageId.split(separator: ".").last ?? ""), p.distanceMeters))
            }
        }
        return out
    }

    /// Elevation every 100 m: the plan's course, else the recorded elevation smoothed.
    static func profile(_ plan: RacePlan, grades: GradeProfile?) -> [(meters: Double, elevation: Double)] {
        let race = plan.setup.distanceMeters
        let marks = Array(stride(from: 0.0, to: race, by: 100)) + [race]
        if let c = plan.course, c.hasElevation {
            return marks.compactMap { m in c.elevation(at: m).map { (m, $0) } }
        }
        guard let g = grades else { return [] }
        return marks.map { ($0, g.elevation(at: $0)) }
    }
}
