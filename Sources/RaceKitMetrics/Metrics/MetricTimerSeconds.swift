extension Metric {
    /// The device's timer time in seconds (what Garmin Connect and Strava show as time): its session's, else the sum of its laps'.
    public enum TimerSeconds: RunMetric {
        public static let key: StaticString = "timerSeconds"
        public static let unit = MetricUnit.seconds
        public static let digits = 1
        public static let plausible: ClosedRange<Double> = 0...Plausibility.maximumElapsedSeconds
        public static let since = 7
        public static let isReported = true
        public static let summary =
            "The device's timer time in seconds (what Garmin Connect and Strava show as time): the sum of its laps' timer."
        public static func compute(_ c: MetricContext) -> Double? {
            c.deviceTotal { $0.totalTimeSeconds }
        }
    }
}
