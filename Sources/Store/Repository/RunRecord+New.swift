import RaceKitMetrics
import RaceKitModel

/// How a run row is made from an activity and its analysis, and how an edit or
/// a richer copy changes it: one rule for every store backend.
extension RunRecord {
    /// The row of a new activity from a document whose digest is `sha256`, with
    /// the analysis' figures (`apply`).
    public init(
        _ run: NewRun, athleteID: String, sourceFile: String, format: SourceFormat, sha256: String,
        importedAt: Double
    ) {
        let s = run.summary, a = run.activity
        let registry = run.analysis.metrics.registry
        self.init(
            id: ULID.make(at: s.startedAt), athleteID: athleteID, sport: a.sport,
            sportDeclared: a.sportDeclared, name: a.name, sourceFile: sourceFile, sourceFormat: format,
            sourceSHA256: sha256, activityIndex: run.activityIndex, creator: a.creator,
            startedAt: s.startedAt, endedAt: s.endedAt, elapsedSeconds: s.elapsedSeconds, movingSeconds: nil,
            distanceMeters: s.distanceMeters, distanceSource: a.distanceSource,
            ascentMeters: nil, descentMeters: nil, avgHeartRate: s.avgHeartRate, maxHeartRate: s.maxHeartRate,
            heartRateCoveragePercent: s.heartRateCoveragePercent, avgCadence: s.avgCadence,
            load: nil, loadSource: nil, label: run.label, mode: .free, runType: a.isIndoor ? .treadmill : .outdoor,
            perceivedEffort: nil, notes: run.notes, pointCount: s.pointCount, repairs: StoredJSON.text(a.repairs),
            analysisVersion: RunAnalyzer.version(registry), importedAt: importedAt, registry: registry)
        apply(run.analysis)
    }

    /// Copies an analysis' figures into the row (and marks it analysed by this
    /// version with that physiology).
    public mutating func apply(_ a: RunAnalysis) {
        metrics = a.metrics
        loadSource = a.load?.source
        loadEstimated = a.load.map { StoredJSON.text($0.estimated) }
        zoneModel = a.zoneModel
        analysisVersion = RunAnalyzer.version(a.metrics.registry)
        analysisProfile = a.physiology.profileKey
    }

    /// A richer copy replacing `stored` (`DuplicateDecision.replace`) keeps the
    /// stored run's id, athlete and what the user set: label, mode, run type,
    /// effort, notes, and a sport the user (or the first file) declared.
    public mutating func keepWhatTheUserSet(on stored: RunRecord) {
        id = stored.id
        athleteID = stored.athleteID
        label = stored.label
        mode = stored.mode
        runType = stored.runType
        perceivedEffort = stored.perceivedEffort
        notes = stored.notes
        if stored.sportDeclared, !sportDeclared {
            sport = stored.sport
            sportDeclared = true
        }
    }

    /// Applies a user's edit.
    public mutating func apply(_ e: RunEdit) {
        if let v = e.label { label = v }
        if let v = e.mode { mode = v }
        if let v = e.runType { runType = v }
        if let v = e.perceivedEffort { perceivedEffort = v }
        if let v = e.notes { notes = v }
        if let v = e.sport {
            sport = v
            sportDeclared = true
        }
    }
}
