import Foundation
import RaceKitImport
import RaceKitTestSupport
import Testing

@testable import RaceKitMetrics
@testable import RaceKitOutput
@testable import RaceKitPostgres
@testable import RaceKitSQLite
@testable import RaceKitStore
@testable import RaceKitWorkflows

/// A made-up metric, added the way a new one is (a type and a registry line):
/// the highest heart-rate sample, introduced by the analysis version after today's.
enum PeakHeartRateTest: RunMetric {
    static let key: StaticString = "peakHeartRateTest"
    static let unit = MetricUnit.bpm
    static let digits = 0
    static let plausible: ClosedRange<Double> = 20...250
    static let since = RunAnalyzer.version + 1
    static let summary = "Test only: the highest heart-rate sample."
    static func compute(_ c: MetricContext) -> Double? {
        var best: Double?
        for v in c.samples.heartRate where !v.isNaN { best = max(best ?? v, v) }
        return best
    }
}

/// Issue 42's "done when": a metric added to the registry reaches the store
/// columns of both backends (by a derived migration), `runs recompute` of only
/// the runs analysed before it, `runs list` JSON and CSV, the digest and a copy.
@Suite struct MetricRegistryTests {
    static let extended = MetricRegistry.standard.adding([PeakHeartRateTest.self])

    @Test func theStandardRegistryIsConsistent() {
        let r = MetricRegistry.standard
        #expect(RunAnalyzer.version(r) == r.version && r.version > RunAnalyzer.baseVersion)
        #expect(RunAnalyzer.version(Self.extended) == RunAnalyzer.version + 1)
        #expect(PeakHeartRateTest.column == "peak_heart_rate_test")
        // Every metric after 0.4.0's run table needs its migration, in registry order.
        let added = r.metrics.map { $0.column }.filter { !RunColumns.historical.contains($0) }
        #expect(added.starts(with: ["avg_power_watts", "max_power_watts", "normalized_power_watts"]))
        #expect(StoreSchema.missingRunColumns(r, existing: RunColumns.historical).map(\.name) == added)
        #expect(
            StoreSchema.missingRunColumns(Self.extended, existing: RunColumns.historical).map(\.name)
                == added + ["peak_heart_rate_test"])
        #expect(RunJSON.keys(Self.extended).contains("peakHeartRateTest"))
        #expect(RunJSON.keys(Self.extended) == RunJSON.keys(Self.extended).sorted())
        #expect(RunView.csvHeader(Self.extended).last == "peak_heart_rate_test")
    }

    @Test func aNewMetricGoesEndToEndOnEveryBackend() throws {
        let dir = try workFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("store.sqlite").path
        var files: [String] = []
        for (i, start) in ["2026-03-01T07:00:00Z", "2026-03-03T07:00:00Z"].enumerated() {
            let url = dir.appendingPathComponent("run-\(i).gpx")
            try trackGPX(seconds: 1200, speed: 3.1, start: start, heartRate: 150 + Double(i))
                .write(to: url, atomically: true, encoding: .utf8)
            files.append(url.path)
        }
        // A store of today's metrics with two runs.
        do {
            let store = try SQLiteStore(path: path)
            #expect(
                try Importer(store: store, options: ImportOptions()).run(files: files).allSatisfy {
                    $0.status == .imported
                })
        }
        // The same store opened with the new metric: the column is added, the
        // runs are stale (analysed by today's version), their value unknown.
        let store = try SQLiteStore(path: path, registry: Self.extended)
        let before = try store.runs()
        #expect(before.count == 2)
        #expect(
            before.allSatisfy { $0.metrics[PeakHeartRateTest.self] == nil && $0.analysisVersion == RunAnalyzer.version }
        )
        let digestBefore = try StoreDigest.of(store)
        // A store without the metric's values digests as one without the metric.
        #expect(
            digestBefore == (try StoreDigest.of(try SQLiteStore(path: path, access: .read, registry: Self.extended))))

        // `runs recompute` redoes exactly the runs older than the metric.
        let outcome = try Recompute(store: store).run(athleteID: Athlete.defaultID, force: false, jobs: 1)
        #expect(outcome.checked == 2 && outcome.updated == 2 && outcome.failed.isEmpty)
        let after = try store.runs()
        #expect(after.map { $0.metrics[PeakHeartRateTest.self] } == [150, 151])
        #expect(after.allSatisfy { $0.analysisVersion == RunAnalyzer.version + 1 })
        #expect(try Recompute(store: store).run(athleteID: Athlete.defaultID, force: false, jobs: 1).checked == 0)
        // The other figures did not move.
        #expect(after.map(\.distanceMeters) == before.map(\.distanceMeters))
        #expect(after.map(\.avgHeartRate) == before.map(\.avgHeartRate))

        // runs list: the JSON key and the CSV column.
        let list = try RunList(store, RunList.Options())
        let json = String(decoding: try list.json(), as: UTF8.self)
        #expect(json.contains("\"peakHeartRateTest\" : 150"))
        #expect(json == (try JSONOutput.string(list.runs.map(\.json)) + "\n"))
        let csv = list.csv().components(separatedBy: "\r\n")
        #expect(csv[0].hasSuffix(",peak_heart_rate_test") && csv[0].contains(",notes,"))
        #expect(csv[1].hasSuffix(",150"))
        let digestWithoutDaily = try StoreDigest.of(store)
        #expect(digestWithoutDaily != digestBefore)
        // Daily measurements travel with the copy and count in the digest.
        let sleep = DailyMeasurement(
            athleteID: Athlete.defaultID, kind: DailyKind.named("sleep_deep")!, value: 1800, start: 1_772_400_000,
            end: 1_772_401_800, source: "Apple Watch", sourceFile: "export.xml", importedAt: 1)
        #expect(try store.addMeasurements([sleep]) == 1)
        let digest = try StoreDigest.of(store)
        #expect(digest != digestWithoutDaily)

        // The store of an older build (the standard registry) is newer than it knows.
        let refused = #expect(throws: StoreError.self) { try SQLiteStore(path: path, access: .read) }
        #expect(refused?.description.contains("schema metric-peak_heart_rate_test") == true)

        // A copy keeps the metric, on every backend.
        var targets: [any Store] = [try SQLiteStore(registry: Self.extended)]
        if let url = StoreCopyTests.pgURL, case .postgres(let db) = try StoreCopyTests.freshDatabase(url) {
            targets.append(try PGStore(conninfo: db, access: .create, registry: Self.extended))
        }
        for target in targets {
            #expect(try target.importContents(of: store, pageSize: 1) == 2)
            #expect(try target.runs().map { $0.metrics[PeakHeartRateTest.self] } == [150, 151])
            #expect(try target.runs() == after)
            #expect(try target.allMeasurements() == [sleep])
            #expect(try StoreDigest.of(target) == digest)
            // And runs recompute there has nothing to do either.
            #expect(try Recompute(store: target).run(athleteID: Athlete.defaultID, force: false, jobs: 1).checked == 0)
        }
    }

    /// Both backends' schema is the declared one: every table, column, type,
    /// nullability and default (the zone_model default drifted before: 'hrmax5'
    /// in SQLite, 'auto' in PostgreSQL).
    @Test func bothBackendsHoldTheDeclaredSchema() throws {
        let declared = StoreSchema.tables(Self.extended)
        let sqlite = try SQLiteStore(registry: Self.extended)
        try sqlite.writer.read { db in
            for table in declared {
                let columns = try db.columns(in: table.name)
                #expect(Set(columns.map(\.name)) == Set(table.columns.map(\.name)), "\(table.name)")
                for c in table.columns {
                    let live = try #require(columns.first { $0.name == c.name }, "\(table.name).\(c.name)")
                    #expect(live.type == SQLDialect.sqlite.type(c.type), "\(table.name).\(c.name)")
                    // A primary key column is NOT NULL by what it is.
                    if !table.primaryKey.contains(c.name) {
                        #expect(live.isNotNull == !c.nullable, "\(table.name).\(c.name)")
                    }
                    #expect(live.defaultValueSQL == c.defaultValue.map(SQLDialect.literal), "\(table.name).\(c.name)")
                }
                // Every declared reference is a foreign key of the live table.
                let keys = try db.foreignKeys(on: table.name)
                for c in table.columns {
                    guard let r = c.references else { continue }
                    #expect(
                        keys.contains { $0.destinationTable == r.table && $0.originColumns == [c.name] },
                        "\(table.name).\(c.name) -> \(r.table)")
                }
            }
        }
        guard let url = StoreCopyTests.pgURL, case .postgres(let db) = try StoreCopyTests.freshDatabase(url) else {
            return
        }
        _ = try PGStore(conninfo: db, access: .create, registry: Self.extended)
        let c = try PGConnection(db)
        for table in declared {
            let rows = try c.query(
                """
                SELECT column_name::text, data_type::text, is_nullable::text, column_default::text
                FROM information_schema.columns WHERE table_name = $1
                """, [.text(table.name)])
            var live: [String: (type: String, nullable: Bool, defaultSQL: String?)] = [:]
            for i in 0..<rows.count {
                live[rows.string(i, 0) ?? "?"] = (
                    rows.string(i, 1) ?? "?", rows.string(i, 2) == "YES", rows.string(i, 3)
                )
            }
            #expect(Set(live.keys) == Set(table.columns.map(\.name)), "\(table.name)")
            for col in table.columns {
                let l = try #require(live[col.name], "\(table.name).\(col.name)")
                #expect(l.type == SQLDialect.postgres.type(col.type), "\(table.name).\(col.name)")
                if !table.primaryKey.contains(col.name) {
                    #expect(l.nullable == col.nullable, "\(table.name).\(col.name)")
                }
                // PostgreSQL writes a text default with its cast: 'auto'::text.
                let expected = col.defaultValue.map { d in
                    if case .text = d { return SQLDialect.literal(d) + "::text" }
                    return SQLDialect.literal(d)
                }
                #expect(l.defaultSQL == expected, "\(table.name).\(col.name)")
            }
        }
    }
}
