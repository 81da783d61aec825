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
    }
}
