/// The race links, written once for every backend (`SQLStore`).
extension RaceLinkRepository where Self: SQLStore {
    /// The link of a setup file (`RaceLink.key(setupFile:)`), if it was ever
    /// reviewed; else a link made before links were per file for its slug.
    public func raceLink(setupKey: String, slug: String) throws -> RaceLink? {
        try database.reading { c in
            try RaceLink.select(c, "WHERE setup_key = ?", [.text(setupKey)]).first
                ?? RaceLink.select(c, "WHERE setup_key = ?", [.text(RaceLink.legacyKey(slug: slug))]).first
        }
    }

    /// Stores (or replaces) a setup file's link; a link of its slug made before
    /// links were per file is replaced by it.
    public func saveRaceLink(_ link: RaceLink) throws {
        try database.writing { c in
            let legacy = RaceLink.legacyKey(slug: link.setupSlug)
            if link.setupKey != legacy { try RaceLink.delete(c, key: legacy) }
            try RaceLink.upsert(c, link)
        }
    }

    /// Forgets a setup file's link (or the legacy link of its slug); false when there was none.
    public func unlinkRace(setupKey: String, slug: String) throws -> Bool {
        try database.writing { c in
            try RaceLink.delete(c, key: setupKey) > 0 || RaceLink.delete(c, key: RaceLink.legacyKey(slug: slug)) > 0
        }
    }

    /// The links whose review Markdown is `path` (absolute).
    public func raceLinks(reviewPath path: String) throws -> [RaceLink] {
        try database.reading { c in
            try RaceLink.select(c, "WHERE review_path = ? ORDER BY setup_key" + c.dialect.bytewise, [.text(path)])
        }
    }

    /// Stores a link's review path (nil: its review was overwritten by another setup's).
    public func setReviewPath(_ path: String?, setupKey: String) throws {
        try database.writing { c in
            _ = try c.execute(
                c.dialect.statement("UPDATE race_link SET review_path = ? WHERE setup_key = ?"),
                [path.map(StoreValue.text) ?? .null, .text(setupKey)])
        }
    }

    /// The races a run is linked to (by slug).
    public func raceLinks(runID: String) throws -> [RaceLink] {
        try database.reading { c in
            try RaceLink.select(
                c, "WHERE run_id = ? ORDER BY setup_slug\(c.dialect.bytewise), setup_key\(c.dialect.bytewise)",
                [.text(runID)])
        }
    }

    /// Every link of the store, by setup key (bytewise).
    public func allRaceLinks() throws -> [RaceLink] {
        try database.reading { c in try RaceLink.select(c, "ORDER BY setup_key" + c.dialect.bytewise, []) }
    }

    /// Every linked race of an athlete's runs, by run id (the first slug when several).
    public func raceLinksByRun(athleteID: String) throws -> [String: RaceLink] {
        try database.reading { c in
            let links = try RaceLink.select(
                c,
                "l JOIN run r ON r.id = l.run_id WHERE r.athlete_id = ? "
                    + "ORDER BY l.setup_slug\(c.dialect.bytewise), l.setup_key\(c.dialect.bytewise)",
                [.text(athleteID)], prefix: "l.")
            var out: [String: RaceLink] = [:]
            for l in links { if let id = l.runID, out[id] == nil { out[id] = l } }
            return out
        }
    }
}

extension RaceLink {
    static let table = StoreSchema.raceLinks

    /// The links of `SELECT <declared columns> FROM race_link <rest>`.
    static func select(_ c: any SQLConnection, _ rest: String, _ arguments: [StoreValue], prefix: String = "")
        throws -> [RaceLink]
    {
        let sql = "SELECT \(DeclaredRow.columnList(table, prefix: prefix)) FROM race_link \(rest)"
        return try c.rows(c.dialect.statement(sql), arguments) { try RaceLink(row: DeclaredRow(table, $0)) }
    }

    /// A link from its declared columns.
    init(row: DeclaredRow) throws {
        var row = row
        row.name = row.optionalText("setup_key") ?? ""
        self.init(
            setupKey: try row.text("setup_key"), setupSlug: try row.text("setup_slug"),
            setupFile: try row.text("setup_file"), raceName: try row.text("race_name"),
            raceDate: row.optionalText("race_date"), targetSeconds: try row.real("target_s"),
            runID: row.optionalText("run_id"), actualSeconds: try row.optionalReal("actual_s"),
            reviewPath: row.optionalText("review_path"))
    }

    /// The link's values in the declared columns' order.
    var storeValues: [StoreValue] {
        func optional(_ s: String?) -> StoreValue { s.map(StoreValue.text) ?? .null }
        let values: [String: StoreValue] = [
            "setup_key": .text(setupKey), "setup_slug": .text(setupSlug), "setup_file": .text(setupFile),
            "race_name": .text(raceName), "race_date": optional(raceDate), "target_s": .real(targetSeconds),
            "run_id": optional(runID), "actual_s": actualSeconds.map(StoreValue.real) ?? .null,
            "review_path": optional(reviewPath)
        ]
        return Self.table.columns.map { values[$0.name] ?? .null }
    }

    /// Writes the link under its setup key, replacing one there.
    public static func upsert(_ c: any SQLConnection, _ link: RaceLink) throws {
        try c.execute(c.dialect.statement(table.insert(.update(key: ["setup_key"]))), link.storeValues)
    }

    @discardableResult
    static func delete(_ c: any SQLConnection, key: String) throws -> Int {
        try c.execute(c.dialect.statement("DELETE FROM race_link WHERE setup_key = ?"), [.text(key)])
    }
}
