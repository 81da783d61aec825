import Foundation
import GRDB
import RaceKitTestSupport
import Testing

@testable import RaceKitSQLite
@testable import RaceKitStore

@Suite struct RaceLinkTests {
    static let berlinKey = "/races/berlin.yaml"

    static func link(_ runID: String?, key: String = berlinKey, file: String = "Races/berlin.yaml") -> RaceLink {
        RaceLink(
            setupKey: key, setupSlug: "berlin", setupFile: file, raceName: "Berlin", raceDate: "2026-03-01",
            targetSeconds: 11_700, runID: runID, actualSeconds: 11_800, reviewPath: nil)
    }

    @Test(arguments: Backend.all) func aLinkIsKeptAndFoundByItsRun(_ backend: Backend) throws {
        let (store, id) = try backend.storeWithOneRun()
        try store.saveRaceLink(Self.link(id))
        #expect(try store.raceLink(setupKey: Self.berlinKey, slug: "berlin") == Self.link(id))
        #expect(try store.raceLinks(runID: id).map(\.setupSlug) == ["berlin"])
        #expect(try store.raceLinksByRun(athleteID: "default")[id]?.raceName == "Berlin")
        #expect(try store.unlinkRace(setupKey: Self.berlinKey, slug: "berlin"))
        #expect(try !store.unlinkRace(setupKey: Self.berlinKey, slug: "berlin"))
        #expect(try store.raceLink(setupKey: Self.berlinKey, slug: "berlin") == nil)
    }

    @Test(arguments: Backend.all) func twoSetupFilesWithTheSameNameHaveALinkEach(_ backend: Backend) throws {
        let (store, id) = try backend.storeWithOneRun()
        let copy = Self.link(nil, key: "/races/berlin-copy.yaml", file: "Races/berlin-copy.yaml")
        try store.saveRaceLink(Self.link(id))
        try store.saveRaceLink(copy)
        // The copy's link (no run) did not replace the original's.
        #expect(try store.raceLink(setupKey: Self.berlinKey, slug: "berlin")?.runID == id)
        #expect(try store.raceLink(setupKey: "/races/berlin-copy.yaml", slug: "berlin") == copy)
        #expect(try store.unlinkRace(setupKey: "/races/berlin-copy.yaml", slug: "berlin"))
        #expect(try store.raceLink(setupKey: Self.berlinKey, slug: "berlin")?.runID == id)
    }

    @Test func theKeyOfASetupFileIsItsAbsolutePathHoweverItIsNamed() {
        // Under the lock of the in-process CLI runs, which change the working folder.
        let (here, a) = WorkingFolder.reading {
            (FileManager.default.currentDirectoryPath, RaceLink.key(setupFile: "Races/../Races/./berlin.yaml"))
        }
        #expect(a == RaceLink.key(setupFile: here + "/Races/berlin.yaml"))
        #expect(a.hasPrefix("/") && a.hasSuffix("/Races/berlin.yaml") && !a.contains(".."))
        #expect(a != RaceLink.key(setupFile: "Other/berlin.yaml"))
    }

    @Test func aLinkFromBeforeLinksWerePerFileIsAdoptedOnce() throws {
        let (store, id) = try RunStoreTests.storeWithOneRun()
        let legacy = Self.link(id, key: RaceLink.legacyKey(slug: "berlin"))
        try store.saveRaceLink(legacy)
        // Found for a setup file of that slug until one saves its own link.
        #expect(try store.raceLink(setupKey: Self.berlinKey, slug: "berlin") == legacy)
        try store.saveRaceLink(Self.link(id))
        let keys = try store.writer.read { try String.fetchAll($0, sql: "SELECT setup_key FROM race_link") }
        #expect(keys == [Self.berlinKey])
        #expect(try store.raceLink(setupKey: "/races/berlin-copy.yaml", slug: "berlin") == nil)
    }

    @Test func theMigrationKeepsOldLinksUnderTheirSlug() throws {
        let queue = try DatabaseQueue()
        try Migrations.migrator.migrate(queue, upTo: "v5-gap-race-link")
        try queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO race_link (setup_slug, setup_file, race_name, race_date, target_s, run_id, actual_s,
                        review_path) VALUES ('berlin', 'Races/berlin.yaml', 'Berlin', '2026-03-01', 11700, NULL,
                        NULL, '/r/berlin-review.md')
                    """)
        }
        try Migrations.migrator.migrate(queue)
        let links = try queue.read {
            try Row.fetchAll($0, sql: "SELECT setup_key, setup_slug, review_path, setup_file FROM race_link")
        }
        #expect(links.count == 1)
        #expect(links.first?["setup_key"] == "slug:berlin" && links.first?["setup_slug"] == "berlin")
        #expect(
            links.first?["review_path"] == "/r/berlin-review.md" && links.first?["setup_file"] == "Races/berlin.yaml")
    }

    @Test(arguments: Backend.all) func linksAreFoundByTheirReviewAndTheReviewCanBeForgotten(_ backend: Backend) throws {
        let (store, id) = try backend.storeWithOneRun()
        var link = Self.link(id)
        link.reviewPath = "/r/berlin-review.md"
        try store.saveRaceLink(link)
        #expect(try store.raceLinks(reviewPath: "/r/berlin-review.md").map(\.setupKey) == [Self.berlinKey])
        try store.setReviewPath(nil, setupKey: Self.berlinKey)
        #expect(try store.raceLinks(reviewPath: "/r/berlin-review.md").isEmpty)
        #expect(try store.raceLink(setupKey: Self.berlinKey, slug: "berlin")?.reviewPath == nil)
    }

    @Test(arguments: Backend.all) func deletingTheRunLeavesTheSetupUnlinked(_ backend: Backend) throws {
        let (store, id) = try backend.storeWithOneRun()
        try store.saveRaceLink(Self.link(id))
        try store.delete(runID: id)
        let left = try #require(try store.raceLink(setupKey: Self.berlinKey, slug: "berlin"))
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
