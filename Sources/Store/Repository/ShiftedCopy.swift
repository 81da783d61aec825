import Foundation
import RaceKitModel
import RaceKitOutput

/// A copy of a stored run whose clock is shifted by a constant: a local time
/// written as UTC (whole hours; 2:00 in one desktop tool's re-save of a Stryd
/// run), or any other constant offset (3:44 in another's). Found by the
/// samples' shape whatever the offset: the same elapsed time and distance, and
/// the same positions, heart rate or distance at the same times from the start.
public enum ShiftedCopy {
    /// How far apart the two clocks may be: the widest UTC offset (+14:00);
    /// the same run a day later is a fixture or a treadmill habit, not a copy.
    public static let maximumShiftSeconds = 14 * 3600.0
    /// The elapsed times within this many seconds (as the duplicate rule's start).
    public static let elapsedToleranceSeconds = DuplicatePolicy.startToleranceSeconds
    /// Where the shapes are compared: this many times, evenly over the shorter span.
    static let probes = 40
    /// Positions: the median probe within this many metres, 90% within `spreadMeters`.
    static let medianMeters = 5.0
    static let spreadMeters = 15.0
    /// Heart rate and cadence: 90% of the probes within this much.
    static let beatsTolerance = 2.0
    /// Distance from the start: 90% of the probes within this many metres plus 0.5%.
    static let distanceMeters = 10.0

    /// The start times of the stored runs that may be shifted copies of one
    /// starting at `startedAt` (a pair, not a range: a NaN start selects none).
    public static func window(startedAt: Double) -> (earliest: Double, latest: Double) {
        (startedAt - maximumShiftSeconds, startedAt + maximumShiftSeconds)
    }

    /// Whether a stored run's figures allow it to be a shifted copy: elapsed
    /// within `elapsedToleranceSeconds`, distances within the duplicate rule's
    /// ratio (or both unknown), started outside the duplicate rule's window.
    public static func mayBeCopy(_ incoming: DuplicateKeys, _ stored: RunRecord) -> Bool {
        let shift = abs(incoming.startedAt - stored.startedAt)
        guard shift > DuplicatePolicy.startToleranceSeconds, shift <= maximumShiftSeconds else { return false }
        let elapsed = incoming.endedAt - incoming.startedAt, storedElapsed = stored.endedAt - stored.startedAt
        guard abs(elapsed - storedElapsed) <= elapsedToleranceSeconds else { return false }
        switch (incoming.distanceMeters, stored.distanceMeters) {
        case (nil, nil): return true
        case (let a?, let b?):
            let reference = max(a, b)
            return reference == 0 || abs(a - b) <= DuplicatePolicy.distanceRatio * reference
        default: return false
        }
    }

    /// Whether two recordings are one with its clock shifted: compared at the
    /// same times from each start, every channel both hold agrees (positions,
    /// heart rate, cadence, distance from the start), and at least positions
    /// or heart rate are among them, or distance where neither is recorded.
    public static func sameShape(_ a: SampleSeries, _ b: SampleSeries) -> Bool {
        guard a.count >= 2, b.count >= 2 else { return false }
        let spanA = a.time[a.count - 1] - a.time[0], spanB = b.time[b.count - 1] - b.time[0]
        let span = min(spanA, spanB)
        guard span.isFinite, span > 0 else { return false }
        let times = (1...probes).map { span * Double($0) / Double(probes + 1) }
        var compared = 0, strong = false
        if a.has(.latitude), b.has(.latitude) {
            var metres: [Double] = []
            for t in times {
                guard let la = value(a, .latitude, t), let lo = value(a, .longitude, t),
                    let lb = value(b, .latitude, t), let ob = value(b, .longitude, t)
                else { continue }
                metres.append(Geodesy.distance(lat1: la, lon1: lo, lat2: lb, lon2: ob))
            }
            if metres.count >= probes / 2 {
                metres.sort()
                guard metres[metres.count / 2] <= medianMeters, metres[metres.count * 9 / 10] <= spreadMeters else {
                    return false
                }
                compared += 1
                strong = true
            }
        }
        for (channel, tolerance) in [(SampleSeries.Channel.heartRate, beatsTolerance), (.cadence, beatsTolerance)] {
            guard a.has(channel), b.has(channel), let agree = agreement(a, b, channel, times, { _ in tolerance })
            else { continue }
            guard agree else { return false }
            compared += 1
            strong = strong || channel == .heartRate
        }
        if a.has(.distance), b.has(.distance) {
            let a0 = a.distance.first { !$0.isNaN } ?? 0, b0 = b.distance.first { !$0.isNaN } ?? 0
            var shifted = b
            shifted.modify(.distance) { d in for i in d.indices { d[i] += a0 - b0 } }
            if let agree = agreement(a, shifted, .distance, times, { distanceMeters + 0.005 * $0 }) {
                guard agree else { return false }
                compared += 1
            }
        }
        return strong || compared > 0 && !(a.has(.latitude) || a.has(.heartRate))
    }

    /// Whether 90% of the probes agree within `tolerance(value)`; nil when
    /// under half the probes have a value in both.
    static func agreement(
        _ a: SampleSeries, _ b: SampleSeries, _ channel: SampleSeries.Channel, _ times: [Double],
        _ tolerance: (Double) -> Double
    ) -> Bool? {
        var within = 0, n = 0
        for t in times {
            guard let x = value(a, channel, t), let y = value(b, channel, t) else { continue }
            n += 1
            if abs(x - y) <= tolerance(abs(x)) { within += 1 }
        }
        guard n >= probes / 2 else { return nil }
        return Double(within) >= 0.9 * Double(n)
    }

    /// A channel's value `t` seconds after the series' start: linear between
    /// the samples around it (at most 30 s apart), nil where unknown.
    static func value(_ s: SampleSeries, _ channel: SampleSeries.Channel, _ t: Double) -> Double? {
        let target = s.time[0] + t
        var lo = 0, hi = s.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if s.time[mid] <= target { lo = mid } else { hi = mid }
        }
        let values = s[channel]
        let (ta, tb, va, vb) = (s.time[lo], s.time[hi], values[lo], values[hi])
        guard !va.isNaN, !vb.isNaN, tb - ta <= 30 else { return nil }
        guard tb > ta else { return va }
        return va + (vb - va) * min(1, max(0, (target - ta) / (tb - ta)))
    }

    /// The stored run `incoming` is a shifted copy of, nearest in shift first,
    /// and the shift (incoming minus stored start, seconds).
    public static func find(
        _ incoming: DuplicateKeys, samples: SampleSeries, among candidates: [(RunRecord, SampleSeries)]
    ) -> (run: RunRecord, shiftSeconds: Double)? {
        let ordered = candidates.filter { mayBeCopy(incoming, $0.0) }
            .sorted { abs($0.0.startedAt - incoming.startedAt) < abs($1.0.startedAt - incoming.startedAt) }
        guard let hit = ordered.first(where: { sameShape(samples, $0.1) }) else { return nil }
        return (hit.0, incoming.startedAt - hit.0.startedAt)
    }

    /// "2:00:00 later (whole hours: a local time written as UTC?)", for a message.
    public static func describe(_ shift: Double) -> String {
        let s = abs(shift).rounded()
        let clock = TextFormat.duration(s)
        let side = shift > 0 ? "later" : "earlier"
        let hours = s.truncatingRemainder(dividingBy: 1800) == 0
        return "\(clock) \(side)"
            + (hours
                ? " (whole \(s.truncatingRemainder(dividingBy: 3600) == 0 ? "hours" : "half hours"): a local time written as UTC, or a time zone slip)"
                : " (a constant offset: a clock set wrong, or a tool's re-save)")
    }
}
