import Foundation
import RaceKitOutput

/// A day's readiness: a band and the reasons for it, in words that name the
/// measure and its numbers (docs/numbers.md, "Readiness").
public struct Readiness: Sendable, Equatable {
    public enum Band: String, Sendable, Equatable, CaseIterable {
        case green, amber, red, insufficient
    }

    public var band: Band
    public var reasons: [String]
    /// The baselines the band was read against.
    public var baselines: WellnessBaselines

    public init(band: Band, reasons: [String], baselines: WellnessBaselines) {
        self.band = band; self.reasons = reasons; self.baselines = baselines
    }
}

/// One measure's baseline on a day: its 7-day rolling value against the
/// normal range of the 60 days before.
public struct MeasureBaseline: Sendable, Equatable {
    /// The 7-day rolling value (for HRV: the mean of ln ms, given back in ms).
    public var rolling: Double?
    /// The normal range: the 60-day mean plus or minus the smallest worthwhile change.
    public var normalLow: Double
    public var normalHigh: Double
    /// The 60-day mean (in ms for HRV).
    public var mean: Double
    /// Days behind the normal range.
    public var days: Int
    /// How far the last two days lie from the mean, in standard deviations,
    /// positive when worse (HRV lower, resting heart rate higher); nil without
    /// a value on those days.
    public var acute: Double?
    /// The mean of the last two days' values (ms for HRV).
    public var acuteValue: Double?
}

/// Sleep against its own baseline.
public struct SleepBaseline: Sendable, Equatable {
    /// The 60-day mean of nightly sleep, seconds.
    public var meanSeconds: Double
    /// The shortfall against that mean over the last 7 nights, seconds
    /// (nights above it do not pay back).
    public var debtSeconds: Double
    public var nights: Int
}

public struct WellnessBaselines: Sendable, Equatable {
    public var hrv: MeasureBaseline?
    public var restingHeartRate: MeasureBaseline?
    public var sleep: SleepBaseline?
    public init() {}
}

/// The readiness model: documented constants and one pass over the days.
public enum ReadinessModel {
    /// Days behind a normal range.
    public static let baselineDays = 60
    /// Days of the rolling value.
    public static let rollingDays = 7
    /// Least values a normal range needs (the first week is `insufficient`).
    public static let minimumBaselineValues = 7
    /// Least values in the rolling week.
    public static let minimumRollingValues = 3
    /// The smallest worthwhile change, in standard deviations (Plews et al. 2012; Buchheit 2014).
    public static let smallestWorthwhileChange = 0.5
    /// The day-to-day variation assumed before the history tells its own
    /// (ln HRV, about a 15% coefficient of variation; resting heart rate in
    /// bpm), weighted as `priorDays` days: a short or flat history does not
    /// make noise a signal.
    public static let typicalSDLnHRV = 0.15
    public static let typicalSDRestingHR = 2.0
    public static let priorDays = 7.0
    /// Thresholds of the acute score (the last two days' deviations, summed
    /// over the measures and divided by the square root of their number).
    public static let amberScore = 1.75
    public static let redScore = 2.75
    /// With the rolling value outside its normal range, this acute score already makes amber.
    public static let trendAmberScore = 1.25
    /// Sleep debt over the last 7 nights that makes amber, seconds.
    public static let amberSleepDebtSeconds = 7.0 * 3600
    /// A measure deviating by at least this (SD) is named in the reasons.
    public static let reasonDeviation = 0.75

    /// Readiness of every day in `days` (sorted by day), by day.
    public static func evaluate(_ days: [WellnessDay]) -> [Int: Readiness] {
        let byDay = Dictionary(days.map { ($0.day, $0) }, uniquingKeysWith: { a, _ in a })
        var out: [Int: Readiness] = [:]
        for d in days { out[d.day] = evaluate(day: d.day, byDay) }
        return out
    }

    /// Readiness of `day` from the days before it and itself.
    public static func evaluate(day: Int, _ byDay: [Int: WellnessDay]) -> Readiness {
        var baselines = WellnessBaselines()
        baselines.hrv = baseline(day, byDay, lowerIsWorse: true, typicalSD: typicalSDLnHRV) {
            $0.hrvMs.map { log($0) }
        }
        baselines.restingHeartRate = baseline(day, byDay, lowerIsWorse: false, typicalSD: typicalSDRestingHR) {
            $0.restingHeartRate
        }
        baselines.sleep = sleepBaseline(day, byDay)
        let measures = [baselines.hrv, baselines.restingHeartRate].compactMap { $0 }.filter { $0.acute != nil }
        guard !measures.isEmpty else {
            let hrvDays = baselines.hrv?.days ?? count(day, byDay) { $0.hrvMs }
            let rhrDays = baselines.restingHeartRate?.days ?? count(day, byDay) { $0.restingHeartRate }
            let has = max(hrvDays, rhrDays)
            let why =
                has >= minimumBaselineValues
                ? "no HRV or resting heart rate on this day or the day before"
                : "a band needs \(minimumBaselineValues) days of HRV or resting heart rate in the \(baselineDays) before; "
                    + "there \(has == 1 ? "is 1" : "are \(has)")"
            return Readiness(band: .insufficient, reasons: [why], baselines: baselines)
        }
        let score = measures.map { $0.acute! }.reduce(0, +) / Double(measures.count).squareRoot()
        let hrvTrend = baselines.hrv.flatMap { b in b.rolling.map { $0 < b.normalLow } } ?? false
        let rhrTrend = baselines.restingHeartRate.flatMap { b in b.rolling.map { $0 > b.normalHigh } } ?? false
        let debt = baselines.sleep.map { $0.debtSeconds >= amberSleepDebtSeconds } ?? false
        var band = Readiness.Band.green
        if score >= redScore {
            band = .red
        } else if score >= amberScore || ((hrvTrend || rhrTrend) && score >= trendAmberScore) || debt {
            band = .amber
        }
        var reasons: [String] = []
        if band != .green {
            let worst = measures.map { $0.acute! }.max()!
            if let b = baselines.hrv, let a = b.acute, a >= reasonDeviation || (a == worst && !debt) {
                reasons.append(
                    "HRV 2-day \(Int(b.acuteValue!.rounded())) ms, \(sd(a)) below its 60-day mean \(Int(b.mean.rounded())) ms"
                )
            }
            if let b = baselines.restingHeartRate, let a = b.acute, a >= reasonDeviation || (a == worst && !debt) {
                reasons.append(
                    "resting HR 2-day \(Int(b.acuteValue!.rounded())) bpm, \(sd(-a)) above its 60-day mean \(Int(b.mean.rounded())) bpm"
                )
            }
            if hrvTrend, let b = baselines.hrv, let r = b.rolling {
                let (v, lo, hi) = shown(r, b.normalLow, b.normalHigh)
                reasons.append("HRV 7-day \(v) ms, below its normal range \(lo)-\(hi)")
            }
            if rhrTrend, let b = baselines.restingHeartRate, let r = b.rolling {
                let (v, lo, hi) = shown(r, b.normalLow, b.normalHigh)
                reasons.append("resting HR 7-day \(v) bpm, above its normal range \(lo)-\(hi)")
            }
            if debt, let s = baselines.sleep {
                reasons.append(
                    "sleep debt \(hm(s.debtSeconds)) over the last 7 nights (baseline \(hm(s.meanSeconds)) a night)")
            }
        }
        return Readiness(band: band, reasons: reasons, baselines: baselines)
    }

    /// A value and a range in whole numbers, or with one decimal where whole
    /// numbers would make the value touch the range it lies outside.
    private static func shown(_ v: Double, _ lo: Double, _ hi: Double) -> (String, String, String) {
        let whole = [v, lo, hi].map { Int($0.rounded()) }
        let digits = whole[0] == whole[1] || whole[0] == whole[2] ? 1 : 0
        return (TextFormat.fixed(v, digits), TextFormat.fixed(lo, digits), TextFormat.fixed(hi, digits))
    }

    /// `1.8 SD` (a deviation's size; the sign is in the words around it).
    private static func sd(_ x: Double) -> String {
        String(format: "%.1f SD", Swift.abs(x))
    }

    /// `7 h 05 min`.
    public static func hm(_ seconds: Double) -> String {
        let m = Int((seconds / 60).rounded())
        return "\(m / 60) h \(m % 60 < 10 ? "0" : "")\(m % 60) min"
    }

    private static func count(_ day: Int, _ byDay: [Int: WellnessDay], _ value: (WellnessDay) -> Double?) -> Int {
        ((day - baselineDays)..<day).reduce(0) { n, d in n + (byDay[d].flatMap(value) == nil ? 0 : 1) }
    }

    /// A measure's baseline on `day`; nil with fewer than `minimumBaselineValues` values in the 60 days before.
    static func baseline(
        _ day: Int, _ byDay: [Int: WellnessDay], lowerIsWorse: Bool, typicalSD: Double,
        _ value: (WellnessDay) -> Double?
    ) -> MeasureBaseline? {
        let history = ((day - baselineDays)..<day).compactMap { byDay[$0].flatMap(value) }
        guard history.count >= minimumBaselineValues else { return nil }
        let mean = history.reduce(0, +) / Double(history.count)
        let squares = history.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
        let sd = ((squares + priorDays * typicalSD * typicalSD) / (Double(history.count - 1) + priorDays)).squareRoot()
        let week = ((day - rollingDays + 1)...day).compactMap { byDay[$0].flatMap(value) }
        let rolling = week.count >= minimumRollingValues ? week.reduce(0, +) / Double(week.count) : nil
        let recent = [day - 1, day].compactMap { byDay[$0].flatMap(value) }
        let acuteValue = recent.isEmpty ? nil : recent.reduce(0, +) / Double(recent.count)
        let acute = acuteValue.map { (lowerIsWorse ? mean - $0 : $0 - mean) / sd }
        let swc = smallestWorthwhileChange * sd
        // HRV's statistics are on ln ms; they are given back in ms.
        let back: (Double) -> Double = lowerIsWorse ? { exp($0) } : { $0 }
        return MeasureBaseline(
            rolling: rolling.map(back), normalLow: back(mean - swc), normalHigh: back(mean + swc), mean: back(mean),
            days: history.count, acute: acute, acuteValue: acuteValue.map(back))
    }

    static func sleepBaseline(_ day: Int, _ byDay: [Int: WellnessDay]) -> SleepBaseline? {
        let history = ((day - baselineDays)..<day).compactMap { byDay[$0]?.sleepSeconds }
        guard history.count >= minimumBaselineValues else { return nil }
        let mean = history.reduce(0, +) / Double(history.count)
        let week = ((day - rollingDays + 1)...day).compactMap { byDay[$0]?.sleepSeconds }
        guard !week.isEmpty else { return nil }
        let debt = week.reduce(0) { $0 + max(0, mean - $1) }
        return SleepBaseline(meanSeconds: mean, debtSeconds: debt, nights: history.count)
    }
}
