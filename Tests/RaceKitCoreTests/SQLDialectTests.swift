import RaceKitStore
import Testing

/// The one SQL of the shared repositories in each backend's dialect.
@Suite struct SQLDialectTests {
    @Test func placeholdersAreNumberedForPostgreSQLOutsideQuotesOnly() {
        let sql = "SELECT a FROM t WHERE b = ? AND c LIKE '?%' AND \"odd?\" = ? ESCAPE '\\' LIMIT ?"
        #expect(SQLDialect.sqlite.statement(sql) == sql)
        #expect(
            SQLDialect.postgres.statement(sql)
                == "SELECT a FROM t WHERE b = $1 AND c LIKE '?%' AND \"odd?\" = $2 ESCAPE '\\' LIMIT $3")
        #expect(SQLDialect.postgres.statement("SELECT 1") == "SELECT 1")
        #expect(SQLDialect.postgres.statement("") == "")
    }

    @Test func manyPlaceholdersTakeAsManyDigitsAsTheyNeed() {
        let sql = "VALUES (" + Array(repeating: "?", count: 1_234).joined(separator: ", ") + ")"
        let expected = "VALUES (" + (1...1_234).map { "$\($0)" }.joined(separator: ", ") + ")"
        #expect(SQLDialect.postgres.statement(sql) == expected)
        // Non-ASCII text around them is kept byte for byte.
        #expect(SQLDialect.postgres.statement("SELECT 'Zürich', ? -- ü") == "SELECT 'Zürich', $1 -- ü")
    }

    /// Every row the repository writes goes through `TableSpec.insert`: the
    /// declared columns in order, and what a stored key does.
    /// The frozen migrations of both backends run these two: a change would
    /// rewrite what a store created by 0.4.0 went through.
    @Test func theStatementsTheFrozenMigrationsRunNeverChange() {
        #expect(
            StoreSchema.defaultAthleteRow
                == "INSERT INTO athlete (id, name, created_at) VALUES ('default', 'Default athlete', 0)")
        #expect(
            TableSpec.copy(into: "t_v2", columns: ["a", "b"], from: "t", values: ["'x:' || a", "b"])
                == "INSERT INTO t_v2 (a, b) SELECT 'x:' || a, b FROM t")
        #expect(
            TableSpec.copy(into: "t_v2", columns: ["a", "b"], from: "t") == "INSERT INTO t_v2 (a, b) SELECT a, b FROM t"
        )
    }

    @Test func theOneInsertWritesEveryDeclaredColumnAndSaysWhatAStoredKeyDoes() {
        let t = StoreSchema.samples
        let head = "INSERT INTO run_samples (run_id, segments, data) VALUES (?, ?, ?)"
        #expect(t.insert() == head)
        #expect(t.insert(rows: 2) == head + ", (?, ?, ?)")
        #expect(t.insert(.keep()) == head + " ON CONFLICT DO NOTHING")
        #expect(t.insert(.keep(key: ["run_id"])) == head + " ON CONFLICT (run_id) DO NOTHING")
        #expect(
            t.insert(.update(key: t.primaryKey))
                == head + " ON CONFLICT (run_id) DO UPDATE SET segments = excluded.segments, data = excluded.data")
        #expect(
            SQLDialect.postgres.statement(t.insert(.update(key: ["run_id"], columns: ["data"])))
                == "INSERT INTO run_samples (run_id, segments, data) VALUES ($1, $2, $3) "
                + "ON CONFLICT (run_id) DO UPDATE SET data = excluded.data")
    }
}
