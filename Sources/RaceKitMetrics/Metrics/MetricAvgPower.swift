extension Metric {
    /// Mean power in watts over the seconds with power (zeros kept, pauses left out).
    public enum AvgPower: RunMetric {
        public static let key: StaticString = "avgPowerWatts"
        public static let unit = MetricUnit.watts
        public static let digits = 0
        public static let plausible: ClosedRange<Double> = PowerSeries.plausibleWatts
        public static let since = 7
        public static let summary =
            "Mean power in watts over the seconds with power (zeros kept, pauses left out)."
        public static func compute(_ c: MetricContext) -> Double? { c.power.average }
    }
}
