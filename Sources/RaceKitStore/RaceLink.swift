import Foundation
import GRDB
import RaceKitCore

/// The link from a race setup to the run it became (`race review`). A deleted
/// run leaves the link with no run (`runID` nil): the setup is unlinked, not broken.
public struct RaceLink: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "race_link"

    /// The setup's slug (one link per race).
    public var setupSlug: String
    /// The setup file as given to `race review`.
    public var setupFile: String
    public var raceName: String
    /// YYYY-MM-DD.
    public var raceDate: String?
    public var targetSeconds: Double
    public var runID: String?
    /// Finish clock of the linked run, seconds.
    public var actualSeconds: Double?
    /// The review's Markdown, absolute, when `--out` wrote one.
    public var reviewPath: String?

    public init(
        setupSlug: String, setupFile: String, raceName: String, raceDate: String?, targetSeconds: Double,
        runID: String?, actualSeconds: Double?, reviewPath: String?
    ) {
        self.setupSlug = setupSlug; self.setupFile = setupFile; self.raceName = raceName; self.raceDate = raceDate
        self.targetSeconds = targetSeconds; self.runID = runID; self.actualSeconds = actualSeconds
        self.reviewPath = reviewPath
    }

    enum CodingKeys: String, CodingKey {
        case setupSlug = "setup_slug", setupFile = "setup_file", raceName = "race_name", raceDate = "race_date"
        case targetSeconds = "target_s", runID = "run_id", actualSeconds = "actual_s", reviewPath = "review_path"
    }

    public enum Columns {
        public static let setupSlug = Column(CodingKeys.setupSlug)
        public static let runID = Column(CodingKeys.runID)
    }
}

extension RunStore {
    /// The link of a race setup, if it was ever reviewed.
    public func raceLink(slug: String) throws -> RaceLink? {
        try wrap { try writer.read { try RaceLink.fetchOne($0, key: slug) } }
    }

    /// Stores (or replaces) a race's link.
    public func saveRaceLink(_ link: RaceLink) throws {
        try wrap { try write { try link.save($0) } }
    }

    /// Forgets a race's link; false when there was none.
    public func unlinkRace(slug: String) throws -> Bool {
        try wrap { try write { try RaceLink.deleteOne($0, key: slug) } }
    }

    /// The races a run is linked to (by slug).
    public func raceLinks(runID: String) throws -> [RaceLink] {
        try wrap {
            try writer.read {
                try RaceLink.filter(RaceLink.Columns.runID == runID).order(RaceLink.Columns.setupSlug).fetchAll($0)
            }
        }
    }

    /// Every linked race of an athlete's runs, by run id (the first slug when several).
    public func raceLinksByRun(athleteID: String) throws -> [String: RaceLink] {
        try wrap {
            try writer.read { db in
                let links = try RaceLink.fetchAll(
                    db,
                    sql: """
                        SELECT race_link.* FROM race_link JOIN run ON run.id = race_link.run_id
                        WHERE run.athlete_id = ? ORDER BY race_link.setup_slug
                        """, arguments: [athleteID])
                var out: [String: RaceLink] = [:]
                for l in links { if let id = l.runID, out[id] == nil { out[id] = l } }
                return out
            }
        }
    }
}
