import Foundation
import Testing

/// A 2.2 km TCX run at 4:00/km with HR, one point per 2 s (device distance).
func steadyTCX(start: String = "2026-03-10T07:00:00Z", seconds: Int = 528, hr: Int = 150, secondsPerKm: Double = 240)
    -> String
{
    var points = ""
    let t0 = ISO8601DateFormatter().date(from: start)!
    let f = ISO8601DateFormatter()
    for s in stride(from: 0, through: seconds, by: 2) {
        points +=
            "<Trackpoint><Time>\(f.string(from: t0.addingTimeInterval(Double(s))))</Time>"
            + "<Position><LatitudeDegrees>\(48 + Double(s) * 1000 / secondsPerKm / 111_195)</LatitudeDegrees><LongitudeDegrees>11</LongitudeDegrees></Position>"
            + "<AltitudeMeters>500</AltitudeMeters><DistanceMeters>\(Double(s) * 1000 / secondsPerKm)</DistanceMeters>"
            + "<HeartRateBpm><Value>\(hr)</Value></HeartRateBpm></Trackpoint>\n"
    }
    return """
        <?xml version="1.0"?><TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2">
        <Activities><Activity Sport="Running"><Id>\(start)</Id><Lap StartTime="\(start)"><Track>
        \(points)</Track></Lap></Activity></Activities></TrainingCenterDatabase>
        """
}

@Suite struct AnalyticsCLITests {
    func importedRunID(_ cli: CLI, _ file: String = "run.tcx") throws -> String {
        let r = try cli.run(["import", "--format", "json", file])
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [[String: Any]]
        return try #require((json.first?["runIds"] as? [String])?.first)
    }

    @Test func showPrintsSplitsZonesAndEffortsAsJSON() throws {
        let cli = try CLI()
        try cli.write("run.tcx", steadyTCX())
        _ = try cli.run([
            "athlete", "set", "default", "--max-hr", "190", "--resting-hr", "50", "--threshold-hr", "170", "--sex",
            "male"
        ])
        let id = try importedRunID(cli)
        let r = try cli.run(["runs", "show", String(id.prefix(10)), "--format", "json"])
        #expect(r.status == 0)
        let run = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
        #expect(run["id"] as? String == id)
        let splits = try #require(run["splits"] as? [[String: Any]])
        #expect(splits.count == 3)
        #expect(abs((splits[0]["elapsedSeconds"] as! Double) - 240) < 0.01)
        #expect(splits[2]["partial"] as? Bool == true)
        for key in [
            "index", "startMeters", "endMeters", "elapsedSeconds", "movingSeconds", "paceSecondsPerKm",
            "ascentMeters", "descentMeters", "avgHeartRate", "avgCadence", "partial"
        ] {
            #expect(splits[0][key] != nil, "split key \(key)")
        }
        let zones = try #require(run["heartRateZones"] as? [[String: Any]])
        #expect(run["zoneModel"] as? String == "friel")
        // 150 bpm with LTHR 170 is 88%: Friel zone 2 (85-89%) holds all 528 s.
        #expect(zones.first { $0["name"] as? String == "2" }?["seconds"] as? Double == 528)
        let efforts = try #require(run["bestEfforts"] as? [[String: Any]])
        #expect(efforts.map { $0["distanceMeters"] as! Double } == [400, 800, 1000, 1609.344])
        #expect(abs((efforts[2]["elapsedSeconds"] as! Double) - 240) < 0.01)
        #expect(run["loadSource"] as? String == "heart-rate")
        #expect(run["movingSeconds"] as? Double == 528)
    }

    @Test func showAndSplitsInMilesAsTextAndCSV() throws {
        let cli = try CLI()
        try cli.write("run.tcx", steadyTCX())
        let id = try importedRunID(cli)
        let text = try cli.run(["runs", "show", id, "--unit", "mi"])
        #expect(text.status == 0)
        #expect(text.stdout.contains("Splits (mi)"))
        #expect(text.stdout.contains("6:26 /mi"))   // 4:00/km is 6:26/mi
        let csv = try cli.run(["runs", "splits", id, "--format", "csv"])
        let lines = csv.stdout.split(separator: "\r\n")
        #expect(lines.first?.hasPrefix("index,start_km,end_km,elapsed_time_s") == true)
        #expect(lines.count == 4)
        #expect(lines[1].hasPrefix("1,0.000,1.000,240.00,"))
    }

    @Test func unknownRunExits66() throws {
        let cli = try CLI()
        #expect(try cli.run(["athlete", "add", "anna"]).status == 0)
        let r = try cli.run(["runs", "show", "NOPE"])
        #expect(r.status == 66 && r.stderr.contains("no run with id NOPE"))
    }

    @Test func editAndDeleteRuns() throws {
        let cli = try CLI()
        try cli.write("run.tcx", steadyTCX())
        let id = try importedRunID(cli)
        #expect(
            try cli.run(["runs", "edit", id, "--label", "Parkrun", "--mode", "race", "--rpe", "8", "--notes", "windy"])
                .status == 0)
        #expect(try cli.run(["runs", "edit", id, "--rpe", "11"]).status == 64)
        let list = try cli.run(["runs", "list", "--format", "json"])
        let run = (try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as! [[String: Any]])[0]
        #expect(run["label"] as? String == "Parkrun" && run["mode"] as? String == "race")
        #expect(run["perceivedEffort"] as? Double == 8 && run["notes"] as? String == "windy")
        // Not a terminal (a launched binary's stdin is /dev/null): delete needs --yes.
        let refused = try cli.launch(["runs", "delete", id])
        #expect(refused.status == 64 && refused.stderr.contains("--yes"))
        #expect(try cli.run(["runs", "delete", id, "--yes"]).status == 0)
        #expect(try cli.run(["runs", "show", id]).status == 66)
    }

    @Test func bestsListsPersonalRecordsWithTheirRun() throws {
        let cli = try CLI()
        try cli.write("a.tcx", steadyTCX(start: "2026-03-10T07:00:00Z"))
        try cli.write("b.tcx", steadyTCX(start: "2026-03-12T07:00:00Z", seconds: 600, secondsPerKm: 250))
        let fast = try importedRunID(cli, "a.tcx")
        _ = try importedRunID(cli, "b.tcx")
        let r = try cli.run(["runs", "bests", "--format", "json"])
        let records = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [[String: Any]]
        #expect(records.map { $0["distanceMeters"] as! Double } == [400, 800, 1000, 1609.344])
        #expect(records.allSatisfy { $0["runId"] as? String == fast })
        let one = try cli.run(["runs", "bests", "--distance", "1k", "--format", "csv"])
        let rows = one.stdout.split(separator: "\r\n").dropFirst().map { $0.split(separator: ",").map(String.init) }
        #expect(rows.map { $0[2] } == ["240.0", "250.0"])   // both runs' 1 km, fastest first
        #expect(try cli.run(["runs", "bests", "--distance", "7k"]).status == 64)
    }

    @Test func athleteSetRecomputesLoadAndZones() throws {
        let cli = try CLI()
        try cli.write("run.tcx", steadyTCX())
        let id = try importedRunID(cli)
        func load() throws -> (Double?, String?) {
            let r = try cli.run(["runs", "show", id, "--format", "json"])
            let run = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
            return (run["load"] as? Double, run["loadSource"] as? String)
        }
        // Nothing set: max HR estimated from the run itself, no resting HR: Edwards zones.
        #expect(try load().1 == "heart-rate-zones")
        let set = try cli.run([
            "athlete", "set", "default", "--max-hr", "190", "--resting-hr", "50", "--threshold-hr", "170", "--sex",
            "male"
        ])
        #expect(set.status == 0 && set.stdout.contains("Recomputed 1 runs"))
        let (value, source) = try load()
        #expect(source == "heart-rate")
        // 528 s at 150 bpm, male, rest 50, max 190, LTHR 170 (hand computation).
        let x = 100.0 / 140, xt = 120.0 / 140
        let expected = 528.0 / 60 * x * 0.64 * exp(1.92 * x) / (60 * xt * 0.64 * exp(1.92 * xt)) * 100
        #expect(abs(value! - expected) < 0.1)
        let show = try cli.run(["athlete", "show", "default", "--format", "json"])
        let athlete = try JSONSerialization.jsonObject(with: Data(show.stdout.utf8)) as! [String: Any]
        #expect(athlete["maxHeartRate"] as? Double == 190 && athlete["maxHeartRateEstimated"] as? Bool == false)
        #expect(try cli.run(["runs", "recompute"]).stdout.contains("up to date"))
        // The lean recompute (zones and load only) agrees with a full one.
        let zonesBefore = try cli.run(["runs", "show", id, "--format", "json"]).stdout
        #expect(try cli.run(["runs", "recompute", "--all"]).stdout.contains("Recomputed 1 of 1 runs"))
        #expect(try load().0 == value)
        #expect(try cli.run(["runs", "show", id, "--format", "json"]).stdout == zonesBefore)
        #expect(try cli.run(["athlete", "set", "default", "--threshold-pace", "fast"]).status == 64)
        #expect(try cli.run(["athlete", "set", "default", "--time-zone", "Mars/Olympus"]).status == 64)
    }

    @Test func listSortsAndFilters() throws {
        let cli = try CLI()
        try cli.write("a.tcx", steadyTCX(start: "2026-03-10T07:00:00Z", seconds: 300))
        try cli.write("b.tcx", steadyTCX(start: "2026-03-12T07:00:00Z", seconds: 600))
        _ = try cli.run(["import", "."])
        let byDistance = try cli.run(["runs", "list", "--sort", "distance", "--format", "csv"])
        let rows = byDistance.stdout.split(separator: "\r\n").dropFirst()
        #expect(rows.first?.contains("2026-03-12") == true)
        let since = try cli.run(["runs", "list", "--since", "2026-03-11", "--format", "csv"])
        #expect(since.stdout.split(separator: "\r\n").count == 2)
    }
}
