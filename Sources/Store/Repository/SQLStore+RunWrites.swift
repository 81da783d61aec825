import RaceKitMetrics
import RaceKitModel

/// The writes of runs, written once for every backend (`SQLStore`): a file's
/// runs stored under the duplicate rule (`DuplicatePolicy`), analyses, edits
/// and deletes. Every run column comes from the declaration (`RunColumns`).
extension RunRepository where Self: SQLStore {
    /// Stores the activities of one file in a single transaction: all or nothing.
    public func insert(
        _ runs: [NewRun], athleteID: String, sourceFile: String, format: SourceFormat,
        sha256: String, allowDuplicates: Bool, importedAt: Double
    ) throws -> [InsertOutcome] {
        let file = FileInsert(
            runs: runs, athleteID: athleteID, sourceFile: sourceFile, format: format, sha256: sha256,
            allowDuplicates: allowDuplicates)
        return try database.writing { c in try insert(c, file, importedAt: importedAt) }
    }

    /// Stores one file's runs in the caller's transaction (a backend that
    /// batches files gives each its savepoint).
    public func insert(_ c: any SQLConnection, _ file: FileInsert, importedAt: Double) throws -> [InsertOutcome] {
        let athleteID = file.athleteID, sha256 = file.sha256
        guard try c.beginImport(athleteID: athleteID) else { throw StoreError.unknownAthlete(athleteID) }
        var outcomes: [InsertOutcome] = []
        for run in file.runs {
            let keys = DuplicateKeys(run, sha256: sha256)
            let found = try duplicateCandidates(c, keys, athleteID: athleteID)
            let decision = try DuplicatePolicy.decide(
                keys, candidates: found.candidates, allowDuplicates: file.allowDuplicates
            ) { try shiftedCandidates(c, keys, run, among: found.shifted) }
            if case .duplicate(let id, let sameBytes, let shift) = decision {
                outcomes.append(.duplicate(existingRunID: id, sameBytes: sameBytes, clockShiftSeconds: shift))
                continue
            }
            var record = RunRecord(
                run, athleteID: athleteID, sourceFile: file.sourceFile, format: file.format, sha256: sha256,
                importedAt: importedAt)
            let segments = StoredJSON.text(run.activity.segmentStarts)
            switch decision {
            case .duplicate: break
            case .replace(let stored):
                // A richer copy: its source, samples and analysis, the stored run's id and what the user set.
                record.keepWhatTheUserSet(on: stored)
                try updateRun(c, record)
                try writeSamples(c, runID: record.id, run.encodedSamples, segments: segments, replacing: true)
                try writeDetails(c, runID: record.id, run.analysis.zones ?? [], run.analysis.bestEfforts)
                outcomes.append(.upgraded(runID: record.id))
            case .insert:
                // Sent together: one round trip to a server for the four.
                try c.execute(
                    all: [
                        insertRunStatement(c, record),
                        samplesStatement(c, runID: record.id, run.encodedSamples, segments: segments, replacing: false)
                    ]
                        + detailStatements(
                            c, runID: record.id, run.analysis.zones ?? [], run.analysis.bestEfforts, replacing: false))
                outcomes.append(.inserted(runID: record.id))
            }
        }
        return outcomes
    }

    /// What `DuplicatePolicy.decide` chooses from: the athlete's runs stored
    /// from the same bytes, then those started in the policy's window, nearest
    /// first; and what `ShiftedCopy` compares, asked for every activity the
    /// policy would insert (most of them): the runs started within its wider
    /// window whose elapsed time is within its tolerance, in the order of their
    /// ids. One plain statement reads them all (the same bytes or the wider
    /// window), sorted here: two statements with a union of three wide
    /// subqueries were a third of a server's time in an import. Ids sort by
    /// their bytes, as the database orders them. A NaN window selects nothing.
    func duplicateCandidates(_ c: any SQLConnection, _ keys: DuplicateKeys, athleteID: String) throws
        -> (candidates: [RunRecord], shifted: [RunRecord])
    {
        let near = DuplicatePolicy.candidateWindow(startedAt: keys.startedAt)
        let wide = ShiftedCopy.window(startedAt: keys.startedAt)
        let found = try runs(
            c,
            declaredRunSelect(
                "WHERE athlete_id = ? AND ((source_sha256 = ? AND activity_index = ?) OR started_at BETWEEN ? AND ?)"),
            [
                .text(athleteID), .text(keys.sha256), .integer(keys.activityIndex),
                .real(min(near.earliest, wide.earliest)),
                .real(max(near.latest, wide.latest))
            ])
        func byID(_ a: RunRecord, _ b: RunRecord) -> Bool { a.id.precedesBytewise(b.id) }
        let sameBytes = found.filter { $0.sourceSHA256 == keys.sha256 && $0.activityIndex == keys.activityIndex }
        let nearest = found.filter { $0.startedAt >= near.earliest && $0.startedAt <= near.latest }
            .map { (gap: abs($0.startedAt - keys.startedAt), run: $0) }
            .sorted { $0.gap != $1.gap ? $0.gap < $1.gap : byID($0.run, $1.run) }.map(\.run)
        let elapsed = keys.endedAt - keys.startedAt
        let shifted = found.filter {
            $0.startedAt >= wide.earliest && $0.startedAt <= wide.latest
                && abs(($0.endedAt - $0.startedAt) - elapsed) <= ShiftedCopy.elapsedToleranceSeconds
        }.sorted(by: byID)
        return (sameBytes.sorted(by: byID) + nearest, shifted)
    }

    /// What `ShiftedCopy` compares: those of the runs `duplicateCandidates`
    /// found that may be a copy, with their samples, and the incoming run's samples.
    func shiftedCandidates(_ c: any SQLConnection, _ keys: DuplicateKeys, _ run: NewRun, among nearby: [RunRecord])
        throws -> (candidates: [(RunRecord, SampleSeries)], samples: SampleSeries)
    {
        let found = nearby.filter { ShiftedCopy.mayBeCopy(keys, $0) }
        guard !found.isEmpty else { return ([], SampleSeries()) }
        let stored = try found.compactMap { r -> (RunRecord, SampleSeries)? in
            let blob = try c.value(
                c.dialect.statement("SELECT data FROM run_samples WHERE run_id = ?"), [.text(r.id)], as: .blob)
            guard case .blob(let bytes) = blob else { return nil }
            return (try? SampleCodec.decode(bytes)).map { (r, $0) }
        }
        return (stored, (try? SampleCodec.decode(run.encodedSamples)) ?? SampleSeries())
    }

    /// Writes a new run's row.
    public func insertRun(_ c: any SQLConnection, _ r: RunRecord) throws {
        try c.execute(all: [insertRunStatement(c, r)])
    }

    func insertRunStatement(_ c: any SQLConnection, _ r: RunRecord) -> SQLStatement {
        let sql = TableSpec.insert(into: "run", columns: runColumns.map(\.spec.name))
        return SQLStatement(c.dialect.statement(sql), r.with(registry).storeValues(runColumns))
    }

    /// Writes every column of a stored run's row.
    func updateRun(_ c: any SQLConnection, _ r: RunRecord) throws {
        let sets = runColumns.dropFirst().map { "\($0.spec.name) = ?" }.joined(separator: ", ")
        let values = r.with(registry).storeValues(runColumns)
        try c.execute(
            c.dialect.statement("UPDATE run SET \(sets) WHERE id = ?"), Array(values.dropFirst()) + [values[0]])
    }

    /// Writes a run's packed samples and segment starts (`replacing` those stored).
    public func writeSamples(
        _ c: any SQLConnection, runID: String, _ blob: [UInt8], segments: String, replacing: Bool
    ) throws {
        try c.execute(all: [samplesStatement(c, runID: runID, blob, segments: segments, replacing: replacing)])
    }

    func samplesStatement(_ c: any SQLConnection, runID: String, _ blob: [UInt8], segments: String, replacing: Bool)
        -> SQLStatement
    {
        let table = StoreSchema.samples
        return SQLStatement(
            c.dialect.statement(table.insert(replacing ? .update(key: table.primaryKey) : .fail)),
            [.text(runID), .text(segments), .blob(blob)])
    }

    /// Writes a run's zones and best efforts, each table in one statement
    /// (`replacing` those stored; a run just inserted has none).
    public func writeDetails(
        _ c: any SQLConnection, runID: String, _ zones: [ZoneTime], _ efforts: [BestEffort], replacing: Bool = true
    ) throws {
        try c.execute(all: detailStatements(c, runID: runID, zones, efforts, replacing: replacing))
    }

    func detailStatements(
        _ c: any SQLConnection, runID: String, _ zones: [ZoneTime], _ efforts: [BestEffort], replacing: Bool
    ) -> [SQLStatement] {
        var statements = zoneStatements(c, runID: runID, zones, replacing: replacing)
        if replacing {
            statements.append(
                SQLStatement(c.dialect.statement("DELETE FROM best_effort WHERE run_id = ?"), [.text(runID)]))
        }
        statements += rowsStatement(
            c, BestEffort.table,
            efforts.map { e in
                [.text(runID), .real(e.distanceMeters), .real(e.elapsedSeconds), .real(e.startOffsetSeconds)]
            })
        return statements
    }

    func writeZones(_ c: any SQLConnection, runID: String, _ zones: [ZoneTime], replacing: Bool) throws {
        try c.execute(all: zoneStatements(c, runID: runID, zones, replacing: replacing))
    }

    func zoneStatements(_ c: any SQLConnection, runID: String, _ zones: [ZoneTime], replacing: Bool)
        -> [SQLStatement]
    {
        var statements: [SQLStatement] = []
        if replacing {
            statements.append(
                SQLStatement(c.dialect.statement("DELETE FROM run_zone WHERE run_id = ?"), [.text(runID)]))
        }
        return statements
            + rowsStatement(
                c, ZoneTime.table,
                zones.map { z in
                    [
                        .text(runID), .integer(z.zone), .text(z.name), .real(z.lowBpm),
                        z.highBpm.map(StoreValue.real) ?? .null, .real(z.seconds)
                    ]
                })
    }

    /// Inserts `rows` (each one value per declared column of `table`) with one statement; none without rows.
    func rowsStatement(_ c: any SQLConnection, _ table: TableSpec, _ rows: [[StoreValue]]) -> [SQLStatement] {
        guard !rows.isEmpty else { return [] }
        return [SQLStatement(c.dialect.statement(table.insert(rows: rows.count)), rows.flatMap { $0 })]
    }

    /// The run `id`, read to be written in the same transaction (locked on
    /// PostgreSQL until it ends).
    func runForUpdate(_ c: any SQLConnection, id: String) throws -> RunRecord? {
        try runs(c, declaredRunSelect("WHERE id = ?" + c.dialect.forUpdate), [.text(id)]).first
    }

    /// Stores a new analysis of an existing run (and its sport, when inferred anew).
    public func saveAnalysis(runID: String, _ analysis: RunAnalysis, sport: Sport?) throws {
        try database.writing { c in
            guard var record = try runForUpdate(c, id: runID) else { return }
            if let sport { record.sport = sport }
            record.apply(analysis)
            try updateRun(c, record)
            try writeDetails(c, runID: runID, analysis.zones ?? [], analysis.bestEfforts)
        }
    }

    /// Stores new zones and load for runs whose physiology changed (the rest of
    /// their analysis stands).
    public func savePhysiologyResults(_ results: [PhysiologyResults]) throws {
        try database.writing { c in
            let sql = c.dialect.statement(
                "UPDATE run SET load = ?, load_source = ?, load_estimated = ?, zone_model = ?, analysis_profile = ? "
                    + "WHERE id = ?")
            func text(_ s: String?) -> StoreValue { s.map(StoreValue.text) ?? .null }
            // Sent together, a few hundred runs at a time: a refresh after an
            // import of 3,000 runs was 9,000 round trips to a server.
            for chunk in stride(from: 0, to: results.count, by: 250).map({ results[$0..<min($0 + 250, results.count)] })
            {
                try c.execute(
                    all: chunk.flatMap { r in
                        [
                            SQLStatement(
                                sql,
                                [
                                    r.load.map { StoreValue.real($0.value) } ?? .null, text(r.load?.source.rawValue),
                                    text(r.load.map { StoredJSON.text($0.estimated) }), text(r.model?.rawValue),
                                    .text(r.physiology.profileKey), .text(r.runID)
                                ])
                        ] + zoneStatements(c, runID: r.runID, r.zones ?? [], replacing: true)
                    })
            }
        }
    }

    /// Writes some metrics' values of some runs (one value per metric, in order).
    public func saveMetrics(_ metrics: [any RunMetric.Type], _ values: [(runID: String, values: [Double?])]) throws {
        guard !metrics.isEmpty, !values.isEmpty else { return }
        let sql = "UPDATE run SET " + metrics.map { "\"\($0.column)\" = ?" }.joined(separator: ", ") + " WHERE id = ?"
        try database.writing { c in
            let statement = c.dialect.statement(sql)
            for (runID, row) in values {
                precondition(row.count == metrics.count, "one value per metric")
                try c.execute(statement, row.map { $0.map(StoreValue.real) ?? .null } + [.text(runID)])
            }
        }
    }

    /// Applies an edit; returns the updated run.
    public func edit(runID: String, _ e: RunEdit) throws -> RunRecord {
        try database.writing { c in
            guard var r = try runForUpdate(c, id: runID) else { throw StoreError.unknownRun(runID) }
            r.apply(e)
            try updateRun(c, r)
            return r
        }
    }

    /// Deletes a run with its samples, zones and best efforts (their rows go
    /// with it: the foreign keys cascade).
    public func delete(runID: String) throws {
        try database.writing { c in
            if try c.execute(c.dialect.statement("DELETE FROM run WHERE id = ?"), [.text(runID)]) == 0 {
                throw StoreError.unknownRun(runID)
            }
        }
    }
}

extension Store where Self: SQLStore {
    /// Up to `limit` runs after `id` in the database's order of ids (its
    /// primary key's, so each page is an index range), with their samples and
    /// segments as stored, zones and best efforts (`store copy`).
    public func exportRuns(after id: String?, limit: Int) throws -> [StoredRun] {
        try database.reading { c in
            var arguments: [StoreValue] = id.map { [.text($0)] } ?? []
            arguments.append(.integer(max(0, limit)))
            let columns = runColumns
            let n = columns.count
            let sql =
                "SELECT \(columns.map { "r." + $0.spec.name }.joined(separator: ", ")), s.segments, s.data "
                + "FROM run r LEFT JOIN run_samples s ON s.run_id = r.id \(id == nil ? "" : "WHERE r.id > ?") "
                + "ORDER BY r.id LIMIT ?"
            let page = try c.rows(c.dialect.statement(sql), arguments) { row in
                // The samples' two columns follow the run's.
                var segments: String?, data: [UInt8]?
                if case .text(let s) = row.value(n, .text) { segments = s }
                if case .blob(let b) = row.value(n + 1, .blob) { data = b }
                return (
                    record: try RunRecord(row: row, columns: columns, registry: registry), segments: segments,
                    data: data
                )
            }
            guard let last = page.last?.record.id else { return [] }
            let range = (id == nil ? "" : "t.run_id > ? AND ") + "t.run_id <= ?"
            let bounds: [StoreValue] = (id.map { [.text($0)] } ?? []) + [.text(last)]
            let zones = try c.grouped(
                ZoneTime.table, from: "run_zone t", where: range, bounds, orderedBy: "zone", ZoneTime.init(row:))
            let efforts = try c.grouped(
                BestEffort.table, from: "best_effort t", where: range, bounds, orderedBy: "distance_m",
                BestEffort.init(row:))
            return page.map { run in
                StoredRun(
                    record: run.record, samples: run.data, segments: run.segments, zones: zones[run.record.id] ?? [],
                    bestEfforts: efforts[run.record.id] ?? [])
            }
        }
    }
}

extension SQLDialect {
    /// What locks a row read to be written in the same transaction (SQLite's
    /// write transaction holds the whole database already).
    var forUpdate: String { self == .postgres ? " FOR UPDATE" : "" }
}
