extension Metric {
    /// The pool length in metres of a pool swim (FIT session pool_length).
    public enum PoolLength: RunMetric {
        public static let key: StaticString = "poolLengthMeters"
        public static let unit = MetricUnit.meters
        public static let digits = 1
        public static let plausible: ClosedRange<Double> = 10...100
        public static let since = 7
        public static let isReported = true
        public static let summary =
            "The pool length in metres of a pool swim (FIT session pool_length)."
        public static func compute(_ c: MetricContext) -> Double? {
            guard c.sport == .swimming else { return nil }
            return c.session?.poolLengthMeters
        }
    }
}
