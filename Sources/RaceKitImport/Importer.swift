import Dispatch
import Foundation
import RaceKitCore
import RaceKitFormats
import RaceKitStore
import Synchronization

/// Options of one import.
public struct ImportOptions: Sendable {
    public var athleteID = Athlete.defaultID
    /// Files parsed at once; defaults to the number of cores.
    public var jobs = ProcessInfo.processInfo.activeProcessorCount
    /// Store the same activity again when it comes from another file.
    public var allowDuplicates = false
    public init() {}
}

/// A store opened on another thread, so that an import starts reading its
/// first file at once: parsing needs no store, only analysing (the athlete's
/// physiology) and storing do, and they wait for it.
public final class PendingStore: Sendable {
    private let result = Locked<Result<RunStore, any Error>?>(nil)
    private let ready = DispatchGroup()

    /// A store that is already open.
    public init(_ store: RunStore) {
        result.withLock { $0 = .success(store) }
    }

    /// Runs `open` on a thread of its own.
    public init(opening open: @escaping @Sendable () throws -> RunStore) {
        ready.enter()
        let thread = Thread { [self] in
            let opened = Result { try open() }
            result.withLock { $0 = opened }
            ready.leave()
        }
        thread.name = "racekit-open-store"
        thread.start()
    }

    /// The store, once open; rethrows what opening it threw.
    public func get() throws -> RunStore {
        ready.wait()
        return try result.withLock { $0! }.get()
    }
}

/// The import job: each file is read, repaired, summarised and stored in one
/// transaction, on `jobs` worker threads; a failure never stops the other files.
public struct Importer: Sendable {
    private let pending: PendingStore
    public let options: ImportOptions

    public init(store: RunStore, options: ImportOptions) {
        self.init(opening: PendingStore(store), options: options)
    }

    /// An import that starts reading files while `pending` still opens.
    public init(opening pending: PendingStore, options: ImportOptions) {
        self.pending = pending
        self.options = options
    }

    /// What analysing and storing a file needs from the store.
    struct Context: Sendable {
        var store: RunStore
        /// The athlete's set physiology.
        var profile: Physiology
        /// Their history, for estimates.
        var history: Physiology.History
    }

    func context() throws -> Context {
        let store = try pending.get()
        return Context(
            store: store,
            profile: try store.athlete(id: options.athleteID)?.physiology ?? Physiology(),
            history: try store.history(athleteID: options.athleteID))
    }

    /// What a whole import did: one result per file, and what went wrong when the
    /// athlete's stored runs were analysed again afterwards (nil when nothing did).
    public struct Run: Sendable {
        public var results: [FileResult]
        public var recomputeError: RecomputeError?
        /// True when an Apple Health export was refused as a whole (bad data).
        public var refusedExport = false
    }

    /// Analysing stored runs again after an import failed (the files themselves
    /// were stored; `runs recompute` tries again).
    public struct RecomputeError: RaceKitError {
        public var exitClass: ExitClass { .ioError }
        public var failures: [String]
        public var description: String {
            "the import is stored, but analysing the athlete's runs again failed (run 'racekit runs recompute' to retry): "
                + failures.joined(separator: "; ")
        }
    }

    /// `importAll(files:progress:)`, throwing its recompute error when there is one.
    public func run(files: [String], progress: (@Sendable (ImportProgress) -> Void)? = nil) throws -> [FileResult] {
        let run = try importAll(files: files, progress: progress)
        if let error = run.recomputeError { throw error }
        return run.results
    }

    /// Imports `files` in parallel; results come back in the order of `files`,
    /// Apple Health exports among them last, one result per workout (`HealthImport`).
    /// `progress` is called after each file (serialised). When runs were stored,
    /// the athlete's runs analysed with other physiology estimates than the
    /// history now gives are analysed again (see `Recompute`). Throws only what
    /// opening the store threw (the files read meanwhile are then left alone).
    public func importAll(files given: [String], progress: (@Sendable (ImportProgress) -> Void)? = nil) throws -> Run {
        // Apple Health exports: read after the other files (HealthImport.swift).
        let exports = given.filter(InputCollector.isHealthExport)
        let files = exports.isEmpty ? given : given.filter { !exports.contains($0) }
        // Read once, by the first worker that has parsed a file.
        let shared = Locked<Result<Context, any Error>?>(nil)
        // Set once the store cannot be used (it did not open, or the athlete is
        // unknown): the workers then take no more files, instead of parsing all
        // of them for nothing.
        let unusable = Atomic<Bool>(false)
        let sharedContext = { @Sendable () throws -> Context in
            try shared.withLock { value in
                if value == nil {
                    value = Result { try self.context() }
                    if case .failure = value! { unusable.store(true, ordering: .relaxed) }
                }
                return try value!.get()
            }
        }
        let results = Locked([FileResult?](repeating: nil, count: files.count))
        let next = Atomic<Int>(0)
        let done = Locked<(count: Int, summary: [FileResult])>((0, []))
        let workers = max(1, min(options.jobs, files.count))
        // A core no worker uses can read a large file ahead of its handler.
        let readAhead: ActivityFileReader.ReadAhead =
            ProcessInfo.processInfo.activeProcessorCount > workers ? .largeFiles : .never
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while !unusable.load(ordering: .relaxed) {
                let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard index < files.count else { return }
                let result = importFile(files[index], context: sharedContext, readAhead: readAhead)
                results.withLock { $0[index] = result }
                if let progress {
                    done.withLock { state in
                        state.count += 1
                        state.summary.append(result)
                        progress(
                            ImportProgress(done: state.count, total: files.count, summary: ImportSummary(state.summary))
                        )
                    }
                }
            }
        }
        let health = importHealthExports(exports, context: sharedContext, progress: progress)
        let store = try pending.get()
        let final = results.withLock { $0.map { $0! } } + health.results
        var recomputeError: RecomputeError?
        if final.contains(where: { $0.status == .imported || $0.status == .upgraded }) {
            do {
                let outcome = try Recompute(store: store).run(athleteID: options.athleteID, force: false)
                if !outcome.failed.isEmpty { recomputeError = RecomputeError(failures: outcome.failed) }
            } catch {
                recomputeError = RecomputeError(failures: ["\(error)"])
            }
        }
        return Run(results: final, recomputeError: recomputeError, refusedExport: health.refused)
    }

    /// Imports one file; never throws: every problem becomes a `failed` result.
    /// The athlete's set physiology and history (for estimates) come from the
    /// store. Each run's estimates include the run itself, so an import that sets
    /// no new record leaves nothing to recompute.
    public func importFile(_ path: String) -> FileResult {
        importFile(path, context: context, readAhead: .largeFiles)
    }

    private func importFile(
        _ path: String, context loadContext: () throws -> Context,
        readAhead: ActivityFileReader.ReadAhead
    ) -> FileResult {
        do {
            var read = try ActivityFileReader.read(path: path, readAhead: readAhead)
            // Move the document out of the result: a second reference would make
            // the repair step copy every sample array instead of compacting in place.
            var outcome = ReadOutcome.empty
            swap(&outcome, &read.outcome)
            guard case .document(var document) = consume outcome else {
                return FileResult(file: path, status: .skipped, reason: "empty file: no XML content")
            }
            if document.activities.isEmpty {
                return FileResult(file: path, status: .skipped, reason: Self.whyNoActivity(document))
            }
            let context = try loadContext()
            let (profile, history) = (context.profile, context.history)
            var newRuns: [NewRun] = []
            var notes: [String] = []
            var pending = document.activities
            document.activities = []
            let count = pending.count
            for index in 0..<count {
                // Take the activity out so the repair step owns the only reference
                // to its samples and compacts them in place.
                var raw = RawActivity()
                swap(&raw, &pending[index])
                switch TrackRepair.repair(
                    consume raw, format: document.format, documentHeartRate: document.documentHeartRate)
                {
                case .activity(var activity):
                    // Analyse the samples as they will be stored, so that a later
                    // recompute from the store gives exactly the same numbers.
                    SampleCodec.quantize(&activity.samples)
                    // Analysis and blob encoding are independent: run them side by side.
                    let ready = activity
                    let (analysed, blob) = Self.both(
                        { () -> RunAnalysis in
                            var analysis = RunAnalyzer.analyse(ready, physiology: profile)
                            let running = ready.sport == .running   // the history counts running only
                            let withRun =
                                running
                                ? history.adding(
                                    maxHeartRate: analysis.summary.maxHeartRate,
                                    bestEfforts: analysis.bestEfforts) : history
                            let physiology = profile.completed(with: withRun)
                            if physiology != profile { analysis.apply(physiology) }
                            return analysis
                        }, { SampleCodec.encode(ready.samples) })
                    newRuns.append(
                        NewRun(activity: activity, analysis: analysed, activityIndex: index, encodedSamples: blob))
                case .notAnActivity(let reason):
                    notes.append(count > 1 ? "activity \(index + 1): \(reason)" : reason)
                }
            }
            if newRuns.isEmpty {
                return FileResult(file: path, status: .skipped, reason: notes.joined(separator: "; "))
            }
            let outcomes = try context.store.insert(
                newRuns, athleteID: options.athleteID,
                sourceFile: (path as NSString).lastPathComponent,
                format: document.format, sha256: read.sha256,
                allowDuplicates: options.allowDuplicates)
            return Self.result(path, outcomes, notes: notes)
        } catch let error as FormatError {
            return FileResult(file: path, status: .failed, reason: error.description)
        } catch {
            return FileResult(file: path, status: .failed, reason: "\(path): \(error)")
        }
    }

    /// Runs two independent pieces of work at once (on two threads when free).
    static func both<A: Sendable, B: Sendable>(_ a: @Sendable () -> A, _ b: @Sendable () -> B) -> (A, B) {
        let first = Locked<A?>(nil), second = Locked<B?>(nil)
        DispatchQueue.concurrentPerform(iterations: 2) { i in
            if i == 0 { let v = a(); first.withLock { $0 = v } } else { let v = b(); second.withLock { $0 = v } }
        }
        return (first.withLock { $0! }, second.withLock { $0! })
    }

    static func result(_ path: String, _ outcomes: [InsertOutcome], notes: [String]) -> FileResult {
        var inserted: [String] = []
        var upgraded: [String] = []
        var existing: [String] = []
        var sameBytes = true
        for outcome in outcomes {
            switch outcome {
            case .inserted(let id): inserted.append(id)
            case .upgraded(let id): upgraded.append(id)
            case .duplicate(let id, let same): existing.append(id); sameBytes = sameBytes && same
            }
        }
        var notes = notes
        if inserted.isEmpty, !upgraded.isEmpty {
            notes.insert(
                "richer than the stored copy of the same activity: \(upgraded.joined(separator: ", ")) upgraded "
                    + "(samples and summary replaced; id, label, mode, effort and notes kept)", at: 0)
            if !existing.isEmpty {
                notes.append("\(existing.count) activities already stored as \(existing.joined(separator: ", "))")
            }
            return FileResult(file: path, status: .upgraded, runIds: upgraded, reason: notes.joined(separator: "; "))
        }
        if !upgraded.isEmpty {
            notes.append("\(upgraded.count) stored activities upgraded: \(upgraded.joined(separator: ", "))")
        }
        if inserted.isEmpty {
            let why =
                sameBytes
                ? "already imported as \(existing.joined(separator: ", "))"
                : "the same activity is already stored as \(existing.joined(separator: ", ")) (start within 60 s, distance within 2%); use --allow-duplicates to store it again"
            notes.insert(why, at: 0)
            return FileResult(file: path, status: .duplicate, runIds: existing, reason: notes.joined(separator: "; "))
        }
        if !existing.isEmpty {
            notes.append("\(existing.count) activities already stored as \(existing.joined(separator: ", "))")
        }
        return FileResult(
            file: path, status: .imported, runIds: inserted, reason: notes.isEmpty ? nil : notes.joined(separator: "; ")
        )
    }

    /// Why a valid file holds no activity.
    static func whyNoActivity(_ d: ParsedDocument) -> String {
        let routes = d.courses.filter { $0.kind == .gpxRoute }.count
        let untimed = d.courses.filter { $0.kind == .untimedTrack }.count
        let courses = d.courses.filter { $0.kind == .tcxCourse }.count
        if courses > 0 { return "a TCX course (\(courses) course\(courses == 1 ? "" : "s")), not an activity" }
        if untimed > 0 { return "a track without timestamps: a planned route, not an activity" }
        if routes > 0 { return "routes only (\(routes)): a planned route, not an activity" }
        if d.waypointCount > 0 { return "waypoints only (\(d.waypointCount)): no activity" }
        if d.format == .tcx { return "no activity with trackpoints" }
        return "no tracks, routes or waypoints: no activity"
    }
}
