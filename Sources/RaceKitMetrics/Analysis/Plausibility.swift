import RaceKitModel

/// Physical ranges by channel (docs/numbers.md, "Plausibility"). A value outside its range
/// is not data: it is removed and treated like a missing value (elevation and
/// distance are interpolated over, averages skip it) and counted in the repair
/// report. Applied at import and again when stored runs are recomputed, so a value
/// stored by an older version cannot reach a summary either.
public enum Plausibility {
    /// Elevation in metres: the Dead Sea shore is -430 m, Everest 8,849 m. Vendor
    /// "no data" sentinels (-32768, -9999, 65535, 32767) fall outside.
    public static let elevationMeters = -500.0...9000.0
    /// A run of exact zeros at the start or end of a profile is a placeholder (the
    /// barometer or GPS altitude not yet there) when the first real value next to it
    /// is at least this far from 0 m.
    public static let edgeZeroJumpMeters = 10.0
    /// Heart rate in bpm (0 is a strap without contact).
    public static let heartRateBpm = TrackRepair.heartRateRange
    /// Power in watts: a track sprinter's peak is about 2,500 W.
    public static let powerWatts = 0.0...3000.0
    /// Air temperature in °C at a sensor on the body.
    public static let temperatureCelsius = -60.0...70.0
    /// The longest activity stored: 7 days (the longest foot races, the Tor des
    /// Géants and the Barkley, take 4 to 6 days). Longer is two clocks mixed up.
    public static let maximumElapsedSeconds = 7 * 86_400.0

    /// Cadence in stored units (steps per minute on foot, rpm on a bike, strokes per
    /// minute swimming). 0 stays (standing, coasting) and is left out of averages.
    public static func cadence(_ sport: Sport) -> ClosedRange<Double> {
        switch sport {
        case .running, .walking, .hiking: return 30...280
        case .cycling: return 10...220
        case .swimming: return 5...150
        case .other, .skiing, .driving: return 1...300
        }
    }

    /// Removes implausible values from every channel but time and position (those
    /// have their own rules in `TrackRepair`); counts what it removed.
    static func clean(_ s: inout SampleSeries, report: inout RepairReport) {
        let elevation = cleanElevation(&s.elevation, along: s.time, maxRate: maxVerticalSpeed, floor: 1)
        report.droppedElevation += elevation.outOfRange + elevation.tooSteep
        report.edgeZeroElevation += elevation.edgeZeros
        var dropped = 0
        for (channel, range) in [
            (SampleSeries.Channel.power, powerWatts), (.temperature, temperatureCelsius),
            (.speed, 0.0...1000.0)
        ] {
            s.modify(channel) { v in
                for i in v.indices where !v[i].isNaN && !range.contains(v[i]) { v[i] = .nan; dropped += 1 }
            }
        }
        s.modify(.heartRate) { v in
            for i in v.indices where !v[i].isNaN && !heartRateBpm.contains(v[i]) {
                v[i] = .nan; report.droppedHeartRate += 1
            }
        }
        s.modify(.cadence) { v in
            for i in v.indices where !v[i].isNaN && (!v[i].isFinite || v[i] < 0) { v[i] = .nan; dropped += 1 }
        }
        s.modify(.distance) { v in
            for i in v.indices where !v[i].isNaN && !v[i].isFinite { v[i] = .nan; dropped += 1 }
        }
        report.droppedOtherValues += dropped
    }

    /// Fastest climb or descent a recorded activity can show, in m/s: a ski lift
    /// or a cable car is about 5; a runner's steepest race about 0.5. Elevation
    /// junk (0, 512, 0, 514 a second apart) changes by hundreds of metres a second.
    public static let maxVerticalSpeed = 10.0
    /// Steepest rise or fall of a race course between two points, in metres per
    /// metre (100%: a staircase is about 70%), judged over at least
    /// `courseGradeFloorMeters` (GPS elevation wanders a few metres between points
    /// a metre apart).
    public static let maxCourseGrade = 1.0
    public static let courseGradeFloorMeters = 50.0

    /// Elevation outside `elevationMeters`, placeholder zeros at either end, and
    /// values no one can reach that fast become missing (for activities and race
    /// courses alike). `along` is each point's position on an axis (seconds for
    /// an activity, metres for a course), `maxRate` the most metres of elevation
    /// per unit of it, over at least `floor` units: a value is left out when it is
    /// further than that from most of its ten nearest valid neighbours
    /// (`steepOutliers`).
    public static func cleanElevation(
        _ e: inout ContiguousArray<Double>, along axis: ContiguousArray<Double>, maxRate: Double, floor: Double
    ) -> (outOfRange: Int, edgeZeros: Int, tooSteep: Int) {
        var outOfRange = 0
        for i in e.indices where !e[i].isNaN && !elevationMeters.contains(e[i]) { e[i] = .nan; outOfRange += 1 }
        let edgeZeros = dropEdgeZeros(&e)
        let steep = steepOutliers(e, along: axis, maxRate: maxRate, floor: floor)
        for i in steep { e[i] = .nan }
        return (outOfRange, edgeZeros, steep.count)
    }

    /// The valid values that more than half of their (up to) ten nearest valid
    /// neighbours, five on each side, could only be reached from faster than
    /// `maxRate` (elevation metres per unit of `axis`, a step counted as at least
    /// `floor` units). A majority vote: junk alternating with real values is outvoted
    /// by the real ones around it, whatever its own neighbours.
    static func steepOutliers(
        _ e: ContiguousArray<Double>, along axis: ContiguousArray<Double>, maxRate: Double, floor: Double
    ) -> [Int] {
        let valid = e.indices.filter { !e[$0].isNaN && $0 < axis.count && axis[$0].isFinite }
        guard valid.count >= 3 else { return [] }
        // Over buffers: the loop runs ten times per point of a file of any size.
        // A long track's two halves are voted side by side (each point's vote
        // reads its neighbours only, so the split changes nothing).
        return valid.withUnsafeBufferPointer { v in
            e.withUnsafeBufferPointer { e in
                axis.withUnsafeBufferPointer { axis in
                    let votes = SteepVotes(
                        valid: v.baseAddress!, count: v.count, e: e.baseAddress!, axis: axis.baseAddress!,
                        maxRate: maxRate, floor: floor)
                    let count = v.count
                    if count < SideBySide.minimumPoints { return votes.outliers(0..<count) }
                    let middle = count / 2
                    var first: [Int] = []
                    let second = Locked<[Int]>([])
                    SideBySide.run(threaded: true) {
                        first = votes.outliers(0..<middle)
                    } _: {
                        let found = votes.outliers(middle..<count)
                        second.withLock { $0 = found }
                    }
                    return first + second.withLock { $0 }
                }
            }
        }
    }

    /// The series `steepOutliers` votes over, as plain pointers (read only, from
    /// either half's thread).
    private struct SteepVotes: @unchecked Sendable {
        // @unchecked: pointers into arrays that outlive the vote, only read.
        let valid: UnsafePointer<Int>
        let count: Int
        let e: UnsafePointer<Double>
        let axis: UnsafePointer<Double>
        let maxRate: Double
        let floor: Double

        /// The outliers among valid values `range` (indices into `valid`), in order.
        func outliers(_ range: Range<Int>) -> [Int] {
            var out: [Int] = []
            for k in range {
                let i = valid[k], ei = e[i], ai = axis[i]
                var votes = 0, against = 0
                // The valid indices are distinct: the neighbours are the others.
                for m in max(0, k - 5)..<min(count, k + 6) where m != k {
                    let j = valid[m]
                    votes += 1
                    if abs(ei - e[j]) > maxRate * max(floor, abs(ai - axis[j])) { against += 1 }
                }
                if against * 2 > votes { out.append(i) }
            }
            return out
        }
    }

    /// Cadence outside the sport's range (after the unit is settled) becomes missing.
    static func cleanCadence(_ s: inout SampleSeries, sport: Sport, report: inout RepairReport) {
        let range = cadence(sport)
        var dropped = 0
        s.modify(.cadence) { v in
            for i in v.indices where !v[i].isNaN && v[i] != 0 && !range.contains(v[i]) { v[i] = .nan; dropped += 1 }
        }
        report.droppedCadence += dropped
    }

    /// Leading and trailing runs of exact 0 m next to a real value at least
    /// `edgeZeroJumpMeters` away become missing.
    static func dropEdgeZeros(_ e: inout ContiguousArray<Double>) -> Int {
        var dropped = 0
        func clear(_ indices: [Int]) {
            guard let boundary = indices.first(where: { !e[$0].isNaN && e[$0] != 0 }),
                abs(e[boundary]) >= edgeZeroJumpMeters
            else { return }
            for i in indices {
                if i == boundary { break }
                if e[i] == 0 { e[i] = .nan; dropped += 1 }
            }
        }
        clear(Array(e.indices))
        clear(Array(e.indices.reversed()))
        return dropped
    }
}

extension RunSummary {
    /// The summary with every non-finite or impossible figure made unknown (nil):
    /// whatever reached the analysis, no stored summary holds NaN, infinity or a
    /// negative time or distance.
    public func sanitised() -> RunSummary {
        func ok(_ v: Double?, _ range: ClosedRange<Double>) -> Double? {
            v.flatMap { $0.isFinite && range.contains($0) ? $0 : nil }
        }
        var s = self
        s.distanceMeters = ok(distanceMeters, 0...1e8)
        s.avgHeartRate = ok(avgHeartRate, Plausibility.heartRateBpm)
        s.maxHeartRate = ok(maxHeartRate, Plausibility.heartRateBpm)
        s.movingSeconds = ok(movingSeconds, 0...max(0, elapsedSeconds))
        s.ascentMeters = ok(ascentMeters, 0...1e6)
        s.descentMeters = ok(descentMeters, 0...1e6)
        s.heartRateCoveragePercent = ok(heartRateCoveragePercent, 0...100)
        s.avgCadence = ok(avgCadence, 0...1000)
        s.gradeAdjustedPaceSecondsPerKm = ok(gradeAdjustedPaceSecondsPerKm, 1...1e6)
        return s
    }
}
