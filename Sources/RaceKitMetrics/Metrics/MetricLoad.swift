extension Metric {
    /// Training load: heart-rate TRIMP, or the pace fallback; one hour at threshold scores 100 (TrainingLoadModel).
    public enum Load: RunMetric {
        public static let key: StaticString = "load"
        public static let column = "load"

        public static let unit = MetricUnit.points
        public static let digits = 1
        public static let plausible: ClosedRange<Double> = 0...1e6
        public static let since = 1
        public static let summary =
            "Training load: heart-rate TRIMP, or the pace fallback; one hour at threshold scores 100 (TrainingLoadModel)."
        public static func compute(_ c: MetricContext) -> Double? { c.load?.value }
    }
}
