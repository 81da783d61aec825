import Foundation
import RaceKitTestSupport
import Testing

@testable import RaceKitFormats
@testable import RaceKitPlan

@Suite struct ExportTests {
    static func hillyPlan() throws -> RacePlan {
        let course = syntheticCourse(length: 21_150, spacing: 15, noise: 1, elevation: CoursePacingTests.hill)
        let gpx = try temporaryFile("courses/hill.gpx", gpxCourse(course))
        let dir = URL(fileURLWithPath: gpx).deletingLastPathComponent().deletingLastPathComponent()
        let yaml = """
            name: "Hill Half & Friends <2026>"
            date: 2026-05-10
            start_time: "10:00"
            distance: half
            target_time: "1:45:00"
            course: courses/hill.gpx
            fueling: {carbs_per_hour_g: 45, gel_carbs_g: 22, start_after: "0:35:00"}
            hydration: {ml_per_hour: 450, sodium_mg_per_hour: 300, aid_stations_km: [5, 10, 15, 19]}
            """
        let path = dir.appendingPathComponent("hill.yaml").path
        try yaml.write(toFile: path, atomically: false, encoding: .utf8)
        return try RacePlanner.plan(try SetupLoader.load(path: path))
    }

    @Test func tcxCourseRoundTripsThroughTheImporter() throws {
        let plan = try Self.hillyPlan()
        let data = try CourseExport.tcx(plan)
        let path = try temporaryFile("hill.tcx", String(decoding: data, as: UTF8.self))
        guard case .document(let doc) = try ActivityFileReader.read(path: path).outcome else {
            Issue.record("empty"); return
        }
        #expect(doc.activities.isEmpty)
        let course = try #require(doc.courses.first)
        #expect(course.kind == .tcxCourse)
        #expect(course.samples.count == plan.course!.grid.count)
        let marks = CourseExport.marks(plan, unitMeters: 1000)
        #expect(doc.waypointCount == marks.count)
        #expect(marks.filter { $0.kind == .gel }.count == plan.cues.totals.gels)
        #expect(marks.filter { $0.kind == .marker }.count == 21)
        // The track reads back as the same course: length, elevation, planned times.
        let back = try CourseProfile(samples: course.samples, raceMeters: plan.setup.distanceMeters)
        #expect(abs(back.courseMeters - plan.setup.distanceMeters) < 1)
        #expect(abs(back.climbMeters - plan.course!.climbMeters) < 5)
        let times = course.samples.time
        #expect(times.last! - times.first! == 6300, "the virtual partner finishes on the target")
        #expect(
            String(decoding: data, as: UTF8.self).contains("<Name>Hill Half &amp; Fri</Name>"),
            "15-character token, escaped")
    }

    @Test func gpxRoundTripsThroughTheImporter() throws {
        let plan = try Self.hillyPlan()
        let data = try CourseExport.gpx(plan)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("&lt;2026&gt;"))
        let path = try temporaryFile("hill.gpx", text)
        guard case .document(let doc) = try ActivityFileReader.read(path: path).outcome else {
            Issue.record("empty"); return
        }
        let course = try #require(doc.courses.first)
        #expect(course.kind == .untimedTrack)
        #expect(doc.waypointCount == CourseExport.marks(plan, unitMeters: 1000).count)
        // The track is the course's own geometry (TCX carries race distances; GPX has none).
        let back = try CourseProfile(samples: course.samples, raceMeters: plan.setup.distanceMeters)
        #expect(abs(back.courseMeters - plan.course!.courseMeters) < 2)
    }

    @Test(
        .enabled(
            if: schemasFolder != nil && FileManager.default.isExecutableFile(atPath: "/usr/bin/xmllint"),
            "needs ../shared/schemas beside the repository and /usr/bin/xmllint"))
    func exportsValidateAgainstTheOfficialSchemas() throws {
        let schemas = try #require(schemasFolder)
        let plan = try Self.hillyPlan()
        for (name, data, schema) in [
            ("c.tcx", try CourseExport.tcx(plan), "TrainingCenterDatabasev2.xsd"),
            ("c.gpx", try CourseExport.gpx(plan), "gpx.xsd")
        ] {
            let path = try temporaryFile(name, String(decoding: data, as: UTF8.self))
            let p = Process()
            p.currentDirectoryURL = WorkingFolder.url   // not a CLI run's
            p.executableURL = URL(fileURLWithPath: "/usr/bin/xmllint")
            p.arguments = ["--noout", "--schema", schemas + "/" + schema, path]
            p.standardError = FileHandle.nullDevice
            try p.run()
            p.waitUntilExit()
            #expect(p.terminationStatus == 0, "\(name) does not validate against \(schema)")
        }
    }

    @Test func paceBandHasARowPerSplitAndTheCues() throws {
        let plan = try Self.hillyPlan()
        let svg = PaceBand.svg(plan, unitName: "km")
        #expect(svg.hasPrefix("<svg") && svg.hasSuffix("</svg>\n"))
        #expect(svg.contains(">1:45:00<"), "the finish clock time")
        #expect(svg.contains("G1") && svg.contains("&amp;"))
        #expect(svg.components(separatedBy: "fill=\"#eef2f7\"").count - 1 == (plan.splits.count + 1) / 2)
    }

    @Test func tcxNeedsACourse() throws {
        let setup = try SetupLoader.parse(yaml: "name: Flat\ndistance: 10k\ntarget_time: \"45:00\"\n", file: "f.yaml")
        let plan = try RacePlanner.plan(setup)
        #expect(throws: ExportError.self) { try CourseExport.tcx(plan) }
    }
}
