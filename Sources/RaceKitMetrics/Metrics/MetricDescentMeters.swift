extension Metric {
    /// Elevation loss in metres, over the cleaned and smoothed profile (ElevationProfile).
    public enum DescentMeters: RunMetric {
        public static let key: StaticString = "descentMeters"
        public static let column = "descent_m"

        public static let unit = MetricUnit.meters
        public static let digits = 1
        public static let plausible: ClosedRange<Double> = 0...1e6
        public static let since = 1
        public static let summary =
            "Elevation loss in metres, over the cleaned and smoothed profile (ElevationProfile)."
        public static func compute(_ c: MetricContext) -> Double? { c.summary.descentMeters }
    }
}
