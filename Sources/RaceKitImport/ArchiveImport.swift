import Foundation
import RaceKitFormats
import RaceKitModel

/// Walks archives for the importer: entries are unpacked in memory, one after the
/// other, on the walking thread and handed to the workers; archives inside
/// archives (Garmin's export is a zip of zips) are read as streams, never
/// written to disk.
struct ArchiveWalk {
    /// Entries up to this size are read into memory and queued for a worker;
    /// larger ones are parsed by the walking thread straight from the archive.
    static let inMemoryLimit = 64 << 20

    let importer: Importer
    let tracker: ArchiveTracker
    let limits: ArchiveLimits
    /// Queues an item; returns its result slot.
    let enqueue: (ImportItem) -> Void
    /// Records a result the walk itself produced (a bad entry, a large entry).
    let record: (FileResult) -> Void
    /// Imports an entry on the walking thread (too large to queue).
    let importLarge: (ByteStream, ArchiveReader.Entry, ActivityMetadata?) -> FileResult
    /// Called when the archive's Apple Health export is refused as bad data.
    var refusedExport: () -> Void = {}

    /// Walks the archive at `path`. Never throws: what goes wrong becomes results;
    /// a crossed limit marks the tracker refused.
    func run(path: String) {
        let budget = ArchiveBudget(root: path, limits: limits)
        let index = Self.index(path: path, limits: limits, record: record)
        do {
            let reader = try ArchiveReader(path: path, budget: budget)
            if let export = try walk(reader, index: index), let exportPath = index.healthExport {
                try queueWorkouts(of: export, path: path, folder: Self.folder(of: exportPath))
            }
        } catch let error as ArchiveError where error.kind == .refused {
            tracker.refuse(error)
            // A slot of its own, so that the refusal is reported even when no entry was reached.
            record(FileResult(file: path, status: .failed, reason: error.description))
        } catch {
            record(FileResult(file: path, status: .failed, reason: "\(error)"))
        }
    }

    /// What a first pass over an archive on disk finds: Strava's index and an
    /// Apple Health export.
    struct Index {
        var strava = StravaActivities()
        /// The entry path of an Apple Health `export.xml`, if any.
        var healthExport: String?
    }

    /// Walks the entries; returns the Apple Health export it read, if any (its
    /// workouts are queued once the route files are found: `queueWorkouts`).
    private func walk(_ reader: ArchiveReader, index: Index) throws -> AppleHealthExport? {
        let routes = index.healthExport.map { Self.folder(of: $0) + "workout-routes/" }
        var export: AppleHealthExport?
        while let entry = try reader.nextEntry() {
            if tracker.refusal != nil { return nil }
            if ArchiveReader.isUnsafe(entry.path) {
                record(
                    FileResult(
                        file: entry.displayName, status: .failed,
                        reason:
                            "\(entry.displayName): unsafe entry name (absolute, or with a '..' part): not read; archives made by export tools never have one"
                    ))
                continue
            }
            let lower = entry.path.lowercased()
            if let routes, entry.path.hasPrefix(routes) {
                continue   // read with their workouts (queueWorkouts)
            } else if entry.path == index.healthExport {
                export = try readExport(reader)
            } else if InputCollector.isArchive(lower) {
                try nested(reader, entry)
            } else if InputCollector.isActivityFile(lower, readers: importer.options.readers) {
                try activity(reader, entry, index.strava.metadata(forEntry: entry.path))
            }
            // Anything else (CSV, JSON summaries, photos) is not an activity file.
        }
        return export
    }

    /// Reads the Apple Health export entry (streamed; it may be gigabytes).
    private func readExport(_ reader: ArchiveReader) throws -> AppleHealthExport? {
        guard let stream = reader.entryStream() else { return nil }
        switch importer.readHealthExport(stream) {
        case .success(let export):
            return export
        case .failure(let result, let refused):
            if let refusal = reader.budget.refusal { throw refusal }
            record(result)
            if refused { refusedExport() }
            return nil
        }
    }

    /// Queues the export's workouts, each with its route file read from the
    /// archive in a second pass (a seek per entry in a zip on disk): the routes may
    /// come before or after `export.xml`. The pass has limits of its own.
    private func queueWorkouts(of export: AppleHealthExport, path: String, folder: String) throws {
        var wanted: [String: [Int]] = [:]
        var order: [Int] = []
        for (i, w) in export.workouts.enumerated() {
            let parts = w.routeFiles.first?.split(separator: "/") ?? []
            if w.locations.isEmpty, !parts.isEmpty, !parts.contains("..") {
                wanted[folder + parts.joined(separator: "/"), default: []].append(i)
            } else {
                order.append(i)
            }
        }
        let notes = Importer.exportNotes(export)
        var first = true
        if export.wellnessCount > 0 {
            enqueue(.wellness(WellnessItem(export: export, exportNotes: notes)))
            first = false
        }
        func queue(_ i: Int, _ routes: @escaping HealthRouteResolver, _ bytes: Int) {
            enqueue(
                .workout(
                    WorkoutItem(
                        export: export, index: i, routes: routes, routeBytes: bytes, exportNotes: first ? notes : [])))
            first = false
        }
        for i in order { queue(i, { _ in nil }, 0) }
        if !wanted.isEmpty {
            let reader = try ArchiveReader(path: path, budget: ArchiveBudget(root: path, limits: limits))
            while !wanted.isEmpty, let entry = try reader.nextEntry() {
                guard let indices = wanted.removeValue(forKey: entry.path) else { continue }
                let name = entry.displayName
                let routes: HealthRouteResolver
                var size = 0
                do {
                    let bytes = try reader.readEntry(limit: Self.inMemoryLimit)
                    size = bytes.count
                    routes = { _ in
                        let read = try ActivityFileReader.read(stream: MemoryByteStream(name: name, bytes: bytes))
                        guard case .document(let document) = read.outcome, let first = document.activities.first else {
                            return RawActivity()
                        }
                        return first
                    }
                } catch let error as ArchiveError where error.kind == .entry {
                    routes = { _ in throw error }
                }
                for i in indices { queue(i, routes, size) }
            }
        }
        // Routes the archive does not hold: the workouts import without one, with a note.
        for i in wanted.values.flatMap({ $0 }).sorted() { queue(i, { _ in nil }, 0) }
    }

    /// `a/b/export.xml` -> `a/b/`.
    static func folder(of entryPath: String) -> String {
        guard let slash = entryPath.lastIndex(of: "/") else { return "" }
        return String(entryPath[...slash])
    }

    private func nested(_ reader: ArchiveReader, _ entry: ArchiveReader.Entry) throws {
        guard let stream = reader.entryStream() else { return }
        do {
            let inner = try ArchiveReader(nested: stream, name: entry.displayName, inside: reader)
            _ = try walk(inner, index: Index())
        } catch let error as ArchiveError where error.kind == .refused {
            throw error
        } catch {
            record(FileResult(file: entry.displayName, status: .failed, reason: "\(error)"))
        }
    }

    private func activity(_ reader: ArchiveReader, _ entry: ArchiveReader.Entry, _ metadata: ActivityMetadata?) throws {
        if let size = entry.declaredSize, size > Int64(Self.inMemoryLimit), let stream = reader.entryStream() {
            let result = importLarge(stream, entry, metadata)
            if let refusal = reader.budget.refusal { throw refusal }
            record(result)
            return
        }
        do {
            let bytes = try reader.readEntry(limit: Self.inMemoryLimit)
            enqueue(
                .entry(
                    EntryItem(
                        displayName: entry.displayName, fileName: entry.fileName, bytes: bytes, metadata: metadata,
                        archive: tracker)))
        } catch let error as ArchiveError where error.kind == .entry {
            record(FileResult(file: entry.displayName, status: .failed, reason: error.description))
        }
    }

    /// Strava's activities.csv and an Apple Health export.xml, found by a first
    /// pass over the archive's entries (a seek each for a zip on disk). A broken
    /// activities.csv is reported and the activities still import with their own
    /// names.
    static func index(path: String, limits: ArchiveLimits, record: (FileResult) -> Void) -> Index {
        var index = Index()
        do {
            let reader = try ArchiveReader(path: path, budget: ArchiveBudget(root: path, limits: limits))
            while let entry = try reader.nextEntry() {
                let parts = entry.path.split(separator: "/")
                if parts.count <= 3, index.healthExport == nil, InputCollector.isHealthExportName(entry.path) {
                    index.healthExport = entry.path
                }
                guard parts.last?.lowercased() == "activities.csv", parts.count <= 2 else { continue }
                if let stream = reader.entryStream() { index.strava = try StravaActivities(csv: stream) }
            }
        } catch let error as StravaActivities.ParseError {
            record(
                FileResult(
                    file: path, status: .failed,
                    reason: "\(error); the activities import with the names and sports in their files"))
        } catch {
            // The main pass reports an unreadable or refused archive.
        }
        return index
    }
}
