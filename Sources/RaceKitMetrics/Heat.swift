#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Race-day heat: the wet-bulb globe temperature (WBGT) estimated from a
/// forecast, and what it costs a runner by three published models
/// (docs/race-plans.md, "Weather and heat").
public enum Heat {
    /// The air temperatures and dew points a forecast may give, °C (a race
    /// setup's `weather:`, `predict --temperature --dew-point`): the coldest
    /// marathons are run near -30 (the North Pole Marathon), the hottest near 45
    /// (Badwater); the highest dew point ever recorded is 35.
    public static let temperatureRange: ClosedRange<Double> = -30...50
    public static let dewPointRange: ClosedRange<Double> = -60...35

    /// What slows a runner in WBGT from `low` to `high` °C, in words: "heat"
    /// above Mantzios 2022's optimum, "cold" below it (only that model slows
    /// for the cold), "weather" when the race goes from one to the other.
    public static func cause(wbgtLow low: Double, wbgtHigh high: Double) -> String {
        if high <= mantziosOptimum.upperBound { return "cold" }
        return low < mantziosOptimum.lowerBound ? "weather" : "heat"
    }

    /// How much sun the runner is in: it is the globe's share of WBGT.
    public enum Sun: String, Sendable, CaseIterable, Codable {
        case full, partial, none
    }

    /// The published models of how finishing times worsen with the weather.
    public enum Model: String, Sendable, CaseIterable, Codable {
        /// Mantzios et al. 2022 (MSSE 54:153): 1258 races, 7867 athletes; peak
        /// performance in 7.5-15 °C WBGT, 0.3-0.4% slower per °C outside it.
        case mantzios2022
        /// Ely et al. 2007 (MSSE 39:487): the top three men of seven marathons
        /// over 5-25 °C WBGT, by quartile of WBGT.
        case ely2007
        /// Hadley's table of temperature plus dew point (°F), the one coaches use.
        case hadley

        /// "Mantzios 2022" for the plan's lines.
        public var citation: String {
            switch self {
            case .mantzios2022: return "Mantzios 2022"
            case .ely2007: return "Ely 2007"
            case .hadley: return "Hadley's temperature + dew point table"
            }
        }
    }

    /// Saturation vapour pressure over water, hPa (Magnus form, Alduchov and
    /// Eskridge 1996: 6.1094 exp(17.625 T / (T + 243.04))).
    public static func saturationPressure(_ celsius: Double) -> Double {
        6.1094 * exp(17.625 * celsius / (celsius + 243.04))
    }

    /// The dew point of air at `celsius` and `percent` relative humidity (the
    /// inverse of the same Magnus form).
    public static func dewPoint(celsius: Double, humidityPercent: Double) -> Double {
        let g = log(max(humidityPercent, 0.1) / 100) + 17.625 * celsius / (celsius + 243.04)
        return 243.04 * g / (17.625 - g)
    }

    /// Relative humidity, percent, from the temperature and the dew point.
    public static func humidity(celsius: Double, dewPoint: Double) -> Double {
        min(100, 100 * saturationPressure(dewPoint) / saturationPressure(celsius))
    }

    /// The psychrometric wet-bulb temperature (Stull 2011, J. Appl. Meteor.
    /// Climatol. 50:2267; within 1 °C for 5-99% humidity and -20 to 50 °C).
    public static func wetBulb(celsius t: Double, humidityPercent rh: Double) -> Double {
        t * atan(0.151977 * (rh + 8.313659).squareRoot()) + atan(t + rh) - atan(rh - 1.676331)
            + 0.00391838 * pow(rh, 1.5) * atan(0.023101 * rh) - 4.686035
    }

    /// WBGT estimated from the temperature and the dew point.
    ///
    /// - `full` sun: the Australian Bureau of Meteorology's approximation,
    ///   0.567 T + 0.393 e + 3.94 (e the vapour pressure, hPa), made for
    ///   "moderately high radiation levels in light wind", as on a sunny race
    ///   morning.
    /// - `none` (overcast, or shade): ISO 7243's form without a radiant load,
    ///   0.7 Tw + 0.3 T, the globe at air temperature and the natural wet bulb at
    ///   the psychrometric one (Stull), as with air moving past a runner.
    /// - `partial`: the mean of the two.
    public static func wbgt(celsius t: Double, dewPoint td: Double, sun: Sun) -> Double {
        let sunny = 0.567 * t + 0.393 * saturationPressure(min(td, t)) + 3.94
        let shade = 0.7 * wetBulb(celsius: t, humidityPercent: humidity(celsius: t, dewPoint: td)) + 0.3 * t
        switch sun {
        case .full: return sunny
        case .none: return shade
        case .partial: return (sunny + shade) / 2
        }
    }

    /// Mantzios 2022's optimum, °C WBGT, and its slope per °C outside it (the
    /// middle of the 0.3-0.4% the paper gives).
    public static let mantziosOptimum: ClosedRange<Double> = 7.5...15
    public static let mantziosPercentPerDegree = 0.35

    /// Ely 2007's top men, slower than the course record by 1.7, 2.5, 3.3 and
    /// 4.5% in WBGT 5-10, 10-15, 15-20 and 20-25 °C: at each quartile's middle,
    /// the slowdown beyond the coolest quartile's, percent.
    public static let elyPoints: [(wbgt: Double, percent: Double)] = [(7.5, 0), (12.5, 0.8), (17.5, 1.6), (22.5, 2.8)]

    /// Hadley's table: the temperature plus the dew point in °F, and the pace
    /// adjustment at the top of each band (100 or less: none; 101-110: up to
    /// 0.5%; ... 171-180: up to 10%; above 180 hard running is not advised).
    public static let hadleyPoints: [(sum: Double, percent: Double)] = [
        (100, 0), (110, 0.5), (120, 1), (130, 2), (140, 3), (150, 4.5), (160, 6), (170, 8), (180, 10)
    ]

    /// The slowdown of the pace, percent (0: none), at a temperature, dew point and sun.
    ///
    /// Between the table points of Ely and Hadley the slowdown is linear; past
    /// the last it goes on at the last slope (beyond the data: `beyondData` says so).
    public static func slowdownPercent(model: Model, celsius t: Double, dewPoint td: Double, sun: Sun) -> Double {
        switch model {
        case .mantzios2022:
            let w = wbgt(celsius: t, dewPoint: td, sun: sun)
            let outside = max(0, w - mantziosOptimum.upperBound, mantziosOptimum.lowerBound - w)
            return outside * mantziosPercentPerDegree
        case .ely2007:
            return piecewise(elyPoints.map { ($0.wbgt, $0.percent) }, at: wbgt(celsius: t, dewPoint: td, sun: sun))
        case .hadley:
            return piecewise(hadleyPoints.map { ($0.sum, $0.percent) }, at: fahrenheit(t) + fahrenheit(td))
        }
    }

    /// Where a model's data end: WBGT 25 °C for Ely, a sum of 180 °F for Hadley
    /// (where the table advises against hard running), WBGT 33 °C for Mantzios
    /// (the hottest of its races).
    public static func beyondData(model: Model, celsius t: Double, dewPoint td: Double, sun: Sun) -> Bool {
        switch model {
        case .mantzios2022: return wbgt(celsius: t, dewPoint: td, sun: sun) > 33
        case .ely2007: return wbgt(celsius: t, dewPoint: td, sun: sun) > 25
        case .hadley: return fahrenheit(t) + fahrenheit(td) > 180
        }
    }

    public static func fahrenheit(_ celsius: Double) -> Double { celsius * 9 / 5 + 32 }

    /// Linear between the points, 0 before the first, the last slope after the last.
    static func piecewise(_ points: [(Double, Double)], at x: Double) -> Double {
        guard let first = points.first, x > first.0 else { return 0 }
        for (a, b) in zip(points, points.dropFirst()) where x <= b.0 {
            return a.1 + (b.1 - a.1) * (x - a.0) / (b.0 - a.0)
        }
        let (a, b) = (points[points.count - 2], points[points.count - 1])
        return b.1 + (b.1 - a.1) / (b.0 - a.0) * (x - b.0)
    }
}
