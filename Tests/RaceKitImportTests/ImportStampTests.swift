import Foundation
import Testing

@testable import RaceKitImport
@testable import RaceKitSQLite
@testable import RaceKitStore

#if canImport(Glibc)
import Glibc
#endif

/// A cron job re-importing the same folder: a file whose path, size,
/// modification time and inode are what the last import recorded is not read
/// again (issue 41, item 4); anything else is read as before.
@Suite struct ImportStampTests {
    /// Options whose files are stamped at once (the tests' files are seconds old).
    static var options: ImportOptions {
        var o = ImportOptions()
        o.stampSettleSeconds = 0
        return o
    }

    /// Rewrites `path` in place with `text` (same inode) and gives it back its
    /// modification time to the nanosecond: a change only reading would see.
    static func rewriteKeepingStat(_ path: String, _ text: String) throws {
        var before = stat()
        #expect(stat(path, &before) == 0)
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
        var times = [before.st_atim, before.st_mtim]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        var after = stat()
        #expect(stat(path, &after) == 0)
        #expect(after.st_ino == before.st_ino && after.st_size == before.st_size)
        #expect(after.st_mtim.tv_nsec == before.st_mtim.tv_nsec && after.st_mtim.tv_sec == before.st_mtim.tv_sec)
    }

    @Test func anUnchangedFileIsNotReadAgainAndAChangedOneIs() throws {
        let dir = try makeExport()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try RunStore()
        let files = InputCollector.collect([dir.path]).files
        let importer = Importer(store: store, options: Self.options)
        let first = try importer.run(files: files)
        #expect(try store.runCount() == 4)
        let stamps = try store.stamps(athleteID: Athlete.defaultID)
        // Every file the import finished with, the broken one (failed) excepted.
        #expect(stamps.count == first.filter { $0.status != .failed }.count)
        #expect(stamps.allSatisfy { $0.path.hasPrefix("/") })

        let second = try importer.run(files: files)
        for (a, b) in zip(first, second) {
            switch a.status {
            case .imported:
                #expect(b.status == .duplicate && b.runIds == a.runIds && b.reason == nil && b.unchanged)
            case .skipped:
                #expect(b.status == .skipped && b.reason == a.reason && b.unchanged)
            case .failed:
                // A failed file is read again, and fails again.
                #expect(b == a && !b.unchanged)
            default: Issue.record("unexpected \(a)")
            }
        }

        // Rewritten in place with its size, inode and modification time put
        // back (as `cp -p` or `rsync -t` do): the change time still moved, so
        // it is read again (and the broken text fails).
        let a = dir.appendingPathComponent("a.gpx").path
        let original = try String(contentsOfFile: a, encoding: .utf8)
        try Self.rewriteKeepingStat(a, String(repeating: "x", count: original.utf8.count))
        let third = try importer.run(files: [a])
        #expect(third.map(\.status) == [.failed])
        #expect(try store.runCount() == 4)

        // Touched: read as now (and found broken).
        var times = [timespec(tv_sec: 1_700_000_000, tv_nsec: 5), timespec(tv_sec: 1_700_000_000, tv_nsec: 5)]
        #expect(utimensat(AT_FDCWD, a, &times, 0) == 0)
        let fourth = try importer.run(files: [a])
        #expect(fourth.map(\.status) == [.failed])
        // Put back, it is the same run again (the digest decides).
        try original.write(toFile: a, atomically: false, encoding: .utf8)
        let back = try importer.run(files: [a])
        #expect(back.map(\.status) == [.duplicate])
        #expect(back.first?.unchanged == false)
    }

    @Test func aFileWhoseRunWasDeletedIsImportedAgain() throws {
        let dir = try makeExport()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try RunStore()
        let a = dir.appendingPathComponent("a.gpx").path
        let importer = Importer(store: store, options: Self.options)
        let first = try importer.run(files: [a])
        let id = try #require(first.first?.runIds.first)
        try store.delete(runID: id)
        let again = try importer.run(files: [a])
        #expect(again.map(\.status) == [.imported])
    }

    @Test func allowingDuplicatesReadsEveryFileAndOtherAthletesHaveTheirOwn() throws {
        let dir = try makeExport()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try RunStore()
        let a = dir.appendingPathComponent("a.gpx").path
        #expect(try Importer(store: store, options: Self.options).run(files: [a]).map(\.status) == [.imported])
        var options = Self.options
        options.allowDuplicates = true
        // Read again (the same bytes are still the same run: a duplicate, said as such).
        let again = try Importer(store: store, options: options).run(files: [a])
        #expect(again.map(\.status) == [.duplicate])
        #expect(again.first?.unchanged == false)
        try store.addAthlete(Athlete(id: "anna", name: "Anna", createdAt: 0))
        var anna = Self.options
        anna.athleteID = "anna"
        #expect(try Importer(store: store, options: anna).run(files: [a]).map(\.status) == [.imported])
        #expect(try Importer(store: store, options: anna).run(files: [a]).map(\.status) == [.duplicate])
    }
}

@Suite struct DamagedStampTests {
    static var options: ImportOptions { ImportStampTests.options }

    /// A stamp table holding a value of the wrong type reads every file again:
    /// the import goes on as if there were no stamps.
    @Test func aDamagedStampOnlyMeansTheFileIsReadAgain() throws {
        let dir = try makeExport()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try RunStore()
        let a = dir.appendingPathComponent("a.gpx").path
        let importer = Importer(store: store, options: Self.options)
        #expect(try importer.run(files: [a]).map(\.status) == [.imported])
        try store.writer.write { db in try db.execute(sql: "UPDATE import_stamp SET size = 'big'") }
        #expect(try store.stamps(athleteID: Athlete.defaultID).isEmpty, "a damaged row is left out")
        let again = try importer.run(files: [a])
        #expect(again.map(\.status) == [.duplicate])
        #expect(again.first?.unchanged == false)
    }
}

@Suite struct StampSettleTests {
    /// A file changed a moment ago gets no stamp: the next import reads it.
    @Test func aFreshFileIsNotStamped() throws {
        let dir = try makeExport()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try RunStore()
        let a = dir.appendingPathComponent("a.gpx").path
        var options = ImportOptions()
        options.stampSettleSeconds = 3600
        #expect(try Importer(store: store, options: options).run(files: [a]).map(\.status) == [.imported])
        #expect(try store.stamps(athleteID: Athlete.defaultID).isEmpty)
        // A file's facts: the inode of any size never traps, the change time is kept.
        let facts = try #require(FileFacts.of(a, settle: 0))
        #expect(facts.path == a && facts.changedNanoseconds > 0 && !facts.recent)
        #expect(FileFacts.of(dir.path, settle: 0) == nil, "a folder is not a file")
    }
}
