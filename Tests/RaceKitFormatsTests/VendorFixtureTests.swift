import Testing

@testable import RaceKitFormats
@testable import RaceKitMetrics
@testable import RaceKitModel

/// What a vendor fixture must give.
struct VendorCase: Sendable, CustomTestStringConvertible {
    var file: String
    var points: Int
    var heartRate: [Double]? = nil
    var cadence: [Double]? = nil
    var speed: Double? = nil
    var power: Double? = nil
    var temperature: Double? = nil
    var sport: Sport = .running
    var creator: String? = nil
    var testDescription: String { file }
}

@Suite struct VendorFixtureTests {
    static let cases: [VendorCase] = [
        VendorCase(
            file: "garmin-connect-ns3.gpx", points: 4, heartRate: [120, 130, 140, 150], cadence: [160, 164, 168, 172],
            temperature: 8, creator: "Garmin Connect"),
        VendorCase(
            file: "strava-gpxtpx.gpx", points: 3, heartRate: [141, 143, 145], cadence: [170, 172, 174],
            temperature: 11, creator: "StravaGPX"),
        VendorCase(
            file: "coros-tpx-v2-default-namespace.gpx", points: 3, heartRate: [101, 103, 105],
            cadence: [180, 180, 182], speed: 3.1),
        VendorCase(file: "apple-health-unprefixed.gpx", points: 3, speed: 2.9, creator: "Apple Health Export"),
        VendorCase(
            file: "opentracks-no-namespace-hr.gpx", points: 3, heartRate: [110, 112, 114], cadence: [170, 171, 172]),
        VendorCase(
            file: "suunto-gpxdata.gpx", points: 3, heartRate: [131, 135, 137], cadence: [166, 168, 170],
            temperature: 2.5),
        VendorCase(file: "two-extension-blocks.gpx", points: 2, heartRate: [120, 121], power: 250),
        VendorCase(file: "spoq-document-heart-rate.gpx", points: 3, heartRate: [100, 110, 120]),
        VendorCase(file: "polar-leading-whitespace.gpx", points: 3, speed: 2.5, creator: "Polar Flow"),
        VendorCase(
            file: "garmin-forerunner.tcx", points: 3, heartRate: [130, 140, 150], cadence: [170, 172, 174],
            speed: 3.0, creator: "Forerunner 265"),
        VendorCase(
            file: "default-namespace-extension.tcx", points: 2, cadence: [88, 90], speed: 8.5, power: 210,
            sport: .cycling)
    ]

    @Test(arguments: cases)
    func readsEveryChannelOfTheVendorDialect(_ c: VendorCase) throws {
        let a = try onlyActivity(try fixture(c.file))
        #expect(a.samples.count == c.points)
        if let hr = c.heartRate {
            #expect(Array(a.samples.heartRate) == hr)
        } else {
            #expect(!a.samples.has(.heartRate))
        }
        if let cad = c.cadence { #expect(Array(a.samples.cadence) == cad) } else { #expect(!a.samples.has(.cadence)) }
        if let v = c.speed { #expect(a.samples.speed[0] == v) }
        if let v = c.power { #expect(a.samples.power[0] == v) } else { #expect(!a.samples.has(.power)) }
        if let v = c.temperature { #expect(a.samples.temperature[0] == v) }
        #expect(a.sport == c.sport)
        if let creator = c.creator { #expect(a.creator == creator) }
    }

    @Test func appliesTimeOffsetsAndStripsLeadingWhitespaceSafely() throws {
        let a = try onlyActivity(try fixture("opentracks-no-namespace-hr.gpx"))
        #expect(TimestampParser.format(a.samples.time[0]) == "2026-03-08T05:00:00Z")
        let polar = try onlyActivity(try fixture("polar-leading-whitespace.gpx"))
        #expect(polar.samples.elevation[2] == 101.0)
    }

    @Test func readsGpxdataDistanceAsDeviceDistance() throws {
        let a = try onlyActivity(try fixture("suunto-gpxdata.gpx"))
        #expect(a.distanceSource == .device)
        #expect(a.distanceMeters == 61)
    }

    @Test func repairsBackwardSportsTrackerTimes() throws {
        let a = try onlyActivity(try fixture("sports-tracker-backward-times.gpx"))
        #expect(a.samples.count == 4)
        #expect(a.repairs.droppedBackwardTime == 1 && a.repairs.mergedDuplicateTime == 1)
        for i in 1..<a.samples.count { #expect(a.samples.time[i] > a.samples.time[i - 1]) }
    }

    @Test func dropsAndCountsInvalidCoordinates() throws {
        let d = try document(try fixture("invalid-coordinates.gpx"))
        #expect(d.activities[0].issues.missingPosition == 1)
        #expect(d.activities[0].issues.nonNumericValues == 1)
        let a = try onlyActivity(try fixture("invalid-coordinates.gpx"))
        #expect(a.samples.count == 2)
        #expect(a.repairs.droppedInvalidPosition == 3 && a.repairs.nullIslandPositions == 1)
        #expect(a.samples.elevation[1].isNaN)   // <ele></ele> is unknown, not 0
    }

    @Test func readsEachTCXActivityAndMultisportLegWithItsSport() throws {
        let multi = try document(try fixture("multisport.tcx"))
        #expect(multi.activities.map { Sport(fileValue: $0.sport) } == [.running, .cycling])
        let two = try document(try fixture("two-activities.tcx"))
        #expect(two.activities.count == 2)
        #expect(two.activities.map(\.samples.count) == [2, 2])
    }

    @Test func treadmillUsesDeviceDistanceWithoutPositions() throws {
        let a = try onlyActivity(try fixture("treadmill.tcx"))
        #expect(a.distanceMeters == 90 && a.isIndoor)
        #expect(a.samples.distance[2] == 60)   // interpolated between 30 and 90
        #expect(a.samples.heartRate[3].isNaN)   // 0 bpm is "no contact"
        #expect(a.creator == "Forerunner 945")
    }

    @Test func lapDistanceIsUsedOnlyWhenPointsHaveNone() throws {
        let a = try onlyActivity(try fixture("lap-distance-only.tcx"))
        #expect(a.distanceSource == .laps && a.distanceMeters == 5000)
        let excerpt = try onlyActivity(try fixture("fitbit-excerpt-offset-distance.tcx"))
        #expect(abs(excerpt.distanceMeters! - 60) < 1e-9)
        #expect(excerpt.repairs.lapTotalsIgnored)
        #expect(TimestampParser.format(excerpt.samples.time[0]) == "2026-03-21T08:10:00Z")
    }

    @Test(arguments: [
        ("route-only.gpx", RawCourse.Kind.gpxRoute), ("untimed-track.gpx", .untimedTrack),
        ("course-only.tcx", .tcxCourse)
    ])
    func keepsRoutesAndCoursesApartFromActivities(file: String, kind: RawCourse.Kind) throws {
        let d = try document(try fixture(file))
        #expect(d.activities.isEmpty)
        #expect(d.courses.map(\.kind) == [kind])
        #expect(d.courses[0].samples.count == 2)
    }

    @Test func countsWaypoints() throws {
        let d = try document(try fixture("waypoints-only.gpx"))
        #expect(d.activities.isEmpty && d.courses.isEmpty && d.waypointCount == 1)
    }

    @Test func hashesTheDocumentBytes() throws {
        let path = try fixture("strava-gpxtpx.gpx")
        let first = try ActivityFileReader.read(path: path)
        #expect(first.sha256.count == 64)
        #expect(try ActivityFileReader.read(path: path).sha256 == first.sha256)
        #expect(try ActivityFileReader.read(path: try fixture("garmin-connect-ns3.gpx")).sha256 != first.sha256)
    }
}

@Suite struct TCXSegmentTests {
    @Test func aNewLapIsNotAPauseButASecondTrackInALapIs() throws {
        func point(_ s: Int, _ d: Int) -> String {
            "<Trackpoint><Time>2026-03-15T08:00:\(s < 10 ? "0" : "")\(s)Z</Time><DistanceMeters>\(d)</DistanceMeters></Trackpoint>"
        }
        let text = """
            <?xml version="1.0"?><TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2">
            <Activities><Activity Sport="Running"><Id>2026-03-15T08:00:00Z</Id>
            <Lap StartTime="2026-03-15T08:00:00Z"><Track>\(point(0, 0))\(point(10, 30))</Track></Lap>
            <Lap StartTime="2026-03-15T08:00:11Z"><Track>\(point(11, 33))\(point(20, 60))</Track><Track>\(point(40, 63))\(point(50, 93))</Track></Lap>
            </Activity></Activities></TrainingCenterDatabase>
            """
        let url = try temporaryDirectory().appendingPathComponent("laps.tcx")
        try text.write(to: url, atomically: false, encoding: .utf8)
        let a = try onlyActivity(url.path)
        #expect(a.segmentStarts == [0, 4])
    }
}
