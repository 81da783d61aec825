extension Metric {
    /// Share of the recorded time covered by heart-rate samples, in percent.
    public enum HeartRateCoverage: RunMetric {
        public static let key: StaticString = "heartRateCoveragePercent"
        public static let column = "hr_coverage_pct"

        public static let unit = MetricUnit.percent
        public static let digits = 1
        public static let plausible: ClosedRange<Double> = 0...100
        public static let since = 1
        public static let summary = "Share of the recorded time covered by heart-rate samples, in percent."
        public static func compute(_ c: MetricContext) -> Double? { c.summary.heartRateCoveragePercent }
    }
}
