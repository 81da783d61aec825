/// How much a metre costs at a grade, relative to a flat metre.
///
/// Running at even effort (even metabolic power) makes pace proportional to the
/// energy cost per metre, so a factor of 1.3 is a pace 30% slower than on the flat.
public enum GradeCostModel: String, Sendable, CaseIterable, Codable {
    /// Minetti et al. 2002 (J Appl Physiol 93:1039) for climbs; on descents only
    /// half of Minetti's saving, largest at -10%, and back to the flat cost by
    /// -25% (braking). The default: see `cost(grade:)`.
    case road
    /// Minetti et al. 2002's polynomial on its whole range (-45% to +45%).
    case minetti
    /// No grade effect (a flat course whatever the elevation).
    case flat

    /// Minetti's energy cost of running, J/kg/m, at grade `i` (a fraction).
    public static func minetti(_ i: Double) -> Double {
        let g = min(0.45, max(-0.45, i))
        return ((((155.4 * g - 30.4) * g - 43.3) * g + 46.3) * g + 19.5) * g + 3.6
    }

    /// Cost at `grade` (fraction, 0.05 = 5%) relative to the flat.
    ///
    /// Why `road` is the default: Minetti measured metabolic cost on a treadmill at
    /// a fixed speed. Uphill, that cost is what limits a runner, and the model
    /// predicts race climbs well. Downhill, the metabolic saving (40% at -10%) is
    /// not all turned into speed on a road: leg speed, braking and the eccentric
    /// load that costs the last 10 km limit it, and runners pacing a descent by
    /// Minetti's saving run it far too fast. `road` keeps half the saving down to
    /// -10% (a 20% faster pace there) and gives it back on steeper descents.
    public func cost(grade: Double) -> Double {
        switch self {
        case .flat: return 1
        case .minetti: return Self.minetti(grade) / Self.minetti(0)
        case .road:
            let m = { (i: Double) in Self.minetti(i) / Self.minetti(0) }
            if grade >= 0 { return m(grade) }
            if grade >= -0.10 { return 1 + 0.5 * (m(grade) - 1) }
            let steepest = 1 + 0.5 * (m(-0.10) - 1)
            // Linear back to the flat cost at -25%, and above it beyond (braking).
            return steepest + (1 - steepest) * (-0.10 - max(grade, -0.45)) / 0.15
        }
    }
}

/// A piecewise-constant cost factor over distance: cell k spans
/// [bounds[k], bounds[k+1]] at factor[k]. Keeps the prefix integrals
/// F(x) = ∫ f and G(x) = ∫ x·f that pacing strategies need.
public struct CostProfile: Sendable {
    public let bounds: [Double]
    public let factor: [Double]
    let prefixF: [Double]
    let prefixG: [Double]

    public init(bounds: [Double], factor: [Double]) {
        precondition(bounds.count == factor.count + 1 && !factor.isEmpty)
        self.bounds = bounds
        self.factor = factor
        var f = [0.0], g = [0.0]
        f.reserveCapacity(bounds.count); g.reserveCapacity(bounds.count)
        for k in 0..<factor.count {
            let a = bounds[k], b = bounds[k + 1]
            f.append(f[k] + factor[k] * (b - a))
            g.append(g[k] + factor[k] * (b * b - a * a) / 2)
        }
        prefixF = f
        prefixG = g
    }

    /// A flat profile over [0, length].
    public static func flat(_ length: Double) -> CostProfile { CostProfile(bounds: [0, length], factor: [1]) }

    public var length: Double { bounds[bounds.count - 1] }

    /// The cell holding x (clamped to the profile).
    func cell(_ x: Double) -> Int {
        var lo = 0, hi = factor.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if bounds[mid] <= x { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// ∫₀ˣ f and ∫₀ˣ t·f(t) dt.
    public func integrals(_ x: Double) -> (f: Double, g: Double) {
        let x = min(max(0, x), length)
        let k = cell(x)
        let a = bounds[k], c = factor[k]
        return (prefixF[k] + c * (x - a), prefixG[k] + c * (x * x - a * a) / 2)
    }

    /// The factor at x.
    public func factor(at x: Double) -> Double { factor[cell(x)] }

    /// The mean factor over [a, b] (1 for an empty or non-finite stretch).
    public func meanFactor(from a: Double, to b: Double) -> Double {
        guard b > a else { return 1 }
        let mean = (integrals(b).f - integrals(a).f) / (b - a)
        return mean.isFinite && mean > 0 ? mean : 1
    }
}
