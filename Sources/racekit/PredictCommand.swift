import ArgumentParser
import RaceKitMetrics
import RaceKitModel
import RaceKitStore
import RaceKitWorkflows

extension RaceKitCommand {
    struct PredictCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "predict",
            abstract: "Predict a race time from a performance (Riegel, Daniels' VDOT, Cameron).",
            discussion: """
                Shows each model's time and pace and the range they span. Riegel's formula tends to be \
                optimistic for recreational marathoners: for a marathon or longer from a race at most half as \
                long, the output says to plan on the slower end. Without --from, the best record of the last 12 \
                months (--within-months) of --athlete or the athlete 'default' is used; an older one only when \
                there is nothing newer, named with its age and a warning. A performance shorter than a mile or \
                with a VDOT above 85 gets a warning (stderr; "warnings" in JSON): the models are fitted to \
                runners below that, over longer races. With --temperature and --dew-point (°C) each time is \
                also slowed for the heat (WBGT in full sun, Mantzios 2022), as a race setup's weather is. \
                Ranges: distances 400 m to 250 km; the performance's pace 1:30/km to 20:00/km; --riegel-exponent \
                1.0 to 1.2; --temperature -30 to 50, --dew-point at most it.

                  racekit predict --from 10k=45:00 --to marathon
                  racekit predict --from "5 km=21:30" --to half --riegel-exponent 1.08
                  racekit predict --athlete anna --to marathon --temperature 24 --dew-point 18
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
        @Option(name: .customLong("from-athlete"), help: .hidden) var fromAthleteAlias: String?   // old name
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
        @Option(help: "The race day's temperature, °C (with --dew-point).") var temperature: Double?
        @Option(help: "The race day's dew point, °C (with --temperature).") var dewPoint: Double?

        func validate() throws {
            if athlete != nil, fromAthleteAlias != nil {
                throw ValidationError("--from-athlete is the old name of --athlete: give one")
            }
            if from != nil, fromAthlete != nil {
                throw ValidationError("give --from DISTANCE=TIME or --athlete ID, not both")
            }
            if let from { _ = try Self.performance(from) }
            _ = try ArgumentRanges.distance(to, option: "--to")
            try ArgumentRanges.check(
                riegelExponent, in: RacePredictor.riegelExponents, option: "--riegel-exponent", unit: "")
            try ArgumentRanges.check(withinMonths, in: RecentForm.monthsRange, option: "--within-months")
            if let problem = Prediction.weatherProblem(temperature, dewPoint) { throw ValidationError(problem) }
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

        func run() throws {
            let target = try ArgumentRanges.distance(to, option: "--to")
            let source: Prediction.From
            if let from {
                let p = try Self.performance(from)
                source = .performance(meters: p.meters, seconds: p.seconds)
            } else {
                source = .records(athlete: fromAthlete, withinMonths: withinMonths)
            }
            let prediction = try Prediction(
                from: source, toMeters: target, riegelExponent: riegelExponent,
                weather: temperature.map { ($0, dewPoint!) }, openStore: storeOptions.read)
            if format == .json {
                Console.json(try prediction.json())
                return
            }
            for w in prediction.warnings { Console.error("warning: \(w)") }
            Console.out(prediction.text(unit: unit))
        }
    }
}
