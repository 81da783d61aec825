import Foundation
import RaceKitTestSupport
import Testing

/// `race review` end to end: matching by date, the link in the store, the
/// outputs, and the link's life after its run is deleted.
@Suite struct RaceReviewCLITests {
    static let setup = """
        name: Test Ten
        date: 2026-03-10
        distance: 10k
        target_time: "50:00"
        hydration: {ml_per_hour: 500, aid_stations_km: [5]}
        """

    /// A work folder with a store holding a 10 km run (3000 s at 3.4 m/s, 10.2
    /// km on the watch: GPS 2% long) on 2026-03-10, and the setup.
    static func prepare() throws -> (CLI, runID: String) {
        let cli = try CLI()
        try cli.write("race.gpx", trackGPX(seconds: 3000, speed: 3.4, heartRate: 160))
        try cli.write("Races/ten.yaml", setup)
        #expect(try cli.run(["import", "race.gpx", "--store", "s.sqlite"]).status == 0)
        let list = try cli.run(["runs", "list", "--store", "s.sqlite", "--format", "csv"])
        return (cli, String(list.stdout.split(separator: "\r\n").last?.split(separator: ",").first ?? ""))
    }

    @Test func findsTheRunOnTheRaceDateLinksItAndShowsTheLink() throws {
        let (cli, runID) = try Self.prepare()
        let r = try cli.run(["race", "review", "Races/ten.yaml", "--store", "s.sqlite"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("run \(runID)") && r.stdout.contains("Verdict:"))
        // 10.2 km on the watch in 3000 s: aligned on the course, the 10 km took 50:00, the target.
        #expect(r.stdout.contains("Finished in 50:00, exactly on the 50:00 target."), "\(r.stdout)")
        let show = try cli.run(["runs", "show", runID, "--store", "s.sqlite"])
        #expect(show.stdout.contains("Race        Test Ten (Races/ten.yaml): target 50:00, finished in 50:00"))
        let json = try cli.run(["runs", "show", runID, "--store", "s.sqlite", "--format", "json"])
        #expect(json.stdout.contains("\"slug\" : \"test-ten\""))
    }

    /// `--run` with a run a month after the race date was reviewed without a word.
    @Test func aRunOffTheRaceDateIsReviewedWithAWarning() throws {
        let (cli, runID) = try Self.prepare()
        let same = try cli.run(["race", "review", "Races/ten.yaml", "--store", "s.sqlite", "--run", runID])
        #expect(same.status == 0 && !same.stderr.contains("race date"), "\(same.stderr)")
        try cli.write("Races/later.yaml", Self.setup.replacingOccurrences(of: "2026-03-10", with: "2026-02-08"))
        let r = try cli.run([
            "race", "review", "Races/later.yaml", "--store", "s.sqlite", "--run", runID, "--out", "rev"
        ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.stderr.contains(
                "warning: the run started on 2026-03-10, 30 days after the race date 2026-02-08: is it the race?"),
            "\(r.stderr)")
        let md = try String(contentsOf: cli.workdir.appendingPathComponent("rev/later-review.md"), encoding: .utf8)
        #expect(md.contains("30 days after the race date 2026-02-08"))
    }

    @Test func printsTheContractJSON() throws {
        let (cli, runID) = try Self.prepare()
        let r = try cli.run(["race", "review", "Races/ten.yaml", "--store", "s.sqlite", "--format", "json"])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        for key in [
            "race", "run", "targetSeconds", "actualSeconds", "splits", "brokeAtMeters", "fadePercent", "cues", "stops",
            "script", "verdict"
        ] {
            #expect(json.keys.contains(key), "missing \(key)")
        }
        #expect((json["run"] as? [String: Any])?["id"] as? String == runID)
        #expect(json["targetSeconds"] as? Double == 3000)
        let splits = try #require(json["splits"] as? [[String: Any]])
        #expect(splits.count == 10)
        for key in [
            "index", "startMeters", "endMeters", "plannedSeconds", "actualSeconds", "gapSeconds",
            "plannedPaceSecondsPerKm", "actualPaceSecondsPerKm", "gradeAdjustedPaceSecondsPerKm", "gradePercent",
            "avgHeartRate", "partial"
        ] {
            #expect(splits[0].keys.contains(key), "split key \(key)")
        }
        // A constant pace on a flat course, exactly the plan's: no gap anywhere.
        for s in splits { #expect(abs(s["gapSeconds"] as? Double ?? 99) <= 0.5) }
        let cues = try #require(json["cues"] as? [[String: Any]])
        for key in ["kind", "number", "plannedMeters", "plannedClockSeconds", "actualClockSeconds", "stopSeconds"] {
            #expect(cues.first?.keys.contains(key) == true, "cue key \(key)")
        }
        #expect(json["brokeAtMeters"] is NSNull)
    }

    @Test func writesMarkdownAndChartAtomicallyAndByteIdentically() throws {
        let (cli, _) = try Self.prepare()
        let args = ["race", "review", "Races/ten.yaml", "--store", "s.sqlite", "--out", "reviews", "--format", "csv"]
        let r = try cli.run(args)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasPrefix("index,start_km,end_km,planned_time_s,actual_time_s,behind_plan_s,"))
        let md = cli.workdir.appendingPathComponent("reviews/ten-review.md")
        let svg = cli.workdir.appendingPathComponent("reviews/ten-review.svg")
        let first = (try Data(contentsOf: md), try Data(contentsOf: svg))
        #expect(String(decoding: first.0, as: UTF8.self).contains("![Gap to the plan"))
        #expect(String(decoding: first.1, as: UTF8.self).hasPrefix("<svg"))
        #expect(try cli.run(args).status == 0)
        #expect(try Data(contentsOf: md) == first.0 && Data(contentsOf: svg) == first.1)
        // The weekly report's race highlight shows the result and links the review.
        let report = try cli.run(["report", "weekly", "--store", "s.sqlite", "--week", "2026-W11", "--out", "rep"])
        #expect(report.status == 0, "\(report.stderr)")
        let week = try String(
            contentsOf: cli.workdir.appendingPathComponent("rep/default/2026-W11.md"), encoding: .utf8)
        #expect(
            week.contains(
                "Race: Test Ten on Tue 10 Mar, 10.20 km in 50:00, exactly on the 50:00 target ([review](../../reviews/ten-review.md))."
            ), "\(week)")
    }

    @Test func noneOrSeveralCandidatesIsAClearDataError() throws {
        let (cli, runID) = try Self.prepare()
        try cli.write("Races/other.yaml", Self.setup.replacingOccurrences(of: "2026-03-10", with: "2026-03-11"))
        let none = try cli.run(["race", "review", "Races/other.yaml", "--store", "s.sqlite"])
        #expect(none.status == 65 && none.stderr.contains("no run of athlete 'default' on 2026-03-11"))
        #expect(none.stdout.isEmpty)
        try cli.write("later.gpx", trackGPX(seconds: 2900, speed: 3.5, start: "2026-03-10T15:00:00Z"))
        #expect(try cli.run(["import", "later.gpx", "--store", "s.sqlite"]).status == 0)
        let several = try cli.run(["race", "review", "Races/ten.yaml", "--store", "s.sqlite"])
        #expect(several.status == 65 && several.stderr.contains("several runs"), "\(several.stderr)")
        #expect(several.stderr.contains(runID))
        let chosen = try cli.run(["race", "review", "Races/ten.yaml", "--store", "s.sqlite", "--run", runID])
        #expect(chosen.status == 0, "\(chosen.stderr)")
        // Linked now: the link is kept without --run.
        #expect(try cli.run(["race", "review", "Races/ten.yaml", "--store", "s.sqlite"]).status == 0)
        let far = try cli.run(["race", "review", "Races/m.yaml", "--store", "s.sqlite", "--run", runID])
        #expect(far.status != 0 && far.status != 70)
    }

    @Test func aDeletedRunLeavesTheSetupUnlinkedNotBroken() throws {
        let (cli, runID) = try Self.prepare()
        #expect(try cli.run(["race", "review", "Races/ten.yaml", "--store", "s.sqlite"]).status == 0)
        #expect(try cli.run(["runs", "delete", runID, "--yes", "--store", "s.sqlite"]).status == 0)
        let again = try cli.run(["race", "review", "Races/ten.yaml", "--store", "s.sqlite"])
        #expect(again.status == 65 && again.stderr.contains("no run that day"), "\(again.stderr)")
        let report = try cli.run(["report", "weekly", "--store", "s.sqlite", "--week", "2026-W11", "--out", "rep"])
        #expect(report.status == 0)
        let unlink = try cli.run(["race", "review", "Races/ten.yaml", "--unlink", "--store", "s.sqlite"])
        #expect(unlink.status == 0 && unlink.stdout == "unlinked Races/ten.yaml\n", "\(unlink.stdout)")
        let twice = try cli.run(["race", "review", "Races/ten.yaml", "--unlink", "--store", "s.sqlite"])
        #expect(twice.stdout.contains("was not linked"))
    }
}
