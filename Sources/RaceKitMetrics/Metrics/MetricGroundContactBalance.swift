import RaceKitModel

extension Metric {
    /// The left foot's share of ground contact time in % (50 is even; FIT stance_time_balance).
    public enum GroundContactBalance: RunMetric {
        public static let key: StaticString = "avgGroundContactBalancePercent"
        public static let unit = MetricUnit.percent
        public static let digits = 1
        public static let plausible: ClosedRange<Double> = 30...70
        public static let since = 7
        public static let summary =
            "The left foot's share of ground contact time in % (50 is even; FIT stance_time_balance)."
        public static func compute(_ c: MetricContext) -> Double? {
            c.extraAverage(ExtraChannel.Key.groundContactBalance)
        }
    }
}
