import Foundation
import RaceKitImport
import RaceKitMetrics
import RaceKitModel
import RaceKitOutput
import RaceKitStore

/// `runs bests`: an athlete's personal records, or the fastest efforts over one
/// distance.
public struct PersonalRecords {
    public let records: [PersonalRecord]

    /// The records of `athlete` (one per distance, or the `limit` fastest over
    /// `distance` metres).
    public init(_ store: any Store, athlete: String, distance: Double?, limit: Int) throws {
        guard try store.athlete(id: athlete) != nil else { throw StoreError.unknownAthlete(athlete) }
        records = try store.personalRecords(athleteID: athlete, distance: distance, limit: limit)
    }

    /// `runs bests --format json`.
    public func json() throws -> String {
        try JSONOutput.string(
            records.map { r in
                RecordJSON(
                    distanceMeters: r.distanceMeters, elapsedSeconds: TextFormat.round(r.elapsedSeconds, 1),
                    startOffsetSeconds: TextFormat.round(r.startOffsetSeconds, 1), runId: r.run.id,
                    athlete: r.run.athleteID, startedAt: TextFormat.isoTime(r.run.startedAt))
            })
    }

    /// `runs bests --format csv`.
    public func csv() -> String {
        CSV.document(
            header: ["distance", "distance_m", "elapsed_time_s", "run_id", "athlete", "started_at"],
            rows: records.map { r in
                [
                    .text(BestEfforts.name(of: r.distanceMeters)), .number(r.distanceMeters, digits: 3),
                    .number(r.elapsedSeconds, digits: 1), .text(r.run.id), .text(r.run.athleteID),
                    .text(TextFormat.isoTime(r.run.startedAt))
                ]
            })
    }

    /// The records' table, or a line saying there is none yet.
    public func text(unit: DistanceUnit) -> String {
        if records.isEmpty { return "No best efforts yet." }
        return TextFormat.table(
            header: ["distance", "time", "pace/\(unit.rawValue)", "date", "run", "athlete"],
            rows: records.map { r in
                [
                    BestEfforts.name(of: r.distanceMeters), TextFormat.duration(r.elapsedSeconds),
                    TextFormat.pace(r.elapsedSeconds / (r.distanceMeters / 1000), unit),
                    String(TextFormat.isoTime(r.run.startedAt).prefix(10)), r.run.id, r.run.athleteID
                ]
            }, rightAligned: [1, 2])
    }
}

/// One record of `runs bests --format json`.
struct RecordJSON: Encodable {
    var distanceMeters: Double
    @Null var elapsedSeconds: Double?
    @Null var startOffsetSeconds: Double?
    var runId, athlete, startedAt: String
}

/// `runs edit`, `runs recompute`.
public enum RunJobs {
    /// Edits the run of `id` (or a unique prefix); a changed sport analyses it
    /// again. What to say: the run's fields after the edit.
    public static func edit(_ store: any Store, id: String, _ edit: RunEdit) throws -> String {
        let record = try RunLookup.find(store, id)
        let updated = try store.edit(runID: record.id, edit)
        if edit.sport != nil { try Recompute(store: store).reanalyse(runID: record.id) }
        return
            "Updated \(updated.id): \(updated.sport.rawValue), label \(updated.label ?? TextFormat.unknown), mode \(updated.mode.rawValue), type \(updated.runType.rawValue), effort \(updated.perceivedEffort.map(String.init) ?? TextFormat.unknown)"
    }

    /// Analyses again the stale runs (every run when `all`) of one athlete, or
    /// of every athlete when `athlete` is nil (of those in `shard` when given);
    /// the totals.
    public static func recompute(
        _ store: any Store, athlete: String?, all: Bool, shard: Shard? = nil
    ) throws -> Recompute.Outcome {
        let ids = try athlete.map { [$0] } ?? store.athletes().map(\.id).filter { shard?.contains($0) ?? true }
        var total = Recompute.Outcome()
        for id in ids {
            guard try store.athlete(id: id) != nil else { throw StoreError.unknownAthlete(id) }
            let o = try Recompute(store: store).run(athleteID: id, force: all)
            total.checked += o.checked; total.updated += o.updated; total.failed += o.failed
        }
        return total
    }

    /// "ID (start, km, file)": a run as `runs delete` names it.
    public static func describe(_ r: RunRecord) -> String {
        "\(r.id) (\(TextFormat.isoTime(r.startedAt)), \(TextFormat.distance(r.distanceMeters, .km)) km, \(r.sourceFile))"
    }
}
