import RaceKitModel

extension Metric {
    /// Average stride length in metres as watches report it: from one foot's contact to the other's (FIT step_length).
    public enum StrideLength: RunMetric {
        public static let key: StaticString = "avgStrideLengthMeters"
        public static let unit = MetricUnit.meters
        public static let digits = 2
        public static let plausible: ClosedRange<Double> = 0.2...3
        public static let since = 7
        public static let summary =
            "Average stride length in metres as watches report it: from one foot's contact to the other's (FIT step_length)."
        public static func compute(_ c: MetricContext) -> Double? {
            c.extraAverage(ExtraChannel.Key.stepLength).map { $0 / 1000 }
        }
    }
}
