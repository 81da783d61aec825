import GRDB
import RaceKitCore

/// Runs in and out of the run table through the declared columns
/// (`RunColumns.of(registry)`): the select list, the row reader, the INSERT
/// and UPDATE all come from that one list.
extension SQLiteStore {
    /// `SELECT <run columns> FROM run` plus `rest` (WHERE, ORDER BY ...).
    func runSelect(_ rest: String, prefix: String = "") -> String {
        "SELECT \(runColumns.map { prefix + $0.spec.name }.joined(separator: ", ")) FROM run \(rest)"
    }

    func decodeRun(_ row: Row, offset: Int = 0) throws -> RunRecord {
        try RunRecord(row: GRDBStoreRow(row: row), offset: offset, columns: runColumns, registry: registry)
    }

    /// The runs `sql` selects (it starts with `runSelect`).
    func fetchRuns(_ db: Database, _ sql: String, _ arguments: StatementArguments = []) throws -> [RunRecord] {
        let cursor = try Row.fetchCursor(Self.cached(db, sql), arguments: arguments)
        var out: [RunRecord] = []
        while let row = try cursor.next() { out.append(try decodeRun(row)) }
        return out
    }

    func fetchRun(_ db: Database, id: String) throws -> RunRecord? {
        try fetchRuns(db, runSelect("WHERE id = ?"), [id]).first
    }

    func insertRun(_ db: Database, _ r: RunRecord) throws {
        let r = r.with(registry)
        let names = runColumns.map(\.spec.name)
        let sql =
            "INSERT INTO run (\(names.joined(separator: ", "))) VALUES (\(names.map { _ in "?" }.joined(separator: ", ")))"
        try Self.cached(db, sql).execute(arguments: StatementArguments(r.storeValues(runColumns).map(\.databaseValue)))
    }

    func updateRun(_ db: Database, _ r: RunRecord) throws {
        let r = r.with(registry)
        let sets = runColumns.dropFirst().map { "\($0.spec.name) = ?" }.joined(separator: ", ")
        var values = Array(r.storeValues(runColumns).dropFirst().map(\.databaseValue))
        values.append(r.id.databaseValue)
        try Self.cached(db, "UPDATE run SET \(sets) WHERE id = ?").execute(arguments: StatementArguments(values))
    }
}
