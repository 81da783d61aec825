import Foundation
import RaceKitCore
import RaceKitStore

/// Analyses stored runs again: those analysed by an older analysis version or
/// with other physiology than the athlete's current one (set values, or
/// estimates from a history that has grown), or all of them with `force`.
public struct Recompute: Sendable {
    public let store: RunStore
    public init(store: RunStore) { self.store = store }

    /// What a recompute did.
    public struct Outcome: Sendable, Equatable {
        public var checked = 0
        public var updated = 0
        public var failed: [String] = []
        public init() {}
    }

    /// Recomputes one athlete's stale runs.
    public func run(athleteID: String, force: Bool) throws -> Outcome {
        let physiology = try store.physiology(athleteID: athleteID)
        let stale = try store.staleRuns(athleteID: athleteID, currentProfile: RunStore.profileKey(physiology), force: force)
        var outcome = Outcome()
        for record in stale {
            outcome.checked += 1
            do {
                let activity = try store.activity(of: record)
                try store.saveAnalysis(runID: record.id, RunAnalyzer.analyse(activity, physiology: physiology))
                outcome.updated += 1
            } catch {
                outcome.failed.append("\(record.id): \(error)")
            }
        }
        return outcome
    }
}
