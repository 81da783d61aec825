extension Metric {
    /// Normalized power in watts: the fourth root of the mean fourth power of the 30-second rolling mean power.
    public enum NormalizedPower: RunMetric {
        public static let key: StaticString = "normalizedPowerWatts"
        public static let unit = MetricUnit.watts
        public static let digits = 0
        public static let plausible: ClosedRange<Double> = PowerSeries.plausibleWatts
        public static let since = 7
        public static let summary =
            "Normalized power in watts: the fourth root of the mean fourth power of the 30-second rolling mean power."
        public static func compute(_ c: MetricContext) -> Double? { c.power.normalized }
    }
}
