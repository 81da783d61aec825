extension Metric {
    /// SWOLF: the seconds plus the strokes of an average length swum (lower is more efficient; compare within one pool length).
    public enum Swolf: RunMetric {
        public static let key: StaticString = "swolf"
        public static let unit = MetricUnit.points
        public static let digits = 1
        public static let plausible: ClosedRange<Double> = 5...500
        public static let since = 7
        public static let isReported = true
        public static let summary =
            "SWOLF: the seconds plus the strokes of an average length swum (lower is more efficient; compare within one pool length)."
        public static func compute(_ c: MetricContext) -> Double? {
            guard c.sport == .swimming, let s = c.session, let strokes = s.strokes, let seconds = s.activeLengthSeconds,
                let n = s.activeLengths, n > 0
            else { return nil }
            return (seconds + strokes) / n
        }
    }
}
