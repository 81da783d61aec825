import Testing

@testable import RaceKitMetrics
@testable import RaceKitModel

/// Builds raw activities point by point.
func rawActivity(_ points: [SamplePoint], segments: [Int] = [0], sport: String? = "running") -> RawActivity {
    var raw = RawActivity()
    raw.sport = sport
    for p in points { raw.samples.append(p) }
    raw.segmentStarts = segments
    return raw
}

func point(
    _ t: Double, lat: Double = .nan, lon: Double = .nan, ele: Double = .nan, dist: Double = .nan,
    hr: Double = .nan, cad: Double = .nan
) -> SamplePoint {
    var p = SamplePoint()
    p.time = t; p.latitude = lat; p.longitude = lon; p.elevation = ele; p.distance = dist; p.heartRate = hr;
    p.cadence = cad
    return p
}

func repaired(_ raw: RawActivity, _ format: SourceFormat = .gpx) throws -> Activity {
    guard case .activity(let a) = TrackRepair.repair(raw, format: format) else {
        Issue.record("expected an activity")
        throw CancellationError()
    }
    for channel in SampleSeries.Channel.allCases {
        #expect(a.samples[channel].count == a.samples.count, "channel \(channel) has another length")
    }
    return a
}

@Suite struct TrackRepairTests {
    /// Found by `make fuzz`: one TCX DistanceMeters of 1.6e17 made every later
    /// step (splits, best efforts) try to allocate for 1.6e14 km.
    @Test func deviceDistanceSpikesAreDroppedAndInterpolated() throws {
        var points = (0..<60).map { point(Double($0), dist: Double($0) * 3) }
        points[5].distance = 1.5667e17
        points[40].distance = 900   // 783 m ahead in one second
        let a = try repaired(rawActivity(points), .tcx)
        #expect(a.repairs.distanceSpikes == 2)
        #expect(a.repairs.interpolatedDistance == 0)   // the spikes are not also "missing values"
        #expect(a.distanceMeters == 177)
        #expect(abs(a.samples.distance[5] - 15) < 1e-9, "interpolated over the spike")
        // Mostly nonsense: the device distance is not used at all.
        var bad = (0..<20).map { point(Double($0), lat: 60 + Double($0) * 0.00003, lon: 25, dist: Double($0) * 3) }
        for i in stride(from: 1, to: 20, by: 3) { bad[i].distance = 1e12 * Double(i) }
        let b = try repaired(rawActivity(bad), .tcx)
        #expect(b.distanceSource == .gps)
    }

    @Test func dropsBackwardAndMergesDuplicateTimestampsSoTimeStrictlyIncreases() throws {
        let a = try repaired(
            rawActivity([
                point(0, lat: 60, lon: 25), point(2, lat: 60.0001, lon: 25), point(1, lat: 60.0002, lon: 25),
                point(3, lat: 60.0003, lon: 25), point(3, lat: 60.0003, lon: 25, hr: 140),
                point(4, lat: 60.0004, lon: 25)
            ]))
        #expect(Array(a.samples.time) == [0, 2, 3, 4])
        #expect(a.repairs.droppedBackwardTime == 1)
        #expect(a.repairs.mergedDuplicateTime == 1)
        #expect(a.samples.heartRate[2] == 140)   // the duplicate's HR filled the kept point
    }

    @Test func dropsGPXPointsWithInvalidOrNullIslandPositions() throws {
        let a = try repaired(
            rawActivity([
                point(0, lat: 46, lon: 14), point(1), point(2, lat: 100.5, lon: 14), point(3, lat: 0, lon: 0),
                point(4, lat: 46.0001, lon: 14)
            ]))
        #expect(a.samples.count == 2)
        #expect(a.repairs.droppedInvalidPosition == 2)
        #expect(a.repairs.nullIslandPositions == 1)
        #expect(abs(a.distanceMeters! - 11.1) < 0.1)
    }

    @Test func keepsTCXPointsWithoutPositionButStripsNullIsland() throws {
        let a = try repaired(
            rawActivity([
                point(0, lat: 46, lon: 14, hr: 120), point(1, lat: 0, lon: 0, hr: 121),
                point(2, hr: 122), point(3, lat: 46.0001, lon: 14, hr: 123)
            ]), .tcx)
        #expect(a.samples.count == 4)
        #expect(a.samples.latitude[1].isNaN)
        #expect(a.repairs.nullIslandPositions == 1)
    }

    @Test func subtractsADeviceDistanceOffsetAndInterpolatesGaps() throws {
        let a = try repaired(
            rawActivity([
                point(0, dist: 2604.45), point(5), point(10, dist: 2634.45),
                point(15, dist: 2630), point(20, dist: 2664.45)
            ]), .tcx)
        #expect(a.distanceSource == .device)
        #expect(abs(a.distanceMeters! - 60) < 1e-9)
        #expect(abs(a.samples.distance[1] - 15) < 1e-9)   // interpolated in time
        #expect(a.samples.distance[3] == a.samples.distance[2])   // backward step held
        #expect(a.repairs.distanceOffsetMeters == 2604.45)
        #expect(a.repairs.clampedDistance == 1)
        #expect(a.repairs.interpolatedDistance == 1)
    }

    @Test func prefersDeviceDistanceOverGPS() throws {
        let a = try repaired(
            rawActivity([point(0, lat: 48, lon: 11, dist: 0), point(10, lat: 48.001, lon: 11, dist: 100)]), .tcx)
        #expect(a.distanceSource == .device)
        #expect(a.distanceMeters == 100)
    }

    @Test func usesGPSWhenDeviceDistanceIsAllZero() throws {
        let a = try repaired(
            rawActivity([point(0, lat: 48, lon: 11, dist: 0), point(10, lat: 48.001, lon: 11, dist: 0)]), .tcx)
        #expect(a.distanceSource == .gps)
        #expect(abs(a.distanceMeters! - 111.2) < 0.1)
    }

    @Test func doesNotBridgeSegments() throws {
        let a = try repaired(
            rawActivity(
                [
                    point(0, lat: 48, lon: 11), point(10, lat: 48.001, lon: 11),
                    point(100, lat: 48.1, lon: 11), point(110, lat: 48.101, lon: 11)
                ],
                segments: [0, 2]))
        #expect(abs(a.distanceMeters! - 222.4) < 0.2)
        #expect(a.segmentStarts == [0, 2])
    }

    @Test func fallsBackToLapDistanceWhenPointsHaveNone() throws {
        var raw = rawActivity([point(0, hr: 120), point(1500, hr: 150)])
        raw.laps = [Lap(startTime: 0, totalTimeSeconds: 1500, distanceMeters: 5000)]
        let a = try repaired(raw, .tcx)
        #expect(a.distanceSource == .laps)
        #expect(a.distanceMeters == 5000)
        #expect(a.isIndoor)
    }

    @Test func leavesDistanceUnknownWithoutAnySource() throws {
        let a = try repaired(rawActivity([point(0, hr: 120), point(60, hr: 150)]), .tcx)
        #expect(a.distanceSource == .none)
        #expect(a.distanceMeters == nil)
    }

    @Test func treatsAllZeroElevationAsUnknown() throws {
        let a = try repaired(rawActivity([point(0, lat: 48, lon: 11, ele: 0), point(1, lat: 48.0001, lon: 11, ele: 0)]))
        #expect(a.repairs.zeroElevationDiscarded)
        #expect(!a.samples.has(.elevation))
    }

    @Test func removesImpossibleHeartRates() throws {
        let a = try repaired(
            rawActivity([
                point(0, lat: 48, lon: 11, hr: 0), point(1, lat: 48.0001, lon: 11, hr: 300),
                point(2, lat: 48.0002, lon: 11, hr: 150)
            ]))
        #expect(a.repairs.droppedHeartRate == 2)
        #expect(a.samples.heartRate[0].isNaN && a.samples.heartRate[2] == 150)
    }

    @Test func doublesPerLegRunningCadenceOnly() throws {
        let strides = try repaired(
            rawActivity([point(0, lat: 48, lon: 11, cad: 85), point(1, lat: 48.0001, lon: 11, cad: 86)]))
        #expect(Array(strides.samples.cadence) == [170, 172])
        let steps = try repaired(
            rawActivity([point(0, lat: 48, lon: 11, cad: 170), point(1, lat: 48.0001, lon: 11, cad: 172)]))
        #expect(Array(steps.samples.cadence) == [170, 172])
        let ride = try repaired(
            rawActivity(
                [point(0, lat: 48, lon: 11, cad: 85), point(1, lat: 48.0001, lon: 11, cad: 86)],
                sport: "Biking"))
        #expect(Array(ride.samples.cadence) == [85, 86])
    }

    @Test func ordersSegmentsByTime() throws {
        let a = try repaired(
            rawActivity(
                [
                    point(100, lat: 48.1, lon: 11), point(110, lat: 48.101, lon: 11),
                    point(0, lat: 48, lon: 11), point(10, lat: 48.001, lon: 11)
                ],
                segments: [0, 2]))
        #expect(Array(a.samples.time) == [0, 10, 100, 110])
        #expect(a.repairs.droppedBackwardTime == 0)
    }

    @Test func aSingleTimedPointIsNotAnActivity() {
        guard
            case .notAnActivity = TrackRepair.repair(
                rawActivity([point(0, lat: 48, lon: 11), point(.nan, lat: 48.1, lon: 11)]),
                format: .gpx)
        else {
            Issue.record("a single timed point must not become a run"); return
        }
    }

    /// A file whose clock runs backwards was reported as "a single timed point".
    @Test func aTrackWhoseClockRunsBackwardsSaysSo() {
        let points = (0..<60).map { (i: Int) in point(Double(3600 - i * 10), lat: 48 + Double(i) * 0.0003, lon: 11) }
        guard case .notAnActivity(let reason) = TrackRepair.repair(rawActivity(points), format: .fit) else {
            Issue.record("a backwards clock must not become a run"); return
        }
        #expect(
            reason
                == "its timestamps run backwards (59 of 60 points earlier than the point before them): no track to keep"
        )
    }

    @Test func assumesRunningWhenTheFileDeclaresNoSport() throws {
        let a = try repaired(rawActivity([point(0, lat: 48, lon: 11), point(1, lat: 48.0001, lon: 11)], sport: nil))
        #expect(a.sport == .running && !a.sportDeclared)
        #expect(Sport(fileValue: "9") == .running)
        #expect(Sport(fileValue: "Biking") == .cycling)
        #expect(Sport(fileValue: "Other") == .other)
    }
}

@Suite struct RunSummaryTests {
    @Test func heartRateIsTimeWeightedSampleAndHold() throws {
        // 100 bpm held for 10 s, 200 bpm held for 30 s; the last sample holds for nothing.
        let a = try repaired(
            rawActivity([
                point(0, lat: 48, lon: 11, hr: 100), point(10, lat: 48.0001, lon: 11, hr: 200),
                point(40, lat: 48.0002, lon: 11, hr: 100)
            ]))
        let s = RunSummary(a)
        // Steps are capped at 25 s: 100*10 + 200*25 over 35 s.
        #expect(abs(s.avgHeartRate! - (100.0 * 10 + 200 * 25) / 35) < 1e-9)
        #expect(s.maxHeartRate == 200)
        #expect(s.elapsedSeconds == 40)
    }

    @Test func missingHeartRateIsNullNotZero() throws {
        let s = RunSummary(try repaired(rawActivity([point(0, lat: 48, lon: 11), point(1, lat: 48.0001, lon: 11)])))
        #expect(s.avgHeartRate == nil && s.maxHeartRate == nil && s.heartRateCoveragePercent == nil)
    }

    @Test func coverageCountsOnlyTimeWithHeartRate() throws {
        let s = RunSummary(
            try repaired(
                rawActivity([
                    point(0, lat: 48, lon: 11, hr: 120), point(10, lat: 48.0001, lon: 11, hr: 130),
                    point(20, lat: 48.0002, lon: 11), point(30, lat: 48.0003, lon: 11)
                ])))
        #expect(abs(s.heartRateCoveragePercent! - 100.0 / 3) < 1e-9)
    }
}

@Suite struct SampleCodecTests {
    @Test func roundTripsEveryChannelAndKeepsMissingValues() throws {
        var s = SampleSeries()
        s.append(point(1_772_348_400.25, lat: 48.137154321, lon: 11.576124321, ele: 519.2, dist: 0, hr: 120))
        s.append(point(1_772_348_401.25, lat: 48.137254, lon: 11.576224, ele: .nan, dist: 11.5, hr: .nan, cad: 170))
        let decoded = try SampleCodec.decode(SampleCodec.encode(s))
        #expect(decoded.count == 2)
        #expect(decoded.time[1] == 1_772_348_401.25)
        #expect(abs(decoded.latitude[0] - 48.137154321) <= 0.5e-7)   // 1e-7 degree steps
        #expect(abs(decoded.longitude[1] - 11.576224) <= 0.5e-7)
        #expect(abs(decoded.distance[1] - 11.5) < 1e-6)
        #expect(abs(decoded.elevation[0] - 519.2) < 1e-4 && decoded.elevation[1].isNaN)
        #expect(decoded.heartRate[1].isNaN && decoded.cadence[1] == 170)
        #expect(!decoded.has(.power))
    }

    @Test func keepsMillisecondsAndSwitchesToWideTimeForVeryLongSpans() throws {
        var s = SampleSeries()
        s.append(point(1_772_348_400.0))
        s.append(point(1_772_348_400.2))
        let short = try SampleCodec.decode(SampleCodec.encode(s))
        #expect(abs(short.time[1] - 1_772_348_400.2) < 1e-6)
        let later: Double = 1_772_348_400 + 60 * 86_400 + 0.25   // 60 days: past UInt32 milliseconds
        s.append(point(later))
        let long = try SampleCodec.decode(SampleCodec.encode(s))
        #expect(long.time[2] == later)
    }

    @Test func quantizingGivesExactlyWhatTheStoreGivesBack() throws {
        var s = SampleSeries()
        for i in 0..<500 {
            s.append(
                point(
                    1_772_348_400.123456 + Double(i) * 1.0003, lat: 48.123456789 + Double(i) * 1e-5,
                    lon: 11.987654321, ele: 519.2345678 + Double(i) * 0.01, dist: Double(i) * 2.7182818, hr: 140.5))
        }
        var quantized = s
        SampleCodec.quantize(&quantized)
        let stored = try SampleCodec.decode(SampleCodec.encode(s))
        for c in SampleSeries.Channel.allCases {
            #expect(zip(quantized[c], stored[c]).allSatisfy { $0 == $1 || ($0.isNaN && $1.isNaN) }, "channel \(c)")
        }
        var again = quantized
        SampleCodec.quantize(&again)
        for c in SampleSeries.Channel.allCases {   // idempotent (NaN-aware: NaN != NaN)
            #expect(zip(again[c], quantized[c]).allSatisfy { $0 == $1 || ($0.isNaN && $1.isNaN) }, "channel \(c)")
        }
    }

    @Test func rejectsForeignBlobs() {
        #expect(throws: SampleCodec.DecodeError.self) { try SampleCodec.decode(Array("not samples at all".utf8)) }
        var truncated = SampleCodec.encode(
            {
                var s = SampleSeries(); s.append(point(0, lat: 1, lon: 2)); return s
            }())
        truncated.removeLast(3)
        #expect(throws: SampleCodec.DecodeError.self) { try SampleCodec.decode(truncated) }
    }

    /// The neighbour steps of a long track are computed in two halves at once:
    /// every value must equal the one-by-one computation, whatever the length
    /// (the split path from 20,000 points), positionless points included.
    @Test func neighbourStepsEqualTheOneByOneDistances() {
        for n in [1, 2, 19_999, 20_000, 50_001] {
            var s = SampleSeries()
            var lat = 48.1, lon = 11.5
            for i in 0..<n {
                lat += Double((i * 7919) % 13 - 6) * 0.00001
                lon += Double((i * 104_729) % 11 - 5) * 0.00001
                var p = SamplePoint()
                p.time = Double(i)
                if i % 997 != 5 { p.latitude = lat; p.longitude = lon }
                s.append(p)
            }
            let steps = TrackRepair.neighbourSteps(s)
            #expect(steps.count == n)
            for i in 1..<max(n, 1) {
                let one = Geodesy.distance(
                    lat1: s.latitude[i - 1], lon1: s.longitude[i - 1], lat2: s.latitude[i], lon2: s.longitude[i])
                guard steps[i].bitPattern == one.bitPattern || (steps[i].isNaN && one.isNaN) else {
                    Issue.record("n \(n), step \(i): \(steps[i]) != \(one)")
                    break
                }
            }
        }
    }
}

/// Device distance (issue 36, item 4): a counter past 0 at the first record is
/// distance run when the device's own total counts it; a route is spread over
/// an Apple Health workout's own total.
@Suite struct DeviceDistanceTests {
    /// 241 records 10 m apart from 25 m (a FIT file whose first record holds 25 m).
    func counter(lap: Double?) -> RawActivity {
        var raw = rawActivity((0..<241).map { point(Double($0) * 4, dist: 25 + Double($0) * 10) })
        if let lap { raw.laps = [Lap(startTime: 0, totalTimeSeconds: 960, distanceMeters: lap)] }
        return raw
    }

    @Test func aCounterPastZeroCountsWhenTheDevicesTotalDoes() throws {
        let fit = try repaired(counter(lap: 2425), .fit)
        #expect(fit.distanceMeters == 2425 && fit.samples.distance[0] == 25 && fit.repairs.distanceOffsetMeters == 0)
        // The device's total is the span: the offset is not distance (an excerpt).
        let span = try repaired(counter(lap: 2400), .fit)
        #expect(span.distanceMeters == 2400 && span.samples.distance[0] == 0 && span.repairs.distanceOffsetMeters == 25)
        // No device total, or one that matches neither (a lap of the whole run): measured from the first value.
        #expect(try repaired(counter(lap: nil), .fit).distanceMeters == 2400)
        #expect(try repaired(counter(lap: 6840), .tcx).distanceMeters == 2400)
    }

    @Test func anAppleHealthRouteIsSpreadOverTheWorkoutsTotal() throws {
        // 31 fixes 0.0018° of latitude apart: about 6,005 m of route for a 5,970 m workout.
        func route() -> RawActivity {
            var raw = rawActivity((0..<31).map { point(Double($0) * 60, lat: 48 + Double($0) * 0.0018, lon: 11) })
            raw.laps = [Lap(startTime: 0, totalTimeSeconds: 1800, distanceMeters: 5970)]
            return raw
        }
        let health = try repaired(route(), .health)
        #expect(health.distanceSource == .device && abs(health.distanceMeters! - 5970) < 1e-6)
        #expect(abs(health.samples.distance[30] - 5970) < 1e-6 && health.samples.distance[15] < 3000)
        // A GPX route keeps its own path.
        let gpx = try repaired(route(), .gpx)
        #expect(gpx.distanceSource == .gps && gpx.distanceMeters! > 5990)
    }
}
