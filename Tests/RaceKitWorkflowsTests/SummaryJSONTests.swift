import Foundation
import RaceKitTestSupport
import Testing

@testable import RaceKitPlan
@testable import RaceKitScriptWriter
@testable import RaceKitWorkflows

/// `--format json` of `athlete list`, `store check`, `script validate` and
/// `runs recompute` (issue 36, item 6: the README says every command takes it).
@Suite struct SummaryJSONTests {
    func object(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }

    @Test func everySummaryHasItsJSON() throws {
        let (store, runs) = try sixRuns()
        let athletes = try #require(try object(try SummaryJSON.athletes(store)) as? [[String: Any]])
        #expect(athletes.count == 1 && athletes[0]["id"] as? String == "default")
        #expect(athletes[0]["runs"] as? Int == runs.count && athletes[0]["zoneModel"] != nil)

        let check = try StoreCheck.report(store, json: true)
        let checked = try #require(try object(check.out) as? [String: Any])
        #expect(check.sound && check.errors.isEmpty && checked["ok"] as? Bool == true)
        #expect(checked["runs"] as? Int == runs.count && (checked["problems"] as? [Any])?.isEmpty == true)
        #expect((checked["digest"] as? String)?.count == 71 && checked["athletes"] as? Int == 1)
        let text = try StoreCheck.report(store, json: false)
        #expect(text.out.hasPrefix("digest: sha256:") && text.out.contains("\nok: \(runs.count) runs"))

        let recomputed = try #require(
            try object(try SummaryJSON.recompute(try RunJobs.recompute(store, athlete: nil, all: true)))
                as? [String: Any])
        #expect(recomputed["checked"] as? Int == runs.count && recomputed["updated"] as? Int == runs.count)
        #expect((recomputed["failed"] as? [Any])?.isEmpty == true)

        let plan = try RacePlanner.plan(
            try SetupLoader.parse(yaml: "name: Ten\ndistance: 10k\ntarget_time: \"45:00\"\n", file: "ten.yaml"))
        let script = ScriptGenerator.generate(plan: plan, personality: try Personality.named("calm_coach"))
        let valid = try #require(try object(try SummaryJSON.validated(script, file: "ten.json")) as? [String: Any])
        #expect(valid["valid"] as? Bool == true && valid["messages"] as? Int == script.messages.count)
        #expect(valid["personality"] as? String == "calm_coach" && valid["file"] as? String == "ten.json")
    }
}
