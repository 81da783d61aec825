extension Metric {
    /// Strokes per minute over the lengths swum (their strokes over their timer time).
    public enum AvgStrokeRate: RunMetric {
        public static let key: StaticString = "avgStrokeRate"
        public static let unit = MetricUnit.perMinute
        public static let digits = 1
        public static let plausible: ClosedRange<Double> = 5...150
        public static let since = 7
        public static let isReported = true
        public static let summary =
            "Strokes per minute over the lengths swum (their strokes over their timer time)."
        public static func compute(_ c: MetricContext) -> Double? {
            guard c.sport == .swimming, let s = c.session, let strokes = s.strokes, let seconds = s.activeLengthSeconds,
                seconds > 0
            else { return nil }
            return strokes / (seconds / 60)
        }
    }
}
