extension Metric {
    /// Time-weighted average heart rate in bpm (steps capped at RunSummary.stepCapSeconds).
    public enum AvgHeartRate: RunMetric {
        public static let key: StaticString = "avgHeartRate"
        public static let column = "avg_hr"
        public static let csvColumn = "avg_hr_bpm"

        public static let unit = MetricUnit.bpm
        public static let digits = 1
        public static let plausible: ClosedRange<Double> = Plausibility.heartRateBpm
        public static let since = 1
        public static let summary =
            "Time-weighted average heart rate in bpm (steps capped at RunSummary.stepCapSeconds)."
        public static func compute(_ c: MetricContext) -> Double? { c.summary.avgHeartRate }
    }
}
