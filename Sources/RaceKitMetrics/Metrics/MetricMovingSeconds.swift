extension Metric {
    /// Seconds in motion (MovingTime): pauses and stops left out.
    public enum MovingSeconds: RunMetric {
        public static let key: StaticString = "movingSeconds"
        public static let column = "moving_s"
        public static let csvColumn = "moving_time_s"

        public static let unit = MetricUnit.seconds
        public static let digits = 3
        public static let plausible: ClosedRange<Double> = 0...Plausibility.maximumElapsedSeconds
        public static let since = 1
        public static let summary = "Seconds in motion (MovingTime): pauses and stops left out."
        public static func compute(_ c: MetricContext) -> Double? { c.summary.movingSeconds }
    }
}
