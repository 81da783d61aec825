import RaceKitModel

extension Metric {
    /// Average ground contact time per step in ms (FIT stance_time, Stryd's Ground Time).
    public enum GroundContact: RunMetric {
        public static let key: StaticString = "avgGroundContactMs"
        public static let unit = MetricUnit.milliseconds
        public static let digits = 0
        public static let plausible: ClosedRange<Double> = 100...600
        public static let since = 7
        public static let summary =
            "Average ground contact time per step in ms (FIT stance_time, Stryd's Ground Time)."
        public static func compute(_ c: MetricContext) -> Double? { c.extraAverage(ExtraChannel.Key.groundContact) }
    }
}
