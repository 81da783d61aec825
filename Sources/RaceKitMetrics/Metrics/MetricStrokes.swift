extension Metric {
    /// The strokes of a swim (FIT total_cycles, else the lengths' strokes).
    public enum Strokes: RunMetric {
        public static let key: StaticString = "strokes"
        public static let unit = MetricUnit.count
        public static let digits = 0
        public static let plausible: ClosedRange<Double> = 1...10_000_000
        public static let since = 7
        public static let isReported = true
        public static let summary =
            "The strokes of a swim (FIT total_cycles, else the lengths' strokes)."
        public static func compute(_ c: MetricContext) -> Double? {
            guard c.sport == .swimming else { return nil }
            return c.session?.strokes
        }
    }
}
