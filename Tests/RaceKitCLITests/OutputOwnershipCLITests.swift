import Foundation
import Testing

/// Issue 22: a setup file owns its outputs (named after the file, a link per
/// file, another file's review not overwritten), `race review` refuses a run
/// that is not on the course and shows the course's grade.
@Suite struct OutputOwnershipCLITests {
    /// A 10 km GPX route due north from (lat, lon): 3% up over the first 5 km, then flat.
    static func course(lat: Double, lon: Double) -> String {
        var gpx =
            "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" creator=\"t\" xmlns=\"http://www.topografix.com/GPX/1/1\"><rte>\n"
        for i in 0...100 {
            let ele = 520 + Double(min(i, 50)) * 3
            gpx += "<rtept lat=\"\(lat + Double(i) * 100 / 111_195)\" lon=\"\(lon)\"><ele>\(ele)</ele></rtept>\n"
        }
        return gpx + "</rte></gpx>\n"
    }

    /// Haversine on the mean Earth radius (the one RaceKit uses), metres.
    static func haversine(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let r = Double.pi / 180
        let a =
            pow(sin((lat2 - lat1) * r / 2), 2) + cos(lat1 * r) * cos(lat2 * r) * pow(sin((lon2 - lon1) * r / 2), 2)
        return 2 * 6_371_008.8 * asin(min(1, a.squareRoot()))
    }

    static func exists(_ cli: CLI, _ path: String) -> Bool {
        FileManager.default.fileExists(atPath: cli.workdir.appendingPathComponent(path).path)
    }

    static func read(_ cli: CLI, _ path: String) throws -> String {
        try String(contentsOf: cli.workdir.appendingPathComponent(path), encoding: .utf8)
    }

    @Test func aCopiedSetupNeverOverwritesTheOriginalsOutputs() throws {
        let (cli, runID) = try RaceReviewCLITests.prepare()
        // The copy keeps the name (same slug) and changes the target.
        try cli.write(
            "Races/ten-b.yaml", RaceReviewCLITests.setup.replacingOccurrences(of: "\"50:00\"", with: "\"48:00\""))
        for f in ["ten", "ten-b"] {
            let plan = try cli.run(["race", "plan", "Races/\(f).yaml", "--export", "band", "--out", "plans"])
            #expect(plan.status == 0 && plan.stderr.contains("plans/\(f)-band.svg"), "\(plan.stderr)")
            let script = try cli.run(["race", "script", "Races/\(f).yaml"])
            #expect(script.status == 0 && script.stdout.contains("Races/\(f).script.json"), "\(script.stdout)")
            let review = try cli.run(["race", "review", "Races/\(f).yaml", "--store", "s.sqlite", "--out", "rev"])
            #expect(review.status == 0, "\(review.stderr)")
        }
        #expect(try Self.read(cli, "plans/ten-band.svg").contains("50:00"))
        #expect(try Self.read(cli, "plans/ten-b-band.svg").contains("48:00"))
        #expect(try Self.read(cli, "Races/ten.script.json") != Self.read(cli, "Races/ten-b.script.json"))
        #expect(try Self.read(cli, "rev/ten-review.md").contains("Target 50:00"))
        #expect(try Self.read(cli, "rev/ten-b-review.md").contains("Target 48:00"))
        // A link each: the run shows both races, each with its own file and target.
        let show = try cli.run(["runs", "show", runID, "--store", "s.sqlite"])
        #expect(show.stdout.contains("Test Ten (Races/ten.yaml): target 50:00"), "\(show.stdout)")
        #expect(show.stdout.contains("Test Ten (Races/ten-b.yaml): target 48:00"), "\(show.stdout)")
        // Unlinking the copy leaves the original linked.
        let unlink = try cli.run(["race", "review", "Races/ten-b.yaml", "--unlink", "--store", "s.sqlite"])
        #expect(unlink.stdout == "unlinked Races/ten-b.yaml from run \(runID)\n", "\(unlink.stdout)")
        let after = try cli.run(["runs", "show", runID, "--store", "s.sqlite"])
        #expect(after.stdout.contains("Races/ten.yaml") && !after.stdout.contains("Races/ten-b.yaml"))
    }

    @Test func aReviewAnotherSetupFileMadeIsNotOverwrittenWithoutForce() throws {
        let (cli, _) = try RaceReviewCLITests.prepare()
        try cli.write(
            "Other/ten.yaml", RaceReviewCLITests.setup.replacingOccurrences(of: "\"50:00\"", with: "\"48:00\""))
        let args = ["--store", "s.sqlite", "--out", "rev"]
        #expect(try cli.run(["race", "review", "Races/ten.yaml"] + args).status == 0)
        let original = try Self.read(cli, "rev/ten-review.md")
        let refused = try cli.run(["race", "review", "Other/ten.yaml"] + args)
        #expect(refused.status == 73, "\(refused.stderr)")
        #expect(
            refused.stderr
                == "racekit: rev/ten-review.md already exists (made from Races/ten.yaml, not Other/ten.yaml: give another --out, or --force to overwrite it)\n"
        )
        #expect(try Self.read(cli, "rev/ten-review.md") == original)
        let forced = try cli.run(["race", "review", "Other/ten.yaml", "--force"] + args)
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try Self.read(cli, "rev/ten-review.md").contains("Target 48:00"))
        // Now the review is the other file's: the original is refused in turn.
        let back = try cli.run(["race", "review", "Races/ten.yaml"] + args)
        #expect(back.status == 73 && back.stderr.contains("made from Other/ten.yaml, not Races/ten.yaml"))
        // Another folder is another file name: no question asked.
        #expect(try cli.run(["race", "review", "Races/ten.yaml", "--store", "s.sqlite", "--out", "rev2"]).status == 0)
    }

    /// The run of `prepare` starts at 48.1 N 11.5 E (Munich) and runs 10.2 km north.
    @Test func aRunInMunichIsNotReviewedAgainstACourseInBerlin() throws {
        let (cli, runID) = try RaceReviewCLITests.prepare()
        try cli.write("Races/courses/berlin.gpx", Self.course(lat: 52.52, lon: 13.40))
        try cli.write("Races/berlin.yaml", RaceReviewCLITests.setup + "\ncourse: courses/berlin.gpx\n")
        let r = try cli.run(["race", "review", "Races/berlin.yaml", "--store", "s.sqlite"])
        let km = String(format: "%.0f", Self.haversine(48.1, 11.5, 52.52, 13.40) / 1000)
        #expect(r.status == 65 && r.stdout.isEmpty)
        #expect(
            r.stderr
                == "racekit: Races/berlin.yaml: run \(runID) is not on the course courses/berlin.gpx: its start is \(km) km from the course's start (limit 1000 m), and 100% of its track is more than 300 m from the course (limit 10%); give --run with the race's run, or --off-course to review it anyway\n"
        )
        // Nothing linked by a refused review.
        #expect(try !cli.run(["runs", "show", runID, "--store", "s.sqlite"]).stdout.contains("berlin"))
        let anyway = try cli.run([
            "race", "review", "Races/berlin.yaml", "--store", "s.sqlite", "--off-course", "--out", "rev", "--format",
            "json"
        ])
        #expect(anyway.status == 0, "\(anyway.stderr)")
        let warning =
            "Not on the course courses/berlin.gpx: its start is \(km) km from the course's start (limit 1000 m), and 100% of its track is more than 300 m from the course (limit 10%); reviewed anyway (--off-course)."
        #expect(anyway.stderr.contains("warning: \(warning)"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(anyway.stdout.utf8)) as? [String: Any])
        #expect(json["warnings"] as? [String] == [warning])
        #expect(try Self.read(cli, "rev/berlin-review.md").contains("> **Warning:** \(warning)"))
    }

    @Test func aRunOnTheCourseIsReviewedWithTheCoursesGrade() throws {
        let (cli, _) = try RaceReviewCLITests.prepare()
        try cli.write("Races/courses/munich.gpx", Self.course(lat: 48.1, lon: 11.5))
        try cli.write("Races/munich.yaml", RaceReviewCLITests.setup + "\ncourse: courses/munich.gpx\n")
        let r = try cli.run(["race", "review", "Races/munich.yaml", "--store", "s.sqlite", "--format", "json"])
        #expect(r.status == 0 && !r.stderr.contains("warning"), "\(r.stderr)")
        let review = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(review["warnings"] as? [String] == [])
        let plan = try cli.run(["race", "plan", "Races/munich.yaml", "--format", "json"])
        let planned = try #require(try JSONSerialization.jsonObject(with: Data(plan.stdout.utf8)) as? [String: Any])
        let reviewSplits = try #require(review["splits"] as? [[String: Any]])
        let planSplits = try #require(planned["splits"] as? [[String: Any]])
        // The watch recorded a flat 520 m; the grade shown is the course's, split by split.
        #expect(reviewSplits.map { $0["gradePercent"] as? Double } == planSplits.map { $0["gradePercent"] as? Double })
        let first = try #require(reviewSplits.first?["gradePercent"] as? Double)
        #expect(first > 2 && first < 4, "\(first)")
        #expect(abs(reviewSplits[7]["gradePercent"] as? Double ?? 9) < 0.01)
        // Uphill, the grade-adjusted pace is faster than the pace run.
        let pace = try #require(reviewSplits.first?["actualPaceSecondsPerKm"] as? Double)
        let gap = try #require(reviewSplits.first?["gradeAdjustedPaceSecondsPerKm"] as? Double)
        #expect(gap < pace - 10, "GAP \(gap) vs pace \(pace)")
    }
}
