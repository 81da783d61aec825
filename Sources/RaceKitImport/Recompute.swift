import Foundation
import RaceKitCore

/// Analyses stored runs again: those analysed by an older analysis version (in
/// full), those analysed with other physiology than the athlete's current one
/// (set values, or estimates from a history that has grown: zones and load only),
/// or all of them in full with `force`.
public struct Recompute: Sendable {
    public let store: any AthleteRepository & RunRepository
    public init(store: any AthleteRepository & RunRepository) { self.store = store }

    /// What a recompute did.
    public struct Outcome: Sendable, Equatable {
        public var checked = 0
        public var updated = 0
        public var failed: [String] = []
        public init() {}

        /// What `runs recompute` says: "Recomputed 3 of 5 runs.", or that all were up to date.
        public var summary: String {
            checked == 0 ? "All runs are up to date." : "Recomputed \(updated) of \(checked) runs."
        }
    }

    /// Analyses one run again in full (after its sport was changed by hand).
    public func reanalyse(runID: String) throws {
        guard let record = try store.run(id: runID) else { throw StoreError.unknownRun(runID) }
        let physiology = try store.physiology(athleteID: record.athleteID)
        var activity = try store.activity(of: record)
        TrackRepair.recheck(&activity)
        try store.saveAnalysis(runID: record.id, RunAnalyzer.analyse(activity, physiology: physiology))
    }

    /// Recomputes one athlete's stale runs.
    public func run(athleteID: String, force: Bool) throws -> Outcome {
        let physiology = try store.physiology(athleteID: athleteID)
        let stale = try store.staleRuns(
            athleteID: athleteID, currentProfile: physiology.profileKey, force: force)
        var outcome = Outcome()
        for record in stale {
            outcome.checked += 1
            do {
                if force || record.analysisVersion != RunAnalyzer.version {
                    var activity = try store.activity(of: record)
                    let sportChanged = TrackRepair.recheck(&activity)
                    try store.saveAnalysis(
                        runID: record.id, RunAnalyzer.analyse(activity, physiology: physiology),
                        sport: sportChanged ? activity.sport : nil)
                } else {
                    // Only the physiology changed: redo zones and load, keep the rest.
                    let samples = try store.samples(of: record)
                    var summary = RunSummary.stored(record)
                    summary.pointCount = samples.count
                    let (model, zones, load) = RunAnalyzer.zonesAndLoad(
                        samples, summary: summary, physiology: physiology)
                    try store.savePhysiologyResults(
                        runID: record.id, model: model, zones: zones, load: load, physiology: physiology)
                }
                outcome.updated += 1
            } catch {
                outcome.failed.append("\(record.id): \(error)")
            }
        }
        return outcome
    }
}

extension RunSummary {
    /// The stored summary of a run (what zones and load need from it).
    static func stored(_ r: RunRecord) -> RunSummary {
        var s = RunSummary(
            startedAt: r.startedAt, endedAt: r.endedAt, elapsedSeconds: r.elapsedSeconds, pointCount: r.pointCount)
        s.distanceMeters = r.distanceMeters
        s.movingSeconds = r.movingSeconds
        s.avgHeartRate = r.avgHeartRate
        s.maxHeartRate = r.maxHeartRate
        s.heartRateCoveragePercent = r.heartRateCoveragePercent
        return s
    }
}
