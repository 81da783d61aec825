import Foundation
import RaceKitOutput

/// Critical power and W′: the power an athlete can hold for a long time and the
/// work they can do above it (docs/numbers.md, "Critical power").
///
/// Fitted from the best mean powers of a power-duration curve (`fit`), or set by
/// hand. Two models:
/// - **two-parameter** (Monod and Scherrer 1965): the work of each effort is
///   `W′ + CP·t`, a straight line through the efforts of 2 to 20 minutes;
/// - **three-parameter** (Morton 1996): `P(t) = CP + W′/(t + k)` with
///   `k = W′/(Pmax − CP)`, which also bends through the short efforts and
///   gives the maximal power Pmax; used where the efforts reach from a minute
///   or less to 12 minutes or more.
public struct CriticalPower: Sendable, Equatable {
    public enum Model: String, Sendable, CaseIterable {
        case twoParameter = "2-parameter", threeParameter = "3-parameter", set = "set"
    }

    public var watts: Double
    /// W′ in joules; nil when set by hand without it.
    public var wPrimeJoules: Double?
    /// Morton's maximal power (three-parameter model only).
    public var maxPowerWatts: Double?
    public var model: Model
    /// The efforts the fit used (0 when set by hand).
    public var efforts: Int
    /// Root-mean-square distance of the efforts from the model, in watts (0 when set).
    public var residualWatts: Double

    public init(
        watts: Double, wPrimeJoules: Double?, maxPowerWatts: Double? = nil, model: Model, efforts: Int = 0,
        residualWatts: Double = 0
    ) {
        self.watts = watts; self.wPrimeJoules = wPrimeJoules; self.maxPowerWatts = maxPowerWatts
        self.model = model; self.efforts = efforts; self.residualWatts = residualWatts
    }

    /// Efforts the two-parameter model uses, in seconds.
    public static let twoParameterSeconds = 120.0...1200.0
    /// Efforts the three-parameter model uses, in seconds.
    public static let threeParameterSeconds = 15.0...1200.0
    /// The critical powers a fit may give, in watts.
    public static let plausibleWatts = 20.0...2000.0
    /// The W′ a fit may give, in joules.
    public static let plausibleWPrime = 500.0...100_000.0

    /// The model's power for an effort of `seconds`; nil without W′.
    public func power(forSeconds seconds: Double) -> Double? {
        guard let w = wPrimeJoules, seconds > 0 else { return nil }
        if let pmax = maxPowerWatts, pmax > watts {
            return watts + w / (seconds + w / (pmax - watts))
        }
        return watts + w / seconds
    }

    /// The fit of a power-duration curve (seconds, best mean watts): the
    /// three-parameter model where the efforts allow it and it comes out
    /// plausible, else the two-parameter one; nil when neither can be told
    /// (`refusal` says why).
    public static func fit(_ curve: [(seconds: Double, watts: Double)]) -> CriticalPower? {
        let points = curve.filter { $0.seconds > 0 && $0.watts > 0 && $0.watts.isFinite }
        return [threeParameter(points), twoParameter(points)].lazy.compactMap { $0 }.first {
            $0.isConsistent(with: points)
        }
    }

    /// Largest RMS residual a fit may have, as a share of its critical power.
    public static let maximumResidualShare = 0.08
    /// How far an effort of 30 minutes or more may lie above the model's power for it.
    public static let longEffortTolerance = 0.02

    /// True when the model is not contradicted by the curve: its residual is
    /// small, and no effort of 30 minutes or more lies above what the model
    /// says can be held that long (a curve of steady rides, not all-out efforts,
    /// fits a critical power below the hour the athlete rode).
    func isConsistent(with curve: [(seconds: Double, watts: Double)]) -> Bool { contradiction(curve) == nil }

    /// Why `fit` gives nothing for `curve`, in words.
    public static func refusal(_ curve: [(seconds: Double, watts: Double)]) -> String {
        let points = curve.filter { $0.seconds > 0 && $0.watts > 0 && $0.watts.isFinite }
        let two = points.filter { twoParameterSeconds.contains($0.seconds) }.map(\.seconds)
        guard two.count >= 3, let short = two.min(), let long = two.max(), short <= 300, long >= 720 else {
            return
                "too few efforts: the 2-parameter fit needs three of 2-20 min, one of 5 min or less and one of 12 min or more"
        }
        // Each model that gave a plausible fit, and why the curve contradicts it.
        let fits = [threeParameter(points), twoParameter(points)].compactMap { $0 }
        if !fits.isEmpty {
            return fits.map { f in "the \(f.model.rawValue) fit: " + (f.contradiction(points) ?? "holds") }
                .joined(separator: "; ")
        }
        // No plausible fit: what the work-time line gives.
        let use = points.filter { twoParameterSeconds.contains($0.seconds) }
        guard let (w, cp) = line(use.map { ($0.seconds, $0.watts * $0.seconds) }) else {
            return "the efforts give no line of work against time"
        }
        if w < plausibleWPrime.lowerBound {
            return
                "the curve is too flat for a W′ (W′ \(TextFormat.fixed(w / 1000, 1)) kJ: steady running, not all-out efforts)"
        }
        if w > plausibleWPrime.upperBound {
            return "the curve is too steep: W′ \(TextFormat.fixed(w / 1000, 0)) kJ is above 100 kJ"
        }
        return "the line's critical power \(TextFormat.fixed(cp, 0)) W is outside 20-2,000 W"
    }

    /// Why this fit does not hold for `curve`; nil when it holds.
    func contradiction(_ curve: [(seconds: Double, watts: Double)]) -> String? {
        if residualWatts > Self.maximumResidualShare * watts {
            return
                "the efforts lie \(Int(residualWatts.rounded())) W (RMS) off it, more than 8% of its \(Int(watts.rounded())) W"
        }
        if let long = curve.filter({ $0.seconds >= 1800 }).first(where: { e in
            (power(forSeconds: e.seconds) ?? .infinity) * (1 + Self.longEffortTolerance) < e.watts
        }) {
            return "its \(Int(watts.rounded())) W is below the \(Int(long.watts.rounded())) W held for "
                + "\(Int(long.seconds / 60)) min: the shorter efforts were not all-out"
        }
        return nil
    }

    /// Work against time: the least-squares line through the 2-20 minute
    /// efforts. Needs three efforts, one of 5 minutes or less and one of 12 or more.
    public static func twoParameter(_ curve: [(seconds: Double, watts: Double)]) -> CriticalPower? {
        let use = curve.filter { twoParameterSeconds.contains($0.seconds) }
        guard use.count >= 3, let short = use.map(\.seconds).min(), let long = use.map(\.seconds).max(),
            short <= 300, long >= 720
        else { return nil }
        // work = W' + CP t
        guard let (intercept, slope) = line(use.map { ($0.seconds, $0.watts * $0.seconds) }),
            plausibleWatts.contains(slope), plausibleWPrime.contains(intercept)
        else { return nil }
        let cp = CriticalPower(watts: slope, wPrimeJoules: intercept, model: .twoParameter, efforts: use.count)
        return cp.withResidual(use)
    }

    /// Morton's curve through the 15 s-20 min efforts, least squares in watts.
    /// Needs five efforts, one of a minute or less and one of 12 minutes or more.
    public static func threeParameter(_ curve: [(seconds: Double, watts: Double)]) -> CriticalPower? {
        let use = curve.filter { threeParameterSeconds.contains($0.seconds) }
        guard use.count >= 5, let short = use.map(\.seconds).min(), let long = use.map(\.seconds).max(),
            short <= 60, long >= 720
        else { return nil }
        // For a given k the model is a line in x = 1/(t + k): P = CP + W' x.
        func solve(_ k: Double) -> (cp: Double, w: Double, sse: Double)? {
            guard let (cp, w) = line(use.map { (1 / ($0.seconds + k), $0.watts) }) else { return nil }
            let sse = use.reduce(0.0) { s, e in
                let d = e.watts - (cp + w / (e.seconds + k))
                return s + d * d
            }
            return (cp, w, sse)
        }
        // k over 0.5-600 s: a log grid, then a golden-section search around its best.
        let grid = (0...60).map { 0.5 * pow(1200, Double($0) / 60) }
        guard
            let best = grid.indices.min(by: {
                (solve(grid[$0])?.sse ?? .infinity) < (solve(grid[$1])?.sse ?? .infinity)
            })
        else { return nil }
        var lo = log(grid[max(best - 1, 0)]), hi = log(grid[min(best + 1, grid.count - 1)])
        let g = (5.0.squareRoot() - 1) / 2
        for _ in 0..<40 {
            let a = hi - g * (hi - lo), b = lo + g * (hi - lo)
            if (solve(exp(a))?.sse ?? .infinity) < (solve(exp(b))?.sse ?? .infinity) { hi = b } else { lo = a }
        }
        let k = exp((lo + hi) / 2)
        // At the grid's end the curve gives no k (an almost straight line): no Morton fit.
        guard k < grid.last! * 0.99, k > grid.first! * 1.01 else { return nil }
        guard let (cp, w, _) = solve(k), plausibleWatts.contains(cp), plausibleWPrime.contains(w), k > 0
        else { return nil }
        let pmax = cp + w / k
        guard pmax.isFinite, pmax > cp, pmax <= PowerSeries.plausibleWatts.upperBound * 2 else { return nil }
        let fitted = CriticalPower(
            watts: cp, wPrimeJoules: w, maxPowerWatts: pmax, model: .threeParameter, efforts: use.count)
        return fitted.withResidual(use)
    }

    private func withResidual(_ use: [(seconds: Double, watts: Double)]) -> CriticalPower {
        var c = self
        let sse = use.reduce(0.0) { s, e in
            let d = e.watts - (power(forSeconds: e.seconds) ?? e.watts)
            return s + d * d
        }
        c.residualWatts = (sse / Double(use.count)).squareRoot()
        return c
    }

    /// Least-squares `y = a + b x`; nil when the x do not vary.
    static func line(_ xy: [(Double, Double)]) -> (a: Double, b: Double)? {
        let n = Double(xy.count)
        guard n >= 2 else { return nil }
        let mx = xy.reduce(0) { $0 + $1.0 } / n, my = xy.reduce(0) { $0 + $1.1 } / n
        var sxx = 0.0, sxy = 0.0
        for (x, y) in xy {
            sxx += (x - mx) * (x - mx)
            sxy += (x - mx) * (y - my)
        }
        guard sxx > 0 else { return nil }
        let b = sxy / sxx
        let result = (a: my - b * mx, b: b)
        return result.a.isFinite && result.b.isFinite ? result : nil
    }
}
