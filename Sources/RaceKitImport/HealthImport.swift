import Dispatch
import Foundation
import RaceKitCore
import RaceKitFormats
import RaceKitStore
import Synchronization

/// What importing one Apple Health export did.
public struct HealthImportResults: Sendable {
    /// One result per workout (`file` is `<export>#<line of its Workout tag>`), or
    /// one for the export itself when it was refused or holds no workout.
    public var results: [FileResult]
    /// True when the export was refused as a whole (a DTD with an entity, an
    /// external subset, malformed XML): bad data, nothing of it stored.
    public var refused: Bool
}

extension Importer {
    /// Imports the Apple Health export at `path` (`export.xml`, plain or gzip);
    /// route files are looked up beside it (`workout-routes/`).
    public func importHealthExport(path: String) -> HealthImportResults {
        importHealthExport(path: path, context: { try self.context() }, progress: nil)
    }

    /// Imports an Apple Health export read from any byte source (a file, an
    /// archive entry), routes found through `routes`. The export is read in one
    /// pass on the calling thread; then its workouts are built, repaired,
    /// analysed and stored one at a time on `options.jobs` workers, one
    /// transaction per workout. Never throws: a refused export is one failed result.
    public func importHealthExport(
        _ stream: any ByteStream, routes: @escaping HealthRouteResolver,
        progress: (@Sendable (ImportProgress) -> Void)? = nil
    ) -> HealthImportResults {
        importHealthExport(stream, routes: routes, context: { try self.context() }, progress: progress)
    }

    func importHealthExport(
        path: String, context: @escaping @Sendable () throws -> Context,
        progress: (@Sendable (ImportProgress) -> Void)?
    ) -> HealthImportResults {
        do {
            let stream = try FileByteStream(path: path)
            return importHealthExport(
                stream, routes: AppleHealthReader.folderRoutes(beside: path), context: context, progress: progress)
        } catch {
            return HealthImportResults(results: [Self.failure(path, error)], refused: false)
        }
    }

    func importHealthExport(
        _ stream: any ByteStream, routes: @escaping HealthRouteResolver,
        context loadContext: @escaping @Sendable () throws -> Context,
        progress: (@Sendable (ImportProgress) -> Void)?
    ) -> HealthImportResults {
        let name = stream.name
        let export: AppleHealthExport
        do {
            export = try AppleHealthReader.read(stream)
        } catch {
            let refused = (error as? any RaceKitError)?.exitClass == .dataError
            return HealthImportResults(results: [Self.failure(name, error)], refused: refused)
        }
        let recordNotes = export.issues.descriptions
        guard !export.workouts.isEmpty else {
            let why = (["an Apple Health export without workouts"] + recordNotes).joined(separator: "; ")
            return HealthImportResults(results: [FileResult(file: name, status: .skipped, reason: why)], refused: false)
        }
        let context: Context
        do { context = try loadContext() } catch {
            return HealthImportResults(results: [Self.failure(name, error)], refused: false)
        }
        let count = export.workouts.count
        let results = Locked([FileResult?](repeating: nil, count: count))
        let next = Atomic<Int>(0)
        let done = Locked<[FileResult]>([])
        DispatchQueue.concurrentPerform(iterations: max(1, min(options.jobs, count))) { _ in
            while true {
                let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard index < count else { return }
                let result = importWorkout(export, index, routes: routes, context: context)
                results.withLock { $0[index] = result }
                if let progress {
                    done.withLock { all in
                        all.append(result)
                        progress(ImportProgress(done: all.count, total: count, summary: ImportSummary(all)))
                    }
                }
            }
        }
        var final = results.withLock { $0.map { $0! } }
        if !recordNotes.isEmpty {
            let note = "in the whole export: " + recordNotes.joined(separator: "; ")
            final[0].reason = final[0].reason.map { "\($0); \(note)" } ?? note
        }
        return HealthImportResults(results: final, refused: false)
    }

    /// Builds, repairs, analyses and stores one workout in its own transaction.
    private func importWorkout(
        _ export: AppleHealthExport, _ index: Int, routes: HealthRouteResolver, context: Context
    ) -> FileResult {
        let workout = export.workouts[index]
        let file = "\(export.name)#\(workout.line)"
        let built: HealthWorkoutActivity
        switch export.activity(of: index, route: routes) {
        case .skipped(let reason): return FileResult(file: file, status: .skipped, reason: reason)
        case .activity(let b): built = b
        }
        guard case .activity(var activity) = TrackRepair.repair(built.raw, format: .health) else {
            return FileResult(file: file, status: .skipped, reason: "\(workout.label): no usable samples")
        }
        if let indoor = built.indoor { activity.isIndoor = indoor }
        let run = Self.prepared(activity, context: context)
        do {
            let outcomes = try context.store.insert(
                [run], athleteID: options.athleteID, sourceFile: (export.name as NSString).lastPathComponent,
                format: .health, sha256: workout.identity, allowDuplicates: options.allowDuplicates)
            return Self.result(file, outcomes, notes: built.notes)
        } catch {
            return Self.failure(file, error)
        }
    }

    /// The activity analysed as it will be stored (the same steps as a file's
    /// activities in `importFile`).
    static func prepared(_ activity: Activity, context: Context) -> NewRun {
        var activity = activity
        SampleCodec.quantize(&activity.samples)
        let ready = activity
        let (profile, history) = (context.profile, context.history)
        let (analysed, blob) = both(
            { () -> RunAnalysis in
                var analysis = RunAnalyzer.analyse(ready, physiology: profile)
                let withRun =
                    ready.sport == .running
                    ? history.adding(maxHeartRate: analysis.summary.maxHeartRate, bestEfforts: analysis.bestEfforts)
                    : history
                let physiology = profile.completed(with: withRun)
                if physiology != profile { analysis.apply(physiology) }
                return analysis
            }, { SampleCodec.encode(ready.samples) })
        return NewRun(activity: activity, analysis: analysed, activityIndex: 0, encodedSamples: blob)
    }

    static func failure(_ file: String, _ error: any Error) -> FileResult {
        let text = "\(error)"
        return FileResult(file: file, status: .failed, reason: text.hasPrefix(file) ? text : "\(file): \(text)")
    }

    /// Imports the exports one after another (each export's workouts in parallel).
    func importHealthExports(
        _ paths: [String], context: @escaping @Sendable () throws -> Context,
        progress: (@Sendable (ImportProgress) -> Void)?
    ) -> HealthImportResults {
        var all = HealthImportResults(results: [], refused: false)
        for path in paths {
            let one = importHealthExport(path: path, context: context, progress: progress)
            all.results += one.results
            all.refused = all.refused || one.refused
        }
        return all
    }
}

extension InputCollector {
    /// True for the file an Apple Health export keeps its data in: `export.xml`
    /// (any case; not `export_cda.xml`, the clinical documents).
    public static func isHealthExportName(_ path: String) -> Bool {
        (path as NSString).lastPathComponent.lowercased() == "export.xml"
    }

    /// True when `path` is an Apple Health export: named `export.xml`, or an
    /// `.xml` file whose first 4 KB hold `<HealthData` (a renamed export).
    public static func isHealthExport(_ path: String) -> Bool {
        if isHealthExportName(path) { return true }
        guard path.lowercased().hasSuffix(".xml"), let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 4096)) ?? Data()
        return head.range(of: Data("<HealthData".utf8)) != nil
    }

    /// The files of a walked folder without the route files of the Apple Health
    /// exports among them (`<folder of export.xml>/workout-routes/`): they are read
    /// as their workouts' routes, never imported as activities of their own.
    static func droppingHealthRoutes(_ files: [String]) -> [String] {
        let routeFolders = files.filter(isHealthExportName).map {
            ($0 as NSString).deletingLastPathComponent + "/workout-routes/"
        }
        guard !routeFolders.isEmpty else { return files }
        return files.filter { file in !routeFolders.contains { file.hasPrefix($0) } }
    }
}
