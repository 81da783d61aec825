import Foundation
import RaceKitMetrics
import RaceKitModel
import RaceKitStore
import Synchronization

/// Analyses stored runs again: those analysed by an older analysis version (in
/// full), those analysed with other physiology than the athlete's current one
/// (set values, or estimates from a history that has grown: zones and load only),
/// or all of them in full with `force`; then each power run's intensity and
/// stress at the critical power in force on its day (`PowerRefresh`).
public struct Recompute: Sendable {
    public let store: any AthleteRepository & RunRepository & DailyRepository
    public init(store: any AthleteRepository & RunRepository & DailyRepository) { self.store = store }

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

    /// What is left to recompute for one athlete: runs of this analysis version
    /// whose zones and load are of another profile than the athlete's current
    /// one (an import stopped before its recompute, or a physiology change not
    /// yet applied), and runs analysed by an older RaceKit.
    public struct Pending: Sendable, Equatable {
        public var athleteID: String
        public var provisional = 0
        public var olderVersion = 0
    }

    /// `Pending` for every athlete that has any, by athlete id.
    public func pending() throws -> [Pending] {
        try store.athletes().compactMap { athlete in
            let physiology = try store.physiology(athleteID: athlete.id)
            let stale = try store.staleRuns(athleteID: athlete.id, currentProfile: physiology.profileKey, force: false)
            guard !stale.isEmpty else { return nil }
            let current = stale.filter { $0.analysisVersion == RunAnalyzer.version(store.registry) }.count
            return Pending(athleteID: athlete.id, provisional: current, olderVersion: stale.count - current)
        }
    }

    /// Analyses one run again in full (after its sport was changed by hand).
    public func reanalyse(runID: String) throws {
        guard let record = try store.run(id: runID) else { throw StoreError.unknownRun(runID) }
        let physiology = try store.physiology(athleteID: record.athleteID)
        var activity = try store.activity(of: record)
        TrackRepair.recheck(&activity)
        try store.saveAnalysis(
            runID: record.id, RunAnalyzer.analyse(activity, physiology: physiology, registry: store.registry))
        try PowerRefresh.run(store, athleteID: record.athleteID)
    }

    /// Runs read and analysed again between two writes to the store.
    static let chunk = 256

    /// Recomputes one athlete's stale runs: read and analysed `jobs` at a time
    /// (after an import of many files nearly every run is stale: its history
    /// grew), and the new zones and load of each chunk of runs stored in one
    /// transaction. A run that fails is named in `failed`; the others go on.
    public func run(
        athleteID: String, force: Bool, jobs: Int = ProcessInfo.processInfo.activeProcessorCount
    ) throws -> Outcome {
        let physiology = try store.physiology(athleteID: athleteID)
        let stale = try store.staleRuns(
            athleteID: athleteID, currentProfile: physiology.profileKey, force: force)
        var outcome = Outcome()
        outcome.checked = stale.count
        for start in stride(from: 0, to: stale.count, by: Self.chunk) {
            let records = Array(stale[start..<min(stale.count, start + Self.chunk)])
            // The samples of the runs whose zones and load alone are redone, in one read.
            let stored = try store.storedSamples(runIDs: records.filter { !needsAnalysis($0, force: force) }.map(\.id))
            let updates = Self.parallel(records, jobs: jobs) { record in
                Result { try self.update(record, physiology: physiology, force: force, samples: stored[record.id]) }
            }
            var results: [PhysiologyResults] = []
            for (record, update) in zip(records, updates) {
                do {
                    switch try update.get() {
                    case .analysis(let analysis, let sport):
                        try store.saveAnalysis(runID: record.id, analysis, sport: sport)
                        outcome.updated += 1
                    case .physiology(let r):
                        results.append(r)
                    }
                } catch {
                    outcome.failed.append("\(record.id): \(error)")
                }
            }
            do {
                try store.savePhysiologyResults(results)
                outcome.updated += results.count
            } catch {
                // One run failing (deleted meanwhile, say) fails the chunk's
                // transaction: each run again on its own, so only it fails.
                for r in results {
                    do {
                        try store.savePhysiologyResults([r])
                        outcome.updated += 1
                    } catch {
                        outcome.failed.append("\(r.runID): \(error)")
                    }
                }
            }
        }
        // Last, over the runs as now stored (also when nothing was stale: an
        // import stores runs whose intensity waits for this, and one killed
        // before it left them so).
        try PowerRefresh.run(store, athleteID: athleteID)
        return outcome
    }

    enum Update: Sendable {
        /// Analysed again in full (and its sport, when inferred anew).
        case analysis(RunAnalysis, sport: Sport?)
        /// Only the physiology changed: zones and load anew, the rest kept.
        case physiology(PhysiologyResults)
    }

    /// Whether a run is analysed again in full (the rest get their zones and load anew).
    func needsAnalysis(_ record: RunRecord, force: Bool) -> Bool {
        force || record.analysisVersion != RunAnalyzer.version(store.registry)
    }

    /// `samples`: the run's `data` as stored (`RunRepository.storedSamples`), for a run not analysed in full.
    func update(_ record: RunRecord, physiology: Physiology, force: Bool, samples stored: StoreValue?) throws -> Update
    {
        if needsAnalysis(record, force: force) {
            var activity = try store.activity(of: record)
            let sportChanged = TrackRepair.recheck(&activity)
            var analysis = RunAnalyzer.analyse(activity, physiology: physiology, registry: store.registry)
            // A chunk of runs waits for the store: each keeps its figures, not its samples.
            analysis.dropSeries()
            return .analysis(analysis, sport: sportChanged ? activity.sport : nil)
        }
        guard let samples = try SampleCodec.decode(stored: stored, runID: record.id) else {
            throw StoreError.corruptSamples(runID: record.id, reason: "no samples stored")
        }
        var summary = RunSummary.stored(record)
        summary.pointCount = samples.count
        let (model, zones, load) = RunAnalyzer.zonesAndLoad(samples, summary: summary, physiology: physiology)
        return .physiology(
            PhysiologyResults(runID: record.id, model: model, zones: zones, load: load, physiology: physiology))
    }

    /// `body` of every record, `jobs` at a time, in the records' order.
    static func parallel<T: Sendable>(_ records: [RunRecord], jobs: Int, _ body: @Sendable (RunRecord) -> T) -> [T] {
        let results = Locked<[T?]>(Array(repeating: nil, count: records.count))
        let next = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: max(1, min(jobs, records.count))) { _ in
            while case let i = next.wrappingAdd(1, ordering: .relaxed).oldValue, i < records.count {
                let result = body(records[i])
                results.withLock { $0[i] = result }
            }
        }
        return results.withLock { $0.map { $0! } }
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
