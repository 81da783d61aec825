import Foundation
import RaceKitCore

/// The store on a PostgreSQL server: the embedded store's data and behaviour
/// (same runs, summaries, samples in the same codec, athletes, race links), for
/// several machines at once. Every write is one transaction; the duplicate check
/// of an athlete's runs holds a transaction-scoped advisory lock on that athlete,
/// so importers on several machines store each activity once (two copies of one
/// activity in different files included), and a killed importer leaves nothing
/// half-written. One connection per store, used by one thread at a time.
public final class PGStore: Sendable {
    private let connection: Exclusive
    /// The server as messages name it (no password).
    public let location: String
    /// How the store was opened: `write` refuses changes to a store opened to read.
    public let access: StoreAccess
    /// True when opening created the schema (an empty database made a store).
    public let created: Bool
    /// The metrics of the run table (the standard list unless opened with more).
    public let registry: MetricRegistry
    /// The run table's declared columns (`RunColumns.of(registry)`).
    public let runColumns: [RunColumn]

    /// Connects to `conninfo` and checks the schema: a writer applies missing
    /// migrations (once, whoever comes first); a reader needs a current schema; a
    /// database a newer RaceKit wrote is refused; a database without RaceKit's
    /// tables is `StoreError.missing` for a command that does not create a store.
    public init(conninfo: String, access: StoreAccess, registry: MetricRegistry = .standard) throws {
        let c = try PGConnection(conninfo)
        location = c.location
        self.access = access
        self.registry = registry
        runColumns = RunColumns.of(registry)
        var state = try PGSchema.state(c, registry: registry)
        var created = false
        if case .newer(let id) = state {
            throw StoreError.newer(path: c.location, schema: id, known: PGSchema.latest(registry))
        }
        if case .older(let applied) = state {
            if applied == nil, access != .create { throw StoreError.missing(path: c.location) }
            guard access != .read else {
                throw StoreError.readOnly(
                    path: c.location, reason: "its schema is older than this racekit's; a writer upgrades it")
            }
            // Of several importers starting at once, only the one that made the
            // schema says "created store".
            state = try PGSchema.migrate(c, registry: registry, created: &created)
            if case .newer(let id) = state {
                throw StoreError.newer(path: c.location, schema: id, known: PGSchema.latest(registry))
            }
        }
        if case .unrecorded = state {
            throw StoreError.unrecordedSchema(path: c.location, ledger: "racekit_migrations")
        }
        // A reader's session cannot write, whatever a bug might try: the server refuses.
        if access == .read { try c.query("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY") }
        self.created = created
        connection = Exclusive(c)
    }

    /// Runs `body` with the connection (one thread at a time).
    func read<T: Sendable>(_ body: (PGConnection) throws -> T) throws -> T {
        try connection.use(body)
    }

    /// Runs `body` in a transaction (retried on serialisation failures and
    /// deadlocks); a store opened to read refuses.
    func write<T: Sendable>(_ body: (PGConnection) throws -> T) throws -> T {
        guard access != .read else { throw StoreError.readOnly(path: location, reason: "opened to read") }
        return try connection.use { c in try c.transaction(body) }
    }
}

/// The store's one connection, used by one thread at a time: the lock is held
/// for the whole of each use and the connection never leaves it, which is what
/// makes sharing it between threads safe (libpq's `PGconn` is not thread-safe).
private final class Exclusive: @unchecked Sendable {
    private let lock = NSLock()
    private let connection: PGConnection

    init(_ connection: PGConnection) { self.connection = connection }

    func use<T>(_ body: (PGConnection) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(connection)
    }
}

// MARK: Runs

extension PGStore {
    /// The run table's declared columns (`RunColumns.of(registry)`), as a select list.
    var runColumnList: String { runColumnList(prefix: "") }
    func runColumnList(prefix: String) -> String { runColumns.map { prefix + $0.spec.name }.joined(separator: ", ") }

    /// A run from row `i`, its columns from `offset` on: every column checked, a
    /// value of the wrong type or an unknown enum value is a store error.
    func run(_ r: borrowing PGRows, _ i: Int, offset: Int = 0) throws -> RunRecord {
        try RunRecord(row: r.view(i), offset: offset, columns: runColumns, registry: registry)
    }

    /// A run's columns as parameters, in `runColumnList` order.
    func runValues(_ r: RunRecord) -> [PGValue] { r.with(registry).storeValues(runColumns).map(\.pgValue) }

    var runPlaceholders: String { (1...runColumns.count).map { "$\($0)" }.joined(separator: ", ") }

    func runs(_ c: PGConnection, _ sql: String, _ parameters: [PGValue] = []) throws -> [RunRecord] {
        let r = try c.query(sql, parameters)
        return try (0..<r.count).map { try run(r, $0) }
    }
}

// MARK: Writes

extension PGStore {
    public func insert(
        _ runs: [NewRun], athleteID: String, sourceFile: String, format: SourceFormat,
        sha256: String, allowDuplicates: Bool, importedAt: Double
    ) throws -> [InsertOutcome] {
        try write { c in
            // One importer at a time per athlete decides what is new: the lock is the
            // database's (held to the end of this transaction), so importers on other
            // machines wait here instead of both storing one activity. The commit does
            // not wait for the server's disk (as the embedded store's WAL commits do
            // not): a server crash may lose the last moment's files, never half of one,
            // and the next import stores them again. One round trip for the three.
            let r = try c.query(
                """
                SELECT set_config('synchronous_commit', 'off', true), pg_advisory_xact_lock(hashtextextended($1, $2)),
                    EXISTS (SELECT 1 FROM athlete WHERE id = $1)
                """, [.text(athleteID), .int(Self.athleteLockSpace)])
            guard r.bool(0, 2) == true else { throw StoreError.unknownAthlete(athleteID) }
            var outcomes: [InsertOutcome] = []
            for run in runs {
                let keys = DuplicateKeys(run, sha256: sha256)
                let candidates = try duplicateCandidates(c, keys, athleteID: athleteID)
                let decision = try DuplicatePolicy.decide(
                    keys, candidates: candidates, allowDuplicates: allowDuplicates
                ) { try shiftedCandidates(c, keys, run, athleteID: athleteID) }
                switch decision {
                case .duplicate(let id, let sameBytes, let shift):
                    outcomes.append(.duplicate(existingRunID: id, sameBytes: sameBytes, clockShiftSeconds: shift))
                case .replace(let stored):
                    var record = RunRecord(
                        run, athleteID: athleteID, sourceFile: sourceFile, format: format, sha256: sha256,
                        importedAt: importedAt)
                    record.keepWhatTheUserSet(on: stored)
                    try update(c, record)
                    try Self.writeSamples(c, runID: record.id, run)
                    try Self.writeDetails(c, runID: record.id, analysis: run.analysis)
                    outcomes.append(.upgraded(runID: record.id))
                case .insert:
                    let record = RunRecord(
                        run, athleteID: athleteID, sourceFile: sourceFile, format: format, sha256: sha256,
                        importedAt: importedAt)
                    try c.query(
                        "INSERT INTO run (\(runColumnList)) VALUES (\(runPlaceholders))", runValues(record))
                    try Self.writeSamples(c, runID: record.id, run)
                    try Self.writeDetails(c, runID: record.id, analysis: run.analysis, replacing: false)
                    outcomes.append(.inserted(runID: record.id))
                }
            }
            return outcomes
        }
    }

    /// The seed of the per-athlete import lock's key (a hash of the athlete id): "RKAT".
    static let athleteLockSpace: Int64 = 0x524B_4154

    func duplicateCandidates(_ c: PGConnection, _ keys: DuplicateKeys, athleteID: String) throws -> [RunRecord] {
        let window = DuplicatePolicy.candidateWindow(startedAt: keys.startedAt)
        // The runs of the same bytes first, then those that started nearby, nearest
        // first, in one round trip. A NaN window selects nothing (as in the embedded store).
        return try runs(
            c,
            """
            SELECT \(runColumnList) FROM (
                SELECT *, 0 AS part, 0::float8 AS gap FROM run
                WHERE athlete_id = $1 AND source_sha256 = $2 AND activity_index = $3
                UNION ALL
                SELECT *, 1, abs(started_at - $6) FROM run WHERE athlete_id = $1 AND started_at BETWEEN $4 AND $5
            ) AS candidate ORDER BY part, gap, id
            """,
            [
                .text(athleteID), .text(keys.sha256), .int(Int64(keys.activityIndex)), .double(window.earliest),
                .double(window.latest), .double(keys.startedAt)
            ])
    }

    /// What `ShiftedCopy` compares (as in the embedded store): the athlete's
    /// runs started within its window whose elapsed time is within its
    /// tolerance, with their samples, and the incoming run's samples.
    func shiftedCandidates(_ c: PGConnection, _ keys: DuplicateKeys, _ run: NewRun, athleteID: String) throws
        -> (candidates: [(RunRecord, SampleSeries)], samples: SampleSeries)
    {
        let window = ShiftedCopy.window(startedAt: keys.startedAt)
        let found = try runs(
            c,
            """
            SELECT \(runColumnList) FROM run WHERE athlete_id = $1 AND started_at BETWEEN $2 AND $3
            AND abs((ended_at - started_at) - $4) <= $5 ORDER BY id
            """,
            [
                .text(athleteID), .double(window.earliest), .double(window.latest),
                .double(keys.endedAt - keys.startedAt), .double(ShiftedCopy.elapsedToleranceSeconds)
            ]
        ).filter { ShiftedCopy.mayBeCopy(keys, $0) }
        guard !found.isEmpty else { return ([], SampleSeries()) }
        let stored = try found.compactMap { r -> (RunRecord, SampleSeries)? in
            let blob = try c.query("SELECT data FROM run_samples WHERE run_id = $1", [.text(r.id)]).bytes(0, 0)
            return blob.flatMap { try? SampleCodec.decode($0) }.map { (r, $0) }
        }
        return (stored, (try? SampleCodec.decode(run.encodedSamples)) ?? SampleSeries())
    }

    func update(_ c: PGConnection, _ record: RunRecord) throws {
        let names = runColumns.map(\.spec.name)
        let sets = names.enumerated().dropFirst().map { "\($0.element) = $\($0.offset + 1)" }.joined(separator: ", ")
        try c.query("UPDATE run SET \(sets) WHERE id = $1", runValues(record))
    }

    static func writeSamples(_ c: PGConnection, runID: String, _ run: NewRun) throws {
        try c.query(
            """
            INSERT INTO run_samples (run_id, segments, data) VALUES ($1, $2, $3)
            ON CONFLICT (run_id) DO UPDATE SET segments = excluded.segments, data = excluded.data
            """, [.text(runID), .text(StoredJSON.text(run.activity.segmentStarts)), .bytes(run.encodedSamples)])
    }

    /// Inserts `rows` (each one value per column) into `table` with one statement.
    static func insertRows(_ c: PGConnection, into table: String, columns: [String], _ rows: [[PGValue]]) throws {
        guard !rows.isEmpty else { return }
        var values: [PGValue] = []
        let tuples = rows.map { row in
            defer { values += row }
            return "(" + row.indices.map { "$\(values.count + $0 + 1)" }.joined(separator: ", ") + ")"
        }
        try c.query(
            "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES \(tuples.joined(separator: ", "))", values
        )
    }

    /// A run's zone times, in place of those stored (`replacing`: a run just
    /// inserted has none, so nothing is deleted first).
    static func writeZones(_ c: PGConnection, runID: String, _ zones: [ZoneTime]?, replacing: Bool = true) throws {
        if replacing { try c.query("DELETE FROM run_zone WHERE run_id = $1", [.text(runID)]) }
        try insertRows(
            c, into: "run_zone", columns: ["run_id", "zone", "name", "low_bpm", "high_bpm", "seconds"],
            (zones ?? []).map { z in
                [
                    .text(runID), .int(Int64(z.zone)), .text(z.name), .double(z.lowBpm), .from(z.highBpm),
                    .double(z.seconds)
                ]
            })
    }

    static func writeDetails(_ c: PGConnection, runID: String, analysis: RunAnalysis, replacing: Bool = true) throws {
        try writeZones(c, runID: runID, analysis.zones, replacing: replacing)
        try writeEfforts(c, runID: runID, analysis.bestEfforts, replacing: replacing)
    }

    static func writeEfforts(_ c: PGConnection, runID: String, _ efforts: [BestEffort], replacing: Bool = true) throws {
        if replacing { try c.query("DELETE FROM best_effort WHERE run_id = $1", [.text(runID)]) }
        try insertRows(
            c, into: "best_effort", columns: ["run_id", "distance_m", "elapsed_s", "start_offset_s"],
            efforts.map { e in
                [.text(runID), .double(e.distanceMeters), .double(e.elapsedSeconds), .double(e.startOffsetSeconds)]
            })
    }

    public func saveAnalysis(runID: String, _ analysis: RunAnalysis, sport: Sport?) throws {
        try write { c in
            guard
                var record = try runs(
                    c, "SELECT \(runColumnList) FROM run WHERE id = $1 FOR UPDATE", [.text(runID)]
                ).first
            else { return }
            if let sport { record.sport = sport }
            record.apply(analysis)
            try update(c, record)
            try Self.writeDetails(c, runID: runID, analysis: analysis)
        }
    }

    public func savePhysiologyResults(_ results: [PhysiologyResults]) throws {
        try write { c in
            for r in results {
                try c.query(
                    """
                    UPDATE run SET load = $1, load_source = $2, load_estimated = $3, zone_model = $4, analysis_profile = $5
                    WHERE id = $6
                    """,
                    [
                        .from(r.load?.value), .from(r.load?.source.rawValue),
                        .from(r.load.map { StoredJSON.text($0.estimated) }),
                        .from(r.model?.rawValue), .text(r.physiology.profileKey), .text(r.runID)
                    ])
                try Self.writeZones(c, runID: r.runID, r.zones)
            }
        }
    }

    public func saveMetrics(_ metrics: [any RunMetric.Type], _ values: [(runID: String, values: [Double?])]) throws {
        guard !metrics.isEmpty, !values.isEmpty else { return }
        let sets = metrics.enumerated().map { "\"\($1.column)\" = $\($0 + 1)" }.joined(separator: ", ")
        let sql = "UPDATE run SET \(sets) WHERE id = $\(metrics.count + 1)"
        try write { c in
            for (runID, row) in values {
                precondition(row.count == metrics.count, "one value per metric")
                try c.query(sql, row.map { PGValue.from($0) } + [.text(runID)])
            }
        }
    }

    public func edit(runID: String, _ e: RunEdit) throws -> RunRecord {
        try write { c in
            guard
                var r = try runs(c, "SELECT \(runColumnList) FROM run WHERE id = $1 FOR UPDATE", [.text(runID)])
                    .first
            else { throw StoreError.unknownRun(runID) }
            r.apply(e)
            try update(c, r)
            return r
        }
    }

    public func delete(runID: String) throws {
        try write { c in
            if try c.query("DELETE FROM run WHERE id = $1", [.text(runID)]).affected == 0 {
                throw StoreError.unknownRun(runID)
            }
        }
    }
}

// MARK: Race links

// MARK: Checks

extension PGStore {
    /// Every run's samples decode and hold as many points as the run says.
    public func verify() throws -> (runs: Int, problems: [String]) {
        var problems: [String] = []
        var runs = 0
        // In pages of 500 runs: a club's samples never sit in memory at once.
        var after = ""
        while true {
            let page: [(id: String, count: Int, data: [UInt8]?)] = try read { c in
                let r = try c.query(
                    """
                    SELECT r.id, r.point_count, s.data FROM run r LEFT JOIN run_samples s ON s.run_id = r.id
                    WHERE r.id > $1 ORDER BY r.id LIMIT 500
                    """, [.text(after)])
                return (0..<r.count).map { (r.string($0, 0) ?? "?", r.int($0, 1) ?? -1, r.bytes($0, 2)) }
            }
            guard let last = page.last else { break }
            after = last.id
            runs += page.count
            problems += page.compactMap { SampleCodec.problem(runID: $0.id, pointCount: $0.count, blob: $0.data) }
        }
        return (runs, problems)
    }
}

extension PGStore: Store {}
