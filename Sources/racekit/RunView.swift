import ArgumentParser
import Foundation
import RaceKitCore
import RaceKitStore

/// A run as `runs list` and `runs show` print it; the JSON keys are the contract in DESIGN.md.
struct RunView: Encodable {
    var record: RunRecord

    init(_ r: RunRecord) { record = r }

    var id: String { record.id }
    var startedAt: String { Format.isoTime(record.startedAt) }
    var avgPaceSecondsPerKm: Double? {
        guard let d = record.distanceMeters, d > 0 else { return nil }
        return (record.movingSeconds ?? record.elapsedSeconds) / (d / 1000)
    }

    static func round(_ v: Double?, _ digits: Int) -> Double? {
        guard let v, v.isFinite else { return nil }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        return (v * scale).rounded() / scale
    }

    /// The JSON keys, in the order of `values`.
    static let keys = ["id", "athlete", "sport", "sportInferred", "name", "sourceFile", "sourceFormat", "creator", "startedAt", "endedAt",
                       "elapsedSeconds", "movingSeconds", "distanceMeters", "ascentMeters", "descentMeters",
                       "avgPaceSecondsPerKm", "avgHeartRate", "maxHeartRate", "heartRateCoveragePercent", "avgCadence",
                       "load", "loadSource", "label", "mode", "runType", "perceivedEffort", "notes"]

    /// Every value, in the order of `keys`; nil becomes null (never omitted:
    /// scripts rely on every key).
    var values: [JSONValue] {
        let r = record
        return [
            .string(r.id), .string(r.athleteID), .string(r.sport), .bool(!r.sportDeclared), .init(r.name), .string(r.sourceFile),
            .string(r.sourceFormat), .init(r.creator), .string(startedAt), .string(Format.isoTime(r.endedAt)),
            .init(Self.round(r.elapsedSeconds, 3)), .init(Self.round(r.movingSeconds, 3)),
            .init(Self.round(r.distanceMeters, 2)), .init(Self.round(r.ascentMeters, 1)), .init(Self.round(r.descentMeters, 1)),
            .init(Self.round(avgPaceSecondsPerKm, 1)), .init(Self.round(r.avgHeartRate, 1)), .init(Self.round(r.maxHeartRate, 0)),
            .init(Self.round(r.heartRateCoveragePercent, 1)), .init(Self.round(r.avgCadence, 1)), .init(Self.round(r.load, 1)),
            .init(r.loadSource), .init(r.label), .string(r.mode), .string(r.runType),
            r.perceivedEffort.map { .number(Double($0)) } ?? .null, .init(r.notes),
        ]
    }

    var fields: [(String, JSONValue)] { Array(zip(Self.keys, values)) }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: DynamicKey.self)
        for (key, value) in fields { try c.encode(value, forKey: DynamicKey(key)) }
    }

    static let csvHeader = ["id", "athlete", "sport", "name", "source_file", "source_format", "creator", "started_at",
                            "ended_at", "elapsed_time_s", "moving_time_s", "distance_km", "ascent_m", "descent_m",
                            "avg_pace_s_per_km", "avg_hr_bpm", "max_hr_bpm", "hr_coverage_pct", "avg_cadence_spm",
                            "load", "load_source", "label", "mode", "run_type", "perceived_effort", "notes"]

    var csvFields: [String] {
        let r = record
        let n = Format.csvNumber
        return [r.id, r.athleteID, r.sport, r.name ?? "", r.sourceFile, r.sourceFormat, r.creator ?? "", startedAt,
                Format.isoTime(r.endedAt), n(Self.round(r.elapsedSeconds, 3)), n(Self.round(r.movingSeconds, 3)),
                n(Self.round(r.distanceMeters.map { $0 / 1000 }, 3)), n(Self.round(r.ascentMeters, 1)),
                n(Self.round(r.descentMeters, 1)), n(Self.round(avgPaceSecondsPerKm, 1)), n(Self.round(r.avgHeartRate, 1)),
                n(Self.round(r.maxHeartRate, 0)), n(Self.round(r.heartRateCoveragePercent, 1)), n(Self.round(r.avgCadence, 1)),
                n(Self.round(r.load, 1)), r.loadSource ?? "", r.label ?? "", r.mode, r.runType,
                r.perceivedEffort.map(String.init) ?? "", r.notes ?? ""]
    }
}

/// Finds a run by id or unique id prefix, or exits 66 / 64 with a message.
enum RunLookup {
    static func find(_ store: RunStore, _ id: String) throws -> RunRecord {
        if let run = try store.run(id: id.uppercased()) { return run }
        let matches = try store.runs(idPrefix: id)
        if matches.count == 1 { return matches[0] }
        if matches.isEmpty {
            Console.error("racekit: no run with id \(id) (see racekit runs list)")
            throw ExitCode(Exit.noInput)
        }
        Console.error("racekit: '\(id)' matches several runs (\(matches.map(\.id).joined(separator: ", "))); give more of the id")
        throw ExitCode(Exit.usage)
    }
}

extension RunView {
    /// The order that sorts `keys` (the same for every run).
    private static let sortedOrder: [Int] = keys.indices.sorted { keys[$0] < keys[$1] }

    /// The run as a JSON object with sorted keys.
    var tree: JSONTree {
        let v = values
        return .pairs(Self.sortedOrder.map { (Self.keys[$0], v[$0]) })
    }
}
