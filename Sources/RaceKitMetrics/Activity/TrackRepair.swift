import Dispatch
import RaceKitModel
import RaceKitOutput

/// Why a timed-looking activity was not kept.
public enum RepairOutcome: Sendable {
    case activity(Activity)
    /// Not an activity (e.g. fewer than two timed points); the reason says why.
    case notAnActivity(reason: String)
}

/// Turns what a reader found into a clean activity, by the documented rules
/// (docs/numbers.md, "Real-world repairs"):
///
/// 1. Points without a usable time are dropped.
/// 2. GPX points with missing, non-numeric or out-of-range coordinates, or at
///    exactly 0°/0° (a receiver without a fix), are dropped; TCX points keep their
///    time and other channels and only lose the position (TCX allows position-less
///    points: treadmills, pauses).
/// 3. Segments are put in time order; a point earlier than the previous kept one is
///    dropped; a point at the same time is merged into it (missing channels filled).
///    Times therefore strictly increase, so no pause can come out negative.
/// 4. Heart rate outside 25...250 bpm is removed (0 is "no contact"), with the
///    other channels' ranges (`Plausibility`).
/// 5. Elevation that is 0 on every point is a placeholder: unknown, not 0.
/// 6. Distance: the device's cumulative distance when it has one that grows (offset
///    so it starts at 0 unless the device's laps or session total count the offset
///    too, gaps interpolated in time, backward steps held); otherwise
///    great-circle distance over positions, summed within segments (a gap between
///    segments or tracks was never recorded; the path through points dropped
///    for a backward time counts, `BackwardBridge`); otherwise the laps' total when the
///    points have neither; otherwise unknown. Lap totals never override points.
/// 7. Running cadence is stored in steps per minute (`normaliseFootCadence`).
/// 8. A file without a sport is running unless its speeds say otherwise
///    (`SportInference`). Every channel is range-checked (`Plausibility`).
public enum TrackRepair {
    /// Minimum number of timed points for an activity.
    public static let minimumPoints = 2
    /// Heart rate accepted, in bpm.
    public static let heartRateRange = 25.0...250.0
    /// Document-level heart rate is matched to a point within this many seconds.
    public static let documentHeartRateTolerance = 5.0

    /// Repairs one activity of a document. The samples are compacted in place
    /// (no copy when the caller hands over its only reference).
    public static func repair(
        _ raw: consuming RawActivity, format: SourceFormat,
        documentHeartRate: [(time: Double, bpm: Double)] = []
    ) -> RepairOutcome {
        var report = RepairReport()
        report.timesWithoutZone = raw.issues.timesWithoutZone
        report.nonNumericValues = raw.issues.nonNumericValues
        var samples = SampleSeries()
        swap(&samples, &raw.samples)
        var starts = segmentBounds(raw.segmentStarts, count: samples.count).map(\.lowerBound)
        if let reordered = orderSegments(&samples, starts: starts) {
            starts = reordered
            report.reorderedSegments = starts.count
        }
        starts = rebaseClockJumps(&samples, starts: starts, report: &report)
        var bridges: [Int: BackwardBridge] = [:]
        let segmentStarts = compact(
            &samples, segmentStarts: starts, requirePosition: format == .gpx, report: &report, bridges: &bridges)
        guard samples.count >= minimumPoints else {
            // Say why the points went: a file whose clock runs backwards is not
            // "a single timed point" to the runner who recorded an hour.
            let backward = report.droppedBackwardTime
            let reason =
                backward > 0
                ? "its timestamps run backwards (\(backward) of \(backward + samples.count) points earlier than the point before them): no track to keep"
                : samples.count == 1
                    ? "a track with a single timed point is not an activity" : "the track has no timed points"
            return .notAnActivity(reason: reason)
        }

        // Heart rate kept once per document keyed by time.
        if !documentHeartRate.isEmpty, !samples.has(.heartRate) {
            attach(documentHeartRate, to: &samples)
        }

        // Plausibility by channel (docs/numbers.md, "Plausibility").
        Plausibility.clean(&samples, report: &report)
        let elapsed = samples.time[samples.count - 1] - samples.time[0]
        guard elapsed <= Plausibility.maximumElapsedSeconds else {
            return .notAnActivity(
                reason: "its points span \(TextFormat.fixed(elapsed / 86_400, 1)) days, more than the "
                    + "\(Int(Plausibility.maximumElapsedSeconds / 86_400))-day limit of one activity (a clock reset mixes dates)"
            )
        }

        // 5: all-zero elevation is a placeholder.
        let elevations = samples.elevation.filter { !$0.isNaN }
        if !elevations.isEmpty, elevations.allSatisfy({ $0 == 0 }) {
            report.zeroElevationDiscarded = true
            samples.elevation = ContiguousArray(repeating: .nan, count: samples.count)
        }

        let declared = Sport(fileValue: raw.sport)
        var sport = declared ?? .running

        // 6: distance.
        let hasPositions = samples.has(.latitude)
        var source = DistanceSource.none
        var total: Double? = nil
        let speedLimit = SportLimits.of(sport, declared: declared != nil).maxPlausibleSpeed
        if let deviceTotal = normaliseDeviceDistance(&samples, maxSpeed: speedLimit, report: &report) {
            source = .device
            total = deviceTotal
            // A counter already past 0 at the first record (a FIT file whose first
            // record holds 25 m, a pool swim's first length) counted from the
            // activity's start when the device's own total (laps or session) is
            // the last value (within 2% and 10 m), not the span: the offset is
            // distance run. An excerpt's lap total matches neither.
            let offset = report.distanceOffsetMeters
            let device = raw.laps.compactMap(\.distanceMeters).reduce(0, +)
            let last = deviceTotal + offset
            if offset > 0, device > 0, abs(device - last) <= 0.02 * device + 10,
                abs(device - last) < abs(device - deviceTotal)
            {
                samples.modify(.distance) { d in for i in d.indices { d[i] += offset } }
                total = deviceTotal + offset
                report.distanceOffsetMeters = 0
            }
        } else if hasPositions {
            total = computeGPSDistance(
                &samples, segmentStarts: segmentStarts, maxSpeed: speedLimit, report: &report, bridges: bridges)
            source = .gps
            // An Apple Health workout's route with the workout's own total (the
            // watch's distance, from its accelerometer and GPS): the device
            // distance wins, the route's shape spread over it (within 10%).
            let workout = raw.laps.compactMap(\.distanceMeters).reduce(0, +)
            if format == .health, let gps = total, gps > 0, workout > 0, abs(workout - gps) <= 0.1 * gps {
                let scale = workout / gps
                samples.modify(.distance) { d in for i in d.indices { d[i] *= scale } }
                total = workout
                source = .device
            }
        } else {
            samples.distance = ContiguousArray(repeating: .nan, count: samples.count)
            let lapTotal = raw.laps.compactMap(\.distanceMeters).reduce(0, +)
            if lapTotal > 0 { source = .laps; total = lapTotal }
        }

        // 8: a file without a sport whose speeds are not a run's.
        if declared == nil, source == .device || source == .gps,
            let inferred = SportInference.infer(samples, segmentStarts: segmentStarts)
        {
            sport = inferred
            report.inferredSport = inferred.rawValue
        }

        // 7: cadence in steps per minute on foot; then the sport's range.
        if sport == .running || sport == .walking || sport == .hiking {
            normaliseFootCadence(&samples, perLeg: raw.cadenceIsPerLeg, report: &report)
        }
        Plausibility.cleanCadence(&samples, sport: sport, report: &report)

        let lapDistance = raw.laps.compactMap(\.distanceMeters).reduce(0, +)
        let lapTime = raw.laps.compactMap(\.totalTimeSeconds).reduce(0, +)
        let span = samples.time[samples.count - 1] - samples.time[0]
        if source != .laps, lapDistance > (total ?? 0) * 1.1 + 100 || lapTime > span * 1.1 + 60 {
            report.lapTotalsIgnored = true
        }
        if let timer = raw.session?.totalTimeSeconds, timer > span * 1.1 + 60 { report.sessionTotalsIgnored = true }

        var activity = Activity(
            sport: sport, sportDeclared: declared != nil, name: raw.name, creator: raw.creator,
            format: format, samples: samples, segmentStarts: segmentStarts, distanceSource: source,
            distanceMeters: total, laps: raw.laps,
            isIndoor: !hasPositions && (source == .device || source == .laps), repairs: report)
        activity.notes = raw.notes
        activity.session = raw.session
        return .activity(activity)
    }

    /// The plausibility rules again, on a stored activity (values stored by an
    /// older version), and the sport inferred again when the file declared none
    /// and nobody set it. Returns true when the sport changed.
    @discardableResult
    public static func recheck(_ activity: inout Activity) -> Bool {
        var report = RepairReport()
        Plausibility.clean(&activity.samples, report: &report)
        var changed = false
        if !activity.sportDeclared, activity.distanceSource == .device || activity.distanceSource == .gps {
            let sport = SportInference.infer(activity.samples, segmentStarts: activity.segmentStarts) ?? .running
            changed = sport != activity.sport
            activity.sport = sport
        }
        Plausibility.cleanCadence(&activity.samples, sport: activity.sport, report: &report)
        return changed
    }

    /// Rules 1-4 in one pass: drops or strips points, merges equal times, keeps
    /// times strictly increasing; returns the new segment starts. The path through
    /// points dropped for a backward time goes into `bridges`, keyed by the kept
    /// point it leads to (`BackwardBridge`).
    static func compact(
        _ s: inout SampleSeries, segmentStarts: [Int], requirePosition: Bool,
        report: inout RepairReport, bridges: inout [Int: BackwardBridge]
    ) -> [Int] {
        var path = BackwardPath()
        var w = 0
        var newStarts: [Int] = []
        var nextSegment = 0
        var pendingStart = false
        for r in 0..<s.count {
            if nextSegment < segmentStarts.count, segmentStarts[nextSegment] == r {
                pendingStart = true
                nextSegment += 1
            }
            let t = s.time[r]
            guard t.isFinite else { report.droppedUntimed += 1; continue }
            let lat = s.latitude[r], lon = s.longitude[r]
            if !lat.isNaN || !lon.isNaN {
                let valid = !lat.isNaN && !lon.isNaN && abs(lat) <= 90 && abs(lon) <= 180
                let nullIsland = valid && lat == 0 && lon == 0
                if !valid || nullIsland {
                    if nullIsland { report.nullIslandPositions += 1 } else { report.droppedInvalidPosition += 1 }
                    if requirePosition { continue }
                    s.latitude[r] = .nan; s.longitude[r] = .nan
                }
            } else if requirePosition {
                report.droppedInvalidPosition += 1
                continue
            }
            if w > 0 {
                let last = s.time[w - 1]
                if t < last {
                    report.droppedBackwardTime += 1
                    path.dropped(latitude: s.latitude[r], longitude: s.longitude[r], time: t)
                    continue
                }
                if t == last {
                    path.merged(latitude: s.latitude[r], longitude: s.longitude[r], time: t)
                    s.fillMissing(point: w - 1, from: r)
                    report.mergedDuplicateTime += 1
                    continue
                }
            }
            if pendingStart {
                newStarts.append(w)
                pendingStart = false
                path = BackwardPath()   // no path across a segment's gap
            }
            if let bridge = path.kept(at: w, latitude: s.latitude[r], longitude: s.longitude[r], time: t) {
                bridges[w] = bridge
            }
            if w != r { s.move(point: r, to: w) }
            w += 1
        }
        let excess = s.count - w
        if excess > 0 {
            s.removeLast(excess)
        }
        if newStarts.first != 0, w > 0 { newStarts.insert(0, at: 0) }
        return newStarts
    }

    /// Running cadence above this many strides per minute is a sprint; a per-leg
    /// value this high at a slower speed was already steps per minute.
    public static let maxStrideCadence = 130.0
    /// Doubling a per-leg value to more than this many steps per minute while the
    /// median speed is under `stepsSpeedLimit` (m/s; 3:20/km) means it was already
    /// steps per minute (easy running is 150-185 spm).
    public static let maxDoubledCadence = 230.0
    public static let stepsSpeedLimit = 5.0

    /// Rule 7: running cadence in steps per minute. A per-leg source (TCX
    /// `RunCadence`) is doubled unless its values are already steps (some exporters
    /// write steps there): a median above `maxStrideCadence`, or doubled above
    /// `maxDoubledCadence` at a median speed under `stepsSpeedLimit`. Any other
    /// source is doubled when its median is below 120 (strides per minute, as
    /// Garmin and Strava write it) and kept otherwise.
    static func normaliseFootCadence(_ samples: inout SampleSeries, perLeg: Bool, report: inout RepairReport) {
        guard let median = sampledMedian(samples.cadence, where: { $0 > 0 }) else { return }
        var double = median < 120
        if perLeg {
            let speed = medianStepSpeed(samples)
            let alreadySteps =
                median > maxStrideCadence || (2 * median > maxDoubledCadence && (speed ?? 0) < stepsSpeedLimit)
            double = !alreadySteps
            report.cadenceAlreadySteps = alreadySteps
        }
        guard double else { return }
        for i in samples.cadence.indices { samples.cadence[i] *= 2 }
        report.cadenceDoubled = true
    }

    /// Median speed (m/s) of the steps of at most 10 s that carry cadence, from the
    /// distance stream; nil without one.
    static func medianStepSpeed(_ s: SampleSeries) -> Double? {
        var speeds = ContiguousArray<Double>()
        let stride = max(1, s.count / 4000)
        var i = 1
        while i < s.count {
            let dt = s.time[i] - s.time[i - 1], dd = s.distance[i] - s.distance[i - 1]
            if dt > 0, dt <= 10, dd.isFinite, s.cadence[i] > 0 { speeds.append(dd / dt) }
            i += stride
        }
        return sampledMedian(speeds) { _ in true }
    }

    /// Puts segments in the order of their first timestamp when they are not;
    /// returns the new segment starts, or nil when they were already in order.
    static func orderSegments(_ s: inout SampleSeries, starts: [Int]) -> [Int]? {
        guard starts.count > 1 else { return nil }
        let bounds = segmentBounds(starts, count: s.count)
        let time = s.time
        let firstTimes = bounds.map { range in range.lazy.map { time[$0] }.first { $0.isFinite } ?? -.infinity }
        let order = bounds.indices.sorted {
            firstTimes[$0] != firstTimes[$1] ? firstTimes[$0] < firstTimes[$1] : $0 < $1
        }
        guard order != Array(bounds.indices) else { return nil }
        var out = SampleSeries()
        out.reserveCapacity(s.count)
        var newStarts: [Int] = []
        for k in order {
            newStarts.append(out.count)
            for i in bounds[k] { out.append(s, point: i) }
        }
        s = out
        return newStarts
    }

    /// Median of the values passing `include`, from at most ~4,000 evenly spaced
    /// samples (enough to tell strides from steps, without sorting a whole run).
    static func sampledMedian(_ values: ContiguousArray<Double>, where include: (Double) -> Bool) -> Double? {
        let stride = max(1, values.count / 4000)
        var picked: [Double] = []
        var i = 0
        while i < values.count {
            if include(values[i]) { picked.append(values[i]) }
            i += stride
        }
        if picked.isEmpty { picked = values.filter(include) }
        guard !picked.isEmpty else { return nil }
        return OrderStatistic.select(&picked, picked.count / 2)
    }

    static func segmentBounds(_ starts: [Int], count: Int) -> [Range<Int>] {
        var edges = starts.filter { $0 >= 0 && $0 < count }
        if edges.first != 0 { edges.insert(0, at: 0) }
        var out: [Range<Int>] = []
        for (k, s) in edges.enumerated() {
            let e = k + 1 < edges.count ? edges[k + 1] : count
            if e > s { out.append(s..<e) }
        }
        return out
    }

    /// Makes the device distance cumulative from 0; nil when there is no usable one.
    /// A value that jumps ahead of the last kept one by more than three times
    /// `maxSpeed` (over at least a second) plus 200 m is a spike: dropped and interpolated over. When more than a
    /// tenth of the values are spikes the device distance is not used at all.
    static func normaliseDeviceDistance(_ s: inout SampleSeries, maxSpeed: Double, report: inout RepairReport)
        -> Double?
    {
        var known: [Int] = []
        var spikes = 0
        for i in s.distance.indices where s.distance[i].isFinite && s.distance[i] >= 0 {
            if let last = known.last {
                let dt = max(1, s.time[i] - s.time[last])
                if s.distance[i] - s.distance[last] > 3 * maxSpeed * dt + 200 { spikes += 1; continue }
            }
            known.append(i)
        }
        guard known.count >= 2, spikes * 10 <= known.count + spikes else { return nil }
        report.distanceSpikes = spikes
        let first = s.distance[known[0]]
        let maxValue = known.reduce(first) { max($0, s.distance[$1]) }
        guard maxValue > first else { return nil }
        var d = ContiguousArray<Double>(repeating: 0, count: s.count)
        var running = 0.0
        var k = 0
        for i in 0..<s.count {
            if k < known.count, known[k] == i {
                var v = s.distance[i] - first
                if v < running { report.clampedDistance += 1; v = running }
                running = v
                d[i] = v
                k += 1
            } else if k == 0 {
                d[i] = 0
            } else if k < known.count {
                // Between known[k-1] and known[k]: interpolate in time.
                let a = known[k - 1], b = known[k]
                let va = d[a], vb = max(running, s.distance[b] - first)
                let ta = s.time[a], tb = s.time[b]
                d[i] = tb > ta ? va + (vb - va) * (s.time[i] - ta) / (tb - ta) : va
                // Missing values only: a dropped spike is counted as a spike.
                if !(s.distance[i].isFinite && s.distance[i] >= 0) { report.interpolatedDistance += 1 }
            } else {
                d[i] = running
            }
        }
        if first > 0 { report.distanceOffsetMeters = first }
        s.distance = d
        return running
    }

    /// Fills `distance` with cumulative great-circle metres, summed within
    /// segments, leaving out GPS jumps: a fix reached from the last accepted one
    /// faster than `maxSpeed` (m/s; steps under 1 s count as 1 s) is not
    /// movement. When three rejected fixes in a row agree with each other, the
    /// receiver really is there (a lost fix regained elsewhere): the track resumes
    /// from them without counting the jump.
    ///
    /// A kept point that would be a jump but is reached through points dropped for
    /// a backward timestamp (a lap whose first points step back in time) is
    /// reached along their path when every step of it was plausible: the ground they cover was run, only their
    /// clock is wrong (`bridges`, from `compact`).
    public static func computeGPSDistance(
        _ s: inout SampleSeries, segmentStarts: [Int], maxSpeed: Double,
        report: inout RepairReport, bridges: [Int: BackwardBridge] = [:]
    ) -> Double {
        var d = ContiguousArray<Double>(repeating: 0, count: s.count)
        var total = 0.0
        var last = -1
        var rejected: [Int] = []
        var nextSegment = 0
        // The step from each point to the next, computed up front on two cores
        // (the trigonometry is most of this function's time); the walk below
        // uses it whenever it steps from one point to the very next.
        let neighbour = Self.neighbourSteps(s)
        func step(_ a: Int, _ b: Int) -> (meters: Double, speed: Double) {
            let m =
                b == a + 1
                ? neighbour[b]
                : Geodesy.distance(lat1: s.latitude[a], lon1: s.longitude[a], lat2: s.latitude[b], lon2: s.longitude[b])
            return (m, m / max(1, s.time[b] - s.time[a]))
        }
        for i in 0..<s.count {
            if nextSegment < segmentStarts.count, segmentStarts[nextSegment] == i {
                last = -1
                rejected.removeAll()
                nextSegment += 1
            }
            if !s.latitude[i].isNaN {
                if last < 0 {
                    last = i
                } else {
                    let (meters, speed) = step(last, i)
                    if speed > maxSpeed, let bridge = bridges[i], bridge.from == last, bridge.fastestStep <= maxSpeed {
                        total += bridge.meters
                        report.backwardPathMeters += bridge.meters
                        last = i
                        report.gpsJumpPoints += rejected.count
                        rejected.removeAll()
                    } else if speed <= maxSpeed {
                        total += meters
                        last = i
                        report.gpsJumpPoints += rejected.count
                        rejected.removeAll()
                    } else {
                        rejected.append(i)
                        let n = rejected.count
                        if n >= 3, step(rejected[n - 3], rejected[n - 2]).speed <= maxSpeed,
                            step(rejected[n - 2], rejected[n - 1]).speed <= maxSpeed
                        {
                            total +=
                                step(rejected[n - 3], rejected[n - 2]).meters
                                + step(rejected[n - 2], rejected[n - 1]).meters
                            report.gpsJumps += 1
                            report.gpsJumpPoints += n - 3
                            last = i
                            rejected.removeAll()
                        }
                    }
                }
            }
            d[i] = total
        }
        report.gpsJumpPoints += rejected.count
        s.distance = d
        return total
    }

    /// `steps[i]`: great-circle metres from point i - 1 to point i (NaN without
    /// positions; `steps[0]` unused). Long tracks are split in two halves computed
    /// side by side; the values do not depend on the split.
    static func neighbourSteps(_ s: SampleSeries) -> ContiguousArray<Double> {
        let n = s.count
        var steps = ContiguousArray<Double>(repeating: .nan, count: n)
        guard n > 1 else { return steps }
        s.latitude.withUnsafeBufferPointer { lat in
            s.longitude.withUnsafeBufferPointer { lon in
                steps.withUnsafeMutableBufferPointer { out in
                    let p = StepBuffers(lat: lat.baseAddress!, lon: lon.baseAddress!, out: out.baseAddress!)
                    let middle = n / 2
                    SideBySide.run(threaded: n >= SideBySide.minimumPoints) {
                        p.fill(1..<middle)
                    } _: {
                        p.fill(middle..<n)
                    }
                }
            }
        }
        return steps
    }

    /// The buffers `neighbourSteps` reads and writes; each half writes its own range.
    private struct StepBuffers: @unchecked Sendable {
        let lat: UnsafePointer<Double>
        let lon: UnsafePointer<Double>
        let out: UnsafeMutablePointer<Double>

        func fill(_ range: Range<Int>) {
            for i in range {
                out[i] = Geodesy.distance(lat1: lat[i - 1], lon1: lon[i - 1], lat2: lat[i], lon2: lon[i])
            }
        }
    }

    /// Gives each point the document heart rate nearest in time, within the tolerance.
    static func attach(_ track: [(time: Double, bpm: Double)], to s: inout SampleSeries) {
        // One copy (the document keeps its own), filtered and sorted in place.
        var hr = track
        hr.removeAll { !($0.time.isFinite && heartRateRange.contains($0.bpm)) }
        hr.sort { $0.time < $1.time }
        guard !hr.isEmpty else { return }
        var j = 0
        for i in 0..<s.count {
            let t = s.time[i]
            while j + 1 < hr.count, abs(hr[j + 1].time - t) <= abs(hr[j].time - t) { j += 1 }
            if abs(hr[j].time - t) <= documentHeartRateTolerance { s.heartRate[i] = hr[j].bpm }
        }
    }
}
