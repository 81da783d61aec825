import Foundation
import RaceKitFormats
import RaceKitModel
import Synchronization

/// One piece of an import: a file on disk, or an archive entry already read into
/// memory (small entries; a large one is read by the archive's own thread).
enum ImportItem: Sendable {
    case file(String)
    case entry(EntryItem)
    /// A workout of an Apple Health export already read.
    case workout(WorkoutItem)
    /// The sleep and wellness records of an Apple Health export already read.
    case wellness(WellnessItem)

    var byteCount: Int {
        switch self {
        case .entry(let e): return e.bytes.count
        case .workout(let w): return w.routeBytes
        case .file, .wellness: return 0
        }
    }
}

/// An archive entry waiting for a worker.
struct EntryItem: Sendable {
    /// `archive.zip!path/inside`, the name results and messages give.
    var displayName: String
    /// The entry's file name, stored as the run's source file.
    var fileName: String
    var bytes: [UInt8]
    /// What the export's own index (Strava's activities.csv) says about it.
    var metadata: ActivityMetadata?
    /// The archive it came from (its refusal is reported once, with what it kept).
    var archive: ArchiveTracker
}

/// One workout of an Apple Health export waiting for a worker.
struct WorkoutItem: Sendable {
    /// The whole export (its arrays are shared, not copied, between items).
    var export: AppleHealthExport
    var index: Int
    /// Finds the workout's route files (beside the export, or read from its archive).
    var routes: HealthRouteResolver
    /// Route bytes this item holds in memory (archives), for the queue's budget.
    var routeBytes = 0
    /// Notes about the whole export, given with its first workout's result.
    var exportNotes: [String] = []
}

/// The sleep and wellness records of one Apple Health export, stored as the
/// athlete's daily measurements.
struct WellnessItem: Sendable {
    var export: AppleHealthExport
    /// Notes about the whole export, given with this result (before any workout's).
    var exportNotes: [String] = []
}

/// A flag set once, read by every thread.
final class StopFlag: Sendable {
    private let value = Atomic<Bool>(false)
    func set() { value.store(true, ordering: .relaxed) }
    var isSet: Bool { value.load(ordering: .relaxed) }
}

/// What an export's index says about one activity file: Strava's activities.csv
/// names, sports and descriptions are the ones the athlete set, so they win over
/// the file's own.
public struct ActivityMetadata: Sendable, Equatable {
    public var name: String?
    /// The sport as written (`Run`, `Trail Run`, `Ride`): read by `Sport(fileValue:)`.
    public var sport: String?
    public var description: String?
    public init(name: String? = nil, sport: String? = nil, description: String? = nil) {
        self.name = name; self.sport = sport; self.description = description
    }
}

/// One archive of an import: whether it was refused, and by what.
final class ArchiveTracker: Sendable {
    let path: String
    let limits: ArchiveLimits
    private let state = Locked<ArchiveError?>(nil)
    init(path: String, limits: ArchiveLimits) { self.path = path; self.limits = limits }
    var refusal: ArchiveError? { state.withLock { $0 } }
    func refuse(_ error: ArchiveError) { state.withLock { if $0 == nil { $0 = error } } }
}

/// A bounded queue between the thread that walks the inputs (and unpacks archive
/// entries) and the workers: at most `maxItems` items and `maxBytes` entry bytes
/// wait at once, so a 10 GB archive never sits in memory.
final class ImportQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [(index: Int, item: ImportItem)] = []
    private var head = 0
    private var queuedBytes = 0
    private var closed = false
    private let maxItems: Int
    private let maxBytes: Int

    init(maxItems: Int, maxBytes: Int) {
        self.maxItems = max(1, maxItems); self.maxBytes = maxBytes
    }

    /// Waits for room, then queues `item`.
    func push(_ index: Int, _ item: ImportItem) {
        condition.lock()
        defer { condition.unlock() }
        while !closed, items.count - head >= maxItems || (queuedBytes > 0 && queuedBytes + item.byteCount > maxBytes) {
            condition.wait()
        }
        queuedBytes += item.byteCount
        items.append((index, item))
        condition.broadcast()
    }

    /// The next item, or nil once the queue is closed and empty.
    func pop() -> (index: Int, item: ImportItem)? {
        condition.lock()
        defer { condition.unlock() }
        while head == items.count, !closed { condition.wait() }
        guard head < items.count else { return nil }
        let next = items[head]
        head += 1
        if head > 256, head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
        queuedBytes -= next.item.byteCount
        condition.broadcast()
        return next
    }

    /// No more items will come.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }
}

/// The results of an import in input order: a slot is reserved when an item is
/// queued (or a result recorded), filled when its result is known.
final class ResultSlots: Sendable {
    private struct State {
        var results: [FileResult?] = []
        var archives: [ArchiveTracker?] = []
        var done = 0
        var finished: [FileResult] = []
    }
    private let state = Locked(State())
    private let progress: (@Sendable (ImportProgress) -> Void)?

    init(progress: (@Sendable (ImportProgress) -> Void)?) { self.progress = progress }

    /// A new slot for an item of `archive` (nil for a file on disk).
    func reserve(_ archive: ArchiveTracker?) -> Int {
        state.withLock { s in
            s.results.append(nil)
            s.archives.append(archive)
            return s.results.count - 1
        }
    }

    func fill(_ index: Int, _ result: FileResult) {
        state.withLock { s in
            s.results[index] = result
            s.done += 1
            guard let progress else { return }
            s.finished.append(result)
            progress(ImportProgress(done: s.done, total: s.results.count, summary: ImportSummary(s.finished)))
        }
    }

    /// Slots reserved and never filled: inputs queued and not imported (the
    /// import stopped).
    var unfilled: Int { state.withLock { s in s.results.count - s.done } }

    /// The results in input order. A refused archive keeps what its entries
    /// stored before the limit was crossed (each entry is a whole file, stored in
    /// one transaction, and another input of this or another process may already
    /// rely on it as the stored copy of its activity): those keep their own
    /// results, and the refusal becomes one failed result for the archive, at the
    /// place of the first, saying what was kept.
    func results() -> [FileResult] {
        let (results, archives) = state.withLock { ($0.results, $0.archives) }
        var final: [FileResult] = []
        var reported = Set<ObjectIdentifier>()
        for (index, slot) in results.enumerated() {
            guard let slot else { continue }
            guard let tracker = archives[index], let refusal = tracker.refusal else {
                final.append(slot)
                continue
            }
            guard slot.status == .failed, slot.reason == refusal.description || slot.file == tracker.path else {
                final.append(slot)
                continue
            }
            guard reported.insert(ObjectIdentifier(tracker)).inserted else { continue }
            final.append(Self.refused(tracker, refusal, results: results, archives: archives))
        }
        return final
    }

    /// The failed result of a refused archive: its limit, and what its entries read
    /// before it stored (kept, listed with their own results).
    private static func refused(
        _ tracker: ArchiveTracker, _ refusal: ArchiveError, results: [FileResult?], archives: [ArchiveTracker?]
    ) -> FileResult {
        var stored = 0, upgraded = 0, known = 0
        for (other, result) in results.enumerated() where archives[other] === tracker {
            switch result?.status {
            case .imported?: stored += result!.runIds.count
            case .upgraded?: upgraded += result!.runIds.count
            case .duplicate?: known += result!.runIds.count
            default: break
            }
        }
        func counted(_ n: Int, _ one: String, _ many: String) -> String { n == 1 ? "1 \(one)" : "\(n) \(many)" }
        var kept: [String] = []
        if stored > 0 { kept.append(counted(stored, "new run", "new runs") + " stored") }
        if upgraded > 0 { kept.append(counted(upgraded, "stored run", "stored runs") + " upgraded") }
        if known > 0 { kept.append(counted(known, "run", "runs") + " already stored") }
        let reason =
            kept.isEmpty
            ? "\(refusal.description); not read further, and nothing from it was stored"
            : "\(refusal.description); not read further; the entries read before the limit are kept "
                + "(\(kept.joined(separator: ", ")); each is listed with its own result)"
        return FileResult(file: tracker.path, status: .failed, reason: reason)
    }
}
