import ArgumentParser
import Foundation
import RaceKitCore
import RaceKitStore

extension RaceKitCommand {
    struct Predict: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "predict",
            abstract: "Predict a race time from a performance (Riegel, Daniels' VDOT, Cameron).",
            discussion: """
                Shows each model's time and pace and the range they span. Riegel's formula tends \
                to be optimistic for recreational marathoners: for a marathon or longer from a race \
                at most half as long, the output says to plan on the slower end. Without --from, \
                the best record of the last 12 months (--within-months) of --athlete or the \
                athlete 'default' is used; an older one only when there is nothing newer, named \
                with its age and a warning. A \
                performance shorter than a mile or with a VDOT above 85 gets a warning (stderr; \
                "warnings" in JSON): the models are fitted to runners below that, over longer races.

                Ranges: distances 400 m to 250 km; the performance's pace 1:30/km to 20:00/km; \
                --riegel-exponent 1.0 to 1.2.

                  racekit predict --from 10k=45:00 --to marathon
                  racekit predict --from "5 km=21:30" --to half --riegel-exponent 1.08
                  racekit predict --athlete anna --to marathon
                  racekit predict --to half          # from the records of the athlete 'default'
                """
        )

        @OptionGroup var storeOptions: StoreOptions
        @Option(
            help: ArgumentHelp(
                "A performance DISTANCE=TIME, e.g. 10k=45:00 or \"5 km=21:30\" (400 m to 250 km, at 1:30/km to 20:00/km).",
                valueName: "distance=time"))
        var from: String?
        @Option(
            help:
                "Use the athlete's personal records (the best by VDOT, 1 mile or longer); default: the athlete 'default'."
        )
        var athlete: String?
        /// The old name of --athlete, kept working and out of the help.
        @Option(name: .customLong("from-athlete"), help: .hidden) var fromAthleteAlias: String?
        /// --athlete or its old name.
        var fromAthlete: String? { athlete ?? fromAthleteAlias }
        @Option(help: "The race distance: 5k, 10k, half, marathon, \"50 km\", ... (400 m to 250 km).") var to: String
        @Option(help: "Riegel's exponent (1.0 to 1.2).") var riegelExponent = RacePredictor.defaultRiegelExponent
        @Option(help: "km or mi for paces.") var unit: DistanceUnit = .km
        @Option(help: "table or json.") var format: OutputFormat = .table
        @Option(
            help:
                "With the athlete's records: use the best of the last N months (default 12; 1 to 600); an older record, used only when there is nothing newer, is named with its age and a warning."
        )
        var withinMonths = RecentForm.defaultMonths

        /// The exponents Riegel's formula is used with (1.06 classic; 1.08-1.15 for the less trained).
        static let riegelExponents: ClosedRange<Double> = 1.0...1.2

        func validate() throws {
            if athlete != nil, fromAthleteAlias != nil {
                throw ValidationError("--from-athlete is the old name of --athlete: give one")
            }
            if from != nil, fromAthlete != nil {
                throw ValidationError("give --from DISTANCE=TIME or --athlete ID, not both")
            }
            if let from { _ = try Self.performance(from) }
            _ = try ArgumentRanges.distance(to, option: "--to")
            try ArgumentRanges.check(riegelExponent, in: Self.riegelExponents, option: "--riegel-exponent", unit: "")
            try Self.checkMonths(withinMonths)
        }

        /// `--within-months` in `RecentForm.monthsRange`.
        static func checkMonths(_ months: Int) throws {
            guard RecentForm.monthsRange.contains(months) else {
                throw ValidationError(
                    "--within-months: \(months) is out of range (\(RecentForm.monthsRange.lowerBound) to \(RecentForm.monthsRange.upperBound))"
                )
            }
        }

        /// `DISTANCE=TIME` within the ranges, or a `ValidationError` naming what is wrong.
        static func performance(_ text: String) throws -> (meters: Double, seconds: Double) {
            let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else {
                throw ValidationError("--from: '\(text)' is not DISTANCE=TIME, e.g. 10k=45:00")
            }
            let meters = try ArgumentRanges.distance(parts[0], option: "--from", what: "performance distance")
            let seconds = try ArgumentRanges.time(
                parts[1], over: meters, option: "--from", what: "a performance",
                paces: ArgumentRanges.performancePace)
            return (meters, seconds)
        }

        /// The athlete's best recent performance (`RecentForm`), or a failure
        /// saying there is none; "now" is `RACEKIT_NOW` when set.
        static func recentForm(
            _ store: any AthleteRepository & RunRepository, athlete: String, withinMonths: Int, hint: String
        ) throws -> RecentForm {
            guard let now = FormClock.now() else { throw Failure(.usage, "RACEKIT_NOW is not an ISO-8601 time") }
            guard let form = try RecentForm.find(in: store, athleteID: athlete, now: now, withinMonths: withinMonths)
            else {
                throw Failure(.dataError, "athlete '\(athlete)' has no best effort of a mile or more yet" + hint)
            }
            return form
        }

        /// `predict --format json` (docs/contracts/json.md, "Athletes and predictions").
        struct Report: Encodable {
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

        func run() throws {
            let target = try ArgumentRanges.distance(to, option: "--to")
            var source: (meters: Double, seconds: Double)
            var origin: String
            var ageDays: Double?
            var warnings: [String] = []
            if let from {
                source = try Self.performance(from)
                origin = "\(Format.number(source.meters / 1000, digits: 3)) km in \(Format.duration(source.seconds))"
            } else {
                let form = try Self.recentForm(
                    try storeOptions.read(), athlete: fromAthlete ?? Athlete.defaultID, withinMonths: withinMonths,
                    hint: fromAthlete == nil ? " (give --from DISTANCE=TIME, or import runs)" : "")
                source = (form.record.distanceMeters, form.record.elapsedSeconds)
                origin = form.origin
                ageDays = Double(form.ageDays)
                warnings = form.warnings
            }
            let predictions = RacePredictor.predict(
                seconds: source.seconds, meters: source.meters, to: target,
                riegelExponent: riegelExponent)
            let times = predictions.map(\.seconds)
            let vdot = RacePredictor.vdot(meters: source.meters, seconds: source.seconds)
            let note = RacePredictor.riegelNote(fromMeters: source.meters, toMeters: target)
            warnings += RacePredictor.warnings(meters: source.meters, vdot: vdot)
            if format == .json {
                let report = Report(
                    fromMeters: source.meters, fromSeconds: source.seconds, toMeters: target,
                    vdot: TextFormat.rounded(vdot, 1),
                    riegelExponent: riegelExponent, note: note, fromAgeDays: ageDays, warnings: warnings,
                    rangeSeconds: [times.min()!.rounded(), times.max()!.rounded()],
                    predictions: predictions.map { p in
                        Report.Item(
                            model: p.model.rawValue, seconds: p.seconds.rounded(),
                            paceSecondsPerKm: TextFormat.rounded(p.seconds / (target / 1000), 1))
                    })
                Console.json(try JSONOutput.string(report))
                return
            }
            for w in warnings { Console.error("warning: \(w)") }
            Console.out(
                "From \(origin), VDOT \(Format.number(vdot, digits: 1)), to \(Format.number(target / 1000, digits: 3)) km:"
            )
            Console.out("")
            let names: [RacePredictor.Model: String] = [
                .riegel: "Riegel (k \(Format.number(riegelExponent, digits: 2)))",
                .vdot: "Daniels VDOT", .cameron: "Cameron"
            ]
            Console.out(
                Format.table(
                    header: ["model", "time", "pace/\(unit.rawValue)"],
                    rows: predictions.map { p in
                        [names[p.model]!, Format.duration(p.seconds), Format.pace(p.seconds / (target / 1000), unit)]
                    }, rightAligned: [1, 2]))
            Console.out("")
            Console.out(
                "Range: \(Format.duration(times.min()!)) to \(Format.duration(times.max()!))."
                    + (note.map { " " + $0 } ?? ""))
        }
    }
}
