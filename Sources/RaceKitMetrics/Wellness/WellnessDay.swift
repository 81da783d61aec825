import RaceKitModel

/// One day of an athlete's wellness, formed from their daily measurements
/// (docs/numbers.md, "Wellness"): the night's sleep (told by one source), the
/// HRV of that night, the day's resting heart rate and the rest.
public struct WellnessDay: Sendable, Equatable {
    /// The local calendar day (days since 1970-01-01) in the athlete's time zone.
    public var day: Int
    /// Time asleep: stages or plain asleep, awake spells left out. Told by the
    /// night's best source; the time in bed when that is all there is.
    public var sleepSeconds: Double?
    /// Time in bed, from the best source that tells it.
    public var inBedSeconds: Double?
    /// The stages of a night told in stages.
    public var stages: SleepStages?
    /// What told the night's sleep: `stages`, `asleep` or `inBed`.
    public var sleepBasis: SleepBasis?
    /// The source that told the night's sleep.
    public var sleepSource: String?
    /// The day's HRV in ms (the athlete's HRV measure, `hrvMeasure`): SDNN, the
    /// mean of the readings taken during that night's sleep; RMSSD, the mean of
    /// the day's morning readings.
    public var hrvMs: Double?
    public var hrvMeasure: HRVMeasure?
    /// Readings behind `hrvMs`.
    public var hrvReadings = 0
    public var restingHeartRate: Double?
    /// Breaths a minute during that night's sleep.
    public var respiratoryRate: Double?
    public var vo2max: Double?
    public var bodyMassKg: Double?

    public init(day: Int) { self.day = day }

    /// True when the day holds no value at all.
    public var isEmpty: Bool {
        sleepSeconds == nil && inBedSeconds == nil && hrvMs == nil && restingHeartRate == nil
            && respiratoryRate == nil && vo2max == nil && bodyMassKg == nil
    }
}

public struct SleepStages: Sendable, Equatable {
    public var coreSeconds = 0.0, deepSeconds = 0.0, remSeconds = 0.0, awakeSeconds = 0.0
    /// Asleep with no stage told, within a night otherwise told in stages.
    public var unspecifiedSeconds = 0.0
    public init() {}
}

/// What a night's sleep was told by, best first.
public enum SleepBasis: String, Sendable, Equatable, CaseIterable {
    case stages, asleep, inBed

    /// Higher is better.
    var rank: Int {
        switch self {
        case .stages: return 3
        case .asleep: return 2
        case .inBed: return 1
        }
    }
}

/// Which HRV a day's value is: Apple Watch's SDNN during sleep, or the morning
/// RMSSD of the HRV apps. Their scales differ: one athlete's history uses one.
public enum HRVMeasure: String, Sendable, Equatable {
    case sdnn, rmssd

    public var kind: String { self == .sdnn ? "hrv_sdnn" : "hrv_rmssd" }
}

/// Forms `WellnessDay`s from daily measurements.
public enum WellnessDays {
    /// A sleep span belongs to a night with the spans that start within this
    /// long of the night's end.
    public static let nightGapSeconds = 2.0 * 3600
    /// A night counts for the local day of its end plus this: sleep ending
    /// after 18:00 is the next day's night (docs/numbers.md, "Wellness").
    public static let wakeDayShiftSeconds = 6.0 * 3600

    static let asleepKinds: Set<String> = ["sleep_asleep", "sleep_core", "sleep_deep", "sleep_rem"]
    static let stageKinds: Set<String> = ["sleep_core", "sleep_deep", "sleep_rem"]

    /// The days of `measurements` (one athlete's), in `timeZone`, sources
    /// chosen by `sourceOrder` first (the athlete's order; empty: the source with
    /// the most records of the kind). Days with no value are left out; sorted.
    public static func build(_ measurements: [DailyMeasurement], timeZone: String, sourceOrder: [String] = [])
        -> [WellnessDay]
    {
        let calendar = LocalCalendar(identifier: timeZone)
        var byKind: [String: [DailyMeasurement]] = [:]
        for m in measurements { byKind[m.kind, default: []].append(m) }
        let chooser = SourceChooser(order: sourceOrder, measurements: measurements)
        var days: [Int: WellnessDay] = [:]
        func update(_ day: Int, _ body: (inout WellnessDay) -> Void) {
            var d = days[day] ?? WellnessDay(day: day)
            body(&d)
            days[day] = d
        }

        // Sleep: nights, each counted for its wake-up day.
        let sleep = measurements.filter { $0.kind.hasPrefix("sleep_") }.sorted { $0.start < $1.start }
        var windows: [Int: [ClosedRange<Double>]] = [:]
        for night in nights(sleep) {
            let day = calendar.day(of: night.window.upperBound + wakeDayShiftSeconds)
            windows[day, default: []].append(night.window)
            update(day) { d in tell(&d, night.spans, chooser: chooser) }
        }

        // HRV: the athlete's measure is the one that gives more days (SDNN's
        // are those with readings during the night; daytime ones give none).
        let sdnnDays = during(byKind["hrv_sdnn"] ?? [], windows, chooser)
        let rmssdDays = daily(byKind["hrv_rmssd"] ?? [], calendar, chooser)
        let measure: HRVMeasure = rmssdDays.count > sdnnDays.count ? .rmssd : .sdnn
        let hrvValues = measure == .sdnn ? sdnnDays : rmssdDays
        for (day, values) in hrvValues {
            update(day) { d in
                d.hrvMs = values.reduce(0, +) / Double(values.count)
                d.hrvMeasure = measure
                d.hrvReadings = values.count
            }
        }
        for (day, values) in during(byKind["respiratory_rate"] ?? [], windows, chooser) {
            update(day) { $0.respiratoryRate = values.reduce(0, +) / Double(values.count) }
        }
        for (day, values) in daily(byKind["resting_hr"] ?? [], calendar, chooser) {
            update(day) { $0.restingHeartRate = values.reduce(0, +) / Double(values.count) }
        }
        for (day, values) in daily(byKind["vo2max"] ?? [], calendar, chooser) {
            update(day) { $0.vo2max = values.last }
        }
        for (day, values) in daily(byKind["body_mass"] ?? [], calendar, chooser) {
            update(day) { $0.bodyMassKg = values.last }
        }
        return days.values.filter { !$0.isEmpty }.sorted { $0.day < $1.day }
    }

    /// A night: its spans (every source's) and the time from the first start to the last end.
    struct Night {
        var spans: [DailyMeasurement]
        var window: ClosedRange<Double>
    }

    /// Sleep spans (sorted by start) grouped into nights: a span starting more
    /// than `nightGapSeconds` after the night's end starts another.
    static func nights(_ sleep: [DailyMeasurement]) -> [Night] {
        var out: [Night] = []
        for span in sleep {
            if var last = out.last, span.start <= last.window.upperBound + nightGapSeconds {
                last.spans.append(span)
                last.window = last.window.lowerBound...max(last.window.upperBound, span.end)
                out[out.count - 1] = last
            } else {
                out.append(Night(spans: [span], window: span.start...span.end))
            }
        }
        return out
    }

    /// Tells a night into `d` (added to what the day already holds: a nap and
    /// a night are one day's sleep): its best source's sleep, in bed and stages.
    static func tell(_ d: inout WellnessDay, _ spans: [DailyMeasurement], chooser: SourceChooser) {
        var bySource: [String: [DailyMeasurement]] = [:]
        for s in spans { bySource[s.source, default: []].append(s) }
        func basis(_ spans: [DailyMeasurement]) -> SleepBasis? {
            if spans.contains(where: { stageKinds.contains($0.kind) }) { return .stages }
            if spans.contains(where: { $0.kind == "sleep_asleep" }) { return .asleep }
            if spans.contains(where: { $0.kind == "sleep_in_bed" }) { return .inBed }
            return nil
        }
        let ranked = bySource.compactMap { source, spans in basis(spans).map { (source, spans, $0) } }
        guard
            let best = ranked.max(by: { a, b in
                a.2.rank != b.2.rank ? a.2.rank < b.2.rank : chooser.prefers(b.0, over: a.0, kind: "sleep")
            })
        else { return }
        let (source, own, how) = best
        let awake = Intervals(own.filter { $0.kind == "sleep_awake" }.map { $0.start...$0.end })
        func length(_ kinds: Set<String>) -> Double {
            Intervals(own.filter { kinds.contains($0.kind) }.map { $0.start...$0.end }).subtracting(awake).length
        }
        let slept = how == .inBed ? length(["sleep_in_bed"]) : length(asleepKinds)
        d.sleepSeconds = (d.sleepSeconds ?? 0) + slept
        if d.sleepBasis == nil || how.rank > d.sleepBasis!.rank {
            d.sleepBasis = how
            d.sleepSource = source
        }
        if how == .stages {
            var st = d.stages ?? SleepStages()
            st.coreSeconds += length(["sleep_core"])
            st.deepSeconds += length(["sleep_deep"])
            st.remSeconds += length(["sleep_rem"])
            st.unspecifiedSeconds += length(["sleep_asleep"])
            st.awakeSeconds += Intervals(own.filter { $0.kind == "sleep_awake" }.map { $0.start...$0.end }).length
            d.stages = st
        }
        // In bed: the best source that tells it.
        let inBed = bySource.filter { $0.value.contains { $0.kind == "sleep_in_bed" } }
        if let bed = inBed.keys.max(by: { chooser.prefers($1, over: $0, kind: "sleep") }) {
            let spans = inBed[bed]!.filter { $0.kind == "sleep_in_bed" }.map { $0.start...$0.end }
            d.inBedSeconds = (d.inBedSeconds ?? 0) + Intervals(spans).length
        }
    }

    /// The values of readings taken during a night's sleep, by that night's
    /// day, each day's from one source.
    static func during(
        _ readings: [DailyMeasurement], _ windows: [Int: [ClosedRange<Double>]], _ chooser: SourceChooser
    ) -> [Int: [Double]] {
        guard !readings.isEmpty else { return [:] }
        let sorted = readings.sorted { $0.start < $1.start }
        var out: [Int: [Double]] = [:]
        for (day, nights) in windows {
            var found: [DailyMeasurement] = []
            for w in nights {
                var k = lowerBound(sorted, w.lowerBound)
                while k < sorted.count, sorted[k].start <= w.upperBound {
                    found.append(sorted[k])
                    k += 1
                }
            }
            if let values = oneSource(found, chooser) { out[day] = values }
        }
        return out
    }

    /// The values of readings by the local day of their start, each day's from one source.
    static func daily(_ readings: [DailyMeasurement], _ calendar: LocalCalendar, _ chooser: SourceChooser)
        -> [Int: [Double]]
    {
        var byDay: [Int: [DailyMeasurement]] = [:]
        for r in readings { byDay[calendar.day(of: r.start), default: []].append(r) }
        return byDay.compactMapValues { oneSource($0, chooser) }
    }

    /// The values (by start) of the preferred source among `readings`.
    static func oneSource(_ readings: [DailyMeasurement], _ chooser: SourceChooser) -> [Double]? {
        guard let kind = readings.first?.kind,
            let source = Set(readings.map(\.source)).max(by: { chooser.prefers($1, over: $0, kind: kind) })
        else { return nil }
        return readings.filter { $0.source == source }.sorted { $0.start < $1.start }.map(\.value)
    }

    private static func lowerBound(_ a: [DailyMeasurement], _ t: Double) -> Int {
        var low = 0, high = a.count
        while low < high {
            let mid = (low + high) / 2
            if a[mid].start < t { low = mid + 1 } else { high = mid }
        }
        return low
    }
}

/// Which of several sources tells a value: the athlete's order first, then the
/// source with the most records of the kind (`sleep` counts every sleep kind),
/// then the name.
struct SourceChooser {
    let order: [String: Int]
    let counts: [String: [String: Int]]

    init(order: [String], measurements: [DailyMeasurement]) {
        var o: [String: Int] = [:]
        for (i, s) in order.enumerated() where o[s] == nil { o[s] = i }
        self.order = o
        var c: [String: [String: Int]] = [:]
        for m in measurements {
            c[m.kind.hasPrefix("sleep_") ? "sleep" : m.kind, default: [:]][m.source, default: 0] += 1
        }
        counts = c
    }

    /// True when `a` tells `kind` rather than `b`.
    func prefers(_ a: String, over b: String, kind: String) -> Bool {
        let key = kind.hasPrefix("sleep_") ? "sleep" : kind
        switch (order[a], order[b]) {
        case (let x?, let y?): return x < y
        case (.some, nil): return true
        case (nil, .some): return false
        case (nil, nil): break
        }
        let ca = counts[key]?[a] ?? 0, cb = counts[key]?[b] ?? 0
        return ca != cb ? ca > cb : a < b
    }
}

/// A union of closed time intervals, merged and sorted.
struct Intervals {
    private(set) var ranges: [ClosedRange<Double>] = []

    init(_ spans: [ClosedRange<Double>]) {
        for s in spans.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = ranges.last, s.lowerBound <= last.upperBound {
                ranges[ranges.count - 1] = last.lowerBound...max(last.upperBound, s.upperBound)
            } else {
                ranges.append(s)
            }
        }
    }

    var length: Double { ranges.reduce(0) { $0 + ($1.upperBound - $1.lowerBound) } }

    /// The parts of these intervals outside `other`.
    func subtracting(_ other: Intervals) -> Intervals {
        guard !other.ranges.isEmpty else { return self }
        var out: [ClosedRange<Double>] = []
        for r in ranges {
            var start = r.lowerBound
            for o in other.ranges where o.upperBound > start && o.lowerBound < r.upperBound {
                if o.lowerBound > start { out.append(start...o.lowerBound) }
                start = max(start, o.upperBound)
            }
            if start < r.upperBound { out.append(start...r.upperBound) }
        }
        var result = Intervals([])
        result.ranges = out
        return result
    }
}
