extension Metric {
    /// Normalized power over the critical power in force on the run's day (for running and cycling).
    public enum PowerIntensity: RunMetric {
        public static let key: StaticString = "powerIntensity"
        public static let unit = MetricUnit.ratio
        public static let digits = 2
        public static let plausible: ClosedRange<Double> = 0...5
        public static let since = 8
        public static let summary =
            "Normalized power over the critical power in force on the run's day (running and cycling)."
        public static func compute(_ c: MetricContext) -> Double? {
            guard let cp = c.criticalPower, let np = c.power.normalized else { return nil }
            return PowerStress.intensity(normalized: np, criticalPower: cp.watts)
        }
    }
}
