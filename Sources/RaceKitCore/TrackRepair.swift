/// Why a timed-looking activity was not kept.
public enum RepairOutcome: Sendable {
    case activity(Activity)
    /// Not an activity (e.g. fewer than two timed points); the reason says why.
    case notAnActivity(reason: String)
}

/// Turns what a reader found into a clean activity, by the documented rules
/// (README, "Real-world repairs"):
///
/// 1. Points without a usable time are dropped.
/// 2. GPX points with missing, non-numeric or out-of-range coordinates, or at
///    exactly 0°/0° (a receiver without a fix), are dropped; TCX points keep their
///    time and other channels and only lose the position (TCX allows position-less
///    points: treadmills, pauses).
/// 3. Segments are put in time order; a point earlier than the previous kept one is
///    dropped; a point at the same time is merged into it (missing channels filled).
///    Times therefore strictly increase, so no pause can come out negative.
/// 4. Heart rate outside 25...250 bpm is removed (0 is "no contact").
/// 5. Elevation that is 0 on every point is a placeholder: unknown, not 0.
/// 6. Distance: the device's cumulative distance when it has one that grows (offset
///    so it starts at 0, gaps interpolated in time, backward steps held); otherwise
///    great-circle distance over positions, summed within segments (a gap between
///    segments or tracks was never recorded); otherwise the laps' total when the
///    points have neither; otherwise unknown. Lap totals never override points.
/// 7. Running cadence is stored in steps per minute: TCX `RunCadence` is per leg
///    and is doubled; other running cadence is doubled when its median is below
///    120 (strides per minute, as Garmin and Strava write it) and kept otherwise.
public enum TrackRepair {
    /// Minimum number of timed points for an activity.
    public static let minimumPoints = 2
    /// Heart rate accepted, in bpm.
    public static let heartRateRange = 25.0...250.0
    /// Document-level heart rate is matched to a point within this many seconds.
    public static let documentHeartRateTolerance = 5.0

    /// Repairs one activity of a document.
    public static func repair(_ raw: RawActivity, format: SourceFormat,
                              documentHeartRate: [(time: Double, bpm: Double)] = []) -> RepairOutcome {
        var report = RepairReport()
        report.timesWithoutZone = raw.issues.timesWithoutZone
        let requirePosition = format == .gpx

        // 1-2: filter points segment by segment.
        var segments: [SampleSeries] = []
        let bounds = segmentBounds(raw.segmentStarts, count: raw.samples.count)
        for range in bounds {
            var seg = SampleSeries()
            seg.reserveCapacity(range.count)
            for i in range {
                var p = raw.samples[point: i]
                guard p.time.isFinite else { report.droppedUntimed += 1; continue }
                let hasLat = !p.latitude.isNaN, hasLon = !p.longitude.isNaN
                if hasLat || hasLon {
                    let valid = hasLat && hasLon && abs(p.latitude) <= 90 && abs(p.longitude) <= 180
                    let nullIsland = valid && p.latitude == 0 && p.longitude == 0
                    if !valid || nullIsland {
                        if nullIsland { report.nullIslandPositions += 1 } else { report.droppedInvalidPosition += 1 }
                        if requirePosition { continue }
                        p.latitude = .nan; p.longitude = .nan
                    }
                } else if requirePosition {
                    report.droppedInvalidPosition += 1
                    continue
                }
                if !p.heartRate.isNaN, !heartRateRange.contains(p.heartRate) {
                    report.droppedHeartRate += 1
                    p.heartRate = .nan
                }
                seg.append(p)
            }
            if !seg.isEmpty { segments.append(seg) }
        }

        // 3: order segments, then enforce strictly increasing time.
        let sorted = segments.enumerated().sorted { a, b in
            a.element.time[0] != b.element.time[0] ? a.element.time[0] < b.element.time[0] : a.offset < b.offset
        }
        if sorted.map(\.offset) != Array(segments.indices) { report.reorderedSegments = segments.count }
        var samples = SampleSeries()
        samples.reserveCapacity(segments.reduce(0) { $0 + $1.count })
        var segmentStarts: [Int] = []
        for (_, seg) in sorted {
            var startedSegment = false
            for i in 0..<seg.count {
                let p = seg[point: i]
                if let last = samples.time.last {
                    if p.time < last { report.droppedBackwardTime += 1; continue }
                    if p.time == last {
                        var merged = samples[point: samples.count - 1]
                        merged.fillMissing(from: p)
                        samples[point: samples.count - 1] = merged
                        report.mergedDuplicateTime += 1
                        continue
                    }
                }
                if !startedSegment { segmentStarts.append(samples.count); startedSegment = true }
                samples.append(p)
            }
        }
        guard samples.count >= minimumPoints else {
            return .notAnActivity(reason: samples.count == 1
                ? "a track with a single timed point is not an activity"
                : "the track has no timed points")
        }

        // Heart rate kept once per document keyed by time.
        if !documentHeartRate.isEmpty, !samples.has(.heartRate) {
            attach(documentHeartRate, to: &samples)
        }

        // 5: all-zero elevation is a placeholder.
        let elevations = samples.elevation.filter { !$0.isNaN }
        if !elevations.isEmpty, elevations.allSatisfy({ $0 == 0 }) {
            report.zeroElevationDiscarded = true
            samples.elevation = ContiguousArray(repeating: .nan, count: samples.count)
        }

        let declared = Sport(fileValue: raw.sport)
        let sport = declared ?? .running

        // 7: cadence in steps per minute for running.
        if sport == .running || sport == .walking || sport == .hiking {
            let positive = samples.cadence.filter { $0 > 0 }.sorted()
            if !positive.isEmpty, raw.cadenceIsPerLeg || positive[positive.count / 2] < 120 {
                for i in samples.cadence.indices { samples.cadence[i] *= 2 }
                report.cadenceDoubled = true
            }
        }

        // 6: distance.
        let hasPositions = samples.has(.latitude)
        var source = DistanceSource.none
        var total: Double? = nil
        if let deviceTotal = normaliseDeviceDistance(&samples, report: &report) {
            source = .device
            total = deviceTotal
        } else if hasPositions {
            total = computeGPSDistance(&samples, segmentStarts: segmentStarts)
            source = .gps
        } else {
            samples.distance = ContiguousArray(repeating: .nan, count: samples.count)
            let lapTotal = raw.laps.compactMap(\.distanceMeters).reduce(0, +)
            if lapTotal > 0 { source = .laps; total = lapTotal }
        }
        let lapDistance = raw.laps.compactMap(\.distanceMeters).reduce(0, +)
        let lapTime = raw.laps.compactMap(\.totalTimeSeconds).reduce(0, +)
        let span = samples.time[samples.count - 1] - samples.time[0]
        if source != .laps, (lapDistance > (total ?? 0) * 1.1 + 100 || lapTime > span * 1.1 + 60) {
            report.lapTotalsIgnored = true
        }

        let activity = Activity(
            sport: sport, sportDeclared: declared != nil, name: raw.name, creator: raw.creator,
            format: format, samples: samples, segmentStarts: segmentStarts, distanceSource: source,
            distanceMeters: total, laps: raw.laps,
            isIndoor: !hasPositions && (source == .device || source == .laps), repairs: report)
        return .activity(activity)
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
    static func normaliseDeviceDistance(_ s: inout SampleSeries, report: inout RepairReport) -> Double? {
        let known = s.distance.indices.filter { s.distance[$0].isFinite && s.distance[$0] >= 0 }
        guard known.count >= 2 else { return nil }
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
                report.interpolatedDistance += 1
            } else {
                d[i] = running
            }
        }
        if first > 0 { report.distanceOffsetMeters = first }
        s.distance = d
        return running
    }

    /// Fills `distance` with cumulative great-circle metres, summed within segments.
    static func computeGPSDistance(_ s: inout SampleSeries, segmentStarts: [Int]) -> Double {
        var d = ContiguousArray<Double>(repeating: 0, count: s.count)
        var total = 0.0
        var lastLat = Double.nan, lastLon = Double.nan
        var nextSegment = 0
        for i in 0..<s.count {
            if nextSegment < segmentStarts.count, segmentStarts[nextSegment] == i {
                lastLat = .nan; lastLon = .nan
                nextSegment += 1
            }
            let lat = s.latitude[i], lon = s.longitude[i]
            if !lat.isNaN {
                if !lastLat.isNaN {
                    total += Geodesy.distance(lat1: lastLat, lon1: lastLon, lat2: lat, lon2: lon)
                }
                lastLat = lat; lastLon = lon
            }
            d[i] = total
        }
        s.distance = d
        return total
    }

    /// Gives each point the document heart rate nearest in time, within the tolerance.
    static func attach(_ track: [(time: Double, bpm: Double)], to s: inout SampleSeries) {
        let hr = track.filter { $0.time.isFinite && heartRateRange.contains($0.bpm) }.sorted { $0.time < $1.time }
        guard !hr.isEmpty else { return }
        var j = 0
        for i in 0..<s.count {
            let t = s.time[i]
            while j + 1 < hr.count, abs(hr[j + 1].time - t) <= abs(hr[j].time - t) { j += 1 }
            if abs(hr[j].time - t) <= documentHeartRateTolerance { s.heartRate[i] = hr[j].bpm }
        }
    }
}
