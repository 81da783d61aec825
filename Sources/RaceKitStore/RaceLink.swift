import Foundation
import GRDB
import RaceKitCore

/// The link from a race setup file to the run it became (`race review`). A
/// deleted run leaves the link with no run (`runID` nil): the setup is
/// unlinked, not broken. One link per setup file: two files with the same
/// `name:` (a copied setup) have a link each.
public struct RaceLink: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "race_link"

    /// The setup file's absolute path (`key(setupFile:)`), or `slug:SLUG` for a
    /// link made before links were per file (adopted by the first review of a
    /// setup with that slug).
    public var setupKey: String
    /// The setup's slug (its name's).
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
        setupKey: String, setupSlug: String, setupFile: String, raceName: String, raceDate: String?,
        targetSeconds: Double, runID: String?, actualSeconds: Double?, reviewPath: String?
    ) {
        self.setupKey = setupKey; self.setupSlug = setupSlug; self.setupFile = setupFile; self.raceName = raceName
        self.raceDate = raceDate
        self.targetSeconds = targetSeconds; self.runID = runID; self.actualSeconds = actualSeconds
        self.reviewPath = reviewPath
    }

    enum CodingKeys: String, CodingKey {
        case setupKey = "setup_key", setupSlug = "setup_slug", setupFile = "setup_file", raceName = "race_name",
            raceDate = "race_date"
        case targetSeconds = "target_s", runID = "run_id", actualSeconds = "actual_s", reviewPath = "review_path"
    }

    public enum Columns {
        public static let setupKey = Column(CodingKeys.setupKey)
        public static let setupSlug = Column(CodingKeys.setupSlug)
        public static let runID = Column(CodingKeys.runID)
        public static let reviewPath = Column(CodingKeys.reviewPath)
    }

    /// The key of a setup file: its absolute path, `.` and `..` removed and
    /// symbolic links resolved (the same file however it is named).
    public static func key(setupFile path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }

    /// The key of a link made before links were per file.
    public static func legacyKey(slug: String) -> String { "slug:" + slug }
}

extension RunStore {
    /// The link of a setup file (`RaceLink.key(setupFile:)`), if it was ever
    /// reviewed; else a link made before links were per file for its slug.
    public func raceLink(setupKey: String, slug: String) throws -> RaceLink? {
        try wrap {
            try writer.read {
                try RaceLink.fetchOne($0, key: setupKey)
                    ?? RaceLink.fetchOne($0, key: RaceLink.legacyKey(slug: slug))
            }
        }
    }

    /// Stores (or replaces) a setup file's link; a link of its slug made before
    /// links were per file is replaced by it.
    public func saveRaceLink(_ link: RaceLink) throws {
        try wrap {
            try write { db in
                if link.setupKey != RaceLink.legacyKey(slug: link.setupSlug) {
                    _ = try RaceLink.deleteOne(db, key: RaceLink.legacyKey(slug: link.setupSlug))
                }
                try link.save(db)
            }
        }
    }

    /// Forgets a setup file's link (or the legacy link of its slug); false when there was none.
    public func unlinkRace(setupKey: String, slug: String) throws -> Bool {
        try wrap {
            try write { db in
                try RaceLink.deleteOne(db, key: setupKey)
                    || RaceLink.deleteOne(db, key: RaceLink.legacyKey(slug: slug))
            }
        }
    }

    /// The links whose review Markdown is `path` (absolute).
    public func raceLinks(reviewPath path: String) throws -> [RaceLink] {
        try wrap {
            try writer.read {
                try RaceLink.filter(RaceLink.Columns.reviewPath == path).order(RaceLink.Columns.setupKey).fetchAll($0)
            }
        }
    }

    /// Stores a link's review path (nil: its review was overwritten by another setup's).
    public func setReviewPath(_ path: String?, setupKey: String) throws {
        try wrap {
            try write { db in
                try db.execute(
                    sql: "UPDATE race_link SET review_path = ? WHERE setup_key = ?", arguments: [path, setupKey])
            }
        }
    }

    /// The races a run is linked to (by slug).
    public func raceLinks(runID: String) throws -> [RaceLink] {
        try wrap {
            try writer.read {
                try RaceLink.filter(RaceLink.Columns.runID == runID)
                    .order(RaceLink.Columns.setupSlug, RaceLink.Columns.setupKey).fetchAll($0)
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
                        WHERE run.athlete_id = ? ORDER BY race_link.setup_slug, race_link.setup_key
                        """, arguments: [athleteID])
                var out: [String: RaceLink] = [:]
                for l in links { if let id = l.runID, out[id] == nil { out[id] = l } }
                return out
            }
        }
    }
}
