import CLibPQ
import Foundation
import RaceKitModel
import RaceKitStore

/// One connection to a PostgreSQL server through libpq: parameterised statements
/// with binary values both ways (exact doubles, raw `bytea`), transactions that are
/// retried on a serialisation failure or a deadlock, and errors that never print a
/// password. Not thread-safe (libpq's `PGconn` is not): its owner serialises use.
public final class PGConnection {
    private let pq: RKLibPQ
    private let conn: OpaquePointer
    /// The server as messages name it: the URL without its password.
    public let location: String
    /// The connection string's passwords, as written and decoded: removed from
    /// every message libpq or the server gives.
    private let secrets: [String]

    /// Connects to `conninfo`: a `postgresql://` URL or `key=value` pairs, with the
    /// `PG*` environment variables and `~/.pgpass` for what it leaves out, as every
    /// PostgreSQL client does. A refused, overloaded or starting server is tried
    /// again `attempts` times (0.3 s, then 0.6 s...) before the error (exit 75).
    public init(_ conninfo: String, attempts: Int = 3) throws(PGError) {
        var location = PGLocation.redacted(conninfo)
        let pq = try LibPQ.load(location)
        self.pq = pq
        let inspected = PGLocation.inspect(conninfo, pq)
        secrets = inspected.secrets
        // A secret may also stand where it is no password (a value repeated).
        location = PGLocation.scrubbed(location, secrets)
        self.location = location
        if let problem = inspected.problem {
            throw PGError(location: location, message: problem.reason, sqlState: nil, exitClass: .usage)
        }
        var attempt = 0
        while true {
            attempt += 1
            // A connect timeout unless the URL gives one, and the application name
            // the server's activity views show.
            let keys = ["connect_timeout", "dbname", "fallback_application_name"]
            let values = ["10", conninfo, "racekit"]
            let c = PGConnection.connect(pq, keys: keys, values: values)
            guard let c else {
                throw PGError(location: location, message: "out of memory", sqlState: nil, exitClass: .software)
            }
            if pq.status!(c) == CONNECTION_OK {
                conn = c
                _ = pq.setNoticeProcessor!(conn, { _, _ in }, nil)
                return
            }
            let message = PGLocation.scrubbed(PGError.clean(cText(pq.errorMessage!(c))), secrets)
            let needsPassword = pq.connectionNeedsPassword!(c) != 0
            pq.finish!(c)
            let exitClass = PGError.connectClass(message, needsPassword: needsPassword)
            if exitClass == .busy, attempt < attempts {
                Thread.sleep(forTimeInterval: 0.3 * Double(attempt))
                continue
            }
            throw PGError(location: location, message: message, sqlState: nil, exitClass: exitClass)
        }
    }

    deinit { pq.finish!(conn) }

    private static func connect(_ pq: RKLibPQ, keys: [String], values: [String]) -> OpaquePointer? {
        let k = keys.map { strdup($0) }
        let v = values.map { strdup($0) }
        defer { for p in k + v { free(p) } }
        let kp = k.map { UnsafePointer($0) } + [nil]
        let vp = v.map { UnsafePointer($0) } + [nil]
        return pq.connectdbParams!(kp, vp, 1)
    }

    /// The server's version number (150018 for 15.18).
    public var serverVersion: Int { Int(pq.serverVersion!(conn)) }

    /// Runs one statement with `parameters` ($1, $2...) and returns its rows.
    @discardableResult
    public func query(_ sql: String, _ parameters: [PGValue] = []) throws(PGError) -> PGRows {
        let p = Bound(parameters)
        defer { p.release() }
        let values = p.values
        if let name = try prepared(sql, p.types) {
            return try check(pq.execPrepared!(conn, name, p.count, values, p.lengths, p.formats, 1))
        }
        return try check(pq.execParams!(conn, sql, p.count, p.types, values, p.lengths, p.formats, 1))
    }

    /// Runs writes whose rows are not read in one round trip (libpq's pipeline
    /// mode, libpq 14 and later; one after another with an older libpq): a
    /// new run's row, samples, zones and best efforts were four. The first
    /// error is thrown once every statement has been answered; the server runs
    /// none after it.
    public func run(all statements: [(sql: String, parameters: [PGValue])]) throws(PGError) {
        if let last = try pipeline(statements) { pq.clear!(last) }
    }

    /// Runs `statements` (writes whose rows are not read), then `sql`, in one
    /// round trip, and returns `sql`'s rows: an import sends a file's writes
    /// with the next file's first query.
    public func query(_ sql: String, _ parameters: [PGValue], after statements: [(sql: String, parameters: [PGValue])])
        throws(PGError) -> PGRows
    {
        guard !statements.isEmpty else { return try query(sql, parameters) }
        guard let last = try pipeline(statements + [(sql, parameters)]) else { throw lost() }
        return PGRows(last, pq)
    }

    /// Sends `statements` in one pipeline and returns the last one's result
    /// (the caller's to clear), or throws the first error.
    private func pipeline(_ statements: [(sql: String, parameters: [PGValue])]) throws(PGError) -> OpaquePointer? {
        guard statements.count > 1, let enter = pq.enterPipelineMode, let exit = pq.exitPipelineMode,
            let sync = pq.pipelineSync, let sendPrepared = pq.sendQueryPrepared,
            let sendParams = pq.sendQueryParams, let next = pq.getResult
        else {
            for s in statements.dropLast() { _ = try query(s.sql, s.parameters) }
            guard let s = statements.last else { return nil }
            let rows = try query(s.sql, s.parameters)
            return rows.take()
        }
        let bound = statements.map { Bound($0.parameters) }
        defer { for b in bound { b.release() } }
        // Prepared before the pipeline: preparing waits for the server's answer.
        var names: [String?] = []
        for (s, b) in zip(statements, bound) { names.append(try prepared(s.sql, b.types)) }
        guard enter(conn) == 1 else { throw lost() }
        var sent = 0
        for (i, s) in statements.enumerated() {
            let b = bound[i]
            let values = b.values
            let ok =
                if let name = names[i] {
                    sendPrepared(conn, name, b.count, values, b.lengths, b.formats, 1)
                } else {
                    sendParams(conn, s.sql, b.count, b.types, values, b.lengths, b.formats, 1)
                }
            guard ok == 1 else { break }
            sent += 1
        }
        // libpq refused a statement (more parameters than the protocol takes,
        // say): what it said, once those sent before it are answered. The sync
        // goes whatever happened: without it the server keeps its answers and
        // the drain below would wait for ever.
        var error: PGError? = sent == statements.count ? nil : refused()
        let synced = sync(conn) == 1
        if !synced { error = error ?? lost() }
        var last: OpaquePointer?
        // Each statement's results end with a NULL; the sync's result follows.
        for i in 0..<(synced ? sent : 0) {
            while let result = next(conn) {
                let status = pq.resultStatus!(result)
                let answered = [PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY, PGRES_PIPELINE_ABORTED]
                if !answered.contains(status), error == nil { error = failure(result) }
                if i == statements.count - 1, status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK, last == nil {
                    last = result
                } else {
                    pq.clear!(result)
                }
            }
        }
        if synced, let result = next(conn) { pq.clear!(result) }
        if exit(conn) != 1, error == nil { error = lost() }
        if let error {
            if let last { pq.clear!(last) }
            throw error
        }
        return last
    }

    /// A statement's parameters as libpq takes them: binary, each in a buffer
    /// of its own until `release`.
    private struct Bound {
        var types: [Oid]
        var lengths: [Int32]
        var formats: [Int32]
        var buffers: [UnsafeMutablePointer<CChar>?]

        init(_ parameters: [PGValue]) {
            let encoded = parameters.map(\.encoded)
            types = encoded.map(\.type)
            lengths = encoded.map { Int32($0.bytes.count) }
            formats = [Int32](repeating: 1, count: encoded.count)
            buffers = encoded.map { e in
                guard !e.isNull else { return nil }
                let p = UnsafeMutablePointer<CChar>.allocate(capacity: max(1, e.bytes.count))
                e.bytes.withUnsafeBufferPointer { src in
                    src.withMemoryRebound(to: CChar.self) { p.update(from: $0.baseAddress!, count: $0.count) }
                }
                return p
            }
        }

        var count: Int32 { Int32(types.count) }
        var values: [UnsafePointer<CChar>?] { buffers.map { $0.map { UnsafePointer($0) } } }
        func release() { for b in buffers { b?.deallocate() } }
    }

    /// The statements this connection has prepared: their names by text and parameter types.
    private var statements: [PreparedKey: String] = [:]
    /// At most this many: a statement over that is sent with its text each time.
    static let maxPrepared = 200

    /// INSERT, UPDATE or DELETE (a write whose plan does not depend on its values).
    static func isWrite(_ sql: String) -> Bool {
        let verb = sql.drop { $0 == " " || $0 == "\n" }.prefix(7).uppercased()
        return verb.hasPrefix("INSERT ") || verb.hasPrefix("UPDATE ") || verb.hasPrefix("DELETE ")
    }

    private struct PreparedKey: Hashable {
        var sql: String
        var types: [Oid]
    }

    /// The name of `sql` prepared on the server for these parameter types
    /// (prepared now if it was not), or nil for one sent with its text: a
    /// statement without parameters (BEGIN, COMMIT, SET), a query, or one over
    /// `maxPrepared`. An import runs the same few writes for every file;
    /// prepared once, the server parses each once per connection, not once per
    /// file. A query is planned for its values each time: a plan made once for
    /// any value, early in an import into an empty store, read every run of the
    /// athlete to find a file's duplicates (0.28 ms a file at 3,000 runs, and
    /// growing). The key holds the types as sent (a NULL's is the server's
    /// guess), so a value is never read as another type than it was prepared for.
    private func prepared(_ sql: String, _ types: [Oid]) throws(PGError) -> String? {
        guard !types.isEmpty, Self.isWrite(sql) else { return nil }
        let key = PreparedKey(sql: sql, types: types)
        if let name = statements[key] { return name }
        guard statements.count < Self.maxPrepared else { return nil }
        let name = "rk\(statements.count + 1)"
        _ = try check(pq.prepare!(conn, name, sql, Int32(types.count), types))
        statements[key] = name
        return name
    }

    /// Runs several statements separated by semicolons (a migration), without parameters.
    public func execute(script sql: String) throws(PGError) {
        _ = try check(pq.exec!(conn, sql))
    }

    private func check(_ result: OpaquePointer?) throws(PGError) -> PGRows {
        guard let result else {
            throw lost()
        }
        switch pq.resultStatus!(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
            return PGRows(result, pq)
        default:
            let error = failure(result)
            pq.clear!(result)
            throw error
        }
    }

    /// The error a failed statement's result tells (the result stays the caller's to clear).
    private func failure(_ result: OpaquePointer) -> PGError {
        if pq.status!(conn) != CONNECTION_OK { return lost() }
        let state = pq.resultErrorField!(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
        let primary = pq.resultErrorField!(result, Int32(UInt8(ascii: "M"))).map { String(cString: $0) }
        let detail = pq.resultErrorField!(result, Int32(UInt8(ascii: "D"))).map { String(cString: $0) }
        var message = primary ?? PGError.clean(cText(pq.errorMessage!(conn)))
        if let detail { message += " (\(detail))" }
        return PGError(
            location: location, message: PGLocation.scrubbed(message, secrets), sqlState: state,
            exitClass: PGError.statementClass(state))
    }

    /// libpq's refusal of a statement it would not send (the connection still up), or `lost()`.
    private func refused() -> PGError {
        guard pq.status!(conn) == CONNECTION_OK else { return lost() }
        let message = PGLocation.scrubbed(PGError.clean(cText(pq.errorMessage!(conn))), secrets)
        return PGError(location: location, message: message, sqlState: nil, exitClass: .software)
    }

    private func lost() -> PGError {
        let message = PGLocation.scrubbed(PGError.clean(cText(pq.errorMessage!(conn))), secrets)
        return PGError(
            location: location,
            message: "lost the connection to the server: " + (message.isEmpty ? "no reply" : message),
            sqlState: nil, exitClass: .ioError)
    }

    /// Runs `body` in a transaction: committed if it returns, rolled back if it
    /// throws. A serialisation failure or a deadlock (the server chose this
    /// transaction to fail) runs the whole body again, up to `attempts` times.
    public func transaction<T>(attempts: Int = 5, _ body: (PGConnection) throws -> T) throws -> T {
        var attempt = 0
        while true {
            attempt += 1
            try query("BEGIN")
            do {
                let value = try body(self)
                try query("COMMIT")
                return value
            } catch let error as PGError where error.isRetryable && attempt < attempts {
                _ = try? query("ROLLBACK")
                Thread.sleep(forTimeInterval: 0.01 * Double(attempt * attempt))
            } catch {
                _ = try? query("ROLLBACK")
                throw error
            }
        }
    }
}

/// A C string libpq returned, "" for none.
func cText(_ p: UnsafeMutablePointer<CChar>?) -> String { p.map { String(cString: $0) } ?? "" }

/// libpq, loaded when a command first connects to a server (never at start:
/// it brings some twenty libraries with it that no other command needs).
enum LibPQ {
    /// The library: `RACEKIT_LIBPQ` (a path) when set, else the system's libpq.so.5.
    static let path =
        ProcessInfo.processInfo.environment["RACEKIT_LIBPQ"].flatMap { $0.isEmpty ? nil : $0 }
        ?? "libpq.so.5"

    /// Its functions, or the dynamic loader's reason (`dlerror`, read on the
    /// thread that loaded) when the library cannot be loaded.
    static let loaded: (functions: RKLibPQ?, reason: String) = {
        var f = RKLibPQ()
        if rk_libpq_load(&f, path) != 0 { return (f, "") }
        return (nil, dlerror().map { String(cString: $0) } ?? "no reason given")
    }()

    /// The functions, or why a PostgreSQL store cannot be used here (exit 69).
    static func load(_ location: String) throws(PGError) -> RKLibPQ {
        guard let f = loaded.functions else {
            throw PGError(
                location: location,
                message:
                    "PostgreSQL's client library \(path) cannot be loaded (\(loaded.reason); Debian: apt-get install libpq5)",
                sqlState: nil, exitClass: .unavailable)
        }
        return f
    }
}

/// A statement parameter, sent in PostgreSQL's binary format.
public enum PGValue: Sendable, Equatable {
    case null
    case int(Int64)
    case double(Double)
    case text(String)
    case bytes([UInt8])
    case bool(Bool)

    /// An optional value: `.null` for nil.
    public static func from(_ v: Int?) -> PGValue { v.map { .int(Int64($0)) } ?? .null }
    public static func from(_ v: Double?) -> PGValue { v.map { .double($0) } ?? .null }
    public static func from(_ v: String?) -> PGValue { v.map { .text($0) } ?? .null }

    struct Encoded {
        var type: Oid
        var bytes: [UInt8]
        var isNull = false
    }

    var encoded: Encoded {
        switch self {
        case .null: Encoded(type: 0, bytes: [], isNull: true)
        case .int(let v): Encoded(type: PGType.int8, bytes: withUnsafeBytes(of: v.bigEndian) { Array($0) })
        case .double(let v):
            Encoded(type: PGType.float8, bytes: withUnsafeBytes(of: v.bitPattern.bigEndian) { Array($0) })
        case .text(let s): Encoded(type: PGType.text, bytes: Array(s.utf8))
        case .bytes(let b): Encoded(type: PGType.bytea, bytes: b)
        case .bool(let b): Encoded(type: PGType.bool, bytes: [b ? 1 : 0])
        }
    }
}

/// The type OIDs RaceKit reads and writes (pg_type.h).
enum PGType {
    static let bool: Oid = 16
    static let bytea: Oid = 17
    static let name: Oid = 19
    static let int8: Oid = 20
    static let int2: Oid = 21
    static let int4: Oid = 23
    static let text: Oid = 25
    static let float4: Oid = 700
    static let float8: Oid = 701
    static let bpchar: Oid = 1042
    static let varchar: Oid = 1043
}

/// The rows of a statement, in binary format. A getter returns nil for NULL and
/// for a value of another type or length than it reads (a hostile or foreign
/// column): never a crash, never a guess.
public struct PGRows: ~Copyable {
    private let result: OpaquePointer
    private let pq: RKLibPQ

    init(_ result: OpaquePointer, _ pq: RKLibPQ) {
        self.result = result
        self.pq = pq
    }
    deinit { pq.clear!(result) }

    /// The result, now the caller's to clear.
    consuming func take() -> OpaquePointer {
        let result = self.result
        discard self
        return result
    }

    public var count: Int { Int(pq.ntuples!(result)) }
    public var columns: Int { Int(pq.nfields!(result)) }
    /// Rows a command changed (INSERT, UPDATE, DELETE), 0 for others.
    public var affected: Int { Int(cText(pq.cmdTuples!(result))) ?? 0 }

    private func raw(_ row: Int, _ column: Int) -> (Oid, UnsafeRawBufferPointer)? {
        guard row >= 0, row < count, column >= 0, column < columns else { return nil }
        return PGRowView(result: result, pq: pq, row: row).raw(column)
    }

    /// Row `i` as the declared column readers read it (`StoreRow`); valid while
    /// these rows are.
    func view(_ row: Int) -> PGRowView { PGRowView(result: result, pq: pq, row: row) }

    public func isNull(_ row: Int, _ column: Int) -> Bool { raw(row, column) == nil }

    public func int(_ row: Int, _ column: Int) -> Int? {
        guard let (type, b) = raw(row, column) else { return nil }
        switch (type, b.count) {
        case (PGType.int8, 8): return Int(Int64(bigEndian: b.loadUnaligned(as: Int64.self)))
        case (PGType.int4, 4): return Int(Int32(bigEndian: b.loadUnaligned(as: Int32.self)))
        case (PGType.int2, 2): return Int(Int16(bigEndian: b.loadUnaligned(as: Int16.self)))
        default: return nil
        }
    }

    public func double(_ row: Int, _ column: Int) -> Double? {
        guard let (type, b) = raw(row, column) else { return nil }
        switch (type, b.count) {
        case (PGType.float8, 8): return Double(bitPattern: UInt64(bigEndian: b.loadUnaligned(as: UInt64.self)))
        case (PGType.float4, 4): return Double(Float(bitPattern: UInt32(bigEndian: b.loadUnaligned(as: UInt32.self))))
        default: return int(row, column).map(Double.init)
        }
    }

    public func string(_ row: Int, _ column: Int) -> String? {
        guard let (type, b) = raw(row, column) else { return nil }
        switch type {
        case PGType.text, PGType.varchar, PGType.bpchar, PGType.name: return String(decoding: b, as: UTF8.self)
        default: return nil
        }
    }

    public func bytes(_ row: Int, _ column: Int) -> [UInt8]? {
        guard let (type, b) = raw(row, column), type == PGType.bytea else { return nil }
        return Array(b)
    }

    public func bool(_ row: Int, _ column: Int) -> Bool? {
        guard let (type, b) = raw(row, column), type == PGType.bool, b.count == 1 else { return nil }
        return b[0] != 0
    }
}

/// A PostgreSQL failure: where (the server, without its password), what, the
/// SQLSTATE when the server gave one, and how the command ends.
public struct PGError: StoreUnusableError, Equatable {
    public var location: String
    public var message: String
    public var sqlState: String?
    public var exitClass: ExitClass

    public var description: String { "\(location): \(message)" }

    /// True when the connection was lost or the role lacks a privilege: no
    /// further statement of this command can succeed.
    public var leavesStoreUnusable: Bool {
        exitClass == .noPermission || message.hasPrefix("lost the connection")
    }

    /// The server failed this transaction so that another could go on: run it again.
    public var isRetryable: Bool { sqlState == "40001" || sqlState == "40P01" }
    /// A unique or exclusion constraint refused a row.
    public var isUniqueViolation: Bool { sqlState == "23505" }

    /// libpq's message on one line, without its trailing newline.
    static func clean(_ s: String) -> String {
        s.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: "; ")
    }

    /// A failed connection: a wrong password or role, or TLS that cannot be set up
    /// as the URL asks (a server without TLS under `sslmode=require`, a certificate
    /// that does not verify or a CA file that is missing), is a permission problem;
    /// a missing database is missing input (as a missing store file); the rest
    /// (refused, unreachable, too many clients, starting up) is temporary.
    static func connectClass(_ message: String, needsPassword: Bool) -> ExitClass {
        let m = message.lowercased()
        if needsPassword || m.contains("password") || m.contains("pg_hba.conf") || m.contains("role")
            || m.contains("permission denied") || m.contains("certificate") || m.contains("does not support ssl")
        {
            return .noPermission
        }
        if m.contains("database") && m.contains("does not exist") { return .noInput }
        if m.contains("invalid") || m.contains("unknown") && m.contains("option") { return .usage }
        // Any other TLS failure is the URL's or the server's setup, never worth a retry.
        if m.contains("ssl") { return .noPermission }
        return .busy
    }

    /// A failed statement by SQLSTATE class: lock or resource trouble is temporary,
    /// a refused value is the data's fault, a missing privilege (42501: a worker
    /// role meeting a schema to migrate, a reader asked to write) is a permission
    /// problem, the rest is an I/O failure of the store.
    static func statementClass(_ state: String?) -> ExitClass {
        guard let state else { return .ioError }
        if state == "42501" { return .noPermission }
        switch state.prefix(2) {
        case "40", "53", "55", "57": return .busy
        case "22", "23": return .dataError
        case "42": return .software
        default: return .ioError
        }
    }
}

/// How a PostgreSQL location is shown: a URL without its password.
public enum PGLocation {
    /// True for a `--store` value that names a PostgreSQL server.
    public static func isPostgres(_ location: String) -> Bool {
        location.hasPrefix("postgresql://") || location.hasPrefix("postgres://")
    }

    /// The location with any password replaced by `***` (`StoreLocation.redacted`).
    public static func redacted(_ s: String) -> String { StoreLocation.redacted(s) }

    /// The passwords of the connection string (to keep out of every message),
    /// or why it is not one libpq can use. A URL is read by `ConnectionURL`
    /// first, so that libpq never sees (and never quotes back) a password it
    /// would misread; libpq then parses it, and its message too is scrubbed.
    static func inspect(_ conninfo: String, _ pq: RKLibPQ) -> (secrets: [String], problem: URLProblem?) {
        var secrets: [String] = []
        if conninfo.contains("://") {
            switch ConnectionURL.parse(conninfo) {
            case .failure(let problem): return (ConnectionURL.possibleSecrets(conninfo), problem)
            case .success(let url): secrets = url.secrets
            }
        }
        var error: UnsafeMutablePointer<CChar>?
        guard let options = pq.conninfoParse!(conninfo, &error) else {
            defer { error.map { pq.freemem!($0) } }
            let text = error.map { PGError.clean(String(cString: $0)) } ?? "out of memory"
            // libpq may quote the string it could not parse: never show a password.
            let problem = URLProblem("not a valid PostgreSQL connection string: " + scrubbed(redacted(text), secrets))
            return (secrets, problem)
        }
        defer { pq.conninfoFree!(options) }
        var option = options
        while let keyword = option.pointee.keyword {
            if String(cString: keyword) == "password", let value = option.pointee.val {
                secrets.append(String(cString: value))
            }
            option += 1
        }
        return (secrets.filter { !$0.isEmpty }, nil)
    }

    /// `message` with every one of `secrets` replaced by `***`.
    static func scrubbed(_ message: String, _ secrets: [String]) -> String {
        ConnectionURL.scrubbed(message, secrets)
    }
}

/// One row of a result as a `StoreRow`: each value as its type OID says.
struct PGRowView: StoreRow {
    let result: OpaquePointer
    let pq: RKLibPQ
    let row: Int

    func raw(_ column: Int) -> (Oid, UnsafeRawBufferPointer)? {
        let r = Int32(row), c = Int32(column)
        guard column >= 0, column < Int(pq.nfields!(result)), pq.getisnull!(result, r, c) == 0,
            let p = pq.getvalue!(result, r, c)
        else { return nil }
        return (pq.ftype!(result, c), UnsafeRawBufferPointer(start: p, count: Int(pq.getlength!(result, r, c))))
    }

    func value(_ i: Int, _ type: ColumnType) -> StoreValue {
        guard let (oid, b) = raw(i) else { return .null }
        switch (oid, b.count) {
        case (PGType.bool, 1): return .boolean(b[0] != 0)
        case (PGType.int8, 8): return .integer(Int(Int64(bigEndian: b.loadUnaligned(as: Int64.self))))
        case (PGType.int4, 4): return .integer(Int(Int32(bigEndian: b.loadUnaligned(as: Int32.self))))
        case (PGType.int2, 2): return .integer(Int(Int16(bigEndian: b.loadUnaligned(as: Int16.self))))
        case (PGType.float8, 8): return .real(Double(bitPattern: UInt64(bigEndian: b.loadUnaligned(as: UInt64.self))))
        case (PGType.float4, 4):
            return .real(Double(Float(bitPattern: UInt32(bigEndian: b.loadUnaligned(as: UInt32.self)))))
        case (PGType.text, _), (PGType.varchar, _), (PGType.bpchar, _), (PGType.name, _):
            return .text(String(decoding: b, as: UTF8.self))
        default: return .blob(Array(b))
        }
    }
}

extension StoreValue {
    /// The parameter libpq binds.
    var pgValue: PGValue {
        switch self {
        case .null: return .null
        case .text(let s): return .text(s)
        case .real(let d): return .double(d)
        case .integer(let i): return .int(Int64(i))
        case .boolean(let b): return .bool(b)
        case .blob(let b): return .bytes(b)
        }
    }
}
