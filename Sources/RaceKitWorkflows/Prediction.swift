import Foundation
import RaceKitMetrics
import RaceKitModel
import RaceKitOutput
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
    /// The race day's temperature and dew point (`--temperature`, `--dew-point`), °C.
    public let weather: (temperatureC: Double, dewPointC: Double)?
    /// WBGT in full sun and the slowdown by Mantzios 2022 (0 without weather), percent.
    public var wbgt: Double? { weather.map { Heat.wbgt(celsius: $0.temperatureC, dewPoint: $0.dewPointC, sun: .full) } }
    public var heatPercent: Double {
        weather.map {
            Heat.slowdownPercent(model: .mantzios2022, celsius: $0.temperatureC, dewPoint: $0.dewPointC, sun: .full)
        } ?? 0
    }
    /// What is wrong with `--temperature` and `--dew-point`, or nil.
    public static func weatherProblem(_ t: Double?, _ d: Double?) -> String? {
        guard let t, let d else {
            return (t == nil) == (d == nil) ? nil : "give --temperature and --dew-point together"
        }
        func shown(_ v: Double) -> String { WellnessEntry.shown(v) }
        let (ts, ds) = (Heat.temperatureRange, Heat.dewPointRange)
        if !ts.contains(t) {
            return "--temperature: \(shown(t)) is out of range (\(shown(ts.lowerBound)) to \(shown(ts.upperBound)) °C)"
        }
        if !(ds.lowerBound...min(t, ds.upperBound)).contains(d) {
            return
                "--dew-point: \(shown(d)) is out of range (\(shown(ds.lowerBound)) °C to the temperature, \(shown(t)) °C)"
        }
        return nil
    }

    /// A model's time on the race day (its cool time slowed for the heat).
    func onTheDay(_ seconds: Double) -> Double { seconds * (1 + heatPercent / 100) }

    /// The store is opened (`openStore`) only to read the athlete's records.
    public init(
        from: From, toMeters: Double, riegelExponent: Double,
        weather: (temperatureC: Double, dewPointC: Double)? = nil, openStore: () throws -> any Store
    ) throws {
        self.weather = weather
        var warnings: [String] = []
        switch from {
        case .performance(let meters, let seconds):
            (fromMeters, fromSeconds) = (meters, seconds)
            origin = "\(TextFormat.fixed(meters / 1000, 3)) km in \(TextFormat.duration(seconds))"
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
            rangeSeconds: [times.min()!.rounded(), times.max()!.rounded()], predictions: items { $0 },
            heat: weather.map { w in
                PredictionJSON.Heat(
                    temperatureC: w.temperatureC, dewPointC: w.dewPointC, wbgtC: TextFormat.rounded(wbgt!, 1),
                    slowdownPercent: TextFormat.rounded(heatPercent, 2),
                    rangeSeconds: [onTheDay(times.min()!).rounded(), onTheDay(times.max()!).rounded()],
                    predictions: items(onTheDay))
            })
        return try JSONOutput.string(report)
    }

    func items(_ time: (Double) -> Double) -> [PredictionJSON.Item] {
        predictions.map { p in
            PredictionJSON.Item(
                model: p.model.rawValue, seconds: time(p.seconds).rounded(),
                paceSecondsPerKm: TextFormat.rounded(time(p.seconds) / (toMeters / 1000), 1))
        }
    }

    /// The models' times and paces in a table, and their range.
    public func text(unit: DistanceUnit) -> String {
        let names: [RacePredictor.Model: String] = [
            .riegel: "Riegel (k \(TextFormat.fixed(riegelExponent, 2)))",
            .vdot: "Daniels VDOT", .cameron: "Cameron"
        ]
        let km = toMeters / 1000
        let day = weather == nil ? [] : ["on the day", "pace/\(unit.rawValue)"]
        let table = TextFormat.table(
            header: ["model", "time", "pace/\(unit.rawValue)"] + day,
            rows: predictions.map { p in
                [names[p.model]!, TextFormat.duration(p.seconds), TextFormat.pace(p.seconds / km, unit)]
                    + (day.isEmpty
                        ? []
                        : [TextFormat.duration(onTheDay(p.seconds)), TextFormat.pace(onTheDay(p.seconds) / km, unit)])
            }, rightAligned: [1, 2, 3, 4])
        var lines = [
            "From \(origin), VDOT \(TextFormat.fixed(vdot, 1)), to \(TextFormat.fixed(km, 3)) km:",
            "", table, "",
            "Range: \(TextFormat.duration(times.min()!)) to \(TextFormat.duration(times.max()!))."
                + (note.map { " " + $0 } ?? "")
        ]
        if let w = weather {
            let c = { (v: Double) in "\(TextFormat.fixed(v, 1)) °C" }
            lines.append(
                "On the day: \(c(w.temperatureC)), dew point \(c(w.dewPointC)): WBGT \(c(wbgt!)) in full sun; "
                    + (heatPercent < 0.05
                        ? "no heat cost by Mantzios 2022."
                        : "+\(TextFormat.fixed(heatPercent, 1))% by Mantzios 2022, \(TextFormat.duration(onTheDay(times.min()!))) to \(TextFormat.duration(onTheDay(times.max()!))).")
            )
        }
        return lines.joined(separator: "\n")
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
    /// With --temperature and --dew-point: the times slowed for the heat.
    struct Heat: Encodable {
        var temperatureC, dewPointC, wbgtC, slowdownPercent: Double
        var rangeSeconds: [Double]
        var predictions: [Item]
    }
    @Null var heat: Heat?
}
