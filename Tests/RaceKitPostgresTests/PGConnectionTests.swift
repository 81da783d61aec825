import Foundation
import RaceKitTestSupport
import Testing

@testable import RaceKitModel
@testable import RaceKitPostgres
@testable import RaceKitStore

/// The throwaway server `make test` starts (scripts/with-postgres.sh); nil where
/// PostgreSQL is not installed or the tests run without the script.
enum TestServer {
    static let url: String? = ProcessInfo.processInfo.environment["RACEKIT_TEST_PG"].flatMap { $0.isEmpty ? nil : $0 }
    static let skipped = "skipped: PostgreSQL not installed (make test starts one; see scripts/with-postgres.sh)"

    /// The test server's URL with another database name.
    static func url(database: String) -> String? {
        guard let url, let slash = url.lastIndex(of: "/") else { return nil }
        return url[...slash] + database
    }
}

@Suite struct PGLocationTests {
    @Test func passwordsNeverShow() {
        let cases = [
            ("postgresql://coach:s3cret@db.example.org:5433/club", "postgresql://coach:***@db.example.org:5433/club"),
            ("postgres://coach:p%40ss@h/db?sslmode=require", "postgres://coach:***@h/db?sslmode=require"),
            (
                "postgresql://h/db?user=coach&password=s3cret&sslmode=verify-full",
                "postgresql://h/db?user=coach&password=***&sslmode=verify-full"
            ),
            ("host=h dbname=club password=s3cret user=coach", "host=h dbname=club password=*** user=coach"),
            ("postgresql://coach@h/db", "postgresql://coach@h/db")
        ]
        for (given, shown) in cases {
            #expect(PGLocation.redacted(given) == shown)
        }
    }

    @Test func anInvalidStringIsAUsageErrorWithoutItsPassword() {
        #expect {
            _ = try PGConnection("postgresql://coach:s3cret@h/db?nosuchoption=1")
        } throws: { error in
            let e = error as? PGError
            return e?.exitClass == .usage && e?.description.contains("s3cret") == false
                && e?.description.contains("nosuchoption") == true
        }
    }

    /// What libpq says of a connection string passes through the scrubber: a
    /// message quoting a value that is also the password shows `***`.
    @Test func libpqsMessagesAreScrubbedOfThePassword() {
        for conninfo in [
            "postgresql://rk:s3cretX@127.0.0.1/db?port=s3cretX", "host=127.0.0.1 password=s3cretX port=s3cretX"
        ] {
            #expect {
                _ = try PGConnection(conninfo, attempts: 1)
            } throws: { error in
                let text = "\(error)"
                return (error as? PGError)?.exitClass == .usage && !text.contains("s3cret") && text.contains("port")
            }
        }
        // A password libpq would misread is refused before libpq sees it.
        #expect {
            _ = try PGConnection("postgresql://rk:s3/cretX@127.0.0.1:1/db", attempts: 1)
        } throws: { error in
            (error as? PGError)?.exitClass == .usage && !"\(error)".contains("cret") && "\(error)".contains("%2F")
        }
    }

    @Test func aServerNobodyListensOnIsTemporaryAfterRetries() throws {
        // A port nothing listens on: bind one, note it, close it.
        let port = try freePort()
        let started = Date()
        #expect {
            _ = try PGConnection("postgresql://coach:s3cret@127.0.0.1:\(port)/club", attempts: 2)
        } throws: { error in
            guard let e = error as? PGError else { return false }
            return e.exitClass == .busy && !e.description.contains("s3cret")
                && e.description.hasPrefix("postgresql://coach:***@127.0.0.1:\(port)/club: ")
        }
        // One retry after 0.3 s: tried again, not forever.
        let waited = Date().timeIntervalSince(started)
        #expect(waited >= 0.3 && waited < 10)
    }

    @Test func statementErrorsAreClassedBySQLState() {
        #expect(PGError.statementClass("40001") == .busy)
        #expect(PGError.statementClass("40P01") == .busy)
        #expect(PGError.statementClass("53300") == .busy)
        #expect(PGError.statementClass("23505") == .dataError)
        #expect(PGError.statementClass("22021") == .dataError)
        #expect(PGError.statementClass("42P01") == .software)
        #expect(PGError.statementClass("42501") == .noPermission)
        #expect(PGError.statementClass("XX000") == .ioError)
        #expect(PGError.statementClass(nil) == .ioError)
    }

    @Test func connectionFailuresAreClassedByWhatWentWrong() {
        #expect(
            PGError.connectClass("FATAL:  password authentication failed for user \"x\"", needsPassword: false)
                == .noPermission)
        #expect(PGError.connectClass("fe_sendauth: no password supplied", needsPassword: true) == .noPermission)
        #expect(PGError.connectClass("FATAL:  database \"club\" does not exist", needsPassword: false) == .noInput)
        #expect(
            PGError.connectClass(
                "connection to server at \"127.0.0.1\", port 1 failed: Connection refused", needsPassword: false)
                == .busy)
        #expect(PGError.connectClass("FATAL:  sorry, too many clients already", needsPassword: false) == .busy)
        // TLS the URL asks for and cannot have: retrying does not help.
        for tls in [
            "server does not support SSL, but SSL was required",
            "SSL error: certificate verify failed",
            "server certificate for \"db.example.org\" does not match host name \"10.0.0.5\"",
            "root certificate file \"/home/coach/.postgresql/root.crt\" does not exist; Either provide the file or change sslmode to disable server certificate verification."
        ] {
            #expect(PGError.connectClass(tls, needsPassword: false) == .noPermission, "\(tls)")
        }
    }
}

@Suite(.enabled(if: TestServer.url != nil, Comment(rawValue: TestServer.skipped)))
struct PGConnectionTests {
    let db: PGConnection

    init() throws { db = try PGConnection(TestServer.url!) }

    @Test func valuesRoundTripExactly() throws {
        var rng = SplitMix64(seed: 7)
        let blob = (0..<1_000_000).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        let doubles = [0.0, -0.0, 1.0 / 3.0, 5e-324, 1.7976931348623157e308, -273.15, 42_195.000_000_001]
        let ints: [Int64] = [0, -1, .max, .min, 1_700_000_000_123]
        let texts = ["", "Zürich–Köln 🏃", "quote ' and \" and \\", String(repeating: "x", count: 100_000)]
        for d in doubles {
            let r = try db.query("SELECT $1::float8", [.double(d)])
            #expect(r.double(0, 0)?.bitPattern == d.bitPattern)
        }
        for i in ints {
            let r = try db.query("SELECT $1::int8", [.int(i)])
            #expect(r.int(0, 0).map(Int64.init) == i)
        }
        for t in texts {
            let r = try db.query("SELECT $1::text", [.text(t)])
            #expect(r.string(0, 0) == t)
        }
        let r = try db.query("SELECT $1::bytea, $2::bool, $3::text, length($1)", [.bytes(blob), .bool(true), .null])
        #expect(r.bytes(0, 0) == blob)
        #expect(r.bool(0, 1) == true)
        #expect(r.isNull(0, 2) && r.string(0, 2) == nil)
        #expect(r.int(0, 3) == blob.count)
    }

    @Test func gettersRefuseAValueOfAnotherType() throws {
        let r = try db.query("SELECT 'abc'::text, 1.5::float8, 7::int4, 3::int2")
        #expect(r.int(0, 0) == nil && r.bytes(0, 0) == nil && r.double(0, 0) == nil)
        #expect(r.int(0, 1) == nil && r.string(0, 1) == nil)
        #expect(r.int(0, 2) == 7 && r.double(0, 2) == 7 && r.int(0, 3) == 3)
        // Out of range rows and columns are nil, not a crash.
        #expect(r.int(1, 0) == nil && r.int(0, 9) == nil && r.int(-1, 0) == nil)
    }

    @Test func aTextWithNULIsTheDataSFault() throws {
        #expect {
            try db.query("SELECT $1::text", [.text("a\u{0}b")])
        } throws: { ($0 as? PGError)?.exitClass == .dataError }
    }

    @Test func aTransactionIsAllOrNothing() throws {
        let table = uniqueName("t_")
        try db.execute(script: "CREATE TABLE \(table) (id int8 PRIMARY KEY)")
        defer { _ = try? db.query("DROP TABLE \(table)") }
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try db.transaction { c in
                try c.query("INSERT INTO \(table) VALUES (1)")
                throw Stop()
            }
        }
        #expect(try db.query("SELECT count(*) FROM \(table)").int(0, 0) == 0)
        // A unique violation rolls back the rows before it, and says which constraint.
        #expect {
            try db.transaction { c in
                try c.query("INSERT INTO \(table) VALUES (2)")
                try c.query("INSERT INTO \(table) VALUES (2)")
            }
        } throws: { ($0 as? PGError)?.isUniqueViolation == true && ($0 as? PGError)?.exitClass == .dataError }
        #expect(try db.query("SELECT count(*) FROM \(table)").int(0, 0) == 0)
    }

    /// A statement is prepared once per connection for the types it is sent
    /// with: the same text sent with an integer, a double and a NULL where a
    /// float8 goes stores each as itself (a value bound to a statement
    /// prepared for another type would be read as that type's bytes).
    @Test func aPreparedStatementNeverReadsAValueAsAnotherType() throws {
        let table = uniqueName("t_")
        try db.execute(script: "CREATE TABLE \(table) (k int8 PRIMARY KEY, v float8)")
        defer { _ = try? db.query("DROP TABLE \(table)") }
        let insert = "INSERT INTO \(table) (k, v) VALUES ($1, $2)"
        let values: [PGValue] = [.int(3), .double(2.5), .null, .int(-7), .double(-0.0), .double(1e300)]
        for (k, v) in values.enumerated() { try db.query(insert, [.int(Int64(k)), v]) }
        let r = try db.query("SELECT v FROM \(table) ORDER BY k")
        let read = (0..<r.count).map { r.double($0, 0) }
        #expect(read.map { $0?.bitPattern } == [3, 2.5, nil, -7, -0.0, 1e300].map { $0?.bitPattern })
    }

    /// Writes sent together (one round trip): all run, in order; a failing one
    /// stops those after it and its error is the caller's, the transaction
    /// rolls back, and the connection goes on working.
    @Test func writesSentTogetherRunInOrderAndStopAtTheFirstError() throws {
        let table = uniqueName("t_")
        try db.execute(script: "CREATE TABLE \(table) (k int8 PRIMARY KEY, v text)")
        defer { _ = try? db.query("DROP TABLE \(table)") }
        let insert = "INSERT INTO \(table) (k, v) VALUES ($1, $2)"
        try db.transaction { c in
            try c.run(all: [
                (insert, [.int(1), .text("a")]), ("UPDATE \(table) SET v = v || $1 WHERE k = 1", [.text("b")]),
                (insert, [.int(2), .null])
            ])
        }
        let r = try db.query("SELECT k, v FROM \(table) ORDER BY k")
        #expect(r.count == 2 && r.string(0, 1) == "ab" && r.isNull(1, 1))
        #expect {
            try db.transaction { c in
                try c.run(all: [
                    (insert, [.int(3), .text("c")]), (insert, [.int(1), .text("again")]),
                    (insert, [.int(4), .text("d")])
                ])
            }
        } throws: { ($0 as? PGError)?.isUniqueViolation == true }
        #expect(try db.query("SELECT count(*) FROM \(table)").int(0, 0) == 2)
        // Outside a transaction too, and the next statement is answered as usual.
        #expect(throws: PGError.self) { try db.run(all: [("SELECT 1/0", []), (insert, [.int(5), .text("e")])]) }
        #expect(try db.query("SELECT count(*) FROM \(table) WHERE k = 5").int(0, 0) == 0)
        #expect(try db.query("SELECT $1::int8 + 1", [.int(41)]).int(0, 0) == 42)
        // A statement libpq will not send (more parameters than the protocol
        // takes) after one it sent: libpq's reason once the first is answered,
        // and the connection is not left waiting or in pipeline mode.
        let many = (1...65_536).map { "$\($0)" }.joined(separator: ", ")
        #expect {
            try db.query(
                "SELECT coalesce(\(many))", Array(repeating: .null, count: 65_536),
                after: [(insert, [.int(6), .text("f")])])
        } throws: { "\($0)".contains("65535") }
        #expect(try db.query("SELECT $1::int8 + 2", [.int(40)]).int(0, 0) == 42)
    }

    @Test func aSerialisationFailureRunsTheTransactionAgain() throws {
        var runs = 0
        let value = try db.transaction { c -> Int in
            runs += 1
            if runs < 3 {
                throw PGError(location: c.location, message: "could not serialize", sqlState: "40001", exitClass: .busy)
            }
            return try c.query("SELECT 41 + 1").int(0, 0) ?? 0
        }
        #expect(runs == 3 && value == 42)
        // Past the attempts, the failure is the command's (exit 75).
        runs = 0
        #expect {
            try db.transaction(attempts: 2) { c in
                runs += 1
                throw PGError(location: c.location, message: "deadlock detected", sqlState: "40P01", exitClass: .busy)
            }
        } throws: { ($0 as? PGError)?.exitClass == .busy }
        #expect(runs == 2)
    }

    /// sslmode means what it means to libpq: the throwaway server offers no SSL,
    /// so requiring it is refused at once (77, not retried).
    @Test func sslModeIsLibpqs() throws {
        let url = try #require(TestServer.url)
        _ = try PGConnection(url + "?sslmode=prefer")
        let started = Date()
        #expect {
            _ = try PGConnection(url + "?sslmode=require")
        } throws: { error in
            let e = error as? PGError
            return e?.exitClass == .noPermission && e?.message.lowercased().contains("ssl") == true
        }
        #expect(Date().timeIntervalSince(started) < 0.3)
    }

    @Test func aMissingDatabaseIsMissingInput() throws {
        let url = try #require(TestServer.url(database: "no_such_database"))
        #expect {
            _ = try PGConnection(url)
        } throws: { ($0 as? PGError)?.exitClass == .noInput }
    }
}

/// A name no concurrent test run uses (tables, databases, roles).
func uniqueName(_ prefix: String) -> String {
    prefix + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
}

func freePort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_addr.s_addr = inet_addr("127.0.0.1")
    addr.sin_port = 0
    var len = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &addr) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) }
    }
    guard bound == 0 else { throw Failure(.software, "bind failed") }
    _ = withUnsafeMutablePointer(to: &addr) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
    }
    return Int(UInt16(bigEndian: addr.sin_port))
}

extension TestServer {
    /// A new empty database on the test server, dropped by `drop`.
    static func freshDatabase() throws -> (url: String, drop: () -> Void) {
        let admin = try PGConnection(url!)
        let name = uniqueName("racekit_t_")
        try admin.query("CREATE DATABASE \(name)")
        return (
            url(database: name)!,
            {
                _ = try? PGConnection(url!).query("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
            }
        )
    }
}

@Suite(.enabled(if: TestServer.url != nil, Comment(rawValue: TestServer.skipped)))
struct PGSchemaTests {
    @Test func migrationsApplyOnceWhenManyProcessesStartTogether() throws {
        let (url, drop) = try TestServer.freshDatabase()
        defer { drop() }
        let results = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 6) { _ in
            do {
                let c = try PGConnection(url)
                let state = try PGSchema.migrate(c)
                results.withLock { $0.append("\(state)") }
            } catch {
                results.withLock { $0.append("error: \(error)") }
            }
        }
        #expect(results.withLock { $0 } == Array(repeating: "current", count: 6))
        let c = try PGConnection(url)
        #expect(try PGSchema.state(c) == .current)
        let ledger = try c.query("SELECT count(*) FROM racekit_migrations")
        #expect(ledger.int(0, 0) == PGSchema.migrations(.standard).count)
        // The default athlete, once.
        #expect(try c.query("SELECT count(*) FROM athlete").int(0, 0) == 1)
    }

    @Test func aRoleThatMayOnlyReadIsRefusedWritesAsAPermissionProblem() throws {
        let (url, drop) = try TestServer.freshDatabase()
        defer { drop() }
        try PGSchema.migrate(try PGConnection(url))
        let role = uniqueName("racekit_t_reader_")
        let admin = try PGConnection(url)
        try admin.query("CREATE ROLE \(role) LOGIN")
        defer {
            _ = try? admin.query("DROP OWNED BY \(role)")
            _ = try? PGConnection(TestServer.url!).query("DROP ROLE IF EXISTS \(role)")
        }
        try admin.execute(
            script: "GRANT USAGE ON SCHEMA public TO \(role); GRANT SELECT ON ALL TABLES IN SCHEMA public TO \(role)")
        let asReader = url.replacingOccurrences(of: "://postgres@", with: "://\(role)@")
        try #require(asReader != url)
        // Reading works; writing is refused with exit 77, not as a bug (70).
        let store = try PGStore(conninfo: asReader, access: .write)
        #expect(try store.athletes().map(\.id) == ["default"])
        #expect {
            try store.addAthlete(Athlete(id: "anna", name: "Anna", timeZone: "UTC", zoneModel: .auto, createdAt: 0))
        } throws: { ($0 as? PGError)?.exitClass == .noPermission && ($0 as? PGError)?.sqlState == "42501" }
    }

    @Test func aDatabaseFromANewerRaceKitIsLeftAlone() throws {
        let (url, drop) = try TestServer.freshDatabase()
        defer { drop() }
        let c = try PGConnection(url)
        try PGSchema.migrate(c)
        try c.query("INSERT INTO racekit_migrations (identifier) VALUES ('pg99-from-the-future')")
        #expect(try PGSchema.migrate(c) == .newer("pg99-from-the-future"))
        #expect(try PGSchema.state(c) == .newer("pg99-from-the-future"))
    }
}
