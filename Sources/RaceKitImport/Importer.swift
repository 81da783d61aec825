import Dispatch
import Foundation
import RaceKitFormats
import RaceKitMetrics
import RaceKitModel
import RaceKitStore
import Synchronization

/// Options of one import.
public struct ImportOptions: Sendable {
    public var athleteID = Athlete.defaultID
    /// Files parsed at once; defaults to the number of cores.
    public var jobs = ProcessInfo.processInfo.activeProcessorCount
    /// Store the same activity again when it comes from another file.
    public var allowDuplicates = false
    /// The formats read: which files inside folders and archives are activity
    /// files, and which reader reads each.
    public var readers = ActivityReaders.standard
    /// A file changed this recently (modification or change time, seconds
    /// before it was read) gets no import stamp: it may still be being
    /// written within one tick of the file system's clock (2 s covers FAT's).
    public var stampSettleSeconds = 2.0
    public init() {}
}

/// A store opened on another thread, so that an import starts reading its
/// first file at once: parsing needs no store, only analysing (the athlete's
/// physiology) and storing do, and they wait for it.
public final class PendingStore: Sendable {
    private let result = Locked<Result<any Store, any Error>?>(nil)
    private let ready = DispatchGroup()

    /// A store that is already open.
    public init(_ store: any Store) {
        result.withLock { $0 = .success(store) }
    }

    /// Runs `open` on a thread of its own.
    public init(opening open: @escaping @Sendable () throws -> any Store) {
        ready.enter()
        // On GCD's pool, not a Foundation Thread of its own: threads created and
        // ended by the hundred (tests import again and again) corrupted the heap
        // now and then in swift-corelibs-foundation's Thread; the import's workers
        // moved to GCD for the same reason.
        DispatchQueue.global().async { [self] in
            let opened = Result { try open() }
            result.withLock { $0 = opened }
            ready.leave()
        }
    }

    /// The store, once open; rethrows what opening it threw.
    public func get() throws -> any Store {
        ready.wait()
        return try result.withLock { $0! }.get()
    }
}

/// The import job: each file is read, repaired, summarised and stored in one
/// transaction, on `jobs` worker threads; a failure never stops the other files.
public struct Importer: Sendable {
    let pending: PendingStore
    /// Strava's activities.csv of unpacked exports, read once each.
    let stravaFolders = StravaFolderIndex()
    public let options: ImportOptions

    public init(store: any Store, options: ImportOptions) {
        self.init(opening: PendingStore(store), options: options)
    }

    /// An import that starts reading files while `pending` still opens.
    public init(opening pending: PendingStore, options: ImportOptions) {
        self.pending = pending
        self.options = options
    }

    /// What analysing and storing a file needs from the store.
    struct Context: Sendable {
        var store: any Store
        /// The athlete's set physiology.
        var profile: Physiology
        /// Their history, for estimates.
        var history: Physiology.History
        /// The athlete's import stamps by absolute path (none when duplicates are
        /// allowed: every file is then read), and the ids of their runs.
        var stamps: [String: FileStamp] = [:]
        var storedRunIDs: Set<String> = []
    }

    func context() throws -> Context {
        let store = try pending.get()
        var context = Context(
            store: store,
            profile: try store.athlete(id: options.athleteID)?.physiology ?? Physiology(),
            history: try store.history(athleteID: options.athleteID))
        // The stamps are a cache: a damaged one (a value of the wrong type) only
        // means every file is read, never a failed import.
        if !options.allowDuplicates, let stamps = try? store.stamps(athleteID: options.athleteID), !stamps.isEmpty,
            let ids = try? store.runIDs(athleteID: options.athleteID)
        {
            context.stamps = Dictionary(stamps.map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
            context.storedRunIDs = ids
        }
        return context
    }

    /// What a whole import did: one result per file, and what went wrong when the
    /// athlete's stored runs were analysed again afterwards (nil when nothing did).
    public struct Run: Sendable {
        public var results: [FileResult]
        public var recomputeError: RecomputeError?
        /// True when an Apple Health export was refused as a whole (bad data).
        public var refusedExport = false
        /// Why the import stopped before its end: the store could not be written
        /// any more (nil when it went through).
        public var storeFailure: StoreFailure?
    }

    /// The store failure that stopped an import: the file it met, the error
    /// (its exit class is the import's), and how many inputs were not imported
    /// after it (what was stored before is kept).
    public struct StoreFailure: RaceKitError {
        public var file: String
        public var error: any RaceKitError
        public var notImported: Int
        public var exitClass: ExitClass { error.exitClass }
        public var description: String {
            let rest =
                notImported > 0
                ? "; \(notImported) more input\(notImported == 1 ? " was" : "s were") not imported" : ""
            var said = error.description
            while said.hasSuffix(".") { said.removeLast() }
            return
                "import stopped at \(file): \(said)\(rest) (what was stored before is kept; import again once the store can be written)"
        }
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

    /// Imports `files` (files, archives, Apple Health exports) in parallel; results
    /// come back in the order of `files`, an archive's entries in their order inside
    /// it, an export's workouts in its order. The calling thread walks the inputs,
    /// unpacks archive entries and reads exports; `jobs` worker threads parse and
    /// store. `progress` is called after each result (serialised). When runs were
    /// stored, the athlete's runs analysed with other physiology estimates than the
    /// history now gives are analysed again (see `Recompute`). Throws only what
    /// opening the store threw (the files read meanwhile are then left alone).
    public func importAll(
        files: [String], archiveLimits: ArchiveLimits = .standard,
        progress: (@Sendable (ImportProgress) -> Void)? = nil
    ) throws -> Run {
        let hasArchive = files.contains { InputCollector.isArchive($0) || InputCollector.isHealthExport($0) }
        // At most 256 workers, whatever a caller asks (the CLI refuses more).
        let jobs = min(max(1, options.jobs), 256)
        let pipeline = Pipeline(importer: self, workers: max(1, min(jobs, hasArchive ? jobs : files.count)))
        let refusedExport = Atomic<Bool>(false)
        var reached = 0
        let outcome = try pipeline.run(progress: progress) { feed in
            for path in files {
                if feed.stopped { break }
                reached += 1
                if let refusal = RegularFile.refusal(path), !refusal.contains("a folder") {
                    feed.record(FileResult(file: path, status: .skipped, reason: refusal))
                } else if InputCollector.isHealthExport(path) {
                    // Read here, once; its workouts go to the workers like files.
                    if queueHealthExport(path: path, feed: feed) { refusedExport.store(true, ordering: .relaxed) }
                } else if InputCollector.isArchive(path) {
                    let tracker = ArchiveTracker(path: path, limits: archiveLimits)
                    var produced = 0
                    var walk = ArchiveWalk(
                        importer: self, tracker: tracker, limits: archiveLimits,
                        enqueue: { item in
                            produced += 1
                            feed.enqueue(item, archive: tracker)
                        },
                        record: { result in
                            produced += 1
                            feed.record(result, archive: tracker)
                        },
                        importLarge: { stream, entry, metadata in
                            Self.complete(
                                importEntry(
                                    name: entry.displayName, sourceFile: entry.fileName, stream: stream,
                                    declaredSize: Int(clamping: entry.declaredSize ?? 0), metadata: metadata,
                                    archive: tracker, context: feed.context))
                        })
                    walk.refusedExport = { refusedExport.store(true, ordering: .relaxed) }
                    walk.run(path: path)
                    if produced == 0 {
                        feed.record(
                            FileResult(
                                file: path, status: .skipped,
                                reason:
                                    "no activity file inside (\(options.readers.nameList), plain or .gz) and no Apple Health export"
                            ),
                            archive: tracker)
                    }
                } else {
                    feed.enqueue(.file(path))
                }
            }
        }
        let final = outcome.results
        let store = try pending.get()
        if let broken = outcome.broken {
            // Nothing more could be stored: no recompute either (the next import does it).
            return Run(
                results: final, refusedExport: refusedExport.load(ordering: .relaxed),
                storeFailure: StoreFailure(
                    file: broken.file, error: broken.error, notImported: outcome.unread + files.count - reached))
        }
        // What the files became, for the next import: a cache, not data (a
        // failure to write it only means the next import reads them again).
        if !options.allowDuplicates {
            try? store.recordStamps(outcome.stamps.stamps(reader: FileStamp.reader(store.registry)))
        }
        var recomputeError: RecomputeError?
        // Always, not only when this import stored something: an import killed
        // after its last file was stored but before this step left runs analysed
        // on a provisional profile (zones and loads of a history that has since
        // grown), and the next import, even of nothing new, finishes it. With
        // nothing stale this is two queries, and the power refresh's read of
        // the athlete's runs with power (a fit per such run).
        do {
            let outcome = try Recompute(store: store).run(athleteID: options.athleteID, force: false, jobs: jobs)
            if !outcome.failed.isEmpty { recomputeError = RecomputeError(failures: outcome.failed) }
        } catch {
            recomputeError = RecomputeError(failures: ["\(error)"])
        }
        return Run(
            results: final, recomputeError: recomputeError, refusedExport: refusedExport.load(ordering: .relaxed))
    }

    /// The workers of one import and what feeds them: `run` starts `workers`
    /// threads, calls `produce` on the calling thread to queue items and record
    /// results, and returns the results in the order they were queued.
    struct Pipeline {
        let importer: Importer
        let workers: Int

        /// What `produce` queues items with.
        final class Feed: Sendable {
            fileprivate let queue: ImportQueue
            fileprivate let slots: ResultSlots
            private let unusable: StopFlag
            /// The store's context, read once by the first item that needs it.
            let context: @Sendable () throws -> Context

            fileprivate init(
                queue: ImportQueue, slots: ResultSlots, unusable: StopFlag,
                context: @escaping @Sendable () throws -> Context
            ) {
                self.queue = queue; self.slots = slots; self.unusable = unusable; self.context = context
            }

            /// True once the store cannot be used (it did not open, or the athlete is
            /// unknown): no more inputs should be read, instead of parsing them for nothing.
            var stopped: Bool { unusable.isSet }
            func enqueue(_ item: ImportItem, archive: ArchiveTracker? = nil) {
                queue.push(slots.reserve(archive), item)
            }
            func record(_ result: FileResult, archive: ArchiveTracker? = nil) {
                slots.fill(slots.reserve(archive), result)
            }
        }

        func run(
            progress: (@Sendable (ImportProgress) -> Void)?, produce: (Feed) -> Void
        ) throws -> Outcome {
            let importer = self.importer
            // Read once, by the first worker that needs it.
            let shared = Locked<Result<Context, any Error>?>(nil)
            let unusable = StopFlag()
            let context = { @Sendable () throws -> Context in
                try shared.withLock { value in
                    if value == nil {
                        value = Result { try importer.context() }
                        if case .failure = value! { unusable.set() }
                    }
                    return try value!.get()
                }
            }
            // A core no worker uses can read a large file ahead of its handler.
            let readAhead: ActivityFileReader.ReadAhead =
                ProcessInfo.processInfo.activeProcessorCount > workers ? .largeFiles : .never
            let slots = ResultSlots(progress: progress)
            let book = StampBook(athleteID: importer.options.athleteID)
            let broken = StoreBreak(stop: unusable)
            let batcher = InsertBatcher()
            let queue = ImportQueue(maxItems: 4 * workers, maxBytes: 256 << 20)
            let group = DispatchGroup()
            // Workers on GCD's global queue (it adds a thread when one blocks): the
            // calling thread is the producer and never waits for a worker to start.
            // (Foundation Threads made per import corrupted the heap now and then:
            // glibc's "tcache_thread_shutdown(): unaligned tcache chunk" in the tests.)
            for _ in 0..<workers {
                DispatchQueue.global().async(group: group) {
                    while let (index, item) = queue.pop() {
                        if unusable.isSet { continue }   // drain: the producer may wait for room
                        let prepared: Prepared
                        var facts: FileFacts?
                        switch item {
                        case .file(let path):
                            (prepared, facts) = importer.importFile(path, context: context, readAhead: readAhead)
                        case .entry(let entry):
                            prepared = importer.importEntry(entry, context: context)
                        case .workout(let workout):
                            prepared = .done(importer.importWorkout(workout, context: context))
                        case .wellness(let wellness):
                            prepared = .done(importer.importWellness(wellness, context: context))
                        }
                        // The runs go to the batcher, which tells the result once they are stored.
                        if let result = Importer.submit(
                            prepared, to: batcher, broken: broken,
                            deliver: { [facts] in
                                book.note(facts, $0)
                                slots.fill(index, $0)
                            })
                        {
                            book.note(facts, result)
                            slots.fill(index, result)
                        }
                    }
                }
            }
            produce(Feed(queue: queue, slots: slots, unusable: unusable, context: context))
            queue.close()
            group.wait()
            batcher.flush()
            return Outcome(results: slots.results(), broken: broken.failure, unread: slots.unfilled, stamps: book)
        }

        /// The results in input order; the failure that left the store unusable
        /// and the queued inputs not imported after it.
        struct Outcome {
            var results: [FileResult]
            var broken: (file: String, error: any RaceKitError)?
            var unread: Int
            /// What the files read became, for the next import.
            var stamps: StampBook
        }
    }

    /// Imports one file; never throws: every problem becomes a `failed` result.
    /// The athlete's set physiology and history (for estimates) come from the
    /// store. Each run's estimates include the run itself, so an import that sets
    /// no new record leaves nothing to recompute.
    public func importFile(_ path: String) -> FileResult {
        Self.complete(importFile(path, context: context, readAhead: .largeFiles).prepared)
    }

    /// The file imported, or said as its last import said when it has not
    /// changed since (`StampBook.unchanged`); and its facts when it was read.
    func importFile(
        _ path: String, context: () throws -> Context, readAhead: ActivityFileReader.ReadAhead
    ) -> (prepared: Prepared, facts: FileFacts?) {
        let facts = FileFacts.of(path, settle: options.stampSettleSeconds)
        // A store that does not open fails the file below, as it always did.
        if let facts, let loaded = try? context(), let said = StampBook.unchanged(facts, file: path, in: loaded) {
            return (.done(said), nil)
        }
        return (readFile(path, context: context, readAhead: readAhead), facts)
    }

    func readFile(
        _ path: String, context: () throws -> Context, readAhead: ActivityFileReader.ReadAhead
    ) -> Prepared {
        guarded(path) {
            if path.lowercased().hasSuffix(".csv") { return .done(try importHRVExport(path, context: context)) }
            var read = try ActivityFileReader.read(path: path, readAhead: readAhead, readers: options.readers)
            let (metadata, problem) = stravaFolders.metadata(for: path)
            let prepared = try store(
                &read, file: path, sourceFile: (path as NSString).lastPathComponent, metadata: metadata,
                context: context)
            return problem.map { prepared.noting($0) } ?? prepared
        }
    }

    func importEntry(_ entry: EntryItem, context: () throws -> Context) -> Prepared {
        // Read whole before any limit was crossed: imported even when the archive
        // was refused meanwhile (what the walk read is within the limits).
        return importEntry(
            name: entry.displayName, sourceFile: entry.fileName,
            stream: MemoryByteStream(name: entry.displayName, bytes: entry.bytes), declaredSize: entry.bytes.count,
            metadata: entry.metadata, archive: entry.archive, context: context)
    }

    /// Imports an archive entry; a limit crossed inside it (a gzip entry's own
    /// decompression) refuses the whole archive.
    func importEntry(
        name: String, sourceFile: String, stream: ByteStream, declaredSize: Int, metadata: ActivityMetadata?,
        archive: ArchiveTracker, context: () throws -> Context
    ) -> Prepared {
        guarded(name) {
            do {
                var read = try ActivityFileReader.read(
                    stream: stream, declaredSize: declaredSize, archiveLimits: (archive.limits, archive.path),
                    readers: options.readers)
                return try store(&read, file: name, sourceFile: sourceFile, metadata: metadata, context: context)
            } catch let error as ArchiveError where error.kind == .refused {
                archive.refuse(error)
                throw error
            }
        }
    }

    /// Runs `body`, turning what it throws into a `failed` result for `file`.
    private func guarded(_ file: String, _ body: () throws -> Prepared) -> Prepared {
        do {
            return try body()
        } catch {
            return .done(Self.failed(file, error))
        }
    }

    /// A `failed` result for `file` that `error` explains, naming the file: a
    /// reader's and an archive's errors name it already, the store's ("store
    /// error: database or disk is full") and foreign ones get it in front.
    static func failed(_ file: String, _ error: any Error) -> FileResult {
        // A reader's or an archive's error names the file; a store's (SQLite's,
        // a server's, which names the server) gets the file in front.
        if let error = error as? any RaceKitError, !(error is any StoreUnusableError) {
            return FileResult(file: file, status: .failed, reason: error.description)
        }
        let text = "\(error)"
        return FileResult(file: file, status: .failed, reason: text.hasPrefix(file) ? text : "\(file): \(text)")
    }

    /// A file read, repaired and analysed: its result, or its runs to store and
    /// how what the store did becomes its result.
    enum Prepared: Sendable {
        case done(FileResult)
        case insert(
            FileInsert, store: any RunRepository, result: @Sendable (Result<[InsertOutcome], any Error>) -> FileResult)

        /// `note` added to the result's reason (a stored file's, not one that failed to store).
        func noting(_ note: String) -> Prepared {
            @Sendable func add(_ r: FileResult) -> FileResult {
                var r = r
                r.reason = r.reason.map { "\($0); \(note)" } ?? note
                return r
            }
            switch self {
            case .done(let r): return .done(add(r))
            case .insert(let file, let store, let result):
                return .insert(file, store: store) { outcome in
                    if case .success = outcome { return add(result(outcome)) }
                    return result(outcome)
                }
            }
        }
    }

    /// The result, the runs stored now in their own transaction.
    static func complete(_ prepared: Prepared) -> FileResult {
        switch prepared {
        case .done(let r): return r
        case .insert(let f, let store, let result):
            return result(
                Result {
                    try store.insert(
                        f.runs, athleteID: f.athleteID, sourceFile: f.sourceFile, format: f.format, sha256: f.sha256,
                        allowDuplicates: f.allowDuplicates)
                })
        }
    }

    /// The result, or nil when the runs went to `batcher`, which gives `deliver`
    /// the result once they are stored.
    static func submit(
        _ prepared: Prepared, to batcher: InsertBatcher, broken: StoreBreak? = nil,
        deliver: @escaping @Sendable (FileResult) -> Void
    ) -> FileResult? {
        switch prepared {
        case .done(let r): return r
        case .insert(let f, let store, let result):
            batcher.submit(
                .init(insert: f, store: store) { outcome in
                    let r = result(outcome)
                    if case .failure(let error) = outcome { broken?.note(error, file: r.file) }
                    deliver(r)
                })
            return nil
        }
    }

    /// The first failure after which the store cannot be written any more
    /// (`StoreUnusableError`): the import stops reading there.
    final class StoreBreak: Sendable {
        private let first = Locked<(file: String, error: any RaceKitError)?>(nil)
        private let stop: StopFlag
        init(stop: StopFlag) { self.stop = stop }

        func note(_ error: any Error, file: String) {
            guard let e = error as? any StoreUnusableError, e.leavesStoreUnusable else { return }
            first.withLock { if $0 == nil { $0 = (file, e) } }
            stop.set()
        }

        var failure: (file: String, error: any RaceKitError)? { first.withLock { $0 } }
    }

    /// Repairs and analyses what reading `file` gave: its runs to store in one
    /// transaction (or why there are none).
    private func store(
        _ read: inout ReadResult, file path: String, sourceFile: String, metadata: ActivityMetadata?,
        context loadContext: () throws -> Context
    ) throws -> Prepared {
        // Move the document out of the result: a second reference would make
        // the repair step copy every sample array instead of compacting in place.
        var outcome = ReadOutcome.empty
        swap(&outcome, &read.outcome)
        guard case .document(var document) = outcome else {
            return .done(FileResult(file: path, status: .skipped, reason: "empty file: nothing in it"))
        }
        // Release the enum's reference (`consume` here trips a compiler bug).
        outcome = .empty
        if document.activities.isEmpty {
            return .done(FileResult(file: path, status: .skipped, reason: whyNoActivity(document)))
        }
        let context = try loadContext()
        let (profile, history, registry) = (context.profile, context.history, context.store.registry)
        var newRuns: [NewRun] = []
        var notes = document.notes
        var skipped: [String: [Int]] = [:]   // why -> the activities skipped for it
        var reasons: [String] = []   // in the order first met
        var pending = document.activities
        document.activities = []
        let count = pending.count
        for index in 0..<count {
            // Take the activity out so the repair step owns the only reference
            // to its samples and compacts them in place.
            if let metadata {
                if let name = metadata.name { pending[index].name = name }
                if let sport = metadata.sport { pending[index].sport = sport }
            }
            var raw = RawActivity()
            swap(&raw, &pending[index])
            switch TrackRepair.repair(
                consume raw, format: document.format, documentHeartRate: document.documentHeartRate)
            {
            case .activity(var activity):
                // Analyse the samples as they will be stored, so that a later
                // recompute from the store gives exactly the same numbers.
                SampleCodec.quantize(&activity.samples)
                for note in activity.repairs.importNotes where !notes.contains(note) { notes.append(note) }
                // Analysis and blob encoding are independent: run them side by
                // side. On a long run the best efforts (a third of its analysis)
                // go with the encoding, on a thread of its own.
                let ready = activity
                var analysed: RunAnalysis
                let blob: [UInt8]
                if ready.samples.count >= SideBySide.minimumPoints {
                    var analysis: RunAnalysis?
                    let other = Locked<([BestEffort], [UInt8])?>(nil)
                    SideBySide.run(threaded: true) {
                        analysis = RunAnalyzer.analyse(ready, physiology: profile, bestEfforts: [], registry: registry)
                    } _: {
                        let efforts = RunAnalyzer.bestEfforts(of: ready), encoded = SampleCodec.encode(ready.samples)
                        other.withLock { $0 = (efforts, encoded) }
                    }
                    analysed = analysis!
                    (analysed.bestEfforts, blob) = other.withLock { $0! }
                } else {
                    (analysed, blob) = Self.both(
                        { RunAnalyzer.analyse(ready, physiology: profile, registry: registry) },
                        { SampleCodec.encode(ready.samples) })
                }
                let running = ready.sport == .running   // the history counts running only
                let withRun =
                    running
                    ? history.adding(maxHeartRate: analysed.summary.maxHeartRate, bestEfforts: analysed.bestEfforts)
                    : history
                let physiology = profile.completed(with: withRun)
                if physiology != profile { analysed.apply(physiology) }
                var run = NewRun(activity: activity, analysis: analysed, activityIndex: index, encodedSamples: blob)
                run.label = metadata?.name
                run.notes = metadata?.description ?? activity.notes
                newRuns.append(run)
            case .notAnActivity(let reason):
                if skipped[reason] == nil { reasons.append(reason) }
                skipped[reason, default: []].append(index + 1)
            }
        }
        for reason in reasons {
            notes.append(count > 1 ? "\(Self.activityList(skipped[reason]!)): \(reason)" : reason)
        }
        if newRuns.isEmpty {
            return .done(FileResult(file: path, status: .skipped, reason: notes.joined(separator: "; ")))
        }
        let file = FileInsert(
            runs: newRuns, athleteID: options.athleteID, sourceFile: sourceFile, format: document.format,
            sha256: read.sha256, allowDuplicates: options.allowDuplicates)
        return .insert(file, store: context.store) { [notes] outcome in
            switch outcome {
            case .success(let outcomes): return Self.result(path, outcomes, notes: notes)
            case .failure(let error): return Self.failed(path, error)
            }
        }
    }

    /// "activity 3", "activities 1, 4, 9", or "20000 activities (1, 2, 3, ...)": a
    /// note stays one short line however many activities share a reason.
    static func activityList(_ numbers: [Int]) -> String {
        if numbers.count == 1 { return "activity \(numbers[0])" }
        let shown = numbers.prefix(5).map(String.init).joined(separator: ", ")
        return numbers.count <= 5 ? "activities \(shown)" : "\(numbers.count) activities (\(shown), ...)"
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
        var shifts: [String] = []
        for outcome in outcomes {
            switch outcome {
            case .inserted(let id): inserted.append(id)
            case .upgraded(let id): upgraded.append(id)
            case .duplicate(let id, let same, let shift):
                existing.append(id)
                sameBytes = sameBytes && same
                if let shift { shifts.append("\(id), this copy's clock \(ShiftedCopy.describe(shift))") }
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
                : !shifts.isEmpty && shifts.count == existing.count
                    ? "the same activity is already stored as \(shifts.joined(separator: "; ")); the same elapsed time, distance and samples at the same times from each start; use --allow-duplicates to store it again"
                    : "the same activity is already stored as \(existing.joined(separator: ", ")) (start within 60 s, and end within 60 s, distance within 2% or a cut-off copy); use --allow-duplicates to store it again"
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
    func whyNoActivity(_ d: ParsedDocument) -> String {
        if !d.notes.isEmpty { return d.notes.joined(separator: "; ") }
        let routes = d.courses.filter { $0.kind == .gpxRoute }.count
        let untimed = d.courses.filter { $0.kind == .untimedTrack }.count
        let courses = d.courses.filter { $0.kind == .tcxCourse }.count
        if courses > 0 { return "a TCX course (\(courses) course\(courses == 1 ? "" : "s")), not an activity" }
        if untimed > 0 { return "a track without timestamps: a planned route, not an activity" }
        if routes > 0 { return "routes only (\(routes)): a planned route, not an activity" }
        if d.waypointCount > 0 { return "waypoints only (\(d.waypointCount)): no activity" }
        return options.readers.noActivityReason(for: d.format)
    }
}
