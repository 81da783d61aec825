import Foundation
import RaceKitCore
import RaceKitStore

/// A run as `runs list` and `runs show` print it; the JSON keys are the contract in docs/contracts/json.md.
public struct RunView: Sendable {
    public var record: RunRecord

    public init(_ r: RunRecord) { record = r }

    public var id: String { record.id }
    public var startedAt: String { Format.isoTime(record.startedAt) }
    /// Moving time (elapsed when unknown) over distance; nil without either, so
    /// an activity without pace sorts last and never reads "0:00", and nil for
    /// an average faster than the sport allows (a 333 m "run" in 3 s read 0:09/km).
    public var avgPaceSecondsPerKm: Double? {
        let seconds = record.movingSeconds ?? record.elapsedSeconds
        guard let d = record.distanceMeters, d > 0, seconds > 0,
            d / seconds <= SportLimits.of(record.sport, declared: true).maxPlausibleSpeed
        else { return nil }
        return seconds / (d / 1000)
    }

    /// The run as the JSON contract has it.
    public var json: RunJSON {
        let r = record
        return RunJSON(
            id: r.id, athlete: r.athleteID, sport: r.sport, sportInferred: !r.sportDeclared, name: r.name,
            sourceFile: r.sourceFile,
            sourceFormat: r.sourceFormat, creator: r.creator, startedAt: startedAt, endedAt: Format.isoTime(r.endedAt),
            elapsedSeconds: TextFormat.round(r.elapsedSeconds, 3), movingSeconds: TextFormat.round(r.movingSeconds, 3),
            distanceMeters: TextFormat.round(r.distanceMeters, 2), ascentMeters: TextFormat.round(r.ascentMeters, 1),
            descentMeters: TextFormat.round(r.descentMeters, 1),
            avgPaceSecondsPerKm: TextFormat.round(avgPaceSecondsPerKm, 1),
            gradeAdjustedPaceSecondsPerKm: TextFormat.round(r.gradeAdjustedPaceSecondsPerKm, 1),
            avgHeartRate: TextFormat.round(r.avgHeartRate, 1), maxHeartRate: TextFormat.round(r.maxHeartRate, 0),
            heartRateCoveragePercent: TextFormat.round(r.heartRateCoveragePercent, 1),
            avgCadence: TextFormat.round(r.avgCadence, 1),
            load: TextFormat.round(r.load, 1), loadSource: r.loadSource, label: r.label, mode: r.mode,
            runType: r.runType,
            perceivedEffort: r.perceivedEffort, notes: r.notes)
    }

    public static let csvHeader = [
        "id", "athlete", "sport", "name", "source_file", "source_format", "creator", "started_at",
        "ended_at", "elapsed_time_s", "moving_time_s", "distance_km", "ascent_m", "descent_m",
        "avg_pace_s_per_km", "gap_pace_s_per_km", "avg_hr_bpm", "max_hr_bpm", "hr_coverage_pct", "avg_cadence_spm",
        "load", "load_source", "label", "mode", "run_type", "perceived_effort", "notes"
    ]

    /// The run as a CSV record, in `csvHeader`'s order.
    public var csvCells: [CSV.Cell] {
        let r = record
        return [
            .text(r.id), .text(r.athleteID), .text(r.sport.rawValue), .text(r.name ?? ""), .text(r.sourceFile),
            .text(r.sourceFormat.rawValue), .text(r.creator ?? ""), .text(startedAt), .text(Format.isoTime(r.endedAt)),
            .number(r.elapsedSeconds, digits: 3), .number(r.movingSeconds, digits: 3),
            .number(r.distanceMeters.map { $0 / 1000 }, digits: 3), .number(r.ascentMeters, digits: 1),
            .number(r.descentMeters, digits: 1), .number(avgPaceSecondsPerKm, digits: 1),
            .number(r.gradeAdjustedPaceSecondsPerKm, digits: 1), .number(r.avgHeartRate, digits: 1),
            .number(r.maxHeartRate, digits: 0), .number(r.heartRateCoveragePercent, digits: 1),
            .number(r.avgCadence, digits: 1), .number(r.load, digits: 1), .text(r.loadSource?.rawValue ?? ""),
            .text(r.label ?? ""), .text(r.mode.rawValue), .text(r.runType.rawValue), .integer(r.perceivedEffort),
            .text(r.notes ?? "")
        ]
    }
}

/// A run in `runs list --format json` and `runs show --format json` (docs/contracts/json.md,
/// "Runs"): every key always present, unknown as null.
public struct RunJSON: FlatFieldsWritable, Sendable {
    var id, athlete: String
    var sport: Sport
    var sportInferred: Bool
    @Null var name: String?
    var sourceFile: String
    var sourceFormat: SourceFormat
    @Null var creator: String?
    var startedAt, endedAt: String
    @Null var elapsedSeconds: Double?
    @Null var movingSeconds: Double?
    @Null var distanceMeters: Double?
    @Null var ascentMeters: Double?
    @Null var descentMeters: Double?
    @Null var avgPaceSecondsPerKm: Double?
    @Null var gradeAdjustedPaceSecondsPerKm: Double?
    @Null var avgHeartRate: Double?
    @Null var maxHeartRate: Double?
    @Null var heartRateCoveragePercent: Double?
    @Null var avgCadence: Double?
    @Null var load: Double?
    @Null var loadSource: LoadSource?
    @Null var label: String?
    var mode: RunMode
    var runType: RunType
    @Null var perceivedEffort: Int?
    @Null var notes: String?

    /// Sorted, as the output is: the encoder then writes the keys as they come.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case ascentMeters, athlete, avgCadence, avgHeartRate, avgPaceSecondsPerKm, creator, descentMeters
        case distanceMeters, elapsedSeconds, endedAt, gradeAdjustedPaceSecondsPerKm, heartRateCoveragePercent, id,
            label, load, loadSource
        case maxHeartRate, mode, movingSeconds, name, notes, perceivedEffort, runType, sourceFile, sourceFormat
        case sport, sportInferred, startedAt
    }

    /// The same fields as `encode(to:)`, in the same sorted order, without an
    /// encoder (a test checks the two agree).
    public func writeFields(_ f: inout FlatFields) {
        f.field("ascentMeters", _ascentMeters)
        f.field("athlete", athlete)
        f.field("avgCadence", _avgCadence)
        f.field("avgHeartRate", _avgHeartRate)
        f.field("avgPaceSecondsPerKm", _avgPaceSecondsPerKm)
        f.field("creator", _creator)
        f.field("descentMeters", _descentMeters)
        f.field("distanceMeters", _distanceMeters)
        f.field("elapsedSeconds", _elapsedSeconds)
        f.field("endedAt", endedAt)
        f.field("gradeAdjustedPaceSecondsPerKm", _gradeAdjustedPaceSecondsPerKm)
        f.field("heartRateCoveragePercent", _heartRateCoveragePercent)
        f.field("id", id)
        f.field("label", _label)
        f.field("load", _load)
        f.field("loadSource", _loadSource)
        f.field("maxHeartRate", _maxHeartRate)
        f.field("mode", mode)
        f.field("movingSeconds", _movingSeconds)
        f.field("name", _name)
        f.field("notes", _notes)
        f.field("perceivedEffort", _perceivedEffort)
        f.field("runType", runType)
        f.field("sourceFile", sourceFile)
        f.field("sourceFormat", sourceFormat)
        f.field("sport", sport)
        f.field("sportInferred", sportInferred)
        f.field("startedAt", startedAt)
    }
}
