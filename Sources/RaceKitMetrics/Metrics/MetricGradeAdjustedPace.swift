extension Metric {
    /// Grade-adjusted pace in seconds per km: the flat pace of the same effort (GradeProfile, docs/numbers.md).
    public enum GradeAdjustedPace: RunMetric {
        public static let key: StaticString = "gradeAdjustedPaceSecondsPerKm"
        public static let column = "gap_pace_s_per_km"
        public static let csvColumn = "gap_pace_s_per_km"

        public static let unit = MetricUnit.secondsPerKm
        public static let digits = 1
        public static let plausible: ClosedRange<Double> = 1...1e6
        public static let since = 4
        public static let summary =
            "Grade-adjusted pace in seconds per km: the flat pace of the same effort (GradeProfile, docs/numbers.md)."
        public static func compute(_ c: MetricContext) -> Double? { c.summary.gradeAdjustedPaceSecondsPerKm }
    }
}
