import ArgumentParser
import RaceKitModel
import RaceKitOutput
import RaceKitPlan
import RaceKitStore
import RaceKitWorkflows

/// The documented range of every numeric command-line argument, and the checks
/// `validate()` runs with them. An out-of-range, non-finite or unparsable value is
/// a `ValidationError` (exit 64) naming the option and the value as given:
/// `--to: '1e19' is not a race distance (400 m to 250 km)`.
enum ArgumentRanges {
    /// Race and performance distances in metres: the planner's 400 m to 250 km.
    static let distanceMeters = PacePlan.distanceRange
    /// Race-target paces in seconds per km: the planner's 2:00/km to 20:00/km.
    static let racePace = PacePlan.paceRange
    /// Paces of a performance `predict` starts from, in seconds per km: 1:30/km
    /// (below every world record, the 400 m's 1:48/km included) to 20:00/km.
    static let performancePace: ClosedRange<Double> = 90...1200
    /// Weeks of a weekly report: one to ten years.
    static let weeks = 1...520
    /// Rows of `runs list --limit`: more than any history holds (274 years of daily runs).
    static let listLimit = 1...100_000
    /// Efforts of `runs bests --distance --limit`.
    static let bestsLimit = 1...1000
    /// Seconds `report weekly --wait` waits for another run's lock: up to an hour.
    static let lockWaitSeconds: ClosedRange<Double> = 0...3600

    static let distanceText = "400 m to 250 km"
    static let racePaceText = "2:00/km to 20:00/km"

    /// A distance in metres within `distanceMeters`.
    static func distance(_ text: String, option: String, what: String = "race distance") throws -> Double {
        guard let meters = Units.parseDistance(text), meters.isFinite, distanceMeters.contains(meters) else {
            throw ValidationError(
                "\(option): '\(text)' is not a \(what) (\(distanceText): 5k, 10k, half, marathon, \"50 km\", \"26.2 mi\" or metres)"
            )
        }
        return meters
    }

    /// A duration in seconds (h:mm:ss, mm:ss or seconds) whose pace over `meters` is within `paces`.
    static func time(
        _ text: String, over meters: Double, option: String, what: String,
        paces: ClosedRange<Double> = racePace
    ) throws -> Double {
        guard let seconds = Units.parseDuration(text), seconds.isFinite else {
            throw ValidationError("\(option): '\(text)' is not a time (h:mm:ss)")
        }
        guard seconds > 0 else { throw ValidationError("\(option): '\(text)' must be a time over 0:00") }
        let pace = seconds / (meters / 1000)
        guard paces.contains(pace) else {
            throw ValidationError(
                "\(option): '\(text)' over \(TextFormat.fixed(meters / 1000, 3)) km is \(TextFormat.pace(pace))/km; "
                    + "\(what) must be \(TextFormat.pace(paces.lowerBound))/km to \(TextFormat.pace(paces.upperBound))/km"
            )
        }
        return seconds
    }

    /// A number within `range`, with its unit for the message.
    static func check(_ value: Double, in range: ClosedRange<Double>, option: String, unit: String) throws {
        guard range.contains(value) else {
            throw ValidationError(
                "\(option): \(shown(value)) is out of range (\(TextFormat.plain(range.lowerBound)) to \(TextFormat.plain(range.upperBound))\(unit.isEmpty ? "" : " \(unit)"))"
            )
        }
    }

    static func check(_ value: Int, in range: ClosedRange<Int>, option: String) throws {
        guard range.contains(value) else {
            throw ValidationError("\(option): \(value) is out of range (\(range.lowerBound) to \(range.upperBound))")
        }
    }

    /// A value as the user typed it, near enough: `300`, `1.5`, `1e+300`, `nan`.
    static func shown(_ v: Double) -> String { WellnessEntry.shown(v) }
}

/// `--shard K/N`: not `K/N` with 1 ≤ K ≤ N ≤ 10000 is a usage error (exit 64) naming the value.
extension Shard: ExpressibleByArgument { public init?(argument: String) { self.init(argument) } }

extension ArgumentHelp {
    /// The help of a `--shard K/N` option (parsed `.unconditional`, so `-1/2` is named as invalid).
    static func shard(_ before: String) -> ArgumentHelp {
        ArgumentHelp("\(before)the athletes of shard K of N (1/3, 2/3, 3/3; N ≤ \(Shard.maxCount)).", valueName: "K/N")
    }
}
