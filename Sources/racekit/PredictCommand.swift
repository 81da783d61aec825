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
                to be optimistic for recreational marathoners: plan on the slower end. Without \
                --from or --athlete, the records of the athlete 'default' are used. A \
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

        /// The athlete's best performance (a mile or more, best VDOT) and where it comes from.
        static func bestRecord(_ store: RunStore, athlete: String) throws -> (
            meters: Double, seconds: Double, origin: String
        )? {
            guard try store.athlete(id: athlete) != nil else { throw StoreError.unknownAthlete(athlete) }
            guard let best = try store.bestPerformance(athleteID: athlete) else { return nil }
            let origin =
                "\(BestEfforts.name(of: best.distanceMeters)) in \(Format.duration(best.elapsedSeconds)) (\(String(Format.isoTime(best.run.startedAt).prefix(10))), run \(best.run.id))"
            return (best.distanceMeters, best.elapsedSeconds, origin)
        }

        /// `predict --format json` (DESIGN.md "Machine-readable output").
        struct Report: Encodable {
            struct Item: Encodable {
                var model: String
                var seconds: Double
                var paceSecondsPerKm: Double
            }
            var fromMeters, fromSeconds, toMeters: Double
            var vdot: Double
            var riegelExponent: Double
            var note: String
            var warnings: [String]
            var rangeSeconds: [Double]
            var predictions: [Item]
        }

        func run() throws {
            let target = try ArgumentRanges.distance(to, option: "--to")
            var source: (meters: Double, seconds: Double)
            var origin: String
            if let from {
                source = try Self.performance(from)
                origin = "\(Format.number(source.meters / 1000, digits: 3)) km in \(Format.duration(source.seconds))"
            } else {
                let athlete = fromAthlete ?? Athlete.defaultID
                let store = try storeOptions.read()
                guard let best = try Self.bestRecord(store, athlete: athlete) else {
                    throw Failure(
                        .dataError,
                        "athlete '\(athlete)' has no best effort of a mile or more yet"
                            + (fromAthlete == nil ? " (give --from DISTANCE=TIME, or import runs)" : ""))
                }
                source = (best.meters, best.seconds)
                origin = best.origin
            }
            let predictions = RacePredictor.predict(
                seconds: source.seconds, meters: source.meters, to: target,
                riegelExponent: riegelExponent)
            let times = predictions.map(\.seconds)
            let vdot = RacePredictor.vdot(meters: source.meters, seconds: source.seconds)
            let note =
                "Riegel's formula tends to be optimistic for recreational marathoners; plan on the slower end of the range."
            let warnings = RacePredictor.warnings(meters: source.meters, vdot: vdot)
            if format == .json {
                let report = Report(
                    fromMeters: source.meters, fromSeconds: source.seconds, toMeters: target,
                    vdot: TextFormat.rounded(vdot, 1),
                    riegelExponent: riegelExponent, note: note, warnings: warnings,
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
            Console.out("Range: \(Format.duration(times.min()!)) to \(Format.duration(times.max()!)). \(note)")
        }
    }
}
