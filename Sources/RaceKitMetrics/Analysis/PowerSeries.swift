import RaceKitModel

/// A run's power as one value per second, the ground of every power figure
/// (docs/numbers.md, "Power").
///
/// Each recorded value is held until the next record (smart recording writes
/// one when the value changes), for at most `maximumHold` seconds: a longer
/// step is a pause or a gap in the recording and is left out, so the seconds
/// either side of it join up. Values outside `plausibleWatts` (a dropout's
/// 65,535) and records without power are no power at all; zeros are kept
/// (coasting is part of the effort, as every head unit counts it by default).
public struct PowerSeries: Sendable {
    /// Watts, one per second with power.
    public let watts: [Double]
    /// Where each stretch of `watts` recorded without a break begins (0 first;
    /// a pause, a gap or seconds without power end a stretch): a best effort
    /// lies within one stretch.
    public let stretchStarts: [Int]

    /// Longest step a value is held over, in seconds.
    public static let maximumHold = 30.0
    /// The values a power meter can report.
    public static let plausibleWatts: ClosedRange<Double> = 0...3000
    /// Fewest seconds of power a run's power figures need.
    public static let minimumSeconds = 60
    /// The rolling window of normalized power, in seconds (Coggan).
    public static let window = 30

    public init(_ s: SampleSeries) {
        var out: [Double] = []
        var starts: [Int] = []
        var broken = true   // the next second begins a stretch
        let n = s.count
        var carry = 0.0   // fractional seconds not yet emitted
        var k = 0
        while k + 1 < n {
            let p = s.power[k], dt = s.time[k + 1] - s.time[k]
            k += 1
            guard Self.plausibleWatts.contains(p), dt > 0, dt <= Self.maximumHold else {
                if dt != 0 { broken = true }   // a repeated timestamp is no break
                continue
            }
            carry += dt
            let whole = Int(carry)
            if whole > 0 {
                if out.isEmpty { out.reserveCapacity(Int(min(s.time[n - 1] - s.time[0], 400_000)) + 1) }
                if broken {
                    starts.append(out.count)
                    broken = false
                }
                carry -= Double(whole)
                for _ in 0..<whole { out.append(p) }
            }
        }
        watts = out
        stretchStarts = starts
    }

    /// True when there are enough seconds of power for the run's figures, and
    /// not all of them 0 (a head unit writing 0 without a power meter).
    public var isUsable: Bool { watts.count >= Self.minimumSeconds && watts.contains { $0 > 0 } }

    /// The mean power over the seconds with power.
    public var average: Double? {
        guard isUsable else { return nil }
        return watts.reduce(0, +) / Double(watts.count)
    }

    /// The best mean power over `seconds` consecutive seconds within one
    /// stretch; nil when the run's power is not usable or no stretch lasts so long.
    public func peak(seconds: Int) -> Double? {
        guard isUsable, seconds > 0 else { return nil }
        var best = -1.0
        for (i, start) in stretchStarts.enumerated() {
            let end = i + 1 < stretchStarts.count ? stretchStarts[i + 1] : watts.count
            guard end - start >= seconds else { continue }
            watts.withUnsafeBufferPointer { w in
                var sum = 0.0
                for j in start..<(start + seconds) { sum += w[j] }
                var top = sum
                var j = start + seconds
                while j < end {
                    sum += w[j] - w[j - seconds]
                    if sum > top { top = sum }
                    j += 1
                }
                best = max(best, top)
            }
        }
        return best < 0 ? nil : best / Double(seconds)
    }

    /// The highest one-second power.
    public var maximum: Double? { isUsable ? watts.max() : nil }

    /// Normalized power: the fourth-power mean of the 30-second rolling mean,
    /// its fourth root (Coggan and Allen 2010), from the first full window on.
    public var normalized: Double? {
        guard isUsable, watts.count >= Self.window else { return nil }
        let w = Double(Self.window)
        var sum = 0.0
        for i in 0..<Self.window { sum += watts[i] }
        var fourth = 0.0
        var count = 0.0
        var i = Self.window
        while true {
            let mean = max(sum / w, 0)
            let sq = mean * mean
            fourth += sq * sq
            count += 1
            guard i < watts.count else { break }
            sum += watts[i] - watts[i - Self.window]
            i += 1
        }
        return (fourth / count).squareRoot().squareRoot()
    }
}
