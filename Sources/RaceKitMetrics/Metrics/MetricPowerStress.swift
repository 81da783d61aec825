extension Metric {
    /// Power stress: hours with power x intensity squared x 100 (an hour at critical power scores 100).
    public enum PowerStressScore: RunMetric {
        public static let key: StaticString = "powerStress"
        public static let unit = MetricUnit.points
        public static let digits = 1
        public static let plausible: ClosedRange<Double> = 0...100_000
        public static let since = 8
        public static let summary =
            "Power stress: hours with power x intensity squared x 100 (an hour at critical power scores 100)."
        public static func compute(_ c: MetricContext) -> Double? {
            guard let cp = c.criticalPower, let np = c.power.normalized, c.power.isUsable else { return nil }
            return PowerStress.stress(seconds: Double(c.power.watts.count), normalized: np, criticalPower: cp.watts)
        }
    }
}
