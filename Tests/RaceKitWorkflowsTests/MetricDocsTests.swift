import Foundation
import RaceKitMetrics
import Testing

@testable import RaceKitWorkflows

/// The files generated from the metric registry are current: the metric keys
/// of the run summary's JSON schema and docs/metrics.md.
/// `RACEKIT_UPDATE_SCHEMAS=1 swift test --filter MetricDocsTests` rewrites them
/// (and fails once: review the diff, run again).
@Suite struct MetricDocsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let updating = ProcessInfo.processInfo.environment["RACEKIT_UPDATE_SCHEMAS"] == "1"

    static func jsonObject<T: Encodable>(_ value: T) throws -> Any {
        try JSONSerialization.jsonObject(with: JSONEncoder().encode(value))
    }

    @Test func theRunSchemaHasEveryMetricAsTheRegistrySaysIt() throws {
        let url = Self.root.appendingPathComponent("docs/contracts/schemas/run.schema.json")
        var schema = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        var defs = try #require(schema["$defs"] as? [String: Any])
        var summary = try #require(defs["summary"] as? [String: Any])
        var properties = try #require(summary["properties"] as? [String: Any])
        var stale: [String] = []
        for m in MetricRegistry.standard.metrics {
            let expected = try Self.jsonObject(MetricDocs.property(m))
            let key = "\(m.key)"
            if (properties[key] as? NSDictionary) != (expected as? NSDictionary) {
                stale.append(key)
                properties[key] = expected
            }
        }
        let keys = RunJSON.keys()
        let required = (summary["required"] as? [String]) ?? []
        if required != keys || Set(properties.keys) != Set(keys) {
            stale.append("required")
            summary["required"] = keys
            properties = properties.filter { keys.contains($0.key) }
        }
        // `runs show` is the summary's keys and the detail's: the metrics there too.
        var top = try #require(schema["properties"] as? [String: Any])
        for m in MetricRegistry.standard.metrics {
            let key = "\(m.key)", expected = try Self.jsonObject(MetricDocs.property(m))
            if (top[key] as? NSDictionary) != (expected as? NSDictionary) {
                stale.append("runs show \(key)")
                top[key] = expected
            }
        }
        let topRequired = (schema["required"] as? [String]) ?? []
        let detailKeys = topRequired.filter { key in !keys.contains(key) }
        if topRequired != keys + detailKeys {
            stale.append("runs show required")
            schema["required"] = keys + detailKeys
        }
        if Self.updating, !stale.isEmpty {
            summary["properties"] = properties
            defs["summary"] = summary
            schema["$defs"] = defs
            schema["properties"] = top
            let data = try JSONSerialization.data(
                withJSONObject: schema, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
            try (data + Data("\n".utf8)).write(to: url)
        }
        #expect(stale.isEmpty, "run.schema.json is not the registry's for \(stale): RACEKIT_UPDATE_SCHEMAS=1")
        // Every fixed key keeps its hand-written property.
        #expect(keys.allSatisfy { properties[$0] != nil })
    }

    @Test func theMetricsPageIsTheRegistrys() throws {
        let url = Self.root.appendingPathComponent("docs/metrics.md")
        let expected = MetricDocs.markdown()
        let current = try? String(contentsOf: url, encoding: .utf8)
        if Self.updating, current != expected { try expected.write(to: url, atomically: true, encoding: .utf8) }
        #expect(current == expected, "docs/metrics.md is not the registry's: RACEKIT_UPDATE_SCHEMAS=1")
        #expect(expected.contains("| `gradeAdjustedPaceSecondsPerKm` | `gap_pace_s_per_km` | `gap_pace_s_per_km` |"))
        #expect(
            expected.contains(
                "| `distanceMeters` | `distance_km` (x0.001) | `distance_m` | m | 2 | 0 to 100,000,000 | 1 |"))
    }
}
