import RaceKitCore
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
}
