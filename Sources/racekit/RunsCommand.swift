import ArgumentParser
import Foundation
import RaceKitCore
import RaceKitStore

extension RaceKitCommand {
    struct Runs: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Look at the stored runs.",
            subcommands: [List.self]
        )

        struct List: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "List stored runs, oldest first.",
                discussion: """
                  racekit runs list
                  racekit runs list --since 2026-01-01 --sport running --format csv > runs.csv
                """
            )

            @OptionGroup var storeOptions: StoreOptions

            @Option(help: "Only this athlete's runs.")
            var athlete: String?

            @Option(help: "Only this sport (running, cycling, walking, hiking, swimming, other).")
            var sport: String?

            @Option(help: "Only runs starting on or after this date (YYYY-MM-DD, UTC).")
            var since: String?

            @Option(help: "Only runs starting on or before this date (YYYY-MM-DD, UTC).")
            var until: String?

            @Option(help: "At most this many runs (the newest).")
            var limit: Int?

            @Option(help: "table, csv or json.")
            var format: OutputFormat = .table

            func validate() throws {
                if let since, Self.day(since) == nil { throw ValidationError("--since: '\(since)' is not a date (YYYY-MM-DD)") }
                if let until, Self.day(until) == nil { throw ValidationError("--until: '\(until)' is not a date (YYYY-MM-DD)") }
                if let sport, Sport(rawValue: sport) == nil {
                    throw ValidationError("--sport: '\(sport)' is not one of \(Sport.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
            }

            static func day(_ text: String) -> Double? {
                TimestampParser.parse(text + "T00:00:00Z")?.secondsSinceEpoch
            }

            func run() throws {
                let store = try storeOptions.open()
                var filter = RunStore.RunFilter()
                filter.athleteID = athlete
                filter.sport = sport
                filter.since = since.flatMap(Self.day)
                filter.until = until.flatMap(Self.day).map { $0 + 86_399.999 }
                filter.limit = limit
                filter.newestFirst = limit != nil
                var runs = try store.runs(matching: filter)
                if limit != nil { runs.reverse() }
                let views = runs.map(RunView.init)
                switch format {
                case .json:
                    Console.out(try Console.json(views))
                case .csv:
                    Console.out(Format.csvRow(RunView.csvHeader))
                    for v in views { Console.out(Format.csvRow(v.csvFields)) }
                case .table:
                    if views.isEmpty { Console.out("No runs stored yet. Import some with: racekit import PATH"); return }
                    Console.out(Format.table(
                        header: ["id", "start (UTC)", "sport", "km", "time", "pace/km", "avg HR", "max HR", "source"],
                        rows: views.map { v in
                            [v.id, String(v.startedAt.prefix(16)).replacingOccurrences(of: "T", with: " "), v.sport,
                             Format.number(v.distanceMeters.map { $0 / 1000 }, digits: 2), Format.duration(v.elapsedSeconds),
                             Format.pace(v.avgPaceSecondsPerKm), Format.number(v.avgHeartRate, digits: 0),
                             Format.number(v.maxHeartRate, digits: 0), v.sourceFile]
                        }, rightAligned: [3, 4, 5, 6, 7]))
                    let km = views.compactMap(\.distanceMeters).reduce(0, +) / 1000
                    Console.out("\(views.count) runs, \(Format.number(km, digits: 1)) km")
                }
            }
        }
    }
}

/// A run as `runs list` shows it; the JSON keys are the contract in DESIGN.md.
struct RunView: Encodable {
    var id: String
    var athlete: String
    var sport: String
    var name: String?
    var sourceFile: String
    var sourceFormat: String
    var creator: String?
    var startedAt: String
    var endedAt: String
    var elapsedSeconds: Double
    var movingSeconds: Double?
    var distanceMeters: Double?
    var ascentMeters: Double?
    var descentMeters: Double?
    var avgPaceSecondsPerKm: Double?
    var avgHeartRate: Double?
    var maxHeartRate: Double?
    var heartRateCoveragePercent: Double?
    var avgCadence: Double?
    var load: Double?
    var loadSource: String?
    var label: String?
    var mode: String
    var runType: String
    var perceivedEffort: Int?
    var notes: String?

    init(_ r: RunRecord) {
        id = r.id; athlete = r.athleteID; sport = r.sport; name = r.name; sourceFile = r.sourceFile
        sourceFormat = r.sourceFormat; creator = r.creator
        startedAt = Format.isoTime(r.startedAt); endedAt = Format.isoTime(r.endedAt)
        elapsedSeconds = Self.round(r.elapsedSeconds, 3)!; movingSeconds = Self.round(r.movingSeconds, 3)
        distanceMeters = Self.round(r.distanceMeters, 2); ascentMeters = Self.round(r.ascentMeters, 1)
        descentMeters = Self.round(r.descentMeters, 1)
        if let d = r.distanceMeters, d > 0 {
            avgPaceSecondsPerKm = Self.round((r.movingSeconds ?? r.elapsedSeconds) / (d / 1000), 1)
        }
        avgHeartRate = Self.round(r.avgHeartRate, 1); maxHeartRate = Self.round(r.maxHeartRate, 0)
        heartRateCoveragePercent = Self.round(r.heartRateCoveragePercent, 1); avgCadence = Self.round(r.avgCadence, 1)
        load = Self.round(r.load, 1); loadSource = r.loadSource; label = r.label; mode = r.mode; runType = r.runType
        perceivedEffort = r.perceivedEffort; notes = r.notes
    }

    static func round(_ v: Double?, _ digits: Int) -> Double? {
        guard let v, v.isFinite else { return nil }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        return (v * scale).rounded() / scale
    }

    // Encode nil as null (never omit): scripts rely on every key being present.
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: DynamicKey.self)
        for (key, value) in fields { try c.encode(value, forKey: DynamicKey(key)) }
    }

    var fields: [(String, JSONValue)] {
        [("id", .string(id)), ("athlete", .string(athlete)), ("sport", .string(sport)), ("name", .init(name)),
         ("sourceFile", .string(sourceFile)), ("sourceFormat", .string(sourceFormat)), ("creator", .init(creator)),
         ("startedAt", .string(startedAt)), ("endedAt", .string(endedAt)), ("elapsedSeconds", .number(elapsedSeconds)),
         ("movingSeconds", .init(movingSeconds)), ("distanceMeters", .init(distanceMeters)),
         ("ascentMeters", .init(ascentMeters)), ("descentMeters", .init(descentMeters)),
         ("avgPaceSecondsPerKm", .init(avgPaceSecondsPerKm)), ("avgHeartRate", .init(avgHeartRate)),
         ("maxHeartRate", .init(maxHeartRate)), ("heartRateCoveragePercent", .init(heartRateCoveragePercent)),
         ("avgCadence", .init(avgCadence)), ("load", .init(load)), ("loadSource", .init(loadSource)),
         ("label", .init(label)), ("mode", .string(mode)), ("runType", .string(runType)),
         ("perceivedEffort", perceivedEffort.map { .number(Double($0)) } ?? .null), ("notes", .init(notes))]
    }

    static let csvHeader = ["id", "athlete", "sport", "name", "source_file", "source_format", "creator", "started_at",
                            "ended_at", "elapsed_time_s", "moving_time_s", "distance_km", "ascent_m", "descent_m",
                            "avg_pace_s_per_km", "avg_hr_bpm", "max_hr_bpm", "hr_coverage_pct", "avg_cadence_spm",
                            "load", "load_source", "label", "mode", "run_type", "perceived_effort", "notes"]

    var csvFields: [String] {
        func n(_ v: Double?) -> String { v.map { $0 == $0.rounded() ? String(Int($0)) : String($0) } ?? "" }
        return [id, athlete, sport, name ?? "", sourceFile, sourceFormat, creator ?? "", startedAt, endedAt,
                n(elapsedSeconds), n(movingSeconds), n(RunView.round(distanceMeters.map { $0 / 1000 }, 3)),
                n(ascentMeters), n(descentMeters), n(avgPaceSecondsPerKm), n(avgHeartRate), n(maxHeartRate),
                n(heartRateCoveragePercent), n(avgCadence), n(load), loadSource ?? "", label ?? "", mode, runType,
                perceivedEffort.map(String.init) ?? "", notes ?? ""]
    }
}

/// A JSON scalar that encodes nil as null.
enum JSONValue: Encodable {
    case string(String), number(Double), null
    init(_ s: String?) { self = s.map { .string($0) } ?? .null }
    init(_ d: Double?) { self = d.map { .number($0) } ?? .null }
    func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .string(let s): try c.encode(s)
        case .number(let d): try c.encode(d)
        case .null: try c.encodeNil()
        }
    }
}

struct DynamicKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ s: String) { stringValue = s }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
