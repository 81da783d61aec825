extension Metric {
    /// Time-weighted average cadence over non-zero values (steps per minute on foot, rpm on a bike).
    public enum AvgCadence: RunMetric {
        public static let key: StaticString = "avgCadence"
        public static let column = "avg_cadence"
        public static let csvColumn = "avg_cadence_spm"

        public static let unit = MetricUnit.perMinute
        public static let digits = 1
        public static let plausible: ClosedRange<Double> = 0...1000
        public static let since = 1
        public static let summary =
            "Time-weighted average cadence over non-zero values (steps per minute on foot, rpm on a bike)."
        public static func compute(_ c: MetricContext) -> Double? { c.summary.avgCadence }
    }
}
