extension Metric {
    /// Highest one-second power in watts.
    public enum MaxPower: RunMetric {
        public static let key: StaticString = "maxPowerWatts"
        public static let unit = MetricUnit.watts
        public static let digits = 0
        public static let plausible: ClosedRange<Double> = PowerSeries.plausibleWatts
        public static let since = 7
        public static let summary =
            "Highest one-second power in watts."
        public static func compute(_ c: MetricContext) -> Double? { c.power.maximum }
    }
}
