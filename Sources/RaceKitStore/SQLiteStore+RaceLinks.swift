import Foundation
import GRDB
import RaceKitCore

extension SQLiteStore {
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
