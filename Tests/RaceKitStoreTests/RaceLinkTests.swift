import Foundation
import GRDB
import Testing

@testable import RaceKitCore
@testable import RaceKitStore

@Suite struct RaceLinkTests {
    static func link(_ runID: String?) -> RaceLink {
        RaceLink(
            setupSlug: "berlin", setupFile: "Races/berlin.yaml", raceName: "Berlin", raceDate: "2026-03-01",
            targetSeconds: 11_700, runID: runID, actualSeconds: 11_800, reviewPath: nil)
    }

    @Test func aLinkIsKeptAndFoundByItsRun() throws {
        let (store, id) = try RunStoreTests.storeWithOneRun()
        try store.saveRaceLink(Self.link(id))
        #expect(try store.raceLink(slug: "berlin") == Self.link(id))
        #expect(try store.raceLinks(runID: id).map(\.setupSlug) == ["berlin"])
        #expect(try store.raceLinksByRun(athleteID: "default")[id]?.raceName == "Berlin")
        #expect(try store.unlinkRace(slug: "berlin"))
        #expect(try !store.unlinkRace(slug: "berlin"))
        #expect(try store.raceLink(slug: "berlin") == nil)
    }

    @Test func deletingTheRunLeavesTheSetupUnlinked() throws {
        let (store, id) = try RunStoreTests.storeWithOneRun()
        try store.saveRaceLink(Self.link(id))
        try store.delete(runID: id)
        let left = try #require(try store.raceLink(slug: "berlin"))
        #expect(left.runID == nil && left.raceName == "Berlin")
        #expect(try store.raceLinksByRun(athleteID: "default").isEmpty)
    }

    @Test func theNewColumnsAreThereAfterMigration() throws {
        let (store, id) = try RunStoreTests.storeWithOneRun()
        let (columns, table) = try store.writer.read { db in
            (try db.columns(in: "run").map(\.name), try db.tableExists("race_link"))
        }
        #expect(columns.contains("gap_pace_s_per_km") && table)
        // makeRun has no elevation: GAP is unknown, not 0.
        #expect(try store.run(id: id)?.gradeAdjustedPaceSecondsPerKm == nil)
    }
}
