import Foundation
import RaceKitImport
import RaceKitPostgres
import RaceKitTestSupport
import Testing

/// An import meeting a store it can no longer write (a role without the
/// privilege, a lost connection) stops there, says so once with that error's
/// exit class, and keeps what it stored before; each failed file is named.
@Suite struct ImportStoreFailureTests {
    static let serverURL: String? = ProcessInfo.processInfo.environment["RACEKIT_TEST_PG"].flatMap {
        $0.isEmpty ? nil : $0
    }

    @Test(.enabled(if: serverURL != nil, "PostgreSQL not installed (make test starts one)"))
    func aRoleThatMayOnlyReadStopsTheImportWith77() throws {
        let url = try #require(Self.serverURL)
        let name = "rk_ro_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
        let admin = try PGConnection(url)
        try admin.query("CREATE DATABASE \(name)")
        let base = url[...url.lastIndex(of: "/")!]
        _ = try PGStore(conninfo: base + name, access: .create)
        try admin.query("CREATE ROLE \(name) LOGIN")
        try PGConnection(base + name).query("GRANT SELECT ON ALL TABLES IN SCHEMA public TO \(name)")
        let reader = try PGStore(
            conninfo: base.replacingOccurrences(of: "postgres@", with: "\(name)@") + name, access: .write)

        let dir = try workFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        var files: [String] = []
        for i in 0..<40 {
            let path = dir.appendingPathComponent("run-\(i).gpx").path
            try trackGPX(seconds: 600, speed: 3, start: String(format: "2026-03-%02dT07:00:00Z", 1 + i % 28))
                .replacingOccurrences(of: "T07:00", with: "T\(String(format: "%02d", 6 + i / 28)):00")
                .write(toFile: path, atomically: false, encoding: .utf8)
            files.append(path)
        }
        var options = ImportOptions()
        options.jobs = 2
        let run = try Importer(store: reader, options: options).importAll(files: files)
        let failure = try #require(run.storeFailure)
        #expect(failure.exitClass == .noPermission)
        #expect(
            failure.description.contains("permission denied") && failure.description.hasPrefix("import stopped at "))
        let failed = run.results.filter { $0.status == .failed }
        // Only the files already on their way failed, each named; the rest were not read.
        #expect(!failed.isEmpty && failed.count < 40 && failed.allSatisfy { $0.reason?.hasPrefix($0.file) == true })
        #expect(failed.count + failure.notImported == 40, "\(failed.count) + \(failure.notImported)")
    }
}
