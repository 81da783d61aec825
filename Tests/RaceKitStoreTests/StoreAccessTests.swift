import Foundation
import GRDB
import Testing

@testable import RaceKitMetrics
@testable import RaceKitModel
@testable import RaceKitSQLite
@testable import RaceKitStore

/// How the store is opened: only writers create it, readers leave nothing on
/// disk, and a store from a newer RaceKit is refused.
@Suite struct StoreAccessTests {
    /// A fresh folder, removed after the test.
    final class Folder {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("rk-access-\(UUID().uuidString)")
        init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(at: url) }
        func path(_ name: String) -> String { url.appendingPathComponent(name).path }
        var entries: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted() }
    }

    /// A store at `path` holding one run, closed again.
    static func makeStore(_ path: String) throws {
        let store = try RunStore(path: path, access: .create)
        _ = try store.insert(
            [makeRun(start: 1000, distance: 10)], athleteID: "default", sourceFile: "a.tcx",
            format: .tcx, sha256: "aa", allowDuplicates: false)
    }

    @Test(arguments: [StoreAccess.read, .write])
    func aMissingStoreIsNotCreated(_ access: StoreAccess) throws {
        let folder = try Folder()
        for name in ["typo/x.sqlite", "x.sqlite"] {
            let path = folder.path(name)
            let error = #expect(throws: StoreError.self) { try RunStore(path: path, access: access) }
            guard case .missing(let named)? = error else {
                Issue.record("\(name): \(String(describing: error))")
                continue
            }
            #expect(named == path && error?.exitClass == .noInput)
            let message = error?.description ?? ""
            // What is wrong, in the store's words; the CLI adds how to give another
            // (StoreAccessCLITests.aMissingStoreIsNeitherCreatedNorReadAsEmpty).
            #expect(message == "\(path): no store there")
        }
        #expect(folder.entries.isEmpty)
    }

    @Test func creatingMakesTheFolderAndSaysSo() throws {
        let folder = try Folder()
        let path = folder.path("new/racekit.sqlite")
        #expect(try RunStore(path: path, access: .create).created)
        for access in [StoreAccess.create, .write, .read] {
            #expect(try !RunStore(path: path, access: access).created, "\(access)")
        }
    }

    /// The open lock is never created through a link (to a missing path, or
    /// someone else's file), and a writer removes it when it lets go.
    @Test func theOpenLockFollowsNoLinkAndIsNotLeftBehind() throws {
        let folder = try Folder()
        let path = folder.path("s.sqlite")
        symlink(folder.path("elsewhere"), path + ".open-lock")
        #expect {
            _ = try RunStore(path: path, access: .create)
        } throws: { error in
            ExitClass(of: error) == .ioError && "\(error)".contains("is a symbolic link")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path("elsewhere")))
        unlink(path + ".open-lock")
        _ = try RunStore(path: path, access: .create)
        _ = try RunStore(path: path, access: .write)
        #expect(folder.entries == ["s.sqlite"])
    }

    @Test func readingLeavesNothingBehindAndCannotWrite() throws {
        let folder = try Folder()
        let path = folder.path("s.sqlite")
        try Self.makeStore(path)
        let before = folder.entries
        #expect(before == ["s.sqlite"])
        do {
            let store = try RunStore(path: path, access: .read)
            #expect(try store.runCount() == 1)
            #expect(throws: StoreError.self) { try store.addAthlete(Athlete(id: "anna", name: "A", createdAt: 0)) }
        }
        #expect(folder.entries == before)
    }

    /// The path readers take when the user cannot write the store (root can
    /// write anything, so it is called directly): a read-only connection, as an
    /// immutable file without -wal (SQLite would need to create -shm)...
    @Test func aStoreThatCannotBeWrittenIsReadWithoutAnyFileCreated() throws {
        let folder = try Folder()
        let path = folder.path("s.sqlite")
        try Self.makeStore(path)
        let before = folder.entries
        do {
            let queue = try StoreOpener.readQueue(StoreFile(path: path), writable: false)
            #expect(try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM run") } == 1)
            #expect(throws: DatabaseError.self) {
                try queue.write { try $0.execute(sql: "DELETE FROM run") }
            }
        }
        #expect(folder.entries == before)
    }

    /// ...and through -wal and -shm when a writer holds them, seeing what it wrote.
    @Test func aStoreThatCannotBeWrittenIsReadThroughAWritersWAL() throws {
        let folder = try Folder()
        let path = folder.path("s.sqlite")
        try Self.makeStore(path)
        let writer = try RunStore(path: path, access: .write)
        _ = try writer.insert(
            [makeRun(start: 90_000, distance: 10)], athleteID: "default", sourceFile: "b.tcx",
            format: .tcx, sha256: "bb", allowDuplicates: false)
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        let queue = try StoreOpener.readQueue(StoreFile(path: path), writable: false)
        #expect(try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM run") } == 2)
        withExtendedLifetime(writer) {}
    }

    @Test(arguments: [StoreAccess.read, .write, .create])
    func aStoreFromANewerRaceKitIsRefused(_ access: StoreAccess) throws {
        let folder = try Folder()
        let path = folder.path("store.sqlite")
        try Self.makeStore(path)
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v7-foo'), ('v10-bar'), ('v6-baz')")
        }
        let error = #expect(throws: StoreError.self) { try RunStore(path: path, access: access) }
        #expect(error?.exitClass == .dataError)
        #expect(
            error?.description
                == "\(path) was written by a newer RaceKit (schema v10-bar; this racekit knows up to \(Migrations.latest)): upgrade racekit"
        )
    }

    /// A store whose SQLite user_version is set (RaceKit never sets it) was read
    /// and written without a word.
    @Test(arguments: [StoreAccess.read, .write])
    func aStoreWithAUserVersionIsRefused(_ access: StoreAccess) throws {
        let folder = try Folder()
        let path = folder.path("store.sqlite")
        try Self.makeStore(path)
        try DatabaseQueue(path: path).write { db in try db.execute(sql: "PRAGMA user_version = 99") }
        let error = #expect(throws: StoreError.self) { try RunStore(path: path, access: access) }
        #expect(error?.exitClass == .dataError)
        #expect(error?.description.contains("(schema user_version 99; this racekit knows up to") == true)
    }

    @Test func aStoreFromAnOlderRaceKitIsUpgradedByAReaderThatCanWrite() throws {
        let folder = try Folder()
        let path = folder.path("old.sqlite")
        do {
            let queue = try DatabaseQueue(path: path)
            try Migrations.migrator.migrate(queue, upTo: "v4-drop-low-hr")
            #expect(try queue.read(Migrations.state) == .older(applied: "v4-drop-low-hr"))
        }
        let store = try RunStore(path: path, access: .read)
        #expect(try store.writer.read(Migrations.state) == .current)
        #expect(try store.athletes().map(\.id) == ["default"])
    }

    @Test func migrationsAreOrderedByTheirNumber() {
        #expect(Migrations.version("v10-bar") == 10 && Migrations.version("v5-gap-race-link") == 5)
        #expect(Migrations.version("custom") == -1)
        // The numbered migrations, then one per metric after 0.4.0's run table.
        #expect(Migrations.migrator.migrations.contains("v8-import-stamps"))
        #expect(Migrations.latest == "metric-" + MetricRegistry.standard.metrics.last!.column)
    }
}
