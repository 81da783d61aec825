extension Metric {
    /// The pool lengths swum, rests left out (FIT num_active_lengths, else the active length messages).
    public enum Lengths: RunMetric {
        public static let key: StaticString = "lengths"
        public static let unit = MetricUnit.count
        public static let digits = 0
        public static let plausible: ClosedRange<Double> = 1...100_000
        public static let since = 7
        public static let isReported = true
        public static let summary =
            "The pool lengths swum, rests left out (FIT num_active_lengths, else the active length messages)."
        public static func compute(_ c: MetricContext) -> Double? {
            guard c.sport == .swimming else { return nil }
            return c.session?.activeLengths
        }
    }
}
