/// Fueling settings of a race setup.
public struct FuelingSettings: Sendable, Equatable {
    public var carbsPerHourGrams: Double
    public var gelCarbsGrams: Double
    /// Clock time of the first gel.
    public var startAfterSeconds: Double
    /// No gel is planned this close to the finish (its carbohydrate would arrive too late).
    public var stopBeforeFinishSeconds: Double = 15 * 60
    /// A gel moves to an aid station whose planned time is at most this far away.
    public var snapToleranceSeconds: Double = 5 * 60
    public var caffeine: Caffeine?

    public struct Caffeine: Sendable, Equatable {
        public var milligrams: Double
        /// The first gel at or after this clock time carries the caffeine...
        public var afterSeconds: Double
        /// ...and then the first one at least this long after the previous dose (nil: one dose).
        public var everySeconds: Double?
        public init(milligrams: Double, afterSeconds: Double, everySeconds: Double? = nil) {
            self.milligrams = milligrams; self.afterSeconds = afterSeconds; self.everySeconds = everySeconds
        }
    }

    public init(carbsPerHourGrams: Double, gelCarbsGrams: Double, startAfterSeconds: Double) {
        self.carbsPerHourGrams = carbsPerHourGrams
        self.gelCarbsGrams = gelCarbsGrams
        self.startAfterSeconds = startAfterSeconds
    }
}

/// Hydration settings of a race setup.
public struct HydrationSettings: Sendable, Equatable {
    public var mlPerHour: Double
    public var sodiumMgPerHour: Double?
    /// Drink at these distances (aid stations)...
    public var aidStationsMeters: [Double] = []
    /// ...or, without aid stations, every this many seconds (from the start).
    public var everySeconds: Double?
    public init(mlPerHour: Double, sodiumMgPerHour: Double? = nil) {
        self.mlPerHour = mlPerHour; self.sodiumMgPerHour = sodiumMgPerHour
    }
}

/// One thing to do at a place on the course.
public struct Cue: Sendable, Equatable {
    public enum Kind: String, Sendable, Codable { case gel, drink, aid, caffeine }
    public var kind: Kind
    /// 1-based number among cues of its kind.
    public var number: Int
    public var distanceMeters: Double
    /// Planned clock time from the start, whole seconds.
    public var clockSeconds: Int
    public var carbsGrams: Double?
    public var fluidMl: Double?
    public var sodiumMg: Double?
    public var caffeineMg: Double?
    /// The gel was moved to the aid station at this distance.
    public var atAidStation: Bool = false
}

/// The totals of a cue plan.
public struct CueTotals: Sendable, Equatable {
    public var gels = 0
    public var carbsGrams = 0.0
    public var carbsPerHourGrams = 0.0
    public var drinks = 0
    public var fluidMl = 0.0
    public var sodiumMg = 0.0
    public var caffeineMg = 0.0
}

/// Gels, drinks, caffeine and aid stations placed on a pace plan, with warnings
/// from published guidance.
///
/// Gels go on a time grid from `startAfter`, one every gel/(g per hour) hours,
/// until `stopBeforeFinish`; each is moved to the nearest aid station whose
/// planned time is within the tolerance (never two gels at one station), so it
/// can be washed down. Drinks are taken at the aid stations (or every N minutes),
/// each covering the fluid and sodium of the time since the previous drink.
public struct CuePlan: Sendable {
    public var cues: [Cue] = []
    public var warnings: [String] = []
    public var totals = CueTotals()

    public init(plan: PacePlan, fueling: FuelingSettings?, hydration: HydrationSettings?) {
        let target = plan.targetSeconds
        let hours = target / 3600
        let stations = (hydration?.aidStationsMeters ?? []).sorted()
        let clock = { (x: Double) in Int(plan.clockSeconds(at: x).rounded()) }
        for (i, x) in stations.enumerated() {
            cues.append(Cue(kind: .aid, number: i + 1, distanceMeters: x, clockSeconds: clock(x)))
        }
        if let f = fueling { placeGels(f, plan: plan, stations: stations) }
        if let h = hydration { placeDrinks(h, plan: plan, stations: stations) }
        cues.sort {
            ($0.clockSeconds, $0.distanceMeters, Self.order($0.kind)) < (
                $1.clockSeconds, $1.distanceMeters, Self.order($1.kind)
            )
        }
        totals.carbsPerHourGrams = hours > 0 ? totals.carbsGrams / hours : 0
        warn(fueling: fueling, hydration: hydration, hours: hours)
    }

    static func order(_ k: Cue.Kind) -> Int { [Cue.Kind.aid, .drink, .gel, .caffeine].firstIndex(of: k)! }

    private mutating func placeGels(_ f: FuelingSettings, plan: PacePlan, stations: [Double]) {
        guard f.carbsPerHourGrams > 0, f.gelCarbsGrams > 0 else { return }
        let interval = f.gelCarbsGrams / f.carbsPerHourGrams * 3600
        let last = plan.targetSeconds - f.stopBeforeFinishSeconds
        var used = Set<Int>()
        let stationClock = stations.map { plan.clockSeconds(at: $0) }
        var t = f.startAfterSeconds
        var number = 0
        var nextCaffeine = f.caffeine?.afterSeconds
        while t <= last + 1e-6 {
            var x = plan.distance(atClock: t)
            var snapped = false
            // The nearest free station in time, within the tolerance.
            let candidates = stationClock.enumerated().filter { !used.contains($0.offset) }
                .map { (index: $0.offset, gap: abs($0.element - t)) }
                .filter { $0.gap <= f.snapToleranceSeconds }
            if let best = candidates.min(by: { $0.gap < $1.gap }) {
                used.insert(best.index)
                x = stations[best.index]
                snapped = true
            }
            number += 1
            let clock = Int(plan.clockSeconds(at: x).rounded())
            var cue = Cue(
                kind: .gel, number: number, distanceMeters: x, clockSeconds: clock,
                carbsGrams: f.gelCarbsGrams, atAidStation: snapped)
            if let caffeine = f.caffeine, let due = nextCaffeine, Double(clock) >= due - 1e-6 {
                cue.kind = .caffeine
                cue.caffeineMg = caffeine.milligrams
                totals.caffeineMg += caffeine.milligrams
                nextCaffeine = caffeine.everySeconds.map { Double(clock) + $0 }
            }
            cues.append(cue)
            totals.gels += 1
            totals.carbsGrams += f.gelCarbsGrams
            t += interval
        }
        // Caffeine gels are numbered with the gels (gel_N), so a script finds them all.
    }

    private mutating func placeDrinks(_ h: HydrationSettings, plan: PacePlan, stations: [Double]) {
        guard h.mlPerHour > 0 else { return }
        var places: [Double] = stations
        if places.isEmpty, let every = h.everySeconds, every > 0 {
            var t = every
            while t < plan.targetSeconds - 60 { places.append(plan.distance(atClock: t)); t += every }
        }
        var previous = 0.0
        for (i, x) in places.enumerated() {
            let c = plan.clockSeconds(at: x)
            let hours = (c - previous) / 3600
            previous = c
            let fluid = (h.mlPerHour * hours / 10).rounded() * 10   // to 10 ml
            let sodium = h.sodiumMgPerHour.map { ($0 * hours / 10).rounded() * 10 }
            cues.append(
                Cue(
                    kind: .drink, number: i + 1, distanceMeters: x, clockSeconds: Int(c.rounded()),
                    fluidMl: fluid, sodiumMg: sodium, atAidStation: !stations.isEmpty))
            totals.drinks += 1
            totals.fluidMl += fluid
            totals.sodiumMg += sodium ?? 0
        }
    }

    private mutating func warn(fueling: FuelingSettings?, hydration: HydrationSettings?, hours: Double) {
        if let f = fueling {
            if f.carbsPerHourGrams > 90 {
                warnings.append(
                    "fueling: \(TextFormat.fixed(f.carbsPerHourGrams, 0)) g of carbohydrate per hour is above the 90 g/h that guidance supports (Jeukendrup 2014; only with glucose:fructose mixes and a trained gut)"
                )
            }
            if hours < 1, totals.gels > 0 {
                warnings.append(
                    "fueling: \(totals.gels) gel\(totals.gels == 1 ? "" : "s") planned for a race under an hour; guidance needs no carbohydrate intake below 60 minutes (a mouth rinse at most)"
                )
            } else if hours < 1, f.carbsPerHourGrams > 0, totals.gels == 0 {
                warnings.append(
                    "fueling: the race is under an hour; guidance needs no carbohydrate intake (no gel was planned)")
            }
            if hours > 2.5, f.carbsPerHourGrams < 30 {
                warnings.append(
                    "fueling: \(TextFormat.fixed(f.carbsPerHourGrams, 0)) g/h is below the 30 g/h guidance sets as a minimum for races over 2.5 hours (60-90 g/h advised)"
                )
            }
            if hours >= 1, f.startAfterSeconds > 60 * 60 {
                warnings.append(
                    "fueling: the first gel comes after \(TextFormat.duration(f.startAfterSeconds)); start within the first hour, before glycogen runs low"
                )
            }
            if hours >= 1, totals.gels == 0, f.carbsPerHourGrams > 0 {
                warnings.append(
                    "fueling: no gel fits between start_after and the last \(Int(f.stopBeforeFinishSeconds / 60)) minutes"
                )
            }
            if totals.caffeineMg > 400 {
                warnings.append(
                    "fueling: \(TextFormat.fixed(totals.caffeineMg, 0)) mg of caffeine is above 400 mg, the most EFSA considers safe in a day (3-6 mg per kg is the performance range)"
                )
            }
        }
        if let h = hydration {
            if h.mlPerHour > 800 {
                warnings.append(
                    "hydration: \(TextFormat.fixed(h.mlPerHour, 0)) ml/h is above 800 ml/h; drinking more than you sweat risks hyponatraemia (IMMDA, ACSM: 400-800 ml/h)"
                )
            }
            if let na = h.sodiumMgPerHour, h.mlPerHour > 0, na / (h.mlPerHour / 1000) > 2000 {
                warnings.append(
                    "hydration: \(TextFormat.fixed(na / (h.mlPerHour / 1000), 0)) mg of sodium per litre is saltier than any sports drink; check sodium_mg_per_hour"
                )
            }
            if hours >= 2, h.mlPerHour > 0, (h.sodiumMgPerHour ?? 0) == 0 {
                warnings.append(
                    "hydration: no sodium planned for a race over 2 hours; guidance advises 300-600 mg per hour to limit hyponatraemia risk"
                )
            }
            let drinks = cues.filter { $0.kind == .drink }
            var previous = 0
            for d in drinks {
                if d.clockSeconds - previous > 45 * 60 {
                    warnings.append(
                        "hydration: \(TextFormat.duration(Double(d.clockSeconds - previous))) without a drink before \(TextFormat.fixed(d.distanceMeters / 1000, 1)) km; plan a bottle or an extra stop"
                    )
                    break
                }
                previous = d.clockSeconds
            }
            if let big = drinks.first(where: { ($0.fluidMl ?? 0) > 400 }) {
                warnings.append(
                    "hydration: \(TextFormat.fixed(big.fluidMl!, 0)) ml at \(TextFormat.fixed(big.distanceMeters / 1000, 1)) km is more than a runner can drink at once (about 150-300 ml); add drinking points"
                )
            }
        }
    }
}
