extension Metric {
    /// The energy the device or app reports in kilocalories (FIT total_calories, TCX Calories, Apple Health active energy).
    public enum EnergyKcal: RunMetric {
        public static let key: StaticString = "energyKcal"
        public static let unit = MetricUnit.kilocalories
        public static let digits = 0
        public static let plausible: ClosedRange<Double> = 0...100_000
        public static let since = 7
        public static let isReported = true
        public static let summary =
            "The energy the device or app reports in kilocalories (FIT total_calories, TCX Calories, Apple Health active energy)."
        public static func compute(_ c: MetricContext) -> Double? {
            c.deviceTotal { $0.energyKcal }
        }
    }
}
