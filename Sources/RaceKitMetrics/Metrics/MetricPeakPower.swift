/// One duration of the power-duration curve: how long, and its names.
public protocol PeakPowerWindow: Sendable {
    static var seconds: Int { get }
    /// The JSON key, `peakPower<label>Watts`.
    static var key: StaticString { get }
}

extension Metric {
    /// The best mean power in watts over one duration within a run (a point of
    /// its power-duration curve; docs/numbers.md, "Power-duration curve").
    public enum PeakPower<Window: PeakPowerWindow>: PowerCurveMetric {
        public static var seconds: Int { Window.seconds }
        public static var key: StaticString { Window.key }
        public static var column: String { "peak_power_\(label)_watts" }
        public static var unit: MetricUnit { .watts }
        public static var digits: Int { 0 }
        public static var plausible: ClosedRange<Double> { PowerSeries.plausibleWatts }
        public static var since: Int { 8 }
        public static var summary: String {
            "Best mean power in watts over \(PeakPowerCurve.spoken(Window.seconds)) within one stretch of recording."
        }
        public static func compute(_ c: MetricContext) -> Double? { c.power.peak(seconds: Window.seconds) }
        /// `5s`, `1min`, `2h`: the duration as the key writes it.
        public static var label: String { PeakPowerCurve.label(Window.seconds) }
    }

    public enum Peak5s: PeakPowerWindow { public static let seconds = 5, key: StaticString = "peakPower5sWatts" }
    public enum Peak15s: PeakPowerWindow { public static let seconds = 15, key: StaticString = "peakPower15sWatts" }
    public enum Peak30s: PeakPowerWindow { public static let seconds = 30, key: StaticString = "peakPower30sWatts" }
    public enum Peak1min: PeakPowerWindow { public static let seconds = 60, key: StaticString = "peakPower1minWatts" }
    public enum Peak2min: PeakPowerWindow { public static let seconds = 120, key: StaticString = "peakPower2minWatts" }
    public enum Peak3min: PeakPowerWindow { public static let seconds = 180, key: StaticString = "peakPower3minWatts" }
    public enum Peak5min: PeakPowerWindow { public static let seconds = 300, key: StaticString = "peakPower5minWatts" }
    public enum Peak8min: PeakPowerWindow { public static let seconds = 480, key: StaticString = "peakPower8minWatts" }
    public enum Peak10min: PeakPowerWindow {
        public static let seconds = 600, key: StaticString = "peakPower10minWatts"
    }
    public enum Peak12min: PeakPowerWindow {
        public static let seconds = 720, key: StaticString = "peakPower12minWatts"
    }
    public enum Peak15min: PeakPowerWindow {
        public static let seconds = 900, key: StaticString = "peakPower15minWatts"
    }
    public enum Peak20min: PeakPowerWindow {
        public static let seconds = 1200, key: StaticString = "peakPower20minWatts"
    }
    public enum Peak30min: PeakPowerWindow {
        public static let seconds = 1800, key: StaticString = "peakPower30minWatts"
    }
    public enum Peak1h: PeakPowerWindow { public static let seconds = 3600, key: StaticString = "peakPower1hWatts" }
    public enum Peak90min: PeakPowerWindow {
        public static let seconds = 5400, key: StaticString = "peakPower90minWatts"
    }
    public enum Peak2h: PeakPowerWindow { public static let seconds = 7200, key: StaticString = "peakPower2hWatts" }
}

/// A point of the power-duration curve.
public protocol PowerCurveMetric: RunMetric {
    static var seconds: Int { get }
}

/// The durations of the stored power-duration curve, 5 s to 2 h, in order.
public enum PeakPowerCurve {
    public static let metrics: [any PowerCurveMetric.Type] = [
        Metric.PeakPower<Metric.Peak5s>.self, Metric.PeakPower<Metric.Peak15s>.self,
        Metric.PeakPower<Metric.Peak30s>.self, Metric.PeakPower<Metric.Peak1min>.self,
        Metric.PeakPower<Metric.Peak2min>.self, Metric.PeakPower<Metric.Peak3min>.self,
        Metric.PeakPower<Metric.Peak5min>.self, Metric.PeakPower<Metric.Peak8min>.self,
        Metric.PeakPower<Metric.Peak10min>.self, Metric.PeakPower<Metric.Peak12min>.self,
        Metric.PeakPower<Metric.Peak15min>.self, Metric.PeakPower<Metric.Peak20min>.self,
        Metric.PeakPower<Metric.Peak30min>.self, Metric.PeakPower<Metric.Peak1h>.self,
        Metric.PeakPower<Metric.Peak90min>.self, Metric.PeakPower<Metric.Peak2h>.self
    ]
    /// Each curve metric's duration in seconds, in the order of `metrics`.
    public static let seconds = metrics.map { $0.seconds }

    /// `5s`, `1min`, `90min`, `2h`.
    public static func label(_ seconds: Int) -> String {
        if seconds < 60 { return "\(seconds)s" }
        if seconds % 3600 == 0 { return "\(seconds / 3600)h" }
        return "\(seconds / 60)min"
    }

    /// "5 s", "1 min", "2 h".
    public static func spoken(_ seconds: Int) -> String {
        if seconds < 60 { return "\(seconds) s" }
        if seconds % 3600 == 0 { return "\(seconds / 3600) h" }
        return "\(seconds / 60) min"
    }
}
