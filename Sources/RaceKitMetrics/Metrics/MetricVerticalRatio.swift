import RaceKitModel

extension Metric {
    /// Average vertical ratio in %: vertical oscillation over step length.
    public enum VerticalRatio: RunMetric {
        public static let key: StaticString = "avgVerticalRatioPercent"
        public static let unit = MetricUnit.percent
        public static let digits = 1
        public static let plausible: ClosedRange<Double> = 1...30
        public static let since = 7
        public static let summary =
            "Average vertical ratio in %: vertical oscillation over step length."
        public static func compute(_ c: MetricContext) -> Double? { c.extraAverage(ExtraChannel.Key.verticalRatio) }
    }
}
