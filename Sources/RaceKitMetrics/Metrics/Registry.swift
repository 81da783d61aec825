/// The per-run metrics, one type per file (`Metric.*`): adding one is its file
/// and a line here (docs/development.md, "Extending").
public enum Metric {}

extension MetricRegistry {
    /// Every metric RaceKit computes, stores and prints. The order is the run
    /// table's (after its fixed columns) and the CSV's (after the fixed columns):
    /// append, never reorder.
    public static let standard = MetricRegistry(standardList)

    static let standardList: [any RunMetric.Type] =
        [
            Metric.MovingSeconds.self,
            Metric.DistanceMeters.self,
            Metric.AscentMeters.self,
            Metric.DescentMeters.self,
            Metric.AvgHeartRate.self,
            Metric.MaxHeartRate.self,
            Metric.HeartRateCoverage.self,
            Metric.AvgCadence.self,
            Metric.Load.self,
            Metric.GradeAdjustedPace.self,
            Metric.AvgPower.self,
            Metric.MaxPower.self,
            Metric.NormalizedPower.self,
            Metric.VariabilityIndex.self,
            Metric.TimerSeconds.self,
            Metric.EnergyKcal.self,
            Metric.GroundContact.self,
            Metric.GroundContactBalance.self,
            Metric.VerticalOscillation.self,
            Metric.VerticalRatio.self,
            Metric.StrideLength.self,
            Metric.PoolLength.self,
            Metric.Lengths.self,
            Metric.Strokes.self,
            Metric.AvgStrokeRate.self,
            Metric.Swolf.self
        ] + PeakPowerCurve.metrics.map { $0 as any RunMetric.Type } + [
            Metric.PowerSeconds.self,
            Metric.PowerIntensity.self,
            Metric.PowerStressScore.self
        ]
}
