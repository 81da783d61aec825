import Foundation
import RaceKitCore
import RaceKitFormats

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

    /// Walks the archive at `path`. Never throws: what goes wrong becomes results;
    /// a crossed limit marks the tracker refused.
    func run(path: String) {
        let budget = ArchiveBudget(root: path, limits: limits)
        let strava = Self.stravaIndex(path: path, limits: limits, record: record)
        do {
            let reader = try ArchiveReader(path: path, budget: budget)
            try walk(reader, strava: strava)
        } catch let error as ArchiveError where error.kind == .refused {
            tracker.refuse(error)
            // A slot of its own, so that the refusal is reported even when no entry was reached.
            record(FileResult(file: path, status: .failed, reason: error.description))
        } catch {
            record(FileResult(file: path, status: .failed, reason: "\(error)"))
        }
    }

    private func walk(_ reader: ArchiveReader, strava: StravaActivities) throws {
        while let entry = try reader.nextEntry() {
            if tracker.refusal != nil { return }
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
            if InputCollector.isArchive(lower) {
                try nested(reader, entry)
            } else if InputCollector.isActivityFile(lower) {
                try activity(reader, entry, strava.metadata(forEntry: entry.path))
            }
            // Anything else (CSV, JSON summaries, photos) is not an activity file.
        }
    }

    private func nested(_ reader: ArchiveReader, _ entry: ArchiveReader.Entry) throws {
        guard let stream = reader.entryStream() else { return }
        do {
            let inner = try ArchiveReader(nested: stream, name: entry.displayName, inside: reader)
            try walk(inner, strava: StravaActivities())
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

    /// Strava's activities.csv, found by a first pass over the archive's entries
    /// (a seek each for a zip on disk). Empty when there is none; a broken one is
    /// reported and the activities still import with their own names.
    static func stravaIndex(path: String, limits: ArchiveLimits, record: (FileResult) -> Void) -> StravaActivities {
        do {
            let reader = try ArchiveReader(path: path, budget: ArchiveBudget(root: path, limits: limits))
            while let entry = try reader.nextEntry() {
                let parts = entry.path.split(separator: "/")
                guard parts.last?.lowercased() == "activities.csv", parts.count <= 2 else { continue }
                return try StravaActivities(csv: reader.readEntry(limit: inMemoryLimit), name: entry.displayName)
            }
        } catch let error as StravaActivities.ParseError {
            record(
                FileResult(
                    file: path, status: .failed,
                    reason: "\(error); the activities import with the names and sports in their files"))
        } catch {
            // The main pass reports an unreadable archive.
        }
        return StravaActivities()
    }
}
