import Foundation

/// A small deterministic generator (SplitMix64), so sample data is identical on every machine.
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func uniform(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &self) }
    /// Approximately normal (sum of uniforms).
    mutating func gaussian(_ sigma: Double) -> Double {
        var s = 0.0
        for _ in 0..<6 { s += uniform(-1...1) }
        return s / 2 * sigma
    }
}

/// One simulated sample.
struct SimPoint {
    var time: Double
    var lat: Double
    var lon: Double
    var ele: Double
    var hr: Double
    /// Steps per minute.
    var cadence: Double
    /// Cumulative metres.
    var distance: Double
    var speed: Double
}

/// What kind of session to simulate.
enum Workout: String {
    case easy, long, tempo, intervals, recovery, race
}

/// A planned session.
struct RunPlan {
    var start: Double
    var workout: Workout
    var durationSeconds: Double
    /// Easy pace in seconds per km.
    var easyPace: Double
    var sampleInterval: Double
    var pauses: [(atSeconds: Double, lengthSeconds: Double)] = []
    var origin: (lat: Double, lon: Double) = (48.137, 11.575)
    var treadmill = false
    /// Run until this distance instead of for `durationSeconds` (the race).
    var finishMeters: Double?
    /// Stands still this many seconds on reaching each distance (an aid station;
    /// the watch auto-pauses, so no samples).
    var stops: [(atMeters: Double, seconds: Double)] = []
    /// From this share of `finishMeters` on, the pace slows linearly to
    /// `fadeShare` slower at the finish.
    var fadeFrom = 1.0
    var fadeShare = 0.0
}

/// Simulates a run: pace by workout, rolling terrain, GPS noise, HR that follows
/// effort with a lag and drifts upward, cadence tied to speed, and pauses.
enum Simulator {
    static func simulate(_ plan: RunPlan, rng: inout SeededRandom) -> [SimPoint] {
        var points: [SimPoint] = []
        var t = 0.0, moving = 0.0, dist = 0.0
        var lat = plan.origin.lat, lon = plan.origin.lon
        var heading = rng.uniform(0...(2 * .pi))
        var hr = 95.0
        let hillPhase = rng.uniform(0...6)
        var pauseIndex = 0, stopIndex = 0
        while plan.finishMeters.map({ dist < $0 }) ?? (moving <= plan.durationSeconds) {
            if stopIndex < plan.stops.count, dist >= plan.stops[stopIndex].atMeters {
                t += plan.stops[stopIndex].seconds
                hr = max(90, hr - plan.stops[stopIndex].seconds * 0.4)
                stopIndex += 1
            }
            if pauseIndex < plan.pauses.count, moving >= plan.pauses[pauseIndex].atSeconds {
                t += plan.pauses[pauseIndex].lengthSeconds
                hr = max(90, hr - plan.pauses[pauseIndex].lengthSeconds * 0.4)
                pauseIndex += 1
            }
            var pace = paceAt(moving, plan)
            if let finish = plan.finishMeters, dist > finish * plan.fadeFrom {
                pace *= 1 + plan.fadeShare * (dist / finish - plan.fadeFrom) / (1 - plan.fadeFrom)
            }
            let terrain = plan.treadmill ? 0 : sin(dist / 900 + hillPhase) * 12 + sin(dist / 310) * 4
            let grade = plan.treadmill ? 0 : (cos(dist / 900 + hillPhase) * 12 / 900 + cos(dist / 310) * 4 / 310)
            let speed = 1000 / pace * (1 - grade * 3)
            let dt = plan.sampleInterval
            let step = speed * dt
            heading += rng.gaussian(0.08)
            let dLat = step * cos(heading) / 111_195
            let dLon = step * sin(heading) / (111_195 * cos(lat * .pi / 180))
            lat += dLat; lon += dLon
            dist += step
            let effort = (plan.easyPace / pace) * (1 + grade * 4)
            let target = 92 + 56 * effort + moving / 3600 * 6
            hr += (target - hr) * min(1, dt / 25) + rng.gaussian(0.8)
            let cadence = 150 + (1000 / pace - 2.5) * 14 + rng.gaussian(1.5)
            points.append(
                SimPoint(
                    time: plan.start + t,
                    lat: plan.treadmill ? .nan : lat + rng.gaussian(0.000004),
                    lon: plan.treadmill ? .nan : lon + rng.gaussian(0.000004),
                    ele: plan.treadmill ? .nan : 520 + terrain + rng.gaussian(1.2),
                    hr: min(200, max(70, hr)), cadence: cadence, distance: dist, speed: speed))
            t += dt
            moving += dt
        }
        return points
    }

    /// Pace (s/km) at a moment of the session.
    static func paceAt(_ s: Double, _ plan: RunPlan) -> Double {
        let e = plan.easyPace
        switch plan.workout {
        case .easy: return e
        case .recovery: return e * 1.08
        case .long: return e * (s < plan.durationSeconds * 0.8 ? 1.02 : 0.97)
        case .tempo:
            return s < 900 || s > plan.durationSeconds - 600 ? e : e * 0.85
        case .intervals:
            guard s > 900, s < plan.durationSeconds - 600 else { return e }
            return Int((s - 900) / 180) % 2 == 0 ? e * 0.78 : e * 1.15
        case .race: return e * 0.84
        }
    }
}
