import RaceKitModel

/// Everything RaceKit derives from one run.
public struct RunAnalysis: Sendable {
    public var summary: RunSummary
    /// `moving[k]`: whether the step from point k to k+1 is movement.
    public var moving: [Bool]
    /// Whether the distance stream can place elevation changes (for splits).
    let hasDistance: Bool
    /// The zone model used, when zones could be drawn.
    public var zoneModel: ZoneModel?
    public var zones: [ZoneTime]?
    public var bestEfforts: [BestEffort]
    public var load: TrainingLoad?
    /// The device's laps and the stored values the metrics see (`MetricContext`).
    let laps: [Lap]
    let session: Lap?
    let stored: RunMetrics?
    /// The physiology used (with its estimates).
    public var physiology: Physiology
    /// The recorded elevation's grades, for grade-adjusted pace (nil without
    /// distance or elevation).
    public private(set) var gradeProfile: GradeProfile?
    private(set) var samples: SampleSeries
    /// The run's extra channels (running dynamics, developer fields), each
    /// summarised: time-weighted average and maximum over its values (for the
    /// running dynamics over its positive ones, as their run figures).
    public var channelSummaries: [ChannelSummary] {
        samples.extras.compactMap { e in
            let counts: (Double) -> Bool = e.isDynamics ? { $0.isFinite && $0 > 0 } : { $0.isFinite }
            guard let maximum = e.values.filter(counts).max(),
                let average = RunSummary.weightedAverage(e.values, time: samples.time, include: counts).average
            else { return nil }
            return ChannelSummary(key: e.key, unit: e.unit, average: average, maximum: maximum)
        }
    }

    /// The run's power, one value a second (power zones are worked out from it).
    public var powerSeries: PowerSeries { PowerSeries(samples) }

    /// True once `dropSeries()` released the samples: only the figures are left.
    public private(set) var isFiguresOnly = false
    /// Every metric's value (`MetricRegistry.compute`), redone by `apply`.
    public internal(set) var metrics: RunMetrics
    let sport: Sport

    /// Releases the samples and per-step flags kept for `apply` and `splits`, once
    /// only the figures are needed (a run waiting for the store's lock would
    /// otherwise hold its samples twice: as points and packed).
    public mutating func dropSeries() {
        samples = SampleSeries()
        moving = []
        gradeProfile = nil
        isFiguresOnly = true
    }

    /// Redoes the physiology-dependent part (zones and load) with `p`.
    public mutating func apply(_ p: Physiology) {
        precondition(!isFiguresOnly, "apply(_:) needs the samples, released by dropSeries()")
        let (model, zones, load) = RunAnalyzer.zonesAndLoad(samples, summary: summary, physiology: p)
        zoneModel = model
        self.zones = zones
        self.load = load
        physiology = p
        metrics = metrics.registry.compute(context)
    }

    /// What the metrics are computed over.
    var context: MetricContext {
        MetricContext(
            samples: samples, sport: sport, summary: summary, moving: moving, physiology: physiology, load: load,
            laps: laps, session: session, stored: stored)
    }

    /// Splits at every km or mile.
    public func splits(_ unit: DistanceUnit) -> [Split] {
        precondition(!isFiguresOnly, "splits(_:) needs the samples, released by dropSeries()")
        return Splits.compute(
            samples, unit: unit, moving: moving,
            elevation: summary.ascentMeters == nil ? nil : ElevationProfile.steps(samples, hasDistance: hasDistance),
            grade: gradeProfile)
    }
}

/// Runs every analysis over a cleaned activity. Version it: stored runs analysed
/// by an older version are redone by `runs recompute`.
public enum RunAnalyzer {
    /// Bumped whenever a change to the analysis changes stored numbers.
    /// 3: averages never hold a value across a segment break; best efforts leave
    /// out stretches faster than a human runs; summaries are range-checked.
    /// 4: grade-adjusted pace.
    /// 5: without distance, moving time is the elapsed time less recorded pauses.
    /// 6: best efforts also at 800 m, 3 km, 15 km, 10 miles, 30 km and 50 km; no
    /// pace load for an average faster than `TrainingLoadModel.maximumIntensity`.
    public static let baseVersion = 6

    /// The version of an analysis with `registry`'s metrics: a metric added
    /// later (`RunMetric.since`) makes runs analysed before it stale.
    public static func version(_ registry: MetricRegistry) -> Int { max(baseVersion, registry.version) }
    public static var version: Int { version(.standard) }

    /// The part of the analysis that depends on the athlete's physiology: time in
    /// zones and training load. `runs recompute` redoes only this when only the
    /// physiology changed. The pace load uses distance over moving time.
    public static func zonesAndLoad(_ s: SampleSeries, summary: RunSummary, physiology: Physiology)
        -> (model: ZoneModel?, zones: [ZoneTime]?, load: TrainingLoad?)
    {
        let model = HeartRateZones.resolve(physiology.zoneModel, physiology: physiology)
        var zones: [ZoneTime]?
        if summary.avgHeartRate != nil, let empty = HeartRateZones.zones(model, physiology: physiology) {
            zones = HeartRateZones.timeInZones(s, zones: empty)
        }
        var load: TrainingLoad?
        let coverage = (summary.heartRateCoveragePercent ?? 0) / 100
        if coverage >= TrainingLoadModel.minimumCoverage {
            load = TrainingLoadModel.heartRate(s, physiology: physiology)
        }
        if load == nil {
            load =
                TrainingLoadModel.pace(
                    movingSeconds: summary.movingSeconds, movingMeters: summary.distanceMeters ?? 0,
                    physiology: physiology)
                ?? (coverage > 0 ? TrainingLoadModel.heartRate(s, physiology: physiology) : nil)
        }
        return (zones == nil ? nil : model, zones, load)
    }

    /// Best efforts; on foot, stretches no human runs are left out of them.
    static func bestEfforts(_ s: SampleSeries, sport: Sport) -> [BestEffort] {
        let onFoot = sport == .running || sport == .walking || sport == .hiking
        return BestEfforts.compute(s, excluding: onFoot ? BestEfforts.inhumanSteps(s) : [])
    }

    /// The best efforts `analyse` finds in `activity` (none without a distance
    /// stream), for a caller that works them out beside the rest of the analysis.
    public static func bestEfforts(of activity: Activity) -> [BestEffort] {
        hasDistance(activity) ? bestEfforts(activity.samples, sport: activity.sport) : []
    }

    static func hasDistance(_ activity: Activity) -> Bool {
        activity.distanceSource == .device || activity.distanceSource == .gps
    }

    /// Every analysis of `activity`. `bestEfforts`: `bestEfforts(of: activity)`
    /// when the caller has it already, worked out here otherwise.
    public static func analyse(
        _ activity: Activity, physiology: Physiology, bestEfforts efforts: [BestEffort]? = nil,
        registry: MetricRegistry = .standard
    ) -> RunAnalysis {
        let s = activity.samples
        let hasDistance = hasDistance(activity)
        let limits = SportLimits.of(activity.sport, declared: activity.sportDeclared)
        let moving = MovingTime.movingSteps(
            s, segmentStarts: activity.segmentStarts, hasDistance: hasDistance,
            gpsFromPositions: activity.distanceSource == .device, limits: limits)
        let elevation = ElevationProfile.totals(s, hasDistance: hasDistance)
        var summary = RunSummary(activity)
        summary.movingSeconds = s.count > 1 ? MovingTime.seconds(s, moving: moving) : nil
        summary.ascentMeters = elevation?.gain
        summary.descentMeters = elevation?.loss
        let grades = hasDistance && elevation != nil ? GradeProfile(s) : nil
        if let grades, let d = summary.distanceMeters, d > 0 {
            let pace = (summary.movingSeconds ?? summary.elapsedSeconds) / (d / 1000)
            summary.gradeAdjustedPaceSecondsPerKm = grades.adjusted(pace, from: 0, to: grades.length)
        }
        summary = summary.sanitised()

        let (model, zones, load) = zonesAndLoad(s, summary: summary, physiology: physiology)
        var analysis = RunAnalysis(
            summary: summary, moving: moving, hasDistance: hasDistance, zoneModel: model,
            zones: zones, bestEfforts: efforts ?? bestEfforts(of: activity), load: load,
            laps: activity.repairs.lapTotalsIgnored ? [] : activity.laps,
            session: activity.repairs.sessionTotalsIgnored ? nil : activity.session, stored: activity.stored,
            physiology: physiology, gradeProfile: grades, samples: s, metrics: RunMetrics(registry),
            sport: activity.sport)
        analysis.metrics = registry.compute(analysis.context)
        return analysis
    }
}
