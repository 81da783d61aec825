import Foundation
import RaceKitCore
import RaceKitImport
import RaceKitStore

/// `athlete show`: an athlete's profile with the estimates used where values
/// are not set, and the heart-rate zones they give.
public struct AthleteProfile {
    public let athlete: Athlete
    public let physiology: Physiology
    /// The athlete's stored runs.
    public let runs: Int

    public init(_ store: any Store, id: String) throws {
        guard let a = try store.athlete(id: id) else { throw StoreError.unknownAthlete(id) }
        athlete = a
        physiology = try store.physiology(athleteID: id)
        runs = try store.runCount(athleteID: id)
    }

    /// `athlete show --format json` (docs/contracts/json.md, "Athletes and predictions").
    public func json() throws -> String { try JSONOutput.string(record) }

    var record: AthleteJSON {
        let (a, p) = (athlete, physiology)
        return AthleteJSON(
            id: a.id, name: a.name, timeZone: a.timeZone, sex: a.sex, zoneModel: a.zoneModel,
            maxHeartRate: p.maxHeartRate,
            maxHeartRateEstimated: p.maxHeartRateEstimated, restingHeartRate: p.restingHeartRate,
            thresholdHeartRate: p.thresholdHeartRate,
            thresholdHeartRateEstimated: p.thresholdHeartRateEstimated,
            thresholdPaceSecondsPerKm: TextFormat.round(p.thresholdPaceSecondsPerKm, 1),
            thresholdPaceEstimated: p.thresholdPaceEstimated, runs: runs)
    }

    func hr(_ v: Double?, _ est: Bool) -> String {
        guard let v else { return "unknown" }
        return "\(Int(v.rounded())) bpm"
            + (est ? " (estimated from \(runs) runs; set it for accurate zones and load)" : "")
    }

    /// The profile, one fact a line, then the zones' table when there are zones.
    public func text() -> String {
        let (a, p) = (athlete, physiology)
        let pace =
            p.thresholdPaceSecondsPerKm.map {
                "\(Format.pace($0)) /km" + (p.thresholdPaceEstimated ? " (estimated from best efforts)" : "")
            } ?? "unknown"
        let model = HeartRateZones.resolve(a.zoneModel, physiology: p)
        let rows: [(String, String)] = [
            ("Athlete", "\(a.id) (\(a.name))"), ("Time zone", a.timeZone),
            ("Sex", a.sex?.rawValue ?? "not set (TRIMP uses the mean of both weightings)"),
            ("Max HR", hr(p.maxHeartRate, p.maxHeartRateEstimated)),
            (
                "Resting HR",
                p.restingHeartRate.map { "\(Int($0.rounded())) bpm" }
                    ?? "not set (load uses Edwards' zone TRIMP until it is)"
            ),
            (
                "Threshold HR",
                p.thresholdHeartRateEstimated
                    ? "\(hr(p.thresholdHeartRate, false)) (estimated: 89% of max HR)"
                    : hr(p.thresholdHeartRate, false)
            ),
            ("Threshold pace", pace),
            ("Zone model", "\(a.zoneModel.rawValue)\(a.zoneModel == .auto ? " (\(model.rawValue))" : "")"),
            ("Runs", String(runs))
        ]
        var lines = rows.map { k, v in k.padding(toLength: 16, withPad: " ", startingAt: 0) + v }
        if let zones = HeartRateZones.zones(model, physiology: p) {
            lines.append("")
            lines.append(
                Format.table(
                    header: ["zone", "bpm"],
                    rows: zones.map { z in
                        [z.name, z.highBpm.map { "\(Int(z.lowBpm))-\(Int($0) - 1)" } ?? "\(Int(z.lowBpm))+"]
                    }))
        }
        return lines.joined(separator: "\n")
    }
}

/// `athlete list`, `athlete set`.
public enum AthleteJobs {
    /// Every athlete with their profile and run count, as a table.
    /// Why `id` is no athlete id (lower-case letters, digits and dashes, not
    /// starting with a dash), nil when it is one.
    public static func idProblem(_ id: String) -> String? {
        guard !id.isEmpty, id.allSatisfy({ ($0.isLetter && $0.isLowercase) || $0.isNumber || $0 == "-" }),
            id.first != "-"
        else { return "athlete id '\(id)' must be lower-case letters, digits and dashes" }
        return nil
    }

    public static func roster(_ store: any Store) throws -> String {
        Format.table(
            header: ["id", "name", "time zone", "max HR", "rest HR", "LTHR", "sex", "runs"],
            rows: try store.athletes().map { a in
                [
                    a.id, a.name, a.timeZone, Format.number(a.maxHeartRate, digits: 0),
                    Format.number(a.restingHeartRate, digits: 0),
                    Format.number(a.thresholdHeartRate, digits: 0), a.sex?.rawValue ?? TextFormat.unknown,
                    String(try store.runCount(athleteID: a.id))
                ]
            })
    }

    /// Changes an athlete's profile (`change`) and, unless `recompute` is false,
    /// analyses their runs again. Results go to `say` as they happen, failures
    /// of single runs to `note`.
    public static func update(
        _ store: any Store, id: String, change: (inout Athlete) -> Void, recompute: Bool,
        say: (String) -> Void, note: (String) -> Void
    ) throws {
        guard var athlete = try store.athlete(id: id) else { throw StoreError.unknownAthlete(id) }
        change(&athlete)
        if let m = athlete.maxHeartRate, let r = athlete.restingHeartRate, r >= m {
            throw Failure(.usage, "resting HR \(Int(r)) must be below max HR \(Int(m))")
        }
        try store.updateAthlete(athlete)
        say("Updated athlete \(id).")
        guard recompute else { return }
        let outcome = try Recompute(store: store).run(athleteID: id, force: false)
        if outcome.checked > 0 { say("Recomputed \(outcome.updated) runs.") }
        for f in outcome.failed { note("failed: \(f)") }
    }
}

/// `athlete show --format json` (docs/contracts/json.md, "Athletes and predictions").
struct AthleteJSON: Encodable {
    var id, name, timeZone: String
    @Null var sex: Sex?
    var zoneModel: ZoneModel
    @Null var maxHeartRate: Double?
    var maxHeartRateEstimated: Bool
    @Null var restingHeartRate: Double?
    @Null var thresholdHeartRate: Double?
    var thresholdHeartRateEstimated: Bool
    @Null var thresholdPaceSecondsPerKm: Double?
    var thresholdPaceEstimated: Bool
    var runs: Int
}
