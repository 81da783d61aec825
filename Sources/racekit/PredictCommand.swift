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
            Shows each model's time and pace and the range they span. Riegel's formula tends
            to be optimistic for recreational marathoners: plan on the slower end. Without
            --from or --from-athlete, the records of the athlete 'default' are used. A
            performance shorter than a mile or with a VDOT above 85 gets a warning (stderr;
            "warnings" in JSON): the models are fitted to runners below that, over longer races.

            Ranges: distances 400 m to 250 km; the performance's pace 1:30/km to 20:00/km;
            --riegel-exponent 1.0 to 1.2.

              racekit predict --from 10k=45:00 --to marathon
              racekit predict --from "5 km=21:30" --to half --riegel-exponent 1.08
              racekit predict --from-athlete anna --to marathon
              racekit predict --to half          # from the records of the athlete 'default'
            """
        )

        @OptionGroup var storeOptions: StoreOptions
        @Option(help: ArgumentHelp("A performance DISTANCE=TIME, e.g. 10k=45:00 or \"5 km=21:30\" (400 m to 250 km, at 1:30/km to 20:00/km).",
                                   valueName: "distance=time"))
        var from: String?
        @Option(help: "Use the athlete's personal records (the best by VDOT, 1 mile or longer); default: the athlete 'default'.")
        var fromAthlete: String?
        @Option(help: "The race distance: 5k, 10k, half, marathon, \"50 km\", ... (400 m to 250 km).") var to: String
        @Option(help: "Riegel's exponent (1.0 to 1.2).") var riegelExponent = RacePredictor.defaultRiegelExponent
        @Option(help: "km or mi for paces.") var unit: DistanceUnit = .km
        @Option(help: "table or json.") var format: OutputFormat = .table

        /// The exponents Riegel's formula is used with (1.06 classic; 1.08-1.15 for the less trained).
        static let riegelExponents: ClosedRange<Double> = 1.0...1.2
        /// Above this VDOT a performance is world-class: the models are fitted below it.
        static let highVDOT = 85.0
        /// A mile in metres: the models are fitted to performances of a mile or more.
        static let mile = 1609.344

        func validate() throws {
            if from != nil, fromAthlete != nil { throw ValidationError("give --from DISTANCE=TIME or --from-athlete ID, not both") }
            if let from { _ = try Self.performance(from) }
            _ = try ArgumentRanges.distance(to, option: "--to")
            try ArgumentRanges.check(riegelExponent, in: Self.riegelExponents, option: "--riegel-exponent", unit: "")
        }

        /// `DISTANCE=TIME` within the ranges, or a `ValidationError` naming what is wrong.
        static func performance(_ text: String) throws -> (meters: Double, seconds: Double) {
            let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { throw ValidationError("--from: '\(text)' is not DISTANCE=TIME, e.g. 10k=45:00") }
            let meters = try ArgumentRanges.distance(parts[0], option: "--from", what: "performance distance")
            let seconds = try ArgumentRanges.time(parts[1], over: meters, option: "--from", what: "a performance",
                                                  paces: ArgumentRanges.performancePace)
            return (meters, seconds)
        }

        /// Why a prediction from this performance deserves less trust, if it does.
        static func warnings(meters: Double, vdot: Double) -> [String] {
            var out: [String] = []
            if meters < mile {
                out.append("the performance (\(Format.number(meters, digits: 0)) m) is shorter than a mile: the models are fitted to races of a mile or more, so the predictions are rough")
            }
            if vdot > highVDOT {
                out.append("VDOT \(Format.number(vdot, digits: 1)) is above 85 (world class): the models are extrapolating")
            }
            return out
        }

        /// The athlete's record of a mile or more with the best VDOT, and where it comes from.
        static func bestRecord(_ store: RunStore, athlete: String) throws -> (meters: Double, seconds: Double, origin: String)? {
            let records = try store.personalRecords(athleteID: athlete, distance: nil).filter { $0.distanceMeters >= 1609 }
            guard let best = records.max(by: {
                RacePredictor.vdot(meters: $0.distanceMeters, seconds: $0.elapsedSeconds)
                    < RacePredictor.vdot(meters: $1.distanceMeters, seconds: $1.elapsedSeconds)
            }) else { return nil }
            let origin = "\(BestEfforts.name(of: best.distanceMeters)) in \(Format.duration(best.elapsedSeconds)) (\(String(Format.isoTime(best.run.startedAt).prefix(10))), run \(best.run.id))"
            return (best.distanceMeters, best.elapsedSeconds, origin)
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
                let store = try storeOptions.open()
                guard try store.athlete(id: athlete) != nil else {
                    Console.error("racekit: unknown athlete '\(athlete)'")
                    throw ExitCode(Exit.usage)
                }
                guard let best = try Self.bestRecord(store, athlete: athlete) else {
                    Console.error("racekit: athlete '\(athlete)' has no best effort of a mile or more yet"
                        + (fromAthlete == nil ? " (give --from DISTANCE=TIME, or import runs)" : ""))
                    throw ExitCode(Exit.dataError)
                }
                source = (best.meters, best.seconds)
                origin = best.origin
            }
            let predictions = RacePredictor.predict(seconds: source.seconds, meters: source.meters, to: target,
                                                    riegelExponent: riegelExponent)
            let times = predictions.map(\.seconds)
            let vdot = RacePredictor.vdot(meters: source.meters, seconds: source.seconds)
            let note = "Riegel's formula tends to be optimistic for recreational marathoners; plan on the slower end of the range."
            let warnings = Self.warnings(meters: source.meters, vdot: vdot)
            if format == .json {
                var out: [String: JSONTree] = [
                    "fromMeters": .value(.number(source.meters)), "fromSeconds": .value(.number(source.seconds)),
                    "toMeters": .value(.number(target)), "vdot": .value(.init(RunView.round(vdot, 1))),
                    "riegelExponent": .value(.number(riegelExponent)), "note": .value(.string(note)),
                    "warnings": .array(warnings.map { .value(.string($0)) }),
                    "rangeSeconds": .array([.value(.number(times.min()!.rounded())), .value(.number(times.max()!.rounded()))]),
                ]
                out["predictions"] = .array(predictions.map { p in
                    .object(["model": .value(.string(p.model.rawValue)), "seconds": .value(.number(p.seconds.rounded())),
                             "paceSecondsPerKm": .value(.init(RunView.round(p.seconds / (target / 1000), 1)))])
                })
                Console.out(try Console.json(out))
                return
            }
            for w in warnings { Console.error("warning: \(w)") }
            Console.out("From \(origin), VDOT \(Format.number(vdot, digits: 1)), to \(Format.number(target / 1000, digits: 3)) km:")
            Console.out("")
            let names: [RacePredictor.Model: String] = [.riegel: "Riegel (k \(Format.number(riegelExponent, digits: 2)))",
                                                        .vdot: "Daniels VDOT", .cameron: "Cameron"]
            Console.out(Format.table(header: ["model", "time", "pace/\(unit.rawValue)"], rows: predictions.map { p in
                [names[p.model]!, Format.duration(p.seconds), Format.pace(p.seconds / (target / 1000), unit)]
            }, rightAligned: [1, 2]))
            Console.out("")
            Console.out("Range: \(Format.duration(times.min()!)) to \(Format.duration(times.max()!)). \(note)")
        }
    }
}
