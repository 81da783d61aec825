import RaceKitMetrics

/// The athletes, written once for every backend (`SQLStore`), read and written
/// through the athlete table's declaration (`StoreSchema.athlete`).
extension AthleteRepository where Self: SQLStore {
    public func athletes() throws -> [Athlete] {
        try database.reading { c in try Athlete.select(c, "ORDER BY id" + c.dialect.bytewise, []) }
    }

    public func athlete(id: String) throws -> Athlete? {
        try database.reading { c in try Athlete.select(c, "WHERE id = ?", [.text(id)]).first }
    }

    public func addAthlete(_ athlete: Athlete) throws {
        try database.writing { c in
            if try Athlete.insert(c, athlete) == 0 { throw StoreError.athleteExists(athlete.id) }
        }
    }

    /// Replaces an athlete's profile.
    public func updateAthlete(_ athlete: Athlete) throws {
        try database.writing { c in
            let columns = Athlete.table.columns.map(\.name)
            let sets = columns.dropFirst().map { "\($0) = ?" }.joined(separator: ", ")
            let values = athlete.storeValues
            let changed = try c.execute(
                c.dialect.statement("UPDATE athlete SET \(sets) WHERE id = ?"), Array(values.dropFirst()) + [values[0]])
            if changed == 0 { throw StoreError.unknownAthlete(athlete.id) }
        }
    }
}

extension Athlete {
    static let table = StoreSchema.athlete

    static func select(_ c: any SQLConnection, _ rest: String, _ arguments: [StoreValue]) throws -> [Athlete] {
        let sql = "SELECT \(DeclaredRow.columnList(table)) FROM athlete \(rest)"
        return try c.rows(c.dialect.statement(sql), arguments) { try Athlete(row: DeclaredRow(table, $0)) }
    }

    /// Inserts the athlete unless one with its id is stored (with `replacing`,
    /// over it: a store copy's); returns the rows written (0 or 1).
    @discardableResult
    public static func insert(_ c: any SQLConnection, _ athlete: Athlete, replacing: Bool = false) throws -> Int {
        let sql = table.insert(replacing ? .update(key: table.primaryKey) : .keep(key: table.primaryKey))
        return try c.execute(c.dialect.statement(sql), athlete.storeValues)
    }

    /// The athlete's values in the declared columns' order.
    var storeValues: [StoreValue] {
        func real(_ v: Double?) -> StoreValue { v.map(StoreValue.real) ?? .null }
        func text(_ v: String?) -> StoreValue { v.map(StoreValue.text) ?? .null }
        let values: [String: StoreValue] = [
            "id": .text(id), "name": .text(name), "max_hr": real(maxHeartRate), "resting_hr": real(restingHeartRate),
            "threshold_hr": real(thresholdHeartRate), "threshold_pace_s_per_km": real(thresholdPaceSecondsPerKm),
            "sex": text(sex?.rawValue), "time_zone": .text(timeZone), "zone_model": .text(zoneModel.rawValue),
            "created_at": .real(createdAt), "source_order": text(sourceOrder.map(Self.encoded))
        ]
        return Self.table.columns.map { values[$0.name] ?? .null }
    }

    /// An athlete from its declared columns; a stored value this racekit cannot
    /// read is named with the athlete and the column.
    init(row: DeclaredRow) throws {
        var row = row
        row.name = row.optionalText("id") ?? ""
        let id = try row.text("id")
        func damaged(_ column: String, _ why: String) -> StoreError {
            .database("athlete \(id): the stored \(column) is damaged (\(why))")
        }
        func known<E: RawRepresentable>(_ column: String) throws -> E? where E.RawValue == String {
            guard let text = row.optionalText(column) else { return nil }
            guard let value = E(rawValue: text) else {
                throw damaged(column, "'\(text.prefix(40))' is not one this racekit knows")
            }
            return value
        }
        guard let zoneModel: ZoneModel = try known("zone_model") else { throw row.missing("zone_model") }
        self.init(
            id: id, name: try row.text("name"), timeZone: try row.text("time_zone"), zoneModel: zoneModel,
            createdAt: try row.real("created_at"))
        maxHeartRate = try row.optionalReal("max_hr")
        restingHeartRate = try row.optionalReal("resting_hr")
        thresholdHeartRate = try row.optionalReal("threshold_hr")
        thresholdPaceSecondsPerKm = try row.optionalReal("threshold_pace_s_per_km")
        sex = try known("sex")
        if let text = row.optionalText("source_order") {
            guard let names = Self.sourceOrder(decoding: text) else {
                throw damaged("source_order", "'\(text.prefix(40))' is not a JSON list of names")
            }
            sourceOrder = names.isEmpty ? nil : names
        }
    }
}
