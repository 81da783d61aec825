import Foundation
import RaceKitCore
import RaceKitStore

/// `predict`: a race time from a performance (given, or the athlete's best
/// recent record) by Riegel, Daniels' VDOT and Cameron.
public struct Prediction {
    /// The performance predicted from.
    public enum From: Sendable {
        /// A distance in metres run in a time in seconds.
        case performance(meters: Double, seconds: Double)
        /// The best record of the last `withinMonths` months of an athlete
        /// (`athlete` nil: the athlete 'default'), `BestRecord.recentForm`.
        case records(athlete: String?, withinMonths: Int)
    }

    public let fromMeters, fromSeconds, toMeters: Double
    public let riegelExponent: Double
    /// "10.000 km in 45:00", or the record's run, date and age.
    public let origin: String
    /// Age of the athlete's record used, whole days (nil for a given performance).
    public let ageDays: Double?
    public let predictions: [RacePredictor.Prediction]
    public let vdot: Double
    /// Riegel's caveat where it applies.
    public let note: String?
    /// The record's age warnings, then the models' (too short, VDOT too high).
    public let warnings: [String]

    /// The store is opened (`openStore`) only to read the athlete's records.
    public init(
        from: From, toMeters: Double, riegelExponent: Double, openStore: () throws -> any Store
    ) throws {
        var warnings: [String] = []
        switch from {
        case .performance(let meters, let seconds):
            (fromMeters, fromSeconds) = (meters, seconds)
            origin = "\(Format.number(meters / 1000, digits: 3)) km in \(Format.duration(seconds))"
            ageDays = nil
        case .records(let athlete, let withinMonths):
            let form = try BestRecord.recentForm(
                try openStore(), athlete: athlete ?? Athlete.defaultID, withinMonths: withinMonths,
                hint: athlete == nil ? " (give --from DISTANCE=TIME, or import runs)" : "")
            (fromMeters, fromSeconds) = (form.record.distanceMeters, form.record.elapsedSeconds)
            origin = form.origin
            ageDays = Double(form.ageDays)
            warnings = form.warnings
        }
        self.toMeters = toMeters
        self.riegelExponent = riegelExponent
        predictions = RacePredictor.predict(
            seconds: fromSeconds, meters: fromMeters, to: toMeters, riegelExponent: riegelExponent)
        vdot = RacePredictor.vdot(meters: fromMeters, seconds: fromSeconds)
        note = RacePredictor.riegelNote(fromMeters: fromMeters, toMeters: toMeters)
        self.warnings = warnings + RacePredictor.warnings(meters: fromMeters, vdot: vdot)
    }

    var times: [Double] { predictions.map(\.seconds) }

    /// `predict --format json` (docs/contracts/json.md, "Athletes and predictions").
    public func json() throws -> String {
        let report = PredictionJSON(
            fromMeters: fromMeters, fromSeconds: fromSeconds, toMeters: toMeters,
            vdot: TextFormat.rounded(vdot, 1),
            riegelExponent: riegelExponent, note: note, fromAgeDays: ageDays, warnings: warnings,
            rangeSeconds: [times.min()!.rounded(), times.max()!.rounded()],
            predictions: predictions.map { p in
                PredictionJSON.Item(
                    model: p.model.rawValue, seconds: p.seconds.rounded(),
                    paceSecondsPerKm: TextFormat.rounded(p.seconds / (toMeters / 1000), 1))
            })
        return try JSONOutput.string(report)
    }

    /// The models' times and paces in a table, and their range.
    public func text(unit: DistanceUnit) -> String {
        let names: [RacePredictor.Model: String] = [
            .riegel: "Riegel (k \(Format.number(riegelExponent, digits: 2)))",
            .vdot: "Daniels VDOT", .cameron: "Cameron"
        ]
        let table = Format.table(
            header: ["model", "time", "pace/\(unit.rawValue)"],
            rows: predictions.map { p in
                [names[p.model]!, Format.duration(p.seconds), Format.pace(p.seconds / (toMeters / 1000), unit)]
            }, rightAligned: [1, 2])
        return [
            "From \(origin), VDOT \(Format.number(vdot, digits: 1)), to \(Format.number(toMeters / 1000, digits: 3)) km:",
            "", table, "",
            "Range: \(Format.duration(times.min()!)) to \(Format.duration(times.max()!))."
                + (note.map { " " + $0 } ?? "")
        ].joined(separator: "\n")
    }
}

/// The record a prediction or a suggested race target starts from.
public enum BestRecord {
    /// The athlete's best recent performance (`RecentForm`: the best by VDOT of a
    /// mile or more in the last `withinMonths` months, an older one only when
    /// there is nothing newer), or a failure saying there is none (`hint`
    /// appended); "now" is `RACEKIT_NOW` when set.
    public static func recentForm(_ store: any Store, athlete: String, withinMonths: Int, hint: String) throws
        -> RecentForm
    {
        let now = try FormClock.checkedNow()
        guard let form = try RecentForm.find(in: store, athleteID: athlete, now: now, withinMonths: withinMonths)
        else {
            throw Failure(.dataError, "athlete '\(athlete)' has no best effort of a mile or more yet" + hint)
        }
        return form
    }
}

/// `predict --format json`.
struct PredictionJSON: Encodable {
    struct Item: Encodable {
        var model: String
        var seconds: Double
        var paceSecondsPerKm: Double
    }
    var fromMeters, fromSeconds, toMeters: Double
    var vdot: Double
    var riegelExponent: Double
    /// Riegel's caveat where it applies (a marathon or longer from a race at most half as long).
    @Null var note: String?
    /// Age of the athlete's record used, whole days (null with --from).
    @Null var fromAgeDays: Double?
    var warnings: [String]
    var rangeSeconds: [Double]
    var predictions: [Item]
}
