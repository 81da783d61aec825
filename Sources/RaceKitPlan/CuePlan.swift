import RaceKitOutput

/// Fueling settings of a race setup.
public struct FuelingSettings: Sendable, Equatable {
    public var carbsPerHourGrams: Double
    public var gelCarbsGrams: Double
    /// Clock time of the first gel.
    public var startAfterSeconds: Double
    /// No gel is planned this close to the finish (its carbohydrate would arrive too late).
    public var stopBeforeFinishSeconds: Double = 15 * 60
    /// A gel moves to an aid station whose planned time is at most this far
    /// away: 10 minutes by default, a shift that changes when a gel's
    /// carbohydrate arrives but not how much per hour, and reaches a station
    /// from most of the race where stations are 5 km apart.
    public var snapToleranceSeconds: Double = 10 * 60
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
    /// The runner's sweat rate (litres per hour) and body mass (kg): with both,
    /// the fluid aims to keep the loss under 2% of the body mass
    /// (`FluidPlan`), and `mlPerHour` is what it plans.
    public var sweatRateLPerHour: Double?
    public var bodyMassKg: Double?
    /// `ml_per_hour` as written (nil: not given, the sweat rate sets it).
    public var askedMlPerHour: Double?
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
/// from published guidance and wherever the plan does less than the setup asked.
///
/// "Delivered per hour" is the carbohydrate of the gels taken between the start
/// and the finish divided by the planned race time (the target), the way the
/// g/h guidance is stated (per hour of exercise) and the way a coach counts the
/// gels to buy; the delay before the first gel is part of that hour count, so a
/// late first gel shows as less per hour, never as more.
///
/// Gels: the count is the one whose delivery per hour is closest to the ask
/// (fewer on a tie), at most what fits between `startAfter` and
/// `stopBeforeFinish` with gels no closer than the gut can take (gel ÷
/// max(90 g/h, ask), and never under ten minutes). They go every gel ÷ (g per hour) from `startAfter`,
/// closer where that count needs it (each covering an equal share of the race
/// after the first), and earlier after a gel taken early. Each then moves to the nearest unused aid station within
/// the snap tolerance (default 10 minutes), not later than `stopBeforeFinish`,
/// not closer to the gel before than half the spacing or the minimum spacing
/// (the same rule for a gel left away from a station), and not before
/// `caffeine.after` if it was planned after it; a gel left away from water gets
/// a warning naming a station within 5 km that can serve it, if there is one. Drinks are taken at the aid stations (or every N minutes), each
/// covering the fluid and sodium of the time since the previous drink.
public struct CuePlan: Sendable {
    public var cues: [Cue] = []
    public var warnings: [String] = []
    public var totals = CueTotals()
    /// Why fewer gels than the nearest count were planned (nil: not limited).
    var gelCountLimit: GelCount?

    /// A delivered rate further than this share from the ask gets a warning.
    public static let deliveryTolerance = 0.10

    /// Metres per unit the warnings give distances in (1000: km; a mile).
    let unitMeters: Double

    public init(
        plan: PacePlan, fueling: FuelingSettings?, hydration: HydrationSettings?, unitMeters: Double = 1000
    ) {
        self.unitMeters = unitMeters
        let target = plan.targetSeconds
        let hours = target / 3600
        let stations = (hydration?.aidStationsMeters ?? []).sorted()
        let clock = { (x: Double) in Int(plan.clockSeconds(at: x).rounded()) }
        for (i, x) in stations.enumerated() {
            cues.append(Cue(kind: .aid, number: i + 1, distanceMeters: x, clockSeconds: clock(x)))
        }
        if let f = fueling {
            placeGels(f, plan: plan, stations: stations, waterCarried: hydration?.everySeconds != nil)
        }
        if let h = hydration { placeDrinks(h, plan: plan, stations: stations) }
        cues.sort {
            ($0.clockSeconds, $0.distanceMeters, Self.order($0.kind)) < (
                $1.clockSeconds, $1.distanceMeters, Self.order($1.kind)
            )
        }
        totals.carbsPerHourGrams = hours > 0 ? totals.carbsGrams / hours : 0
        warn(fueling: fueling, hydration: hydration, hours: hours)
        if let f = fueling { warnDelivery(f, hours: hours) }
        if let h = hydration { warnFluid(h, plan: plan, hours: hours) }
    }

    static func order(_ k: Cue.Kind) -> Int { [Cue.Kind.aid, .drink, .gel, .caffeine].firstIndex(of: k)! }

    /// How many gels, and how far apart, for one setup over one race.
    struct GelCount: Sendable {
        /// The count nearest the ask, before the window limits it.
        var nearest: Int
        var count: Int
        /// Seconds between planned gels.
        var spacing: Double
        /// The closest two gels may be: gel ÷ max(90 g/h, ask), and never under
        /// ten minutes.
        var minimumSpacing: Double
        static let absoluteMinimumSpacing = 600.0

        init(_ f: FuelingSettings, raceSeconds: Double) {
            let first = f.startAfterSeconds, last = raceSeconds - f.stopBeforeFinishSeconds
            let wanted = f.carbsPerHourGrams * raceSeconds / 3600 / f.gelCarbsGrams
            let below = Int(wanted.rounded(.down)), above = below + 1
            // Relative error of each count; fewer gels on a tie.
            let error = { (n: Int) in abs(Double(n) / max(wanted, 1e-9) - 1) }
            nearest = error(above) < error(below) - 1e-9 ? above : below
            minimumSpacing = max(Self.absoluteMinimumSpacing, f.gelCarbsGrams / max(90, f.carbsPerHourGrams) * 3600)
            // The cadence the ask gives, but never closer than the gut's limit.
            let interval = max(f.gelCarbsGrams / f.carbsPerHourGrams * 3600, minimumSpacing)
            func spacing(_ n: Int) -> Double {
                guard n > 1 else { return interval }
                return min(interval, (raceSeconds - first) / Double(n), (last - first) / Double(n - 1))
            }
            var n = last + 1e-6 >= first ? nearest : 0
            while n > 1, spacing(n) < minimumSpacing - 1e-6 { n -= 1 }
            count = n
            self.spacing = spacing(n)
        }
    }

    private mutating func placeGels(_ f: FuelingSettings, plan: PacePlan, stations: [Double], waterCarried: Bool) {
        guard f.carbsPerHourGrams > 0, f.gelCarbsGrams > 0 else { return }
        let count = GelCount(f, raceSeconds: plan.targetSeconds)
        if count.count < count.nearest { gelCountLimit = count }
        let last = plan.targetSeconds - f.stopBeforeFinishSeconds
        var ideal = (0..<count.count).map { f.startAfterSeconds + Double($0) * count.spacing }
        // Caffeine is never dropped: the last gel moves to `after` when none is planned after it.
        if let after = f.caffeine?.afterSeconds, let end = ideal.last, end < after, after <= last + 1e-6 {
            ideal[ideal.count - 1] = after
        }
        let stationClock = stations.map { plan.clockSeconds(at: $0) }
        let placed = Self.assign(
            ideal, stationClock: stationClock, tolerance: f.snapToleranceSeconds, last: last,
            gap: max(count.spacing / 2, count.minimumSpacing), spacing: count.spacing,
            caffeineAfter: f.caffeine?.afterSeconds
        ).map { choice in
            choice.station.map { (x: stations[$0], station: Optional($0)) }
                ?? (x: plan.distance(atClock: choice.clock), station: nil)
        }
        var nextCaffeine = f.caffeine?.afterSeconds
        var dry: [Cue] = []
        for (i, p) in placed.enumerated() {
            let clock = Int(plan.clockSeconds(at: p.x).rounded())
            var cue = Cue(
                kind: .gel, number: i + 1, distanceMeters: p.x, clockSeconds: clock,
                carbsGrams: f.gelCarbsGrams, atAidStation: p.station != nil)
            if let caffeine = f.caffeine, let due = nextCaffeine, plan.clockSeconds(at: p.x) >= due - 1e-3 {
                cue.kind = .caffeine
                cue.caffeineMg = caffeine.milligrams
                totals.caffeineMg += caffeine.milligrams
                nextCaffeine = caffeine.everySeconds.map { Double(clock) + $0 }
            }
            if p.station == nil, !waterCarried {
                dry.append(cue)
            }
            cues.append(cue)
            totals.gels += 1
            totals.carbsGrams += f.gelCarbsGrams
        }
        // A gel taken at a station before start_after is the runner's choice to
        // make knowingly: say so (snapping moved it up to the tolerance earlier).
        if let first = cues.first(where: { $0.kind == .gel || $0.kind == .caffeine }),
            Double(first.clockSeconds) < f.startAfterSeconds - 30
        {
            warnings.append(
                "fueling: gel \(first.number) is planned at \(TextFormat.duration(Double(first.clockSeconds))) (\(Self.distance(first.distanceMeters, 1, unitMeters))\(first.atAidStation ? ", at an aid station" : "")), \(TextFormat.duration(f.startAfterSeconds - Double(first.clockSeconds))) before start_after \(TextFormat.duration(f.startAfterSeconds)): take it there, or lower snap_tolerance to keep it later"
            )
        }
        let used = Set(placed.compactMap(\.station))
        if stations.isEmpty, !dry.isEmpty {
            warnings.append(
                "fueling: the setup lists no aid stations (hydration.aid_stations_km), so no gel is planned at water: carry a bottle for the \(dry.count) gel\(dry.count == 1 ? "" : "s")"
            )
            dry = []
        }
        let gelClocks = placed.map { plan.clockSeconds(at: $0.x) }
        for gel in dry {
            warnings.append(
                Self.noWater(
                    gel, stations: stations, clocks: stationClock, used: used,
                    window: (f.startAfterSeconds - f.snapToleranceSeconds)...last,
                    others: gelClocks.filter { abs($0 - Double(gel.clockSeconds)) > 1 },
                    spacing: count.minimumSpacing, unitMeters: unitMeters))
        }
        if let caffeine = f.caffeine, totals.caffeineMg == 0 {
            warnings.append(Self.caffeineDropped(caffeine, gels: placed.count, last: last, lastGel: cues.last))
        }
        // Caffeine gels are numbered with the gels (gel_N), so a script finds them all.
    }

    /// Each gel's place: an aid station within `tolerance` of its time on the
    /// grid (`ideal`), or the grid time itself. One rule for every pair: at
    /// least `gap` apart (the gut's limit, snapped or not), none after `last`, and
    /// a gel planned at or after `caffeineAfter` never before it. Among the
    /// assignments that keep it, the one with the most gels at a station, then
    /// the least moved in all (dynamic programming over the gels and their few
    /// candidate times: a greedy snap took a late station and left the next
    /// gels no room, or none at water).
    /// The most places away from a station one gel is tried at.
    static let maximumAims = 12

    static func assign(
        _ ideal: [Double], stationClock: [Double], tolerance: Double, last: Double, gap: Double, spacing: Double,
        caffeineAfter: Double?
    ) -> [(clock: Double, station: Int?)] {
        typealias Option = (clock: Double, station: Int?)
        // Where gel k is aimed after gel k-1 at `before`: its grid time, or
        // earlier when the gel before was taken early (a gel taken early pulls the
        // next ones earlier, so gels and stations do not drift apart).
        func aim(_ k: Int, after before: Double?) -> Double { before.map { min(ideal[k], $0 + spacing) } ?? ideal[k] }
        var options: [[Option]] = []
        for (k, grid) in ideal.enumerated() {
            let floor = caffeineAfter.map { grid >= $0 - 1e-6 ? $0 : -.infinity } ?? -.infinity
            // The aims the gels before can give, nearest the grid first and at most
            // `maximumAims` of them (over hundreds of gels they would multiply).
            var aims = [grid]
            for a in (options.last ?? []).map({ aim(k, after: $0.clock) }).sorted(by: {
                abs($0 - grid) < abs($1 - grid)
            })
            where aims.count < Self.maximumAims && !aims.contains(where: { abs($0 - a) < 1 }) {
                aims.append(a)
            }
            let fits = { (c: Double) in
                c <= last + 1e-6 && c >= floor - 1e-6 && aims.contains { abs(c - $0) <= tolerance + 1e-6 }
            }
            var o: [Option] = []
            func add(_ c: Double, _ station: Int?) {
                if fits(c), !o.contains(where: { $0.station == station && abs($0.clock - c) < 1 }) {
                    o.append((c, station))
                }
            }
            // Away from a station: where it is aimed, or as soon as the gel before allows.
            for a in aims { add(max(a, floor), nil) }
            for before in options.last ?? [] { add(max(before.clock + gap, floor), nil) }
            if o.count > Self.maximumAims {
                o = Array(o.sorted { abs($0.clock - grid) < abs($1.clock - grid) }.prefix(Self.maximumAims))
            }
            for (i, c) in stationClock.enumerated() { add(c, i) }
            options.append(o)
        }
        // best[k][j]: (gels at stations, seconds moved from their aim) of the best
        // assignment of gels 0...k with gel k at option j, and gel k-1's option.
        var best: [[(snapped: Int, moved: Double, from: Int)?]] = []
        for (k, here) in options.enumerated() {
            var row: [(snapped: Int, moved: Double, from: Int)?] = []
            for option in here {
                let snapped = option.station == nil ? 0 : 1
                guard k > 0 else {
                    let moved = abs(option.clock - ideal[0])
                    row.append(moved <= tolerance + 1e-6 ? (snapped, moved, -1) : nil)
                    continue
                }
                var pick: (snapped: Int, moved: Double, from: Int)?
                for (j, before) in options[k - 1].enumerated() {
                    guard let b = best[k - 1][j], option.clock - before.clock >= gap - 1e-6 else { continue }
                    let target = aim(k, after: before.clock)
                    // Away from a station a gel is taken where it is aimed, or as soon
                    // as the gel before allows; at one, within the tolerance.
                    let moved = abs(option.clock - target)
                    if option.station == nil, moved > 1, abs(option.clock - before.clock - gap) > 1 { continue }
                    if option.station != nil, moved > tolerance + 1e-6 { continue }
                    let total = (b.snapped + snapped, b.moved + moved, j)
                    if pick == nil || total.0 > pick!.snapped
                        || (total.0 == pick!.snapped && total.1 < pick!.moved - 1e-9)
                    {
                        pick = total
                    }
                }
                row.append(pick)
            }
            best.append(row)
        }
        guard let lastRow = best.last,
            var j = lastRow.indices.filter({ lastRow[$0] != nil }).max(by: { a, b in
                let x = lastRow[a]!, y = lastRow[b]!
                return x.snapped < y.snapped || (x.snapped == y.snapped && x.moved > y.moved)
            })
        else { return ideal.map { ($0, nil) } }
        var chosen: [Option] = []
        for k in stride(from: options.count - 1, through: 0, by: -1) {
            chosen.append(options[k][j])
            j = best[k][j]!.from
        }
        return chosen.reversed()
    }

    /// How far from a gel a station may be to be suggested instead.
    static let nearStationMeters = 5000.0

    /// "gel 1 at 6.66 km has no water: carry a bottle or take it at the 5 km station".
    /// The station suggested can serve the gel: within `nearStationMeters`, in
    /// the fueling window (from `start_after`, less the snap tolerance, to
    /// `stop_before_finish`), holding no other gel, and at least `spacing` from
    /// every other gel; the nearest such. Without one, the warning says so.
    static func noWater(
        _ gel: Cue, stations: [Double], clocks: [Double], used: Set<Int>, window: ClosedRange<Double>,
        others: [Double], spacing: Double, unitMeters: Double = 1000
    ) -> String {
        let s =
            "fueling: gel \(gel.number) at \(distance(gel.distanceMeters, 2, unitMeters)) (\(TextFormat.duration(Double(gel.clockSeconds)))) has no water: carry a bottle"
        let t = Double(gel.clockSeconds)
        let serving = clocks.indices.filter { i in
            !used.contains(i) && abs(stations[i] - gel.distanceMeters) <= nearStationMeters + 1e-6
                && window.contains(clocks[i]) && others.allSatisfy { abs($0 - clocks[i]) >= spacing - 1 }
        }
        guard let near = serving.min(by: { abs(clocks[$0] - t) < abs(clocks[$1] - t) }) else {
            let near = clocks.indices.filter { abs(stations[$0] - gel.distanceMeters) <= nearStationMeters + 1e-6 }
            let within = unitMeters == 1000 ? "5 km" : distance(nearStationMeters, 1, unitMeters)
            let why =
                near.isEmpty
                ? "no aid station within \(within)"
                : "the aid stations within \(within) hold another gel, are outside the fueling window or closer than \(TextFormat.duration(spacing)) to another gel"
            return s + " (\(why))"
        }
        return s
            + " or take it at the \(kmText(stations[near])) km station (\(TextFormat.duration(clocks[near].rounded())))"
    }

    /// Why a caffeine dose has no gel.
    static func caffeineDropped(_ c: FuelingSettings.Caffeine, gels: Int, last: Double, lastGel: Cue?) -> String {
        let what =
            "fueling: the caffeine (\(TextFormat.fixed(c.milligrams, 0)) mg after \(TextFormat.duration(c.afterSeconds))) has no gel to go on"
        guard gels > 0, let g = lastGel else { return what + ": no gel is planned" }
        return what
            + ": no gel may come after \(TextFormat.duration(last)) (stop_before_finish) and the last is at \(TextFormat.duration(Double(g.clockSeconds))); set caffeine.after to \(TextFormat.duration(Double(g.clockSeconds))) or earlier"
    }

    /// A distance in the plan's unit: "14.00 km", "8.70 mi" (aid stations keep
    /// their names in km: the setup lists them so, `aid_stations_km`).
    static func distance(_ meters: Double, _ digits: Int, _ unitMeters: Double) -> String {
        TextFormat.fixed(meters / unitMeters, digits) + (unitMeters == 1000 ? " km" : " mi")
    }

    /// Distances as a coach writes them: 5, 9.5, 12.25.
    static func kmText(_ meters: Double) -> String {
        var s = TextFormat.fixed(meters / 1000, 2)
        while s.contains("."), s.hasSuffix("0") || s.hasSuffix(".") { s.removeLast() }
        return s
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

    /// Carbohydrate per hour delivered against the ask: outside
    /// `deliveryTolerance`, what was delivered, by how much it misses, and the
    /// fix (the gel size that meets the ask with this count, or an earlier
    /// start where the window limited the count).
    private mutating func warnDelivery(_ f: FuelingSettings, hours: Double) {
        let asked = f.carbsPerHourGrams, got = totals.carbsPerHourGrams, n = totals.gels
        guard asked > 0, hours > 0, n > 0, abs(got / asked - 1) > Self.deliveryTolerance else { return }
        let off = abs(got / asked - 1) * 100
        var s =
            "fueling: the plan delivers \(TextFormat.fixed(got, 1)) g/h of the \(TextFormat.fixed(asked, 0)) g/h asked (\(n) gel\(n == 1 ? "" : "s") of \(TextFormat.fixed(f.gelCarbsGrams, 0)) g over \(TextFormat.duration(hours * 3600))), \(TextFormat.fixed(off, 0))% \(got < asked ? "short" : "over")"
        if got > asked, n > 1 {
            let fewer = Double(n - 1) * f.gelCarbsGrams / hours
            s +=
                " (\(n - 1) would deliver \(TextFormat.fixed(fewer, 1)) g/h, \(TextFormat.fixed(abs(fewer / asked - 1) * 100, 0))% short)"
        }
        let size = (asked * hours / Double(n)).rounded()
        if (1...100).contains(size) {
            s +=
                ": gels of \(TextFormat.fixed(size, 0)) g would deliver \(TextFormat.fixed(size * Double(n) / hours, 1)) g/h"
        }
        if gelCountLimit != nil, let start = Self.earlierStart(f, raceSeconds: hours * 3600, more: n) {
            s +=
                "\((1...100).contains(size) ? ", or" : ":") start_after \(TextFormat.duration(start.seconds)) leaves room for \(start.gels) gels"
        }
        warnings.append(s)
    }

    /// The latest whole-minute `start_after` that fits the nearest count of
    /// gels (else the most gels any start fits, if more than `more`).
    static func earlierStart(_ f: FuelingSettings, raceSeconds: Double, more: Int) -> (seconds: Double, gels: Int)? {
        var g = f
        var best: (seconds: Double, gels: Int)?
        var minute = (f.startAfterSeconds / 60).rounded(.down)
        while minute >= 0 {
            g.startAfterSeconds = minute * 60
            let c = GelCount(g, raceSeconds: raceSeconds)
            if c.count > (best?.gels ?? more) { best = (minute * 60, c.count) }
            if c.count >= c.nearest { return best }
            minute -= 1
        }
        return best
    }

    /// Fluid per hour delivered (the drinks over the planned race time) against the ask.
    private mutating func warnFluid(_ h: HydrationSettings, plan: PacePlan, hours: Double) {
        guard h.mlPerHour > 0, hours > 0 else { return }
        let got = totals.fluidMl / hours
        guard abs(got / h.mlPerHour - 1) > Self.deliveryTolerance else { return }
        let n = totals.drinks
        var s =
            "hydration: the plan delivers \(TextFormat.fixed(got, 0)) ml/h of the \(TextFormat.fixed(h.mlPerHour, 0)) ml/h asked (\(n) drink\(n == 1 ? "" : "s"), \(TextFormat.fixed(totals.fluidMl, 0)) ml over \(TextFormat.duration(hours * 3600))), \(TextFormat.fixed(abs(got / h.mlPerHour - 1) * 100, 0))% \(got < h.mlPerHour ? "short" : "over")"
        if let lastDrink = cues.last(where: { $0.kind == .drink }), got < h.mlPerHour {
            s +=
                ": the last drink is at \(Self.distance(lastDrink.distanceMeters, 1, unitMeters)) with \(TextFormat.duration(plan.targetSeconds - Double(lastDrink.clockSeconds))) to go; add an aid station nearer the finish or carry a bottle"
        } else if n == 0 {
            s += ": no drink fits before the last minute; list aid_stations_km or a shorter every"
        } else {
            s += ": each drink is rounded to 10 ml"
        }
        warnings.append(s)
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
            // A known sweat rate caps the fluid (FluidPlan): 800 ml/h is the
            // guidance for a runner who does not know theirs.
            if h.mlPerHour > 800, h.sweatRateLPerHour == nil {
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
                        "hydration: \(TextFormat.duration(Double(d.clockSeconds - previous))) without a drink before \(Self.distance(d.distanceMeters, 1, unitMeters)); plan a bottle or an extra stop"
                    )
                    break
                }
                previous = d.clockSeconds
            }
            if let big = drinks.first(where: { ($0.fluidMl ?? 0) > 400 }) {
                warnings.append(
                    "hydration: \(TextFormat.fixed(big.fluidMl!, 0)) ml at \(Self.distance(big.distanceMeters, 1, unitMeters)) is more than a runner can drink at once (about 150-300 ml); add drinking points"
                )
            }
        }
    }
}
