extension Metric {
    /// Distance in metres: the device's total where it has one, else the track's (distanceSource).
    public enum DistanceMeters: RunMetric {
        public static let key: StaticString = "distanceMeters"
        public static let column = "distance_m"
        public static let csvColumn = "distance_km"
        public static let csvScale = 0.001
        public static let csvDigits = 3
        public static let unit = MetricUnit.meters
        public static let digits = 2
        public static let plausible: ClosedRange<Double> = 0...1e8
        public static let since = 1
        public static let summary =
            "Distance in metres: the device's total where it has one, else the track's (distanceSource)."
        public static func compute(_ c: MetricContext) -> Double? { c.summary.distanceMeters }
    }
}
