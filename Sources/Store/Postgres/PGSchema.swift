import RaceKitMetrics
import RaceKitStore

/// The PostgreSQL store's schema: named, append-only migrations, applied once by
/// whichever process comes first. The tables and columns are the embedded
/// store's (RaceKitStore's `Migrations`, at its v6), with PostgreSQL's types:
/// times as `double precision` seconds since 1970 as there, samples as `bytea` in
/// the same compact codec, stored without compression (they are packed already).
public enum PGSchema {
    /// The migrations of this build with `registry`'s metrics, in order: the
    /// historical one (pg1, as 0.4.0 shipped it), then those the declared
    /// schema derives (`StoreSchema`): the daily measurements, then one per
    /// metric column the run table lacks (`metric-COLUMN`), as in the embedded store.
    static func migrations(_ registry: MetricRegistry) -> [(id: String, sql: String)] {
        let dialect = SQLDialect.postgres
        var out = historical
        out.append(("pg2-declared-daily", frozenPG2))
        out.append(("pg3-import-stamps", frozenPG3))
        out.append(("pg4-athlete-source-order", #"ALTER TABLE "athlete" ADD COLUMN "source_order" text"#))
        for column in StoreSchema.missingRunColumns(registry, existing: RunColumns.historical) {
            out.append(("metric-\(column.name)", dialect.addColumn(column, to: "run")))
        }
        return out
    }

    /// pg2 and pg3 as the declaration (`StoreSchema`) rendered them when they
    /// were written: frozen, like pg1.
    static let frozenPG2 = """
        CREATE TABLE "daily_measurement" (
            "athlete_id" text NOT NULL REFERENCES "athlete"("id") ON DELETE CASCADE,
            "kind" text NOT NULL,
            "source" text NOT NULL,
            "start_at" double precision NOT NULL,
            "end_at" double precision NOT NULL,
            "value" double precision NOT NULL,
            "unit" text NOT NULL,
            "source_file" text,
            "imported_at" double precision NOT NULL,
            PRIMARY KEY ("athlete_id", "kind", "source", "start_at", "end_at")
        );
        CREATE INDEX "daily_by_athlete_kind_start" ON "daily_measurement" ("athlete_id", "kind", "start_at")
        """

    static let frozenPG3 = """
        CREATE TABLE "import_stamp" (
            "athlete_id" text NOT NULL REFERENCES "athlete"("id") ON DELETE CASCADE,
            "path" text NOT NULL,
            "size" bigint NOT NULL,
            "modified_ns" bigint NOT NULL,
            "inode" bigint NOT NULL,
            "changed_ns" bigint NOT NULL,
            "reader" text NOT NULL,
            "status" text NOT NULL,
            "reason" text,
            "run_ids" text NOT NULL,
            "recorded_at" double precision NOT NULL,
            PRIMARY KEY ("athlete_id", "path")
        )
        """

    static let historical: [(id: String, sql: String)] = [
        (
            "pg1-schema",
            """
            CREATE TABLE athlete (
                id text PRIMARY KEY,
                name text NOT NULL,
                max_hr double precision,
                resting_hr double precision,
                threshold_hr double precision,
                threshold_pace_s_per_km double precision,
                sex text,
                time_zone text NOT NULL DEFAULT 'UTC',
                zone_model text NOT NULL DEFAULT 'auto',
                created_at double precision NOT NULL
            );
            """ + "\n" + StoreSchema.defaultAthleteRow + ";\n"
                + """
                CREATE TABLE run (
                    id text PRIMARY KEY,
                    athlete_id text NOT NULL REFERENCES athlete ON DELETE CASCADE,
                    sport text NOT NULL,
                    sport_declared boolean NOT NULL,
                    name text,
                    source_file text NOT NULL,
                    source_format text NOT NULL,
                    source_sha256 text NOT NULL,
                    activity_index bigint NOT NULL,
                    creator text,
                    started_at double precision NOT NULL,
                    ended_at double precision NOT NULL,
                    elapsed_s double precision NOT NULL,
                    moving_s double precision,
                    distance_m double precision,
                    distance_source text NOT NULL,
                    ascent_m double precision,
                    descent_m double precision,
                    avg_hr double precision,
                    max_hr double precision,
                    hr_coverage_pct double precision,
                    avg_cadence double precision,
                    load double precision,
                    load_source text,
                    label text,
                    mode text NOT NULL DEFAULT 'free',
                    run_type text NOT NULL DEFAULT 'outdoor',
                    perceived_effort bigint,
                    notes text,
                    point_count bigint NOT NULL,
                    repairs text NOT NULL,
                    analysis_version bigint NOT NULL,
                    imported_at double precision NOT NULL,
                    zone_model text,
                    load_estimated text,
                    analysis_profile text,
                    gap_pace_s_per_km double precision,
                    UNIQUE (athlete_id, source_sha256, activity_index)
                );
                CREATE INDEX run_by_athlete_start ON run (athlete_id, started_at);
                CREATE TABLE run_samples (
                    run_id text PRIMARY KEY REFERENCES run ON DELETE CASCADE,
                    segments text NOT NULL DEFAULT '[0]',
                    data bytea NOT NULL
                );
                ALTER TABLE run_samples ALTER COLUMN data SET STORAGE EXTERNAL;
                CREATE TABLE run_zone (
                    run_id text NOT NULL REFERENCES run ON DELETE CASCADE,
                    zone bigint NOT NULL,
                    name text NOT NULL,
                    low_bpm double precision NOT NULL,
                    high_bpm double precision,
                    seconds double precision NOT NULL,
                    PRIMARY KEY (run_id, zone)
                );
                CREATE TABLE best_effort (
                    run_id text NOT NULL REFERENCES run ON DELETE CASCADE,
                    distance_m double precision NOT NULL,
                    elapsed_s double precision NOT NULL,
                    start_offset_s double precision NOT NULL,
                    PRIMARY KEY (run_id, distance_m)
                );
                CREATE INDEX best_effort_by_distance ON best_effort (distance_m, elapsed_s);
                CREATE TABLE race_link (
                    setup_key text PRIMARY KEY,
                    setup_slug text NOT NULL,
                    setup_file text NOT NULL,
                    race_name text NOT NULL,
                    race_date text,
                    target_s double precision NOT NULL,
                    run_id text REFERENCES run ON DELETE SET NULL,
                    actual_s double precision,
                    review_path text
                );
                CREATE INDEX race_link_by_run ON race_link (run_id);
                """
        )
    ]

    /// The identifier of this build's last migration.
    public static func latest(_ registry: MetricRegistry = .standard) -> String {
        migrations(registry).last?.id ?? "none"
    }

    /// Where a database stands against this build's migrations.
    public enum State: Equatable, Sendable {
        case current
        /// Some migrations are not applied (the last applied one, nil for none).
        case older(applied: String?)
        /// A migration this build does not know was applied: a newer RaceKit wrote it.
        case newer(String)
        /// RaceKit's tables are there but `racekit_migrations` records nothing.
        case unrecorded
    }

    static let lockKey: Int64 = 0x5241_4345_4B49_5401   // "RACEKIT" 1: the migration lock

    static let ledger = """
        CREATE TABLE IF NOT EXISTS racekit_migrations (
            identifier text PRIMARY KEY,
            applied_at timestamptz NOT NULL DEFAULT now()
        )
        """

    /// The applied migrations, in the order they were applied.
    static func applied(_ c: PGConnection) throws(PGError) -> [String] {
        let exists = try c.query("SELECT to_regclass('racekit_migrations') IS NOT NULL")
        guard exists.bool(0, 0) == true else { return [] }
        let rows = try c.query("SELECT identifier FROM racekit_migrations ORDER BY applied_at, identifier")
        return (0..<rows.count).compactMap { rows.string($0, 0) }
    }

    public static func state(_ c: PGConnection, registry: MetricRegistry = .standard) throws(PGError) -> State {
        let done = try applied(c)
        let migrations = self.migrations(registry)
        let known = Set(migrations.map(\.id))
        if let unknown = done.last(where: { !known.contains($0) }) { return .newer(unknown) }
        if done.count == migrations.count { return .current }
        if done.isEmpty, try c.query("SELECT to_regclass('athlete') IS NOT NULL").bool(0, 0) == true {
            return .unrecorded
        }
        return .older(applied: done.last)
    }

    /// Applies the missing migrations, each once, however many processes start at
    /// the same time: the first takes a transaction-scoped advisory lock, the
    /// others wait for it and then find nothing left to do. A database written by
    /// a newer RaceKit is left alone (`.newer`).
    /// `created` is set when this call applied the first migration (made the
    /// store): of several processes starting at once, only one.
    @discardableResult
    public static func migrate(
        _ c: PGConnection, registry: MetricRegistry = .standard, created: UnsafeMutablePointer<Bool>? = nil
    ) throws -> State {
        try c.transaction { c in
            try c.query("SELECT pg_advisory_xact_lock($1)", [.int(lockKey)])
            try c.query(ledger)
            let state = try state(c, registry: registry)
            guard case .older(let last) = state else { return state }
            created?.pointee = last == nil
            let done = Set(try applied(c))
            for migration in migrations(registry) where !done.contains(migration.id) {
                try c.execute(script: migration.sql)
                try c.query(
                    SQLDialect.postgres.statement(
                        TableSpec.insert(into: "racekit_migrations", columns: ["identifier"])),
                    [.text(migration.id)])
            }
            return .current
        }
    }
}
