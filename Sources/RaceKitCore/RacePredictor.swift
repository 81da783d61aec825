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

    public static func riegel(seconds t1: Double, meters d1: Double, to d2: Double, exponent: Double = defaultRiegelExponent) -> Double {
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
        var fast = d / 1000 * 60, slow = d / 30 * 60    // 1000 and 30 m/min
        for _ in 0..<100 {
            let mid = (fast + slow) / 2
            if vdot(meters: d, seconds: mid) > target { fast = mid } else { slow = mid }
        }
        return (fast + slow) / 2
    }

    /// All three predictions for `d2` from a time `t1` over `d1`.
    public static func predict(seconds t1: Double, meters d1: Double, to d2: Double,
                               riegelExponent: Double = defaultRiegelExponent) -> [Prediction] {
        [Prediction(model: .riegel, seconds: riegel(seconds: t1, meters: d1, to: d2, exponent: riegelExponent)),
         Prediction(model: .vdot, seconds: time(vdot: vdot(meters: d1, seconds: t1), meters: d2)),
         Prediction(model: .cameron, seconds: cameron(seconds: t1, meters: d1, to: d2))]
    }
}
