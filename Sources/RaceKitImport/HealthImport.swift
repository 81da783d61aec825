import Dispatch
import Foundation
import RaceKitFormats
import RaceKitMetrics
import RaceKitModel
import RaceKitOutput
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
        runHealthExport { feed in queueHealthExport(path: path, feed: feed) }
    }

    /// Imports an Apple Health export read from any byte source (a file, an
    /// archive entry), routes found through `routes`. The export is read in one
    /// pass on the calling thread; then its workouts are built, repaired,
    /// analysed and stored on `options.jobs` workers, one transaction per
    /// workout. Never throws: a refused export is one failed result.
    public func importHealthExport(
        _ stream: any ByteStream, routes: @escaping HealthRouteResolver,
        progress: (@Sendable (ImportProgress) -> Void)? = nil
    ) -> HealthImportResults {
        runHealthExport(progress: progress) { feed in queueHealthExport(stream, routes: routes, feed: feed) }
    }

    private func runHealthExport(
        progress: (@Sendable (ImportProgress) -> Void)? = nil, _ produce: (Pipeline.Feed) -> Bool
    ) -> HealthImportResults {
        var refused = false
        do {
            let results = try Pipeline(importer: self, workers: max(1, options.jobs)).run(progress: progress) { feed in
                refused = produce(feed)
            }
            return HealthImportResults(results: results.results, refused: refused)
        } catch {
            return HealthImportResults(results: [Self.failure("store", error)], refused: false)
        }
    }

    /// Reads the export at `path` and queues its workouts, routes beside it.
    /// Returns true when the export was refused as a whole (bad data).
    func queueHealthExport(path: String, feed: Pipeline.Feed) -> Bool {
        do {
            let stream = try FileByteStream(path: path)
            return queueHealthExport(stream, routes: AppleHealthReader.folderRoutes(beside: path), feed: feed)
        } catch {
            feed.record(Self.failure(path, error))
            return false
        }
    }

    /// Reads the export from `stream` on the calling thread and queues its
    /// workouts. Returns true when it was refused as a whole (bad data).
    func queueHealthExport(_ stream: any ByteStream, routes: @escaping HealthRouteResolver, feed: Pipeline.Feed) -> Bool
    {
        switch readHealthExport(stream) {
        case .failure(let result, let refused):
            feed.record(result)
            return refused
        case .success(let export):
            let notes = Self.exportNotes(export)
            let wellness = export.wellnessCount > 0
            if wellness { feed.enqueue(.wellness(WellnessItem(export: export, exportNotes: notes))) }
            for index in export.workouts.indices {
                let first = index == 0 && !wellness
                feed.enqueue(
                    .workout(WorkoutItem(export: export, index: index, routes: routes, exportNotes: first ? notes : []))
                )
            }
            return false
        }
    }

    enum HealthRead {
        case success(AppleHealthExport)
        /// A result to report instead (refused, unreadable, or no workouts).
        case failure(FileResult, refused: Bool)
    }

    /// Reads a whole export (one pass, memory bounded by its records and workouts).
    func readHealthExport(_ stream: any ByteStream) -> HealthRead {
        let name = stream.name
        let export: AppleHealthExport
        do {
            // Plain or gzip (`export.xml.gz`; a file on disk is already decompressed).
            export = try AppleHealthReader.read(ByteStreams.decompressed(stream))
        } catch {
            let refused = (error as? any RaceKitError)?.exitClass == .dataError
            return .failure(Self.failure(name, error), refused: refused)
        }
        guard !export.workouts.isEmpty || export.wellnessCount > 0 else {
            let why = (["an Apple Health export without workouts or wellness records"] + export.issues.descriptions)
                .joined(separator: "; ")
            return .failure(FileResult(file: name, status: .skipped, reason: why), refused: false)
        }
        return .success(export)
    }

    /// What was worked around in the whole export, said once.
    static func exportNotes(_ export: AppleHealthExport) -> [String] {
        let notes = export.issues.descriptions
        return notes.isEmpty ? [] : ["in the whole export: " + notes.joined(separator: "; ")]
    }

    /// Sleep and wellness records stored at a time (one transaction each).
    static let wellnessBatch = 20_000

    /// Stores an export's sleep and wellness records as the athlete's daily
    /// measurements: those stored already (same kind, source, start and end)
    /// are left as they are, so a second import of the export adds nothing.
    /// One result, `<export>#wellness`: imported with the count of new ones, or
    /// a duplicate when none was new.
    private func storeWellness(_ export: AppleHealthExport, context: () throws -> Context) -> FileResult {
        let file = "\(export.name)#wellness"
        do {
            let store = try context().store
            let sourceFile = (export.name as NSString).lastPathComponent
            let now = Date().timeIntervalSince1970
            var added = 0
            var offset = 0
            while offset < export.wellnessCount {
                let batch = export.measurements(
                    athleteID: options.athleteID, sourceFile: sourceFile, importedAt: now, offset: offset,
                    limit: Self.wellnessBatch)
                added += try store.addMeasurements(batch)
                offset += batch.count
            }
            let total = export.wellnessCount
            let what = "\(total) sleep and wellness record\(total == 1 ? "" : "s")"
            guard added > 0 else {
                return FileResult(file: file, status: .duplicate, reason: "\(what), all stored already")
            }
            return FileResult(file: file, status: .imported, reason: "\(what), \(added) new (racekit wellness list)")
        } catch {
            return Self.failure(file, error)
        }
    }

    func importWellness(_ item: WellnessItem, context: () throws -> Context) -> FileResult {
        var result = storeWellness(item.export, context: context)
        if !item.exportNotes.isEmpty {
            let note = item.exportNotes.joined(separator: "; ")
            result.reason = result.reason.map { "\($0); \(note)" } ?? note
        }
        return result
    }

    /// Stores a morning-HRV app's CSV export (`HRVCSV`: HRV4Training, Elite
    /// HRV) as the athlete's daily measurements: its RMSSD and heart rate, in
    /// the athlete's time zone; a second import adds nothing (a duplicate).
    func importHRVExport(_ path: String, context: () throws -> Context) throws -> FileResult {
        let store = try context().store
        let timeZone = try store.athlete(id: options.athleteID)?.timeZone ?? "UTC"
        let name = (path as NSString).lastPathComponent
        guard let contents = try HRVCSV.read(try FileByteStream(path: path), timeZone: timeZone, fileName: name) else {
            return FileResult(
                file: path, status: .skipped,
                reason: "not an HRV app export (a CSV whose header names a date and an rMSSD column)")
        }
        let now = Date().timeIntervalSince1970
        var rows: [DailyMeasurement] = []
        for r in contents.readings {
            func m(_ kind: String, _ v: Double) -> DailyMeasurement {
                DailyMeasurement(
                    athleteID: options.athleteID, kind: DailyKind.named(kind)!, value: v, start: r.time,
                    source: DailyMeasurement.importedSource(contents.source), sourceFile: name, importedAt: now)
            }
            if let v = r.rmssdMs { rows.append(m("hrv_rmssd", v)) }
            if let b = r.heartRate { rows.append(m("resting_hr", b)) }
        }
        let added = try store.addMeasurements(rows)
        var notes = ["\(contents.readings.count) \(contents.source) reading\(contents.readings.count == 1 ? "" : "s")"]
        if contents.leftOut > 0 {
            notes.append(
                "\(contents.leftOut) row\(contents.leftOut == 1 ? "" : "s") left out ("
                    + contents.problems.joined(separator: "; ") + ")")
        }
        guard !contents.readings.isEmpty else {
            return FileResult(
                file: path, status: .skipped, reason: (["no readings"] + notes.dropFirst()).joined(separator: "; "))
        }
        guard added > 0 else {
            return FileResult(
                file: path, status: .duplicate, reason: (notes + ["all stored already"]).joined(separator: "; "))
        }
        return FileResult(
            file: path, status: .imported,
            reason: (notes + ["\(added) values new (racekit wellness list)"]).joined(separator: "; "))
    }

    /// A queued workout: built, repaired, analysed and stored.
    func importWorkout(_ item: WorkoutItem, context: () throws -> Context) -> FileResult {
        var result: FileResult
        do {
            result = importWorkout(item.export, item.index, routes: item.routes, context: try context())
        } catch {
            result = Self.failure("\(item.export.name)#\(item.export.workouts[item.index].line)", error)
        }
        if !item.exportNotes.isEmpty {
            let note = item.exportNotes.joined(separator: "; ")
            result.reason = result.reason.map { "\($0); \(note)" } ?? note
        }
        return result
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
        let (profile, history, registry) = (context.profile, context.history, context.store.registry)
        let (analysed, blob) = both(
            { () -> RunAnalysis in
                var analysis = RunAnalyzer.analyse(ready, physiology: profile, registry: registry)
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

}

extension InputCollector {
    /// True for the file an Apple Health export keeps its data in: `export.xml`,
    /// plain or gzip (`export.xml.gz`), any case (not `export_cda.xml`, the
    /// clinical documents).
    public static func isHealthExportName(_ path: String) -> Bool {
        let name = (path as NSString).lastPathComponent.lowercased()
        return name == "export.xml" || name == "export.xml.gz"
    }

    /// True when `path` is an Apple Health export: named `export.xml` (or
    /// `.xml.gz`), or an `.xml` or `.xml.gz` file whose first 4 KB (after gzip)
    /// hold `<HealthData` (a renamed export).
    public static func isHealthExport(_ path: String) -> Bool {
        if isHealthExportName(path) { return true }
        let lower = path.lowercased()
        guard lower.hasSuffix(".xml") || lower.hasSuffix(".xml.gz"), RegularFile.refusal(path) == nil,
            let stream = try? FileByteStream(path: path)
        else { return false }
        var head = [UInt8](repeating: 0, count: 4096)
        var filled = 0
        while filled < head.count {
            let n =
                (try? head.withUnsafeMutableBytes {
                    try stream.read(into: $0.baseAddress! + filled, count: $0.count - filled)
                }) ?? 0
            if n <= 0 { break }
            filled += n
        }
        return Data(head.prefix(filled)).range(of: Data("<HealthData".utf8)) != nil
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
