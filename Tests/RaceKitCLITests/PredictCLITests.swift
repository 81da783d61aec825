import Foundation
import Testing

@Suite struct PredictCLITests {
    @Test func predictsFromAPerformanceWithAllThreeModels() throws {
        let cli = try CLI()
        let r = try cli.run(["predict", "--from", "10k=45:00", "--to", "marathon", "--format", "json"])
        #expect(r.status == 0)
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
        let predictions = try #require(json["predictions"] as? [[String: Any]])
        #expect(predictions.map { $0["model"] as! String } == ["riegel", "vdot", "cameron"])
        let riegel = predictions[0]["seconds"] as! Double
        #expect(abs(riegel - (2700 * pow(4.2195, 1.06)).rounded()) < 0.5)
        let range = try #require(json["rangeSeconds"] as? [Double])
        #expect(range[0] <= range[1] && range[0] == predictions.map { $0["seconds"] as! Double }.min())
        #expect((json["note"] as? String)?.contains("optimistic for recreational marathoners") == true)
        let text = try cli.run(["predict", "--from", "5 km=21:30", "--to", "half", "--riegel-exponent", "1.08"])
        #expect(text.stdout.contains("Riegel (k 1.08)") && text.stdout.contains("Range:"))
    }

    @Test func predictsFromTheAthletesRecords() throws {
        let cli = try CLI()
        try cli.write("run.tcx", steadyTCX(seconds: 1300))   // 5.4 km at 4:00/km
        _ = try cli.run(["import", "run.tcx"])
        let r = try cli.run(["predict", "--from-athlete", "default", "--to", "10k", "--format", "json"])
        #expect(r.status == 0)
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
        #expect(json["fromMeters"] as? Double == 5000)
        #expect(abs((json["fromSeconds"] as! Double) - 1200) < 0.5)
        // Without --from or --from-athlete: the athlete 'default'.
        let implicit = try cli.run(["predict", "--to", "10k", "--format", "json"])
        #expect(implicit.status == 0 && implicit.stdout == r.stdout, "\(implicit.stderr)")
        let none = try CLI()
        // No store at all: 66; a store without runs: 65.
        #expect(try none.run(["predict", "--to", "10k"]).status == 66)
        #expect(try none.run(["athlete", "add", "anna"]).status == 0)
        #expect(try none.run(["predict", "--from-athlete", "default", "--to", "10k"]).status == 65)
        #expect(try none.run(["predict", "--to", "10k"]).status == 65)
    }

    @Test func usageErrorsExit64() throws {
        let cli = try CLI()
        #expect(try cli.run(["predict", "--from", "10k", "--to", "marathon"]).status == 64)
        #expect(try cli.run(["predict", "--from", "10k=45:00", "--to", "far"]).status == 64)
        #expect(try cli.run(["predict", "--from", "10k=45:00", "--from-athlete", "a", "--to", "half"]).status == 64)
        // A time of nothing is named as such, not as a badly written time.
        let zero = try cli.run(["predict", "--from", "10k=0:00", "--to", "marathon"])
        #expect(zero.status == 64 && zero.stderr.contains("'0:00' must be a time over 0:00"), "\(zero.stderr)")
        let bad = try cli.run(["predict", "--from", "10k=4x:00", "--to", "marathon"])
        #expect(bad.status == 64 && bad.stderr.contains("'4x:00' is not a time (h:mm:ss)"), "\(bad.stderr)")
    }
}

/// An athlete whose best 10k (37:01) is from 2014 and who ran a half in 1:36:17
/// a week before "now" (RACEKIT_NOW).
@Suite struct RecentFormCLITests {
    static let now = ["RACEKIT_NOW": "2026-03-17T12:00:00Z"]

    static func store(withHalf: Bool) throws -> CLI {
        let cli = try CLI()
        try cli.write("old10k.tcx", steadyTCX(start: "2014-05-04T08:00:00Z", seconds: 2224, secondsPerKm: 222.1))
        #expect(try cli.run(["import", "old10k.tcx"]).status == 0)
        if withHalf {
            try cli.write("half.tcx", steadyTCX(start: "2026-03-10T08:00:00Z", seconds: 5780, secondsPerKm: 273.84))
            #expect(try cli.run(["import", "half.tcx"]).status == 0)
        }
        return cli
    }

    static func json(_ r: CLI.Result) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    }

    @Test func lastWeeksHalfSetsTheTargetNotThe2014TenK() throws {
        let cli = try Self.store(withHalf: true)
        let p = try Self.json(cli.run(["predict", "--to", "marathon", "--format", "json"], env: Self.now))
        #expect(p["fromMeters"] as? Double == 21_097.5 && p["fromAgeDays"] as? Double == 7)
        #expect(abs((p["fromSeconds"] as! Double) - 5777) < 3)
        #expect((p["warnings"] as? [String]) == [])
        // Half to marathon: Riegel's caveat applies.
        #expect((p["note"] as? String)?.contains("optimistic for recreational marathoners") == true)
        let fromHalf = try Self.json(
            cli.run([
                "predict", "--from", "half=\(Int((p["fromSeconds"] as! Double).rounded()))", "--to", "marathon",
                "--format", "json"
            ]))
        let fromStore = try #require(p["predictions"] as? [[String: Any]]).map { $0["seconds"] as! Double }
        let fromText = try #require(fromHalf["predictions"] as? [[String: Any]]).map { $0["seconds"] as! Double }
        // The same predictions as from the half itself (its time rounded to the second).
        #expect(zip(fromStore, fromText).allSatisfy { abs($0 - $1) <= 2 } && fromStore.allSatisfy { $0 > 3 * 3600 })

        let r = try cli.run(
            ["race", "new", "Autumn Marathon", "--distance", "marathon", "--athlete", "default"], env: Self.now)
        #expect(r.status == 0, "\(r.stderr)")
        // A marathon from a half: the slowest of the models (Riegel's caveat: plan on the
        // slower end, as the line says), rounded up to the minute; the 2014 10k would give 2:52.
        let range = try #require(fromHalf["predictions"] as? [[String: Any]]).map { $0["seconds"] as! Double }.sorted()
        let minutes = Int((range[2] / 60).rounded(.up))
        #expect(
            r.stdout.contains(
                "(target \(minutes / 60):\(String(format: "%02d", minutes % 60)):00, suggested from half in 1:36:1"))
        #expect(r.stdout.contains("2026-03-10, 7 days ago") && !r.stdout.contains("2014") && r.stderr.isEmpty)
        // A window of 20 years takes the 10k, and names its age.
        let wide = try cli.run(
            [
                "race", "new", "Wide Marathon", "--distance", "marathon", "--athlete", "default", "--within-months",
                "240"
            ],
            env: Self.now)
        #expect(wide.stdout.contains("suggested from 10k in 37:0") && wide.stdout.contains("2014-05-04, 11 years ago"))
        #expect(try cli.run(["predict", "--to", "half", "--within-months", "0"]).status == 64)
    }

    @Test func onlyOldRecordsWarnWithTheirAge() throws {
        let cli = try Self.store(withHalf: false)
        let p = try Self.json(cli.run(["predict", "--to", "marathon", "--format", "json"], env: Self.now))
        #expect(p["fromMeters"] as? Double == 10_000)
        let days = try #require(p["fromAgeDays"] as? Double)
        // 2014-05-04 to 2026-03-17: 4,335 days.
        #expect(days == 4335)
        let warnings = try #require(p["warnings"] as? [String])
        #expect(
            warnings.count == 1 && warnings[0].hasPrefix("no record in the last 12 months: using the 10k in 37:0")
                && warnings[0].contains("of 2014-05-04, 11 years ago"))
        let text = try cli.run(["predict", "--to", "marathon"], env: Self.now)
        #expect(
            text.stderr.contains("warning: no record in the last 12 months") && text.stdout.contains("11 years ago"))
        let r = try cli.run(
            ["race", "new", "Old Form", "--distance", "marathon", "--athlete", "default"], env: Self.now)
        #expect(r.status == 0 && r.stderr.contains("warning: no record in the last 12 months"))
        let file = try String(contentsOf: cli.workdir.appendingPathComponent("Races/old-form.yaml"), encoding: .utf8)
        #expect(file.contains("11 years ago"), "\(file)")
    }

    @Test func riegelsCaveatOnlyWhereItApplies() throws {
        let cli = try CLI()
        for (from, to, applies) in [
            ("10k=45:00", "marathon", true), ("half=1:40:00", "marathon", true), ("10k=45:00", "half", false),
            ("30k=2:20:00", "marathon", false), ("marathon=3:30:00", "50k", false), ("10k=45:00", "100k", true)
        ] {
            let json = try Self.json(cli.run(["predict", "--from", from, "--to", to, "--format", "json"]))
            #expect((json["note"] is String) == applies, "\(from) -> \(to)")
            let text = try cli.run(["predict", "--from", from, "--to", to])
            #expect(text.stdout.contains("optimistic") == applies, "\(from) -> \(to)")
        }
    }
}
