import RaceKitModel
import RaceKitOutput

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Race-time prediction from one performance, three ways.
///
/// - Riegel (1977/1981): T2 = T1 (D2/D1)^k, k = 1.06 by default. Tends to be
///   optimistic for recreational marathoners (it assumes the endurance of a
///   trained marathoner).
/// - Daniels' VDOT (Daniels & Gilbert 1979): the performance's VDOT =
///   VO2(v) / %max(t) with VO2 = −4.60 + 0.182258 v + 0.000104 v² (v in m/min) and
///   %max = 0.8 + 0.1894393 e^(−0.012778 t) + 0.2989558 e^(−0.1932605 t) (t in min);
///   the prediction is the time over the new distance with the same VDOT.
/// - Cameron (1997): T2 = (T1/D1) · (a(D1)/a(D2)) · D2 with
///   a(d) = 13.49681 − 0.000030363 d + 835.7114 / d^0.7905 (d in metres).
public enum RacePredictor {
    public enum Model: String, Sendable, CaseIterable, Codable {
        case riegel, vdot, cameron
    }

    public struct Prediction: Sendable, Equatable, Codable {
        public var model: Model
        /// Predicted time in seconds.
        public var seconds: Double
    }

    public static let defaultRiegelExponent = 1.06
    /// The exponents Riegel's formula is used with (1.06 classic; 1.08-1.15 for the less trained).
    public static let riegelExponents: ClosedRange<Double> = 1.0...1.2

    public static func riegel(
        seconds t1: Double, meters d1: Double, to d2: Double, exponent: Double = defaultRiegelExponent
    ) -> Double {
        t1 * pow(d2 / d1, exponent)
    }

    static func cameronFactor(_ d: Double) -> Double { 13.49681 - 0.000030363 * d + 835.7114 / pow(d, 0.7905) }

    public static func cameron(seconds t1: Double, meters d1: Double, to d2: Double) -> Double {
        (t1 / d1) * (cameronFactor(d1) / cameronFactor(d2)) * d2
    }

    /// VDOT of a performance.
    public static func vdot(meters d: Double, seconds t: Double) -> Double {
        let minutes = t / 60
        let v = d / minutes
        let vo2 = -4.60 + 0.182258 * v + 0.000104 * v * v
        let fraction = 0.8 + 0.1894393 * exp(-0.012778 * minutes) + 0.2989558 * exp(-0.1932605 * minutes)
        return vo2 / fraction
    }

    /// The time over `d` that has the given VDOT (bisection: VDOT falls as time grows).
    public static func time(vdot target: Double, meters d: Double) -> Double {
        var fast = d / 1000 * 60, slow = d / 30 * 60   // 1000 and 30 m/min
        for _ in 0..<100 {
            let mid = (fast + slow) / 2
            if vdot(meters: d, seconds: mid) > target { fast = mid } else { slow = mid }
        }
        return (fast + slow) / 2
    }

    /// All three predictions for `d2` from a time `t1` over `d1`.
    public static func predict(
        seconds t1: Double, meters d1: Double, to d2: Double,
        riegelExponent: Double = defaultRiegelExponent
    ) -> [Prediction] {
        [
            Prediction(model: .riegel, seconds: riegel(seconds: t1, meters: d1, to: d2, exponent: riegelExponent)),
            Prediction(model: .vdot, seconds: time(vdot: vdot(meters: d1, seconds: t1), meters: d2)),
            Prediction(model: .cameron, seconds: cameron(seconds: t1, meters: d1, to: d2))
        ]
    }

    /// The shortest performance the models are fitted to: a mile.
    public static let shortestFittedMeters = Units.metersPerMile
    /// Above this VDOT a performance is world-class: the models are fitted below it.
    public static let highestFittedVDOT = 85.0

    /// A target time suggested from one performance: the middle of the three
    /// models' predictions (the slowest where Riegel's caveat applies: plan on
    /// the slower end), rounded up to whole minutes over an hour and to 5 s
    /// below (a target a runner would write down), with the models' range.
    public struct Suggestion: Sendable, Equatable {
        public var seconds: Double
        public var fastestSeconds: Double
        public var slowestSeconds: Double
    }

    public static func suggestTarget(seconds: Double, meters: Double, to distance: Double) -> Suggestion {
        let times = predict(seconds: seconds, meters: meters, to: distance).map(\.seconds).sorted()
        let middle = riegelNote(fromMeters: meters, toMeters: distance) != nil ? times.last! : times[times.count / 2]
        let rounded = middle >= 3600 ? (middle / 60).rounded(.up) * 60 : (middle / 5).rounded(.up) * 5
        return Suggestion(seconds: rounded, fastestSeconds: times.first!, slowestSeconds: times.last!)
    }

    /// Riegel's caveat, where it applies: a marathon or longer predicted from a
    /// race at most half as long (Riegel's exponent assumes a trained
    /// marathoner's endurance; recreational runners run slower marathons than a
    /// 10k or half predicts). Nil otherwise.
    public static func riegelNote(fromMeters: Double, toMeters: Double) -> String? {
        guard toMeters >= 42_195 - 1, toMeters / fromMeters >= 2 - 1e-6 else { return nil }
        return
            "Riegel's formula tends to be optimistic for recreational marathoners; plan on the slower end of the range."
    }

    /// Why a prediction from this performance deserves less trust, if it does.
    public static func warnings(meters: Double, vdot: Double) -> [String] {
        var out: [String] = []
        if meters < shortestFittedMeters {
            out.append(
                "the performance (\(TextFormat.fixed(meters, 0)) m) is shorter than a mile: the models are fitted to races of a mile or more, so the predictions are rough"
            )
        }
        if vdot > highestFittedVDOT {
            out.append("VDOT \(TextFormat.fixed(vdot, 1)) is above 85 (world class): the models are extrapolating")
        }
        return out
    }
}
