import RaceKitMetrics
import RaceKitOutput

/// What the registry says about its metrics, for the files generated from it:
/// the metric keys of the run summary in docs/contracts/schemas/run.schema.json
/// and the table of docs/metrics.md (a test checks both are current, and
/// `RACEKIT_UPDATE_SCHEMAS=1 swift test --filter MetricDocsTests` rewrites them).
public enum MetricDocs {
    /// A metric's JSON-schema property: a number or null within its plausible range.
    public struct Property: Encodable, Sendable, Equatable {
        public var type = ["number", "null"]
        public var minimum: Double
        public var maximum: Double
        public var description: String
    }

    public static func property(_ m: any RunMetric.Type) -> Property {
        Property(
            minimum: m.plausible.lowerBound, maximum: m.plausible.upperBound,
            description:
                "\(m.summary) Unit: \(m.unit.rawValue); \(m.digits) decimals; since analysis version \(m.since).")
    }

    /// 1e8 as 100,000,000; a fraction as it is.
    static func number(_ v: Double) -> String {
        guard v == v.rounded(), abs(v) < 1e15 else { return "\(v)" }
        var digits = String(Int(abs(v)))
        var groups: [Substring] = []
        while digits.count > 3 {
            groups.insert(digits.suffix(3), at: 0)
            digits = String(digits.dropLast(3))
        }
        groups.insert(Substring(digits), at: 0)
        return (v < 0 ? "-" : "") + groups.joined(separator: ",")
    }

    /// docs/metrics.md.
    public static func markdown(_ registry: MetricRegistry = .standard) -> String {
        var out = """
            # Per-run metrics

            Every figure `runs list` and `runs show` print per run, generated from the
            metric registry (`MetricRegistry.standard`, one type per file in
            `Sources/RaceKitMetrics/Metrics/`): do not edit, run
            `RACEKIT_UPDATE_SCHEMAS=1 swift test --filter MetricDocsTests`. The JSON key
            is in every run summary (`null` when unknown), the CSV column in `runs list
            --format csv` (0.4.0's metrics in their places, newer ones after `notes`),
            the store column in both backends. A value outside its range is unknown, never
            stored; a run analysed before a metric's version is recomputed by
            `racekit runs recompute`. How each is computed: [numbers.md](numbers.md);
            adding one: [development.md](development.md#extending).

            | JSON key | CSV column | store column | unit | decimals | range | since | what |
            |---|---|---|---|---|---|---|---|

            """
        for m in registry.metrics {
            let scale = m.csvScale == 1 ? "" : " (x\(m.csvScale))"
            out +=
                "| `\(m.key)` | `\(m.csvColumn)`\(scale) | `\(m.column)` | \(m.unit.rawValue) | \(m.digits) "
                + "| \(number(m.plausible.lowerBound)) to \(number(m.plausible.upperBound)) | \(m.since) | \(m.summary) |\n"
        }
        return out
    }
}
