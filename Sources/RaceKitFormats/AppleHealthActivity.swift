import RaceKitModel

/// Finds a workout's route file: given a `FileReference` path as the export
/// writes it (`/workout-routes/route_2023-01-01_7.05am.gpx`), the route read with
/// the GPX reader, or nil when there is no such file. Called from several
/// threads at once, in any order. A folder: `AppleHealthReader.folderRoutes(beside:)`.
public typealias HealthRouteResolver = @Sendable (String) throws -> RawActivity?

/// A workout made ready for the repair step.
public struct HealthWorkoutActivity: Sendable {
    /// Samples (route points, heart rate, distance), one lap with the declared totals.
    public var raw: RawActivity
    /// `HKIndoorWorkout`: true indoor, false outdoor, nil when the workout does not say.
    public var indoor: Bool?
    /// What is worth knowing (a missing route, distance from records).
    public var notes: [String]
}

/// What building a workout gave.
public enum HealthWorkoutOutcome: Sendable {
    case activity(HealthWorkoutActivity)
    /// The workout cannot be imported; the reason names it.
    case skipped(reason: String)
}

extension AppleHealthExport {
    /// A route point takes the heart-rate record nearest in time within this many
    /// seconds (an Apple Watch records one every ~5 s during a workout, and every
    /// few minutes outside one, which must not smear over a route).
    public static let heartRateTolerance: Int64 = 10

    /// Builds workout `index`'s activity: the route (inline points, or the file
    /// `route` resolves), heart rate from the records inside the workout's
    /// interval, pauses from its events (points inside a pause dropped, a new
    /// segment after each), and without a route the distance records of one
    /// source as a device distance (treadmill). The declared distance and
    /// duration become one lap, the device's total (as a TCX lap's).
    public func activity(of index: Int, route: HealthRouteResolver) -> HealthWorkoutOutcome {
        let w = workouts[index]
        if let problem = w.problem { return .skipped(reason: "\(w.label): \(problem)") }
        guard let start = w.start, let end = w.end else { return .skipped(reason: "\(w.label): no dates") }
        var notes: [String] = w.energyNote.map { [$0] } ?? []
        var raw = RawActivity()
        raw.sport = w.sport.rawValue
        // The type and the local start as Apple wrote it ("Running 2024-01-16 07:00"):
        // every workout of an export comes from export.xml, so the file says nothing.
        let when = String(w.startText.prefix(16))
        raw.name = "\(w.activityType)\(w.indoor == true ? " (indoor)" : "") \(when)"
        raw.creator = w.sourceName
        raw.declaredStart = Double(start)
        let totals = Lap(
            startTime: Double(start), totalTimeSeconds: w.durationSeconds, distanceMeters: w.distanceMeters,
            energyKcal: w.energyKcal)
        raw.laps = [totals]
        raw.session = totals

        var samples = SampleSeries()
        var segments: [Int] = []
        if !w.locations.isEmpty {
            samples.reserveCapacity(w.locations.count)
            for loc in locations[w.locations] {
                var p = SamplePoint()
                p.time = Double(loc.time)
                p.latitude = Double(loc.latitude) / 1e7
                p.longitude = Double(loc.longitude) / 1e7
                p.elevation = Double(loc.altitude)
                samples.append(p)
            }
        } else if let file = w.routeFiles.first {
            do {
                if var found = try route(file) {
                    swap(&samples, &found.samples)
                    segments = found.segmentStarts
                    raw.issues = found.issues
                } else {
                    notes.append("route file \(file) not found")
                }
            } catch {
                notes.append("route file \(file) not read (\(error))")
            }
        }
        let heartRate = self.heartRate(from: start, to: end)
        if samples.isEmpty {
            samples = recordSamples(w, start: start, end: end, heartRate: heartRate, notes: &notes)
        } else {
            Self.attach(heartRate, to: &samples)
        }
        Self.applyPauses(pauses(w, end: end), to: &samples, segments: &segments)
        raw.samples = samples
        raw.segmentStarts = segments
        return .activity(HealthWorkoutActivity(raw: raw, indoor: w.indoor, notes: notes))
    }

    /// The paused intervals of a workout: from each pause event to the next resume
    /// (a pause without a resume lasts to the end).
    func pauses(_ w: HealthWorkout, end: Int64) -> [ClosedRange<Int64>] {
        var out: [ClosedRange<Int64>] = []
        var pausedAt: Int64?
        let events = w.events.compactMap { e in e.date.map { ($0, e.type) } }.sorted { $0.0 < $1.0 }
        for (date, type) in events {
            if HealthWorkoutEvent.pauseTypes.contains(type) {
                if pausedAt == nil { pausedAt = date }
            } else if HealthWorkoutEvent.resumeTypes.contains(type) {
                if let from = pausedAt, date > from { out.append(from...date) }
                pausedAt = nil
            }
        }
        if let from = pausedAt, end > from { out.append(from...end) }
        // Sorted by start already; overlapping ones merged.
        var merged: [ClosedRange<Int64>] = []
        for p in out {
            if let last = merged.last, p.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, p.upperBound)
            } else {
                merged.append(p)
            }
        }
        return merged
    }

    /// Drops the points strictly inside a pause; the first point after one starts
    /// a segment. `pauses` are sorted and do not overlap.
    static func applyPauses(_ pauses: [ClosedRange<Int64>], to s: inout SampleSeries, segments: inout [Int]) {
        guard !pauses.isEmpty, !s.isEmpty else { return }
        var out = SampleSeries()
        out.reserveCapacity(s.count)
        var starts: [Int] = []
        var nextSegment = 0
        var pending = false
        var lastEnded = -1
        for i in 0..<s.count {
            if nextSegment < segments.count, segments[nextSegment] == i {
                pending = true
                nextSegment += 1
            }
            let t = s.time[i]
            // The last pause that began before t.
            var low = 0, high = pauses.count
            while low < high {
                let mid = (low + high) / 2
                if Double(pauses[mid].lowerBound) < t { low = mid + 1 } else { high = mid }
            }
            let k = low - 1
            if k >= 0, t < Double(pauses[k].upperBound) { continue }   // inside it
            if k != lastEnded {
                pending = true
                lastEnded = k
            }
            if out.isEmpty || pending {
                starts.append(out.count)
                pending = false
            }
            out.append(s[point: i])
        }
        s = out
        segments = starts
    }

    /// Gives each route point the heart-rate record nearest in time, within the tolerance.
    static func attach(_ records: ArraySlice<UInt64>, to s: inout SampleSeries) {
        guard !records.isEmpty else { return }
        var j = records.startIndex
        let tolerance = Double(heartRateTolerance)
        for i in 0..<s.count {
            let t = s.time[i]
            guard t.isFinite else { continue }
            while j + 1 < records.endIndex, abs(time(records[j + 1]) - t) <= abs(time(records[j]) - t) { j += 1 }
            if abs(time(records[j]) - t) <= tolerance { s.heartRate[i] = bpm(records[j]) }
        }
    }

    @inline(__always) static func time(_ packed: UInt64) -> Double { Double(packed >> 32) }
    @inline(__always) static func bpm(_ packed: UInt64) -> Double {
        Double(Float32(bitPattern: UInt32(truncatingIfNeeded: packed)))
    }

    /// A workout without a route: a point at its start and end, one per heart-rate
    /// record, and one at the end of each distance record of the chosen source
    /// with the distance so far (a record partly outside the workout counts pro rata).
    func recordSamples(
        _ w: HealthWorkout, start: Int64, end: Int64, heartRate: ArraySlice<UInt64>, notes: inout [String]
    ) -> SampleSeries {
        var points: [(time: Double, hr: Double, distance: Double)] = []
        points.reserveCapacity(heartRate.count + 2)
        for r in heartRate { points.append((Self.time(r), Self.bpm(r), .nan)) }
        let records = distanceRecords(w, start: start, end: end)
        var total = 0.0
        if !records.isEmpty {
            for r in records.sorted(by: { $0.end < $1.end }) {
                let from = max(Int64(r.start), start), to = min(Int64(r.end), end)
                let span = Int64(r.end) - Int64(r.start)
                let share = span > 0 ? Double(to - from) / Double(span) : 1
                total += Double(r.meters) * max(0, share)
                points.append((Double(to), .nan, total))
            }
            notes.append(
                "no route: distance from \(records.count) distance records of \(sources[Int(records[0].source)])")
        }
        points.append((Double(start), .nan, records.isEmpty ? .nan : 0))
        points.append((Double(end), .nan, records.isEmpty ? .nan : total))
        points.sort { $0.time < $1.time }
        var s = SampleSeries()
        s.reserveCapacity(points.count)
        for p in points {
            var point = SamplePoint()
            point.time = p.time
            point.heartRate = p.hr
            point.distance = p.distance
            s.append(point)
        }
        return s
    }

    /// The walking and running distance records overlapping a workout, from one
    /// source: the workout's own when it has any there, otherwise the source with
    /// the most metres (a phone and a watch both count the same steps).
    func distanceRecords(_ w: HealthWorkout, start: Int64, end: Int64) -> [DistanceRecord] {
        let earliest = UInt32(clamping: max(0, start - HealthRecordParser.maxRecordSeconds))
        var low = 0, high = distance.count
        while low < high {
            let mid = (low + high) / 2
            if distance[mid].start < earliest { low = mid + 1 } else { high = mid }
        }
        var overlapping: [DistanceRecord] = []
        var k = low
        while k < distance.count, Int64(distance[k].start) < end {
            if Int64(distance[k].end) > start
                || (distance[k].end == distance[k].start && Int64(distance[k].start) >= start)
            {
                overlapping.append(distance[k])
            }
            k += 1
        }
        guard !overlapping.isEmpty else { return [] }
        var bySource: [UInt16: Double] = [:]
        for r in overlapping { bySource[r.source, default: 0] += Double(r.meters) }
        let own = w.sourceName.flatMap { name in sources.firstIndex(of: name) }.map { UInt16($0) }
        let chosen =
            own.flatMap { bySource[$0] != nil ? $0 : nil }
            ?? bySource.max { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }!.key
        return overlapping.filter { $0.source == chosen }
    }
}
