import RaceKitModel

extension Metric {
    /// Average vertical oscillation in mm (the bounce of each step).
    public enum VerticalOscillation: RunMetric {
        public static let key: StaticString = "avgVerticalOscillationMm"
        public static let unit = MetricUnit.millimeters
        public static let digits = 1
        public static let plausible: ClosedRange<Double> = 20...250
        public static let since = 7
        public static let summary =
            "Average vertical oscillation in mm (the bounce of each step)."
        public static func compute(_ c: MetricContext) -> Double? {
            c.extraAverage(ExtraChannel.Key.verticalOscillation)
        }
    }
}
