extension Metric {
    /// Normalized power over average power: 1.00 for an even effort, 1.05 and
    /// more for a variable one.
    public enum VariabilityIndex: RunMetric {
        public static let key: StaticString = "variabilityIndex"
        public static let unit = MetricUnit.ratio
        public static let digits = 2
        public static let plausible: ClosedRange<Double> = 1...10
        public static let since = 7
        public static let summary =
            "Normalized power over average power: 1.00 for an even effort, more for a variable one."
        public static func compute(_ c: MetricContext) -> Double? {
            let p = c.power
            guard let np = p.normalized, let avg = p.average, avg > 0 else { return nil }
            // The rolling mean can come out a hair under the mean (the first window counts once).
            return max(np / avg, 1)
        }
    }
}
