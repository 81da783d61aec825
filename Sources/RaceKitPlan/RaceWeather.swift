import RaceKitMetrics
import RaceKitOutput

/// The `weather:` of a race setup: the forecast at the start or by the hour,
/// the sun, the wind, the model of the heat's cost and what to do with it.
public struct WeatherSettings: Sendable, Equatable {
    /// One forecast: at a time of day (seconds after midnight of the race day;
    /// nil for the one forecast at the start), its temperature and dew point.
    public struct Reading: Sendable, Equatable {
        public var secondsOfDay: Double?
        public var temperatureC: Double
        public var dewPointC: Double
        /// As given: the relative humidity the dew point was worked out from.
        public var humidityPercent: Double?
        public init(secondsOfDay: Double? = nil, temperatureC: Double, dewPointC: Double) {
            self.secondsOfDay = secondsOfDay; self.temperatureC = temperatureC; self.dewPointC = dewPointC
        }
    }

    public enum Adjust: String, Sendable, CaseIterable { case plan, warn }

    /// One reading (`temperature_c` at the start) or the `hourly:` list, in order.
    public var readings: [Reading]
    public var sun: Heat.Sun = .full
    public var windKmh: Double?
    public var model: Heat.Model = .mantzios2022
    public var adjust: Adjust = .plan
    /// Lines of `weather` and of `weather.hourly` (0 when absent), for messages.
    public var line = 0
    public var hourlyLine = 0

    public init(readings: [Reading]) { self.readings = readings }

    public var isHourly: Bool { readings.first?.secondsOfDay != nil }

    /// The forecast at `secondsOfDay` (the one reading when there is no hourly
    /// list): linear between the hours, the first or last outside them.
    public func reading(atSecondsOfDay s: Double) -> Reading {
        guard isHourly, let first = readings.first, let last = readings.last else { return readings[0] }
        if s <= first.secondsOfDay! { return first }
        if s >= last.secondsOfDay! { return last }
        // Binary search: a forecast may give every minute of two days, and the
        // plan asks every 10 m of the race.
        var lo = 0, hi = readings.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if readings[mid].secondsOfDay! < s { lo = mid } else { hi = mid }
        }
        let (a, b) = (readings[lo], readings[hi])
        let f = (s - a.secondsOfDay!) / (b.secondsOfDay! - a.secondsOfDay!)
        return Reading(
            secondsOfDay: s, temperatureC: a.temperatureC + (b.temperatureC - a.temperatureC) * f,
            dewPointC: a.dewPointC + (b.dewPointC - a.dewPointC) * f)
    }
}

/// What the weather costs a race plan (docs/race-plans.md, "Weather and heat").
public struct HeatCost: Sendable, Equatable {
    public var model: Heat.Model
    public var adjust: WeatherSettings.Adjust
    /// The setup's target (a cool day's time) and the finish of the slowed plan.
    public var targetSeconds: Double
    public var heatSeconds: Double
    /// WBGT at the start, at the finish, and the highest on the way, °C.
    public var wbgtStart: Double
    public var wbgtFinish: Double
    public var wbgtMax: Double
    /// The lowest WBGT on the way, °C.
    public var wbgtMin: Double = .infinity
    /// The cool day's time whose slowed plan finishes in the target: what the
    /// target needs on this day (nil when no such plan can be made).
    public var coolEquivalentSeconds: Double?
    /// Some of the race is beyond the hottest conditions the model was made from.
    public var beyondData: Bool

    public var percent: Double { (heatSeconds / targetSeconds - 1) * 100 }
    /// "heat", "cold" or "weather": what the slowdown is for (`Heat.cause`).
    public var cause: String { Heat.cause(wbgtLow: wbgtMin, wbgtHigh: wbgtMax) }
    /// A cool day: no stretch is slowed (to a tenth of a second).
    public var changesNothing: Bool { heatSeconds - targetSeconds < 0.1 }
}

extension WeatherSettings {
    /// The pace factor at a clock time from the start (1: no slowdown).
    func factor(startOfDay: Double?) -> @Sendable (Double) -> Double {
        let settings = self
        return { clock in
            let r = settings.reading(atSecondsOfDay: (startOfDay ?? 0) + clock)
            return 1
                + Heat.slowdownPercent(
                    model: settings.model, celsius: r.temperatureC, dewPoint: r.dewPointC, sun: settings.sun) / 100
        }
    }

    package func wbgt(atSecondsOfDay s: Double) -> Double {
        let r = reading(atSecondsOfDay: s)
        return Heat.wbgt(celsius: r.temperatureC, dewPoint: r.dewPointC, sun: sun)
    }

    /// The cost of the weather to `plan` (a plan for the cool day's target),
    /// and the slowed plan.
    func cost(of plan: PacePlan, startOfDay: Double?, make: (Double) throws -> PacePlan) -> (HeatCost, PacePlan) {
        let factor = self.factor(startOfDay: startOfDay)
        let slowed = plan.slowed(by: factor)
        let start = startOfDay ?? 0
        var hottest = -Double.infinity, coldest = Double.infinity, beyond = false
        var clock = 0.0
        while clock <= slowed.targetSeconds + 1 {
            let s = start + min(clock, slowed.targetSeconds)
            let r = reading(atSecondsOfDay: s)
            let w = Heat.wbgt(celsius: r.temperatureC, dewPoint: r.dewPointC, sun: sun)
            (hottest, coldest) = (max(hottest, w), min(coldest, w))
            beyond =
                beyond || Heat.beyondData(model: model, celsius: r.temperatureC, dewPoint: r.dewPointC, sun: sun)
            clock += 60
        }
        // The cool day's time whose slowed plan takes the target: the ratio is
        // nearly constant, so a few fixed-point steps reach the second.
        var cool: Double? = plan.targetSeconds * plan.targetSeconds / slowed.targetSeconds
        for _ in 0..<4 {
            guard let c = cool, let p = try? make(c) else { cool = nil; break }
            let t = p.slowed(by: factor).targetSeconds
            cool = c * plan.targetSeconds / t
            if abs(t - plan.targetSeconds) < 0.05 { break }
        }
        let cost = HeatCost(
            model: model, adjust: adjust, targetSeconds: plan.targetSeconds, heatSeconds: slowed.targetSeconds,
            wbgtStart: wbgt(atSecondsOfDay: start), wbgtFinish: wbgt(atSecondsOfDay: start + slowed.targetSeconds),
            wbgtMax: hottest, wbgtMin: coldest, coolEquivalentSeconds: cool, beyondData: beyond)
        return (cost, slowed)
    }
}

extension HeatCost {
    static func c(_ v: Double) -> String { "\(TextFormat.fixed(v, 1)) °C" }

    /// "WBGT 24.1 °C" or "WBGT 21.0 °C at the start to 26.3 °C at the finish".
    var wbgtText: String {
        if abs(wbgtFinish - wbgtStart) < 0.05, abs(wbgtMax - wbgtStart) < 0.05 { return "WBGT \(Self.c(wbgtStart))" }
        var s = "WBGT \(Self.c(wbgtStart)) at the start to \(Self.c(wbgtFinish)) at the finish"
        if wbgtMax > max(wbgtStart, wbgtFinish) + 0.05 { s += " (\(Self.c(wbgtMax)) at the hottest)" }
        return s
    }

    /// The plan's line on the heat: what it costs and what the target needs.
    public var line: String {
        if changesNothing {
            return
                "Heat: none: \(wbgtText) (\(model.citation)); the plan is the cool day's \(TextFormat.duration(targetSeconds))"
        }
        var s =
            "\(cause.prefix(1).uppercased() + cause.dropFirst()): +\(TextFormat.fixed(percent, 1))%: \(TextFormat.duration(heatSeconds)) for \(TextFormat.duration(targetSeconds)) in \(wbgtText), \(model.citation)"
        if let cool = coolEquivalentSeconds {
            s +=
                "; \(TextFormat.duration(targetSeconds)) on this day needs the form of \(TextFormat.duration(cool)) on a cool day"
        }
        s += adjust == .plan ? "; the plan is slowed to it" : "; the plan keeps the target (adjust: warn)"
        return s
    }

    /// Warnings: a plan kept at the cool target, conditions past the model's data.
    public var warnings: [String] {
        var out: [String] = []
        if adjust == .warn, !changesNothing {
            out.append(
                "weather: the plan keeps \(TextFormat.duration(targetSeconds)) in \(wbgtText); by \(model.citation) the \(cause) costs +\(TextFormat.fixed(percent, 1))% (\(TextFormat.duration(heatSeconds))): hold the effort, not the pace, or set adjust: plan"
            )
        }
        if beyondData {
            out.append(
                "weather: the forecast is hotter than the data \(model.citation) was made from; the slowdown is extrapolated and may be larger"
            )
        }
        if wbgtMax > 28 {
            out.append(
                "weather: WBGT \(Self.c(wbgtMax)) is above 28 °C, the highest risk of exertional heat illness in ACSM's 2007 position stand (Armstrong et al.): race for safety, not for time"
            )
        }
        return out
    }
}

/// The fluid for a known sweat rate and body mass: enough to keep the loss
/// under 2% of the body mass over the planned race time (ACSM 2007, Sawka et
/// al.: more impairs performance), never more than the sweat rate (no weight
/// gain: the hyponatraemia risk), and at least what `ml_per_hour` asks; the
/// sodium keeps the concentration asked (mg per litre) when both were given.
public enum FluidPlan {
    /// The most a runner drinks at one stop, ml (the cue plan's warning limit).
    public static let mostPerStopMl = 400.0
    /// The loss the plan keeps under: 2% of the body mass.
    public static let lossShare = 0.02

    /// The settings the cue plan uses, with what was changed and why.
    ///
    /// Each drink covers the time since the one before, so the fluid of the
    /// stretch after the last drink is never drunk: the rate is what the drinks
    /// up to the last one must deliver for the whole race's sweat less 2%.
    public static func settle(_ h: HydrationSettings, plan: PacePlan) -> (HydrationSettings, [String]) {
        let raceSeconds = plan.targetSeconds
        guard let sweatL = h.sweatRateLPerHour, let mass = h.bodyMassKg, raceSeconds > 0 else { return (h, []) }
        let sweat = sweatL * 1000
        let allowed = lossShare * mass * 1000   // ml (1 kg of water is about 1 l)
        var lastDrink = raceSeconds
        if let x = h.aidStationsMeters.max() {
            lastDrink = plan.clockSeconds(at: x)
        } else if let every = h.everySeconds, every > 0 {
            lastDrink = (((raceSeconds - 60) / every).rounded(.up) - 1) * every
        }
        let need = lastDrink > 0 ? max(0, sweat * raceSeconds - allowed * 3600) / lastDrink : sweat
        var out = h
        var lines: [String] = []
        let asked = h.askedMlPerHour
        out.mlPerHour = min(sweat, max(need, asked ?? need))
        if let a = asked, a > sweat {
            lines.append(
                "hydration: ml_per_hour \(TextFormat.fixed(a, 0)) is more than the sweat rate (\(TextFormat.fixed(sweat, 0)) ml/h): planned at \(TextFormat.fixed(sweat, 0)) ml/h, since drinking more than you sweat gains weight and risks hyponatraemia"
            )
        }
        if let na = h.sodiumMgPerHour, let a = asked, a > 0 { out.sodiumMgPerHour = na * out.mlPerHour / a }
        return (out, lines)
    }

    /// The fluid line of a plan: the sweat, the 2% the plan keeps under, what it
    /// plans, and the loss the drinks leave.
    public static func summary(_ h: HydrationSettings, cues: CuePlan, raceSeconds: Double) -> (
        line: String?, warnings: [String]
    ) {
        guard let sweatL = h.sweatRateLPerHour, let mass = h.bodyMassKg, raceSeconds > 0 else { return (nil, []) }
        let sweat = sweatL * 1000 * raceSeconds / 3600
        let allowed = lossShare * mass * 1000
        let drinks = cues.cues.filter { $0.kind == .drink }
        // What a runner can drink: no more than `mostPerStopMl` at a stop.
        let planned = drinks.reduce(0) { $0 + ($1.fluidMl ?? 0) }
        let drinkable = drinks.reduce(0) { $0 + min(mostPerStopMl, $1.fluidMl ?? 0) }
        let loss = max(0, sweat - drinkable)
        let percent = loss / (mass * 1000) * 100
        func litres(_ ml: Double) -> String { "\(TextFormat.fixed(ml / 1000, 2)) l" }
        let line =
            "Fluids: sweat \(TextFormat.fixed(sweatL, 2)) l/h over \(TextFormat.duration(raceSeconds)) is \(litres(sweat)); 2% of \(TextFormat.fixed(mass, 1)) kg is \(litres(allowed)); "
            + "\(drinks.count) drink\(drinks.count == 1 ? "" : "s") of \(litres(planned)) (\(TextFormat.fixed(h.mlPerHour, 0)) ml/h) leave a loss of \(litres(loss)), \(TextFormat.fixed(percent, 1))% of the body mass"
        var warnings: [String] = []
        // Each drink is rounded to 10 ml: up to 5 ml each is rounding, not a shortfall.
        if loss > allowed + 5 * Double(drinks.count) + 1 {
            let why =
                drinks.isEmpty
                ? "no drink is planned"
                : drinkable < planned - 1
                    ? "the drinks would need more than \(TextFormat.fixed(mostPerStopMl, 0)) ml at a stop"
                    : "the aid stations are too few or too late"
            warnings.append(
                "hydration: keeping the loss under 2% of \(TextFormat.fixed(mass, 1)) kg (\(litres(allowed))) needs \(litres(sweat - allowed)) of drinks over \(TextFormat.duration(raceSeconds)), and \(why): the runner would lose \(litres(loss)), \(TextFormat.fixed(percent, 1))% of the body mass; carry a bottle or add drinking points"
            )
        }
        return (line, warnings)
    }
}

extension WeatherSettings {
    /// "09:30" for seconds after midnight (past 24:00 for the next day).
    static func clock(_ secondsOfDay: Double) -> String {
        let m = Int((secondsOfDay / 60).rounded())
        return "\(m / 60 < 10 ? "0" : "")\(m / 60):\(m % 60 < 10 ? "0" : "")\(m % 60)"
    }
}
