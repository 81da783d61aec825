import Foundation
import GRDB
import Testing

@testable import RaceKitModel
@testable import RaceKitPostgres
@testable import RaceKitSQLite
@testable import RaceKitStore
@testable import RaceKitStoreOpener

/// The store backends a test runs against: the embedded SQLite store always,
/// PostgreSQL when `make test` started a throwaway server (scripts/with-postgres.sh
/// sets RACEKIT_TEST_PG; RaceKitPostgresTests says "skipped: PostgreSQL not
/// installed" where there is none).
enum Backend: String, Sendable, CaseIterable, CustomTestStringConvertible {
    case sqlite, postgres

    static let serverURL: String? = ProcessInfo.processInfo.environment["RACEKIT_TEST_PG"].flatMap {
        $0.isEmpty ? nil : $0
    }
    static let all: [Backend] = serverURL == nil ? [.sqlite] : [.sqlite, .postgres]

    var testDescription: String { rawValue }

    /// A new, empty store (an in-memory SQLite store, or a fresh database on the
    /// test server, a copy of one migrated once: `migrated`).
    func make() throws -> any Store {
        switch self {
        case .sqlite: return try SQLiteStore()
        case .postgres:
            return try PGStore(conninfo: try Self.freshDatabase(from: try Self.migrated.get()), access: .create)
        }
    }

    /// The URL of a new database on the test server (removed with the server):
    /// empty, or a copy of `template`.
    static func freshDatabase(from template: String? = nil) throws -> String {
        guard let url = serverURL, let slash = url.lastIndex(of: "/") else {
            throw Failure(.software, "no PostgreSQL test server")
        }
        let name = "racekit_s_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try PGConnection(url).query("CREATE DATABASE \(name)" + (template.map { " TEMPLATE \($0)" } ?? ""))
        return url[...slash] + name
    }

    /// The name of a database the store created and migrated, made once per test
    /// process and never opened again: `make` copies it (CREATE DATABASE ...
    /// TEMPLATE), rather than migrate every test's database. The migrations
    /// themselves are tested on empty databases (`freshDatabase()`).
    static let migrated: Result<String, any Error> = Result {
        let url = try freshDatabase()
        do { _ = try PGStore(conninfo: url, access: .create) }   // its connection closes here
        return String(url[url.index(after: url.lastIndex(of: "/")!)...])
    }

    /// A store with one run (1 km, "a.tcx"), and the run's id.
    func storeWithOneRun() throws -> (any Store, String) {
        let store = try make()
        let outcome = try store.insert(
            [makeRun(start: 1_772_348_400, distance: 1000)], athleteID: "default",
            sourceFile: "a.tcx", format: .tcx, sha256: "aa", allowDuplicates: false)
        guard case .inserted(let id) = outcome[0] else { throw StoreError.database("not inserted: \(outcome[0])") }
        return (store, id)
    }
}

@Suite struct BackendAccessTests {
    /// A store opened to read refuses every change, on every backend.
    @Test(arguments: Backend.all) func aReaderCannotWrite(_ backend: Backend) throws {
        let location: StoreLocation
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rk-ro-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        switch backend {
        case .sqlite:
            location = .sqlite(path: dir.appendingPathComponent("s.sqlite").path)
        case .postgres:
            location = .postgres(url: try Backend.freshDatabase())
        }
        // Made by a writer, then opened to read.
        _ = try location.open(access: .create)
        let reader = try location.open(access: .read)
        #expect(reader.access == .read)
        #expect(throws: StoreError.self) {
            try reader.addAthlete(Athlete(id: "anna", name: "Anna", createdAt: 0))
        }
        #expect(try reader.athletes().map(\.id) == ["default"])
    }
}

@Suite struct SchemaLedgerTests {
    /// The location of a new store with one run, on `backend`.
    static func location(_ backend: Backend, _ dir: URL) throws -> StoreLocation {
        switch backend {
        case .sqlite: return .sqlite(path: dir.appendingPathComponent("s.sqlite").path)
        case .postgres: return .postgres(url: try Backend.freshDatabase())
        }
    }

    /// RaceKit's tables with a ledger that records nothing (emptied by hand): the
    /// schema is unknown, so readers and writers refuse it (65), naming the
    /// ledger; before, readers said "no store there" and writers failed with 70
    /// trying to create the tables again.
    @Test(arguments: Backend.all) func aLedgerThatRecordsNothingIsRefused(_ backend: Backend) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rk-ledger-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let location = try Self.location(backend, dir)
        _ = try location.open(access: .create)
        switch location {
        case .sqlite(let path):
            try DatabaseQueue(path: path).write { try $0.execute(sql: "DELETE FROM grdb_migrations") }
        case .postgres(let url): try PGConnection(url).query("DELETE FROM racekit_migrations")
        }
        for access in [StoreAccess.read, .write, .create] {
            #expect {
                _ = try location.open(access: access)
            } throws: { error in
                guard case .unrecordedSchema = error as? StoreError else { return false }
                return ExitClass(of: error) == .dataError && "\(error)".contains("records none")
            }
        }
    }

    /// Of several processes creating one store at once, one says it created it.
    @Test(arguments: Backend.all) func oneOfConcurrentCreatorsMadeTheStore(_ backend: Backend) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rk-create-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let location = try Self.location(backend, dir)
        let created = Locked<[Bool]>([])
        DispatchQueue.concurrentPerform(iterations: 3) { _ in
            let made = (try? location.open(access: .create))?.created
            created.withLock { $0.append(made ?? false) }
        }
        #expect(created.withLock { $0.filter { $0 }.count } == 1)
    }
}
