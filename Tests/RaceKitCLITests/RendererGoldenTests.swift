import Foundation
import RaceKitTestSupport
import Testing

/// Every renderer of the CLI against a golden file, end to end through the
/// commands (`CLI.run`: `RaceKitCommand.execute`, as the binary runs them) on a
/// fixed race: `runs show` and `runs splits`, `race plan`
/// (table, Markdown, CSV, the pace band), `race review` (table, Markdown, the
/// chart, in km and miles), `script show` and `script simulate`. The inputs are
/// fixed (dates, samples, athlete), the run's random id is replaced by `RUN`;
/// `RACEKIT_UPDATE_GOLDEN=1 swift test` records (and fails), see `Golden`.
@Suite(.serialized) struct RendererGoldenTests {
    static let folder = Golden.folder(besides: #filePath)

    /// `Golden.check` in this suite's folder, its failure recorded rather than
    /// thrown: one run records or reports every golden of a test.
    static func check(_ text: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        do { try Golden.check(text, name, in: folder) } catch let e as Golden.Mismatch {
            Issue.record(Comment(rawValue: e.description), sourceLocation: sourceLocation)
        }
    }

    /// The course: 10 km north from 48.1°N, 11.5°E, one climb of about 30 m
    /// from 3 km and its descent from 6 km.
    static func elevation(atMeters x: Double) -> Double {
        520 + 15 * (1 - cos(max(0, min(1, (x - 3000) / 6000)) * 2 * .pi))
    }

    static func latitude(atMeters x: Double) -> Double { 48.1 + x / 111_195 }

    /// A GPX route every 50 m along the course.
    static func courseGPX() -> String {
        var points = ""
        for x in stride(from: 0.0, through: 10_000, by: 50) {
            points +=
                "<rtept lat=\"\(latitude(atMeters: x))\" lon=\"11.5\"><ele>\(TextFormatting.fixed(elevation(atMeters: x), 1))</ele></rtept>\n"
        }
        return """
            <?xml version="1.0"?><gpx version="1.1" creator="golden" xmlns="http://www.topografix.com/GPX/1/1"><rte>
            \(points)</rte></gpx>
            """
    }

    /// The race run: 10.08 km on the watch (GPS 0.8% long) along the course,
    /// starting 2026-03-10 09:00 UTC, a point every 5 s, a pace that swings,
    /// slows on the climb and breaks for the last 2.4 km (14% slower), a 25 s
    /// stop at the 5 km drink, heart rate
    /// drifting from 145 to 178 bpm, cadence around 172.
    static func runGPX() -> String {
        let f = ISO8601DateFormatter()
        let t0 = f.date(from: "2026-03-10T09:00:00Z")!
        var points = "", x = 0.0, t = 0, stopped = 0
        while x < 10_080 {
            let course = x / 1.008
            let grade = (elevation(atMeters: course + 10) - elevation(atMeters: course)) / 10
            let speed = (3.55 + 0.12 * sin(Double(t) / 400)) * (1 - 3 * grade) * (course > 7600 ? 0.86 : 1)
            let hr = 145 + 30 * Double(t) / 3000 + 3 * sin(Double(t) / 90)
            let ext =
                "<extensions><ns3:TrackPointExtension><ns3:hr>\(Int(hr))</ns3:hr><ns3:cad>\(86 + t / 60 % 3)</ns3:cad></ns3:TrackPointExtension></extensions>"
            points +=
                "<trkpt lat=\"\(latitude(atMeters: x))\" lon=\"11.5\"><ele>\(TextFormatting.fixed(elevation(atMeters: course), 1))</ele><time>\(f.string(from: t0.addingTimeInterval(Double(t))))</time>\(ext)</trkpt>\n"
            t += 5
            if course >= 5000, stopped < 25 {
                stopped += 5
                continue
            }
            x += speed * 5
        }
        return """
            <?xml version="1.0"?><gpx version="1.1" creator="golden" xmlns="http://www.topografix.com/GPX/1/1"
             xmlns:ns3="http://www.garmin.com/xmlschemas/TrackPointExtension/v1"><trk><name>Golden Ten</name><type>running</type><trkseg>
            \(points)</trkseg></trk></gpx>
            """
    }

    static let setup = """
        name: Golden Ten
        date: 2026-03-10
        start_time: "10:00"
        distance: 10k
        target_time: "48:30"
        pacing: {strategy: even, grade_model: road}
        course: course.gpx
        fueling: {carbs_per_hour_g: 30, gel_carbs_g: 22, start_after: "0:15:00"}
        hydration: {ml_per_hour: 400, sodium_mg_per_hour: 300, aid_stations_km: [5]}
        script: {personality: roast_coach}
        """

    /// A work folder with the athlete, the imported run, the setup and its
    /// course; and the run's id.
    static func prepare() throws -> (CLI, runID: String) {
        let cli = try CLI()
        try cli.write("course.gpx", courseGPX())
        try cli.write("race.gpx", runGPX())
        try cli.write("golden-ten.yaml", setup)
        let athlete = try cli.run([
            "athlete", "set", "default", "--name", "Golden Runner", "--max-hr", "190", "--resting-hr", "50",
            "--threshold-hr", "172", "--sex", "female", "--time-zone", "Europe/Berlin", "--store", "s.sqlite"
        ])
        try #require(athlete.status == 0, "\(athlete.stderr)")
        let imported = try cli.run(["import", "race.gpx", "--store", "s.sqlite"])
        try #require(imported.status == 0, "\(imported.stderr)")
        let list = try cli.run(["runs", "list", "--store", "s.sqlite", "--format", "csv"])
        let id = String(list.stdout.split(separator: "\r\n").last?.split(separator: ",").first ?? "")
        try #require(id.count > 8, "\(list.stdout)")
        return (cli, id)
    }

    /// Runs `args` on the store, expects exit 0, returns stdout with the run's id as `RUN`.
    static func output(_ cli: CLI, _ args: [String], runID: String) throws -> String {
        let r = try cli.run(args + ["--store", "s.sqlite"])
        try #require(r.status == 0, "\(args.joined(separator: " ")): \(r.stderr)")
        return r.stdout.replacingOccurrences(of: runID, with: "RUN")
    }

    static func file(_ cli: CLI, _ path: String, runID: String) throws -> String {
        try String(contentsOf: cli.workdir.appendingPathComponent(path), encoding: .utf8)
            .replacingOccurrences(of: runID, with: "RUN")
    }

    /// Label the run a race so `runs show` has its race line too (after the review).
    @Test func runsShowAndSplits() throws {
        let (cli, id) = try Self.prepare()
        let show = try Self.output(cli, ["runs", "show", id], runID: id)
        #expect(
            show.contains("Splits") && show.contains("Heart-rate zones") && show.contains("Best efforts"), "\(show)")
        try Self.check(show, "runs-show.txt")
        try Self.check(
            try Self.output(cli, ["runs", "show", id, "--format", "json"], runID: id), "runs-show.json")
        try Self.check(try Self.output(cli, ["runs", "splits", id], runID: id), "runs-splits.txt")
        try Self.check(
            try Self.output(cli, ["runs", "splits", id, "--unit", "mi"], runID: id), "runs-splits-mi.txt")
        try Self.check(
            try Self.output(cli, ["runs", "splits", id, "--format", "csv"], runID: id), "runs-splits.csv")
    }

    @Test func racePlanAndBand() throws {
        let (cli, id) = try Self.prepare()
        let plan = ["race", "plan", "golden-ten.yaml"]
        try Self.check(try Self.output(cli, plan, runID: id), "race-plan.txt")
        try Self.check(try Self.output(cli, plan + ["--format", "md"], runID: id), "race-plan.md")
        try Self.check(
            try Self.output(cli, plan + ["--format", "csv"], runID: id), "race-plan-splits.csv")
        try Self.check(
            try Self.output(cli, plan + ["--format", "csv", "--table", "cues"], runID: id), "race-plan-cues.csv")
        try Self.check(
            try Self.output(cli, plan + ["--unit", "mi"], runID: id), "race-plan-mi.txt")
        _ = try Self.output(cli, plan + ["--export", "band", "--out", "plans"], runID: id)
        try Self.check(try Self.file(cli, "plans/golden-ten-band.svg", runID: id), "golden-ten-band.svg")
    }

    @Test func raceReview() throws {
        let (cli, id) = try Self.prepare()
        let review = ["race", "review", "golden-ten.yaml"]
        let table = try Self.output(cli, review, runID: id)
        #expect(table.contains("Verdict"), "\(table)")
        try Self.check(table, "race-review.txt")
        try Self.check(try Self.output(cli, review + ["--format", "md"], runID: id), "race-review.md")
        try Self.check(
            try Self.output(cli, review + ["--format", "csv"], runID: id), "race-review.csv")
        try Self.check(
            try Self.output(cli, review + ["--unit", "mi"], runID: id), "race-review-mi.txt")
        _ = try Self.output(cli, review + ["--out", "reviews"], runID: id)
        try Self.check(
            try Self.file(cli, "reviews/golden-ten-review.md", runID: id), "golden-ten-review.md")
        try Self.check(
            try Self.file(cli, "reviews/golden-ten-review.svg", runID: id), "golden-ten-review.svg")
        _ = try Self.output(cli, review + ["--unit", "mi", "--out", "reviews-mi"], runID: id)
        try Self.check(
            try Self.file(cli, "reviews-mi/golden-ten-review.svg", runID: id), "golden-ten-review-mi.svg")
        // The review linked the run: runs show now has its race line.
        try Self.check(try Self.output(cli, ["runs", "show", id], runID: id), "runs-show-raced.txt")
    }

    @Test func scriptShowAndSimulate() throws {
        let (cli, id) = try Self.prepare()
        _ = try Self.output(cli, ["race", "script", "golden-ten.yaml", "--output", "golden-ten.script.json"], runID: id)
        let show = ["script", "show", "golden-ten.script.json"]
        try Self.check(try Self.output(cli, show, runID: id), "script-show.txt")
        try Self.check(try Self.output(cli, show + ["--format", "md"], runID: id), "script-show.md")
        let simulate = ["script", "simulate", "golden-ten.script.json", "--run", id]
        try Self.check(try Self.output(cli, simulate, runID: id), "script-simulate.txt")
        try Self.check(
            try Self.output(cli, simulate + ["--format", "md"], runID: id), "script-simulate.md")
        try Self.check(
            try Self.output(cli, simulate + ["--format", "json"], runID: id), "script-simulate.json")
    }
}

/// A number with a fixed count of decimals, as the fixtures write them.
enum TextFormatting {
    static func fixed(_ v: Double, _ decimals: Int) -> String { String(format: "%.\(decimals)f", v) }
}
