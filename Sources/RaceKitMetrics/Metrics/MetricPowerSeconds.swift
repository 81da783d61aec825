extension Metric {
    /// Seconds with power: the time the power figures are over (pauses and gaps left out).
    public enum PowerSeconds: RunMetric {
        public static let key: StaticString = "powerSeconds"
        public static let unit = MetricUnit.seconds
        public static let digits = 0
        public static let plausible: ClosedRange<Double> = 0...Plausibility.maximumElapsedSeconds
        public static let since = 8
        public static let summary =
            "Seconds with power: the time the power figures are over (pauses and gaps left out)."
        public static func compute(_ c: MetricContext) -> Double? {
            c.power.isUsable ? Double(c.power.watts.count) : nil
        }
    }
}
