import Foundation
import RaceKitImport
import RaceKitModel
import RaceKitStore
import RaceKitStoreOpener

/// `racekit import`: the paths walked, the store opened on another thread
/// while the first files are read, every file's result, and how the command ends.
public enum ImportJob {
    public struct Outcome {
        /// Every input's result, the missing paths' last.
        public var results: [FileResult]
        /// True when the import created the store.
        public var createdStore: Bool
        /// The store failure that stopped the import, or the recompute's after it.
        public var error: (any Error)?
        /// The exit class when no error was thrown: nil for success.
        public var exit: ExitClass?
        /// True when `progress` was used (more than one file): its line wants clearing.
        public var showedProgress: Bool
    }

    /// Imports `paths` for `options.athleteID` into the store at `location`
    /// (created when missing). `progress` gets each step when more than one file is read.
    public static func run(
        paths: [String], location: StoreLocation, options: ImportOptions,
        progress: (@Sendable (ImportProgress) -> Void)? = nil
    ) throws -> Outcome {
        let athlete = options.athleteID
        let pending = PendingStore {
            // A store error while checking is a store error (74), not an unknown athlete.
            let store = try location.open(access: .create)
            guard try store.athlete(id: athlete) != nil else { throw StoreError.unknownAthlete(athlete) }
            return store
        }
        let (files, missing) = InputCollector.collect(paths)
        let shown = files.count > 1 ? progress : nil
        let run = try Importer(opening: pending, options: options).importAll(files: files, progress: shown)
        let results =
            run.results
            + missing.map { FileResult(file: $0, status: .failed, reason: "\($0): no such file or directory") }
        let summary = ImportSummary(results)
        var exit: ExitClass?
        if files.isEmpty && !missing.isEmpty {
            exit = .noInput
        } else if summary.failed > 0 {
            exit = run.refusedExport ? .dataError : .someFailed
        }
        return Outcome(
            results: results, createdStore: (try? pending.get())?.created ?? false,
            error: (run.storeFailure as (any Error)?) ?? run.recomputeError, exit: exit, showedProgress: shown != nil)
    }

    /// A progress callback drawing at most 10 lines a second through `draw`.
    public static func throttled(_ draw: @escaping @Sendable (String) -> Void) -> @Sendable (ImportProgress) -> Void {
        let lastDraw = Locked<Double>(0)
        return { p in
            let now = Date().timeIntervalSince1970
            let due = lastDraw.withLock { last -> Bool in
                guard now - last >= 0.1 || p.done == p.total else { return false }
                last = now
                return true
            }
            guard due else { return }
            let s = p.summary
            draw(
                "[\(p.done)/\(p.total)] \(s.imported) imported, \(s.duplicate) duplicate, \(s.skipped) skipped, \(s.failed) failed"
            )
        }
    }
}
