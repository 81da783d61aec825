import GRDB
import RaceKitMetrics
import RaceKitStore

/// The store's schema, as named, append-only migrations.
enum Migrations {
    /// How a store's applied migrations compare with this build's.
    enum State: Equatable {
        case current
        /// Some of this build's migrations are not applied yet (the last applied
        /// one, nil for a new or empty file).
        case older(applied: String?)
        /// A migration this build does not know was applied (the newest of them):
        /// a newer RaceKit wrote the store.
        case newer(String)
        /// RaceKit's tables are there but no migration is recorded (the ledger
        /// was emptied or dropped).
        case unrecorded
    }

    /// The identifier of this build's last migration.
    static var latest: String { migrator.migrations.last ?? "none" }

    static func state(_ db: Database) throws -> State { try state(db, registry: .standard) }

    static func state(_ db: Database, registry: MetricRegistry) throws -> State {
        let migrator = self.migrator(registry)
        let unknown = try migrator.appliedIdentifiers(db).subtracting(migrator.migrations)
        if let newest = unknown.max(by: { (version($0), $0) < (version($1), $1) }) { return .newer(newest) }
        // RaceKit never sets SQLite's user_version: a store with one was written by
        // something newer (or other) than this build.
        let userVersion = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        if userVersion != 0 { return .newer("user_version \(userVersion)") }
        if try migrator.hasCompletedMigrations(db) { return .current }
        let applied = try migrator.completedMigrations(db).last
        if applied == nil, try db.tableExists("athlete") { return .unrecorded }
        return .older(applied: applied)
    }

    /// The number of an identifier like "v5-gap-race-link", -1 without one.
    static func version(_ identifier: String) -> Int {
        guard identifier.first == "v" else { return -1 }
        return Int(identifier.dropFirst().prefix(while: \.isNumber)) ?? -1
    }

    static var migrator: DatabaseMigrator { migrator(.standard) }

    /// The historical migrations (v1 to v6, as 0.4.0 shipped them), then those
    /// the declared schema derives (`StoreSchema`): v7 brings the athlete table
    /// and the daily measurements to the declaration, then one migration adds
    /// each metric column the run table lacks (`metric-COLUMN`).
    static func migrator(_ registry: MetricRegistry) -> DatabaseMigrator {
        // Without GRDB's closing foreign-key check of the whole database: every
        // rebuild here copies rows as they are and can break no reference, and
        // the check would refuse to upgrade a store over one orphan row some
        // sqlite3 session left (foreign keys are off there by default), leaving
        // it unopenable.
        var migrator = historical.disablingDeferredForeignKeyChecks()
        let dialect = SQLDialect.sqlite
        // The athlete table as declared: its zone_model default was 'hrmax5'
        // here and 'auto' in PostgreSQL (drift the declaration removes). SQLite
        // cannot change a default: the table is rebuilt (foreign keys are off
        // during a migration and checked after it).
        migrator.registerMigration("v7-declared-athlete-daily") { db in
            for sql in Frozen.v7 { try db.execute(sql: sql) }
        }
        // What imports saw of the files they finished with (`FileStamp`).
        migrator.registerMigration("v8-import-stamps") { db in
            for sql in Frozen.v8 { try db.execute(sql: sql) }
        }
        // The athlete's wellness source order (`Athlete.sourceOrder`).
        migrator.registerMigration("v9-athlete-source-order") { db in
            try db.execute(sql: Frozen.v9)
        }
        for column in StoreSchema.missingRunColumns(registry, existing: RunColumns.historical) {
            migrator.registerMigration("metric-\(column.name)") { db in
                try db.execute(sql: dialect.addColumn(column, to: "run"))
            }
        }
        return migrator
    }

    /// The DDL of v7 to v9 as the declaration (`StoreSchema`) rendered it when
    /// they were written: frozen, like v1 to v6 (a later change to a table is a
    /// migration of its own; `MetricRegistryTests` checks the result against
    /// the declaration).
    enum Frozen {
        static let v9 = #"ALTER TABLE "athlete" ADD COLUMN "source_order" TEXT"#
        static let v7 = [
            """
            CREATE TABLE "athlete_v7" (
                "id" TEXT PRIMARY KEY,
                "name" TEXT NOT NULL,
                "max_hr" DOUBLE,
                "resting_hr" DOUBLE,
                "threshold_hr" DOUBLE,
                "threshold_pace_s_per_km" DOUBLE,
                "sex" TEXT,
                "time_zone" TEXT NOT NULL DEFAULT 'UTC',
                "zone_model" TEXT NOT NULL DEFAULT 'auto',
                "created_at" DOUBLE NOT NULL
            )
            """,
            TableSpec.copy(
                into: "athlete_v7",
                columns: [
                    "id", "name", "max_hr", "resting_hr", "threshold_hr", "threshold_pace_s_per_km", "sex", "time_zone",
                    "zone_model", "created_at"
                ], from: "athlete"),
            "DROP TABLE athlete",
            "ALTER TABLE athlete_v7 RENAME TO athlete",
            """
            CREATE TABLE "daily_measurement" (
                "athlete_id" TEXT NOT NULL REFERENCES "athlete"("id") ON DELETE CASCADE,
                "kind" TEXT NOT NULL,
                "source" TEXT NOT NULL,
                "start_at" DOUBLE NOT NULL,
                "end_at" DOUBLE NOT NULL,
                "value" DOUBLE NOT NULL,
                "unit" TEXT NOT NULL,
                "source_file" TEXT,
                "imported_at" DOUBLE NOT NULL,
                PRIMARY KEY ("athlete_id", "kind", "source", "start_at", "end_at")
            )
            """,
            """
            CREATE INDEX "daily_by_athlete_kind_start" ON "daily_measurement" ("athlete_id", "kind", "start_at")
            """
        ]
        static let v8 = [
            """
            CREATE TABLE "import_stamp" (
                "athlete_id" TEXT NOT NULL REFERENCES "athlete"("id") ON DELETE CASCADE,
                "path" TEXT NOT NULL,
                "size" INTEGER NOT NULL,
                "modified_ns" INTEGER NOT NULL,
                "inode" INTEGER NOT NULL,
                "changed_ns" INTEGER NOT NULL,
                "reader" TEXT NOT NULL,
                "status" TEXT NOT NULL,
                "reason" TEXT,
                "run_ids" TEXT NOT NULL,
                "recorded_at" DOUBLE NOT NULL,
                PRIMARY KEY ("athlete_id", "path")
            )
            """
        ]
    }

    static var historical: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-athletes-runs-samples") { db in
            try db.create(table: "athlete") { t in
                t.column("id", .text).primaryKey()
                t.column("name", .text).notNull()
                t.column("max_hr", .double)
                t.column("resting_hr", .double)
                t.column("threshold_hr", .double)
                t.column("threshold_pace_s_per_km", .double)
                t.column("sex", .text)
                t.column("time_zone", .text).notNull().defaults(to: "UTC")
                t.column("zone_model", .text).notNull().defaults(to: "hrmax5")
                t.column("created_at", .double).notNull()
            }
            try db.execute(sql: StoreSchema.defaultAthleteRow)
            try db.create(table: "run") { t in
                t.column("id", .text).primaryKey()
                t.column("athlete_id", .text).notNull().references("athlete", onDelete: .cascade)
                t.column("sport", .text).notNull()
                t.column("sport_declared", .boolean).notNull()
                t.column("name", .text)
                t.column("source_file", .text).notNull()
                t.column("source_format", .text).notNull()
                t.column("source_sha256", .text).notNull()
                t.column("activity_index", .integer).notNull()
                t.column("creator", .text)
                t.column("started_at", .double).notNull()
                t.column("ended_at", .double).notNull()
                t.column("elapsed_s", .double).notNull()
                t.column("moving_s", .double)
                t.column("distance_m", .double)
                t.column("distance_source", .text).notNull()
                t.column("ascent_m", .double)
                t.column("descent_m", .double)
                t.column("avg_hr", .double)
                t.column("max_hr", .double)
                t.column("hr_coverage_pct", .double)
                t.column("avg_cadence", .double)
                t.column("load", .double)
                t.column("load_source", .text)
                t.column("label", .text)
                t.column("mode", .text).notNull().defaults(to: "free")
                t.column("run_type", .text).notNull().defaults(to: "outdoor")
                t.column("perceived_effort", .integer)
                t.column("notes", .text)
                t.column("point_count", .integer).notNull()
                t.column("repairs", .text).notNull()
                t.column("analysis_version", .integer).notNull()
                t.column("imported_at", .double).notNull()
                t.uniqueKey(["athlete_id", "source_sha256", "activity_index"])
            }
            try db.create(index: "run_by_athlete_start", on: "run", columns: ["athlete_id", "started_at"])
            try db.create(table: "run_samples") { t in
                t.column("run_id", .text).primaryKey().references("run", onDelete: .cascade)
                t.column("data", .blob).notNull()
            }
        }
        migrator.registerMigration("v2-analysis") { db in
            try db.alter(table: "run") { t in
                t.add(column: "low_hr", .double)
                t.add(column: "zone_model", .text)
                t.add(column: "load_estimated", .text)
                t.add(column: "analysis_profile", .text)
            }
            try db.alter(table: "run_samples") { t in
                t.add(column: "segments", .text).notNull().defaults(to: "[0]")
            }
            try db.create(table: "run_zone") { t in
                t.column("run_id", .text).notNull().references("run", onDelete: .cascade)
                t.column("zone", .integer).notNull()
                t.column("name", .text).notNull()
                t.column("low_bpm", .double).notNull()
                t.column("high_bpm", .double)
                t.column("seconds", .double).notNull()
                t.primaryKey(["run_id", "zone"])
            }
            try db.create(table: "best_effort") { t in
                t.column("run_id", .text).notNull().references("run", onDelete: .cascade)
                t.column("distance_m", .double).notNull()
                t.column("elapsed_s", .double).notNull()
                t.column("start_offset_s", .double).notNull()
                t.primaryKey(["run_id", "distance_m"])
            }
            try db.create(index: "best_effort_by_distance", on: "best_effort", columns: ["distance_m", "elapsed_s"])
            try db.execute(sql: "UPDATE athlete SET zone_model = 'auto' WHERE zone_model = 'hrmax5'")
        }
        // The samples blob becomes the last column: SQLite reads a row's columns
        // in order, so a column after a long run's blob (segments) meant walking
        // the blob's overflow pages to reach it. SQLite cannot reorder columns:
        // the table is rebuilt.
        migrator.registerMigration("v3-samples-blob-last") { db in
            try db.create(table: "run_samples_v3") { t in
                t.column("run_id", .text).primaryKey().references("run", onDelete: .cascade)
                t.column("segments", .text).notNull().defaults(to: "[0]")
                t.column("data", .blob).notNull()
            }
            try db.execute(
                sql: TableSpec.copy(
                    into: "run_samples_v3", columns: ["run_id", "segments", "data"], from: "run_samples"))
            try db.drop(table: "run_samples")
            try db.rename(table: "run_samples_v3", to: "run_samples")
        }
        // `low_hr` (v2) was never written or read.
        migrator.registerMigration("v4-drop-low-hr") { db in
            try db.alter(table: "run") { t in t.drop(column: "low_hr") }
        }
        // Grade-adjusted pace (analysis version 4: `runs recompute` fills it for
        // older runs), and the link from a race setup to the run it became. A
        // deleted run leaves its setup unlinked (run_id NULL), not broken.
        migrator.registerMigration("v5-gap-race-link") { db in
            try db.alter(table: "run") { t in t.add(column: "gap_pace_s_per_km", .double) }
            try db.create(table: "race_link") { t in
                t.column("setup_slug", .text).primaryKey()
                t.column("setup_file", .text).notNull()
                t.column("race_name", .text).notNull()
                t.column("race_date", .text)
                t.column("target_s", .double).notNull()
                t.column("run_id", .text).references("run", onDelete: .setNull)
                t.column("actual_s", .double)
                t.column("review_path", .text)
            }
            try db.create(index: "race_link_by_run", on: "race_link", columns: ["run_id"])
        }
        // One link per setup file, not per slug: two setup files with the same
        // name (a copied setup) no longer share one. The table is rebuilt with
        // the file's absolute path as its key; a link made before keeps the key
        // `slug:SLUG` until the first review of a setup with that slug adopts it.
        migrator.registerMigration("v6-race-link-per-file") { db in
            try db.create(table: "race_link_v6") { t in
                t.column("setup_key", .text).primaryKey()
                t.column("setup_slug", .text).notNull()
                t.column("setup_file", .text).notNull()
                t.column("race_name", .text).notNull()
                t.column("race_date", .text)
                t.column("target_s", .double).notNull()
                t.column("run_id", .text).references("run", onDelete: .setNull)
                t.column("actual_s", .double)
                t.column("review_path", .text)
            }
            let kept = ["setup_file", "race_name", "race_date", "target_s", "run_id", "actual_s", "review_path"]
            try db.execute(
                sql: TableSpec.copy(
                    into: "race_link_v6", columns: ["setup_key", "setup_slug"] + kept, from: "race_link",
                    values: ["'slug:' || setup_slug", "setup_slug"] + kept))
            try db.drop(table: "race_link")
            try db.rename(table: "race_link_v6", to: "race_link")
            try db.create(index: "race_link_by_run", on: "race_link", columns: ["run_id"])
        }
        return migrator
    }
}
