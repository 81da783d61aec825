import Foundation
import Testing

@testable import RaceKitModel
@testable import RaceKitPlan
@testable import RaceKitReview

/// `CourseFit`: the limits that decide whether a run is on the course.
@Suite struct ReviewCourseTests {
    static let lat0 = 52.5, lon0 = 13.4
    static let metersPerDegreeLat = 111_195.0
    static var metersPerDegreeLon: Double { metersPerDegreeLat * cos(lat0 * .pi / 180) }

    /// Points every 10 m along `meters` due north from (lat0 + north, lon0 + east), in metres.
    static func line(north: Double = 0, east: Double = 0, meters: Double, distanceFrom: Double = 0) -> SampleSeries {
        var s = SampleSeries()
        for k in 0...Int(meters / 10) {
            var p = SamplePoint()
            p.time = Double(k) * 3
            p.latitude = lat0 + (north + Double(k) * 10) / metersPerDegreeLat
            p.longitude = lon0 + east / metersPerDegreeLon
            p.distance = distanceFrom + Double(k) * 10
            s.append(p)
        }
        return s
    }

    /// The 10 km course due north from (lat0, lon0).
    static func course() throws -> CourseProfile {
        try CourseProfile(samples: line(meters: 10_000), raceMeters: 10_000)
    }

    static func fit(_ s: SampleSeries) throws -> CourseFit { try #require(CourseFit.check(s, course: try course())) }

    @Test func theCourseItselfIsOnIt() throws {
        let f = try Self.fit(Self.line(meters: 10_000))
        #expect(f.startMeters < 1 && f.offTrack == 0 && f.checked == 201 && f.isOnCourse && f.problem == nil)
    }

    @Test(arguments: [(250.0, true), (350.0, false)])
    func aParallelTrackIsOnTheCourseWithinThreeHundredMetres(east: Double, on: Bool) throws {
        let f = try Self.fit(Self.line(east: east, meters: 10_000))
        #expect(f.isOnCourse == on)
        #expect(f.offTrackShare == (on ? 0 : 1))
        #expect(abs(f.startMeters - east) < 1)
    }

    /// A watch started south of the start line, then the course: only the start is off.
    @Test(arguments: [(900.0, true), (1100.0, false)])
    func theStartMayBeAKilometreFromTheCoursesStart(before: Double, on: Bool) throws {
        let f = try Self.fit(Self.line(north: -before, meters: 10_000 + before))
        #expect(f.isOnCourse == on)
        #expect(abs(f.startMeters - before) < 1)
        #expect(f.offTrackShare < CourseFit.offTrackShareLimit)
        #expect(on || f.problem == "its start is 1100 m from the course's start (limit 1000 m)")
    }

    /// The last part of the run 500 m east of the course: 8% is on it, 12% is not.
    @Test(arguments: [(800.0, true), (1200.0, false)])
    func upToTenPercentOfTheTrackMayBeOffTheCourse(offMeters: Double, on: Bool) throws {
        var s = Self.line(meters: 10_000 - offMeters)
        let tail = Self.line(
            north: 10_000 - offMeters + 10, east: 500, meters: offMeters - 10,
            distanceFrom: 10_000 - offMeters + 10)
        for i in 0..<tail.count { s.append(tail[point: i]) }
        let f = try Self.fit(s)
        #expect(f.isOnCourse == on, "\(f)")
        #expect(abs(f.offTrackShare - offMeters / 10_000) < 0.01, "\(f.offTrackShare)")
        #expect(on || f.problem == "12% of its track is more than 300 m from the course (limit 10%)")
    }

    @Test func aRunWithoutPositionsIsNotChecked() throws {
        var s = SampleSeries()
        for k in 0..<100 {
            var p = SamplePoint()
            p.time = Double(k)
            p.distance = Double(k) * 3
            s.append(p)
        }
        #expect(CourseFit.check(s, course: try Self.course()) == nil)
    }
}
