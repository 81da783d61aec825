import Foundation
import RaceKitModel
import RaceKitStore
import Testing

@testable import racekit

/// The store's errors say what is wrong; the CLI adds what to do about it, in
/// the one place errors become messages (`Exit.message(of:)`).
@Suite struct StoreHintCLITests {
    @Test func theCLIAddsTheHowToToTheStoresMessages() {
        let cases: [(StoreError, String)] = [
            (
                .missing(path: "typo/x.sqlite"),
                "typo/x.sqlite: no store there (give another with --store PATH or RACEKIT_STORE=PATH; racekit import and racekit athlete add create one)"
            ),
            (.unknownAthlete("ghost"), "unknown athlete 'ghost' (create it with: racekit athlete add ghost)"),
            (.athleteExists("anna"), "athlete 'anna' already exists (change it with racekit athlete set anna ...)"),
            (.unknownRun("NOPE"), "no run with id NOPE (see racekit runs list)"),
            (.database("disk I/O error"), "store error: disk I/O error")
        ]
        for (error, expected) in cases {
            #expect(Exit.message(of: error) == expected)
            #expect(!error.description.contains("racekit") && !error.description.contains("--store"), "\(error)")
        }
        #expect(Exit.message(of: Failure(.usage, "plain")) == "plain")
    }

    @Test func storeErrorsReachStderrWithTheirHints() throws {
        let cli = try CLI()
        let ghost = try cli.run(["import", "--athlete", "ghost", "x.gpx"])
        #expect(ghost.status == 64)
        #expect(ghost.stderr == "racekit: unknown athlete 'ghost' (create it with: racekit athlete add ghost)\n")
        #expect(try cli.run(["athlete", "add", "anna", "--store", "s.sqlite"]).status == 0)
        let again = try cli.run(["athlete", "add", "anna", "--store", "s.sqlite"])
        #expect(again.status == 65)
        #expect(
            again.stderr == "racekit: athlete 'anna' already exists (change it with racekit athlete set anna ...)\n")
        let run = try cli.run(["runs", "show", "NOPE", "--store", "s.sqlite"])
        #expect(run.status == 66 && run.stderr == "racekit: no run with id NOPE (see racekit runs list)\n")
    }

    /// A PostgreSQL URL is a server, not a file name: one nobody answers at is
    /// temporary (75) after a few tries, the password is never shown, and
    /// nothing is created here.
    @Test(arguments: [["runs", "list"], ["import", "x.gpx"], ["athlete", "add", "anna"]])
    func aPostgresServerNobodyAnswersIsTemporary(_ command: [String]) throws {
        let cli = try CLI()
        try Data("<gpx/>".utf8).write(to: cli.workdir.appendingPathComponent("x.gpx"))
        let url = "postgresql://anna:secret@127.0.0.1:1/racekit"
        let r = try cli.run(command + ["--store", url])
        #expect(r.status == 75)
        #expect(r.stderr.hasPrefix("racekit: postgresql://anna:***@127.0.0.1:1/racekit: connection to server at"))
        #expect(!r.stderr.contains("secret") && !r.stdout.contains("secret"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: cli.workdir.path) == ["x.gpx"])
    }

    /// A URL libpq cannot parse is a usage error that does not echo the password.
    @Test func aMalformedPostgresURLIsAUsageError() throws {
        let cli = try CLI()
        let r = try cli.run(["runs", "list", "--store", "postgresql://anna:secret@db/racekit?nosuch=1"])
        #expect(r.status == 64)
        #expect(r.stderr.contains("not a valid PostgreSQL connection string") && !r.stderr.contains("secret"))
    }

    /// libpq is loaded only for a PostgreSQL store: without it such a store is
    /// unavailable (69, saying what to install), and a SQLite store never needs it.
    @Test func withoutLibpqAPostgresStoreIsUnavailableAndSQLiteStillWorks() throws {
        let cli = try CLI()
        let env = ["RACEKIT_LIBPQ": "/nonexistent/libpq.so.5"]
        let r = try cli.run(["runs", "list", "--store", "postgresql://anna:secret@127.0.0.1:1/racekit"], env: env)
        #expect(r.status == 69)
        #expect(
            r.stderr
                == "racekit: postgresql://anna:***@127.0.0.1:1/racekit: PostgreSQL's client library /nonexistent/libpq.so.5 cannot be loaded (/nonexistent/libpq.so.5: cannot open shared object file: No such file or directory; Debian: apt-get install libpq5)\n"
        )
        let sqlite = try cli.run(["athlete", "add", "anna", "--store", "s.sqlite"], env: env)
        #expect(sqlite.status == 0, "\(sqlite.stderr)")
    }
}
