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
            to be optimistic for recreational marathoners: plan on the slower end.

              racekit predict --from 10k=45:00 --to marathon
              racekit predict --from "5 km=21:30" --to half --riegel-exponent 1.08
              racekit predict --from-athlete anna --to marathon
            """
        )

        @OptionGroup var storeOptions: StoreOptions
        @Option(help: ArgumentHelp("A performance DISTANCE=TIME, e.g. 10k=45:00 or \"5 km=21:30\".", valueName: "distance=time"))
        var from: String?
        @Option(help: "Use the athlete's personal records (the best by VDOT, 1 mile or longer).") var fromAthlete: String?
        @Option(help: "The race distance: 5k, 10k, half, marathon, \"50 km\", ...") var to: String
        @Option(help: "Riegel's exponent.") var riegelExponent = RacePredictor.defaultRiegelExponent
        @Option(help: "km or mi for paces.") var unit: DistanceUnit = .km
        @Option(help: "table or json.") var format: OutputFormat = .table

        func validate() throws {
            guard (from == nil) != (fromAthlete == nil) else { throw ValidationError("give --from DISTANCE=TIME or --from-athlete ID") }
            if let from, Self.performance(from) == nil {
                throw ValidationError("--from: '\(from)' is not DISTANCE=TIME, e.g. 10k=45:00")
            }
            guard Units.parseDistance(to) != nil else { throw ValidationError("--to: '\(to)' is not a distance (5k, half, marathon, \"50 km\")") }
            guard (1.0...1.2).contains(riegelExponent) else { throw ValidationError("--riegel-exponent must be between 1.0 and 1.2") }
        }

        static func performance(_ text: String) -> (meters: Double, seconds: Double)? {
            let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let d = Units.parseDistance(parts[0]), let t = Units.parseDuration(parts[1]), t > 0 else { return nil }
            return (d, t)
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
            let target = Units.parseDistance(to)!
            var source: (meters: Double, seconds: Double)
            var origin: String
            if let from {
                source = Self.performance(from)!
                origin = "\(Format.number(source.meters / 1000, digits: 3)) km in \(Format.duration(source.seconds))"
            } else {
                let store = try storeOptions.open()
                guard try store.athlete(id: fromAthlete!) != nil else {
                    Console.error("racekit: unknown athlete '\(fromAthlete!)'")
                    throw ExitCode(Exit.usage)
                }
                guard let best = try Self.bestRecord(store, athlete: fromAthlete!) else {
                    Console.error("racekit: athlete '\(fromAthlete!)' has no best effort of a mile or more yet")
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
            if format == .json {
                var out: [String: JSONTree] = [
                    "fromMeters": .value(.number(source.meters)), "fromSeconds": .value(.number(source.seconds)),
                    "toMeters": .value(.number(target)), "vdot": .value(.init(RunView.round(vdot, 1))),
                    "riegelExponent": .value(.number(riegelExponent)), "note": .value(.string(note)),
                    "rangeSeconds": .array([.value(.number(times.min()!.rounded())), .value(.number(times.max()!.rounded()))]),
                ]
                out["predictions"] = .array(predictions.map { p in
                    .object(["model": .value(.string(p.model.rawValue)), "seconds": .value(.number(p.seconds.rounded())),
                             "paceSecondsPerKm": .value(.init(RunView.round(p.seconds / (target / 1000), 1)))])
                })
                Console.out(try Console.json(out))
                return
            }
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
