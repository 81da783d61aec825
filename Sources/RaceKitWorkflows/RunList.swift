import Foundation
import RaceKitMetrics
import RaceKitModel
import RaceKitOutput
import RaceKitStore

/// `runs list`: the runs a filter selects, sorted and limited by the store, and
/// their table, CSV and JSON.
public struct RunList {
    public struct Options: Sendable {
        public var athleteID: String?
        public var sport: Sport?
        /// Seconds since the epoch, inclusive.
        public var since: Double?
        public var until: Double?
        public var order: RunOrder
        public var reversed: Bool
        /// At most this many runs: the first in the order, except in plain date
        /// order, where it is the newest (still shown oldest first).
        public var limit: Int?

        public init(
            athleteID: String? = nil, sport: Sport? = nil, since: Double? = nil, until: Double? = nil,
            order: RunOrder = .startedAt, reversed: Bool = false, limit: Int? = nil
        ) {
            (self.athleteID, self.sport, self.since, self.until) = (athleteID, sport, since, until)
            (self.order, self.reversed, self.limit) = (order, reversed, limit)
        }
    }

    public var runs: [RunView]
    /// The store's metrics (the CSV's columns, even with no run).
    public var registry: MetricRegistry

    public init(_ store: any Store, _ options: Options) throws {
        var filter = RunFilter()
        filter.athleteID = options.athleteID
        filter.sport = options.sport
        filter.since = options.since
        filter.until = options.until
        filter.order = options.order
        filter.reversed = options.reversed
        filter.limit = options.limit
        // The newest N in date order: the first N newest first, turned round.
        let newest = options.limit != nil && options.order == .startedAt && !options.reversed
        if newest { filter.reversed = true }
        registry = store.registry
        let records = try store.runs(matching: filter)
        runs = (newest ? records.reversed() : records).map(RunView.init)
    }

    /// `runs list --format json`: one JSON array.
    public func json() throws -> [UInt8] { try JSONOutput.line(runs.map(\.json)) }

    /// `runs list --format csv`.
    public func csv() -> String { CSV.document(header: RunView.csvHeader(registry), rows: runs.map(\.csvCells)) }

    /// The table and the totals per sport, or a hint to import when there is no run.
    public func text(unit: DistanceUnit) -> String {
        if runs.isEmpty { return "No runs match. Import some with: racekit import PATH" }
        // Average and normalized power only where a run has them (most runs have none).
        // The metrics' places looked up once, not per run.
        let avgPower = registry.index(of: Metric.AvgPower.self),
            normalized = registry.index(of: Metric.NormalizedPower.self)
        let power = avgPower.map { i in runs.contains { $0.record.metrics[index: i] != nil } } ?? false
        var header = [
            "id", "start (UTC)", "sport", unit.rawValue, "time", "moving", "pace or speed", "elev+", "avg HR", "load"
        ]
        if power { header += ["avg W", "norm W"] }
        let table = TextFormat.table(
            header: header + ["name / source"],
            rows: runs.map { v in
                let r = v.record
                var row = [
                    r.id, String(v.startedAt.prefix(16).map { $0 == "T" ? " " : $0 }),
                    r.sport.rawValue,
                    TextFormat.distance(r.distanceMeters, unit), TextFormat.duration(r.elapsedSeconds),
                    TextFormat.duration(r.movingSeconds),
                    SportDisplay(r.sport).speedText(
                        meters: r.distanceMeters, seconds: r.movingSeconds ?? r.elapsedSeconds,
                        unitMeters: unit.meters, unitName: unit.rawValue),
                    TextFormat.fixed(r.ascentMeters, 0), TextFormat.fixed(r.avgHeartRate, 0),
                    TextFormat.fixed(r.load, 0)
                ]
                if power {
                    row += [
                        TextFormat.fixed(avgPower.flatMap { r.metrics[index: $0] }, 0),
                        TextFormat.fixed(normalized.flatMap { r.metrics[index: $0] }, 0)
                    ]
                }
                return row + [r.label ?? r.name ?? r.sourceFile]
            }, rightAligned: Set(3..<(header.count)))
        return table + "\n" + Self.totals(runs.map(\.record), unit: unit)
    }

    /// Counts and distances per sport, runs first: "8 runs 120.3 km, 3 rides
    /// 95.1 km, 1 swim 2.0 km" (a ride's kilometres are not a runner's).
    public static func totals(_ runs: [RunRecord], unit: DistanceUnit) -> String {
        // One pass (a filter per sport copied every record once per sport).
        var sums: [Sport: (count: Int, meters: Double)] = [:]
        for r in runs {
            let sum = sums[r.sport] ?? (0, 0)
            sums[r.sport] = (sum.count + 1, sum.meters + (r.distanceMeters ?? 0))
        }
        return Sport.allCases.compactMap { sport -> String? in
            guard let sum = sums[sport] else { return nil }
            return
                "\(SportDisplay(sport).count(sum.count)) \(TextFormat.distance(sum.meters, unit, digits: 1)) \(unit.rawValue)"
        }.joined(separator: ", ")
    }
}
