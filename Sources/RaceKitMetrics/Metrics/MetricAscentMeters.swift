extension Metric {
    /// Elevation gain in metres, over the cleaned and smoothed profile (ElevationProfile).
    public enum AscentMeters: RunMetric {
        public static let key: StaticString = "ascentMeters"
        public static let column = "ascent_m"

        public static let unit = MetricUnit.meters
        public static let digits = 1
        public static let plausible: ClosedRange<Double> = 0...1e6
        public static let since = 1
        public static let summary =
            "Elevation gain in metres, over the cleaned and smoothed profile (ElevationProfile)."
        public static func compute(_ c: MetricContext) -> Double? { c.summary.ascentMeters }
    }
}
