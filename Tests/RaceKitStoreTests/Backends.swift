import Foundation
import RaceKitCore
import RaceKitPostgres
import Testing

@testable import RaceKitStore

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
    /// test server).
    func make() throws -> any Store {
        switch self {
        case .sqlite: return try SQLiteStore()
        case .postgres: return try PGStore(conninfo: try Self.freshDatabase(), access: .create)
        }
    }

    /// The URL of a new database on the test server (removed with the server).
    static func freshDatabase() throws -> String {
        guard let url = serverURL, let slash = url.lastIndex(of: "/") else {
            throw Failure(.software, "no PostgreSQL test server")
        }
        let name = "racekit_s_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try PGConnection(url).query("CREATE DATABASE \(name)")
        return url[...slash] + name
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
