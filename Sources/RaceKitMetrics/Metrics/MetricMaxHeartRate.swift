extension Metric {
    /// Highest heart rate in bpm that is not an isolated spike.
    public enum MaxHeartRate: RunMetric {
        public static let key: StaticString = "maxHeartRate"
        public static let column = "max_hr"
        public static let csvColumn = "max_hr_bpm"

        public static let unit = MetricUnit.bpm
        public static let digits = 0
        public static let plausible: ClosedRange<Double> = Plausibility.heartRateBpm
        public static let since = 1
        public static let summary = "Highest heart rate in bpm that is not an isolated spike."
        public static func compute(_ c: MetricContext) -> Double? { c.summary.maxHeartRate }
    }
}
