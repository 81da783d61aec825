import RaceKitFormats
import RaceKitMetrics
import RaceKitStore

/// The content digest of a store: SHA-256 over a canonical serialisation of
/// everything it holds, computed the same way from every backend, so two
/// stores with equal digests hold the same data (`store check` prints it,
/// `store copy` compares the source's with the copy's).
///
/// What is hashed, in this order: the athletes by id, the runs by id, the race
/// links by setup key (ids and keys ordered by their UTF-8 bytes, whatever the
/// database's collation), then the daily measurements when there are any. An
/// athlete or link is its stored fields in `CodingKeys` order, a run its
/// declared columns (`RunColumns`; a newer metric's only when it holds a
/// value), each field its name and a typed, length-prefixed value:
/// text as its UTF-8 bytes, numbers as the bit pattern of their Double (−0 as
/// 0: SQLite stores it so), integers as 64 bits, absent values as absent. A
/// run adds its samples blob byte for byte, its segment starts as stored,
/// its zones by zone and its best efforts by distance; each run is hashed on
/// its own, a page at a time (never every run's samples in memory), and the
/// store's digest takes the runs' digests by id.
public struct StoreDigest: Sendable, Equatable, CustomStringConvertible {
    /// SHA-256, lower-case hex.
    public var sha256: String
    public var athletes: Int
    public var runs: Int
    public var raceLinks: Int

    /// `sha256:HEX (2 athletes, 44 runs, 1 race link)`.
    public var description: String {
        func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
        return
            "sha256:\(sha256) (\(count(athletes, "athlete")), \(count(runs, "run")), \(count(raceLinks, "race link")))"
    }

    /// Runs read per page (a page's samples are in memory at once).
    public static let pageSize = 64

    /// The digest of everything `store` holds.
    public static func of(_ store: any Store, pageSize: Int = pageSize) throws -> StoreDigest {
        var runs: [(id: [UInt8], digest: String)] = []
        try store.forEachRunPage(pageSize: pageSize) { page in
            runs += page.map { (Array($0.record.id.utf8), Self.digest(of: $0)) }
        }
        runs.sort { $0.id.lexicographicallyPrecedes($1.id) }
        let athletes = try store.athletes().sorted { $0.id.precedesBytewise($1.id) }
        let links = try store.allRaceLinks().sorted { $0.setupKey.precedesBytewise($1.setupKey) }

        var w = CanonicalWriter()
        w.text("racekit store digest 1")
        w.integer(athletes.count)
        for a in athletes { w.add(a) }
        w.integer(runs.count)
        for r in runs {
            w.bytes(r.id)
            w.text(r.digest)
        }
        w.integer(links.count)
        for l in links { w.add(l) }
        // Measurements, when there are any (a store without them digests as before).
        // In their key's order (athlete, kind and source bytewise, then start and end).
        let measurements = try store.allMeasurements().sorted { a, b in
            for (x, y) in [(a.athleteID, b.athleteID), (a.kind, b.kind), (a.source, b.source)] where x != y {
                return x.precedesBytewise(y)
            }
            return (a.start, a.end) < (b.start, b.end)
        }
        if !measurements.isEmpty {
            w.text("daily measurements")
            w.integer(measurements.count)
            for m in measurements { w.add(m) }
        }
        var hasher = ContentDigest()
        hasher.update(w.bytes)
        return StoreDigest(sha256: hasher.finish(), athletes: athletes.count, runs: runs.count, raceLinks: links.count)
    }

    /// The digest (hex) of one run: its fields, samples, segments, zones and best efforts.
    static func digest(of run: StoredRun) -> String {
        var w = CanonicalWriter()
        w.add(run.record)
        var hasher = ContentDigest()
        if let samples = run.samples {
            w.tag(.bytes, length: samples.count)
            hasher.update(w.bytes)
            hasher.update(samples)
            w.bytes.removeAll(keepingCapacity: true)
        } else {
            w.absent()
        }
        w.text(run.segments)
        w.integer(run.zones.count)
        for z in run.zones.sorted(by: { $0.zone < $1.zone }) {
            w.integer(z.zone)
            w.text(z.name)
            w.number(z.lowBpm)
            w.number(z.highBpm)
            w.number(z.seconds)
        }
        let efforts = run.bestEfforts.sorted { $0.distanceMeters < $1.distanceMeters }
        w.integer(efforts.count)
        for e in efforts {
            w.number(e.distanceMeters)
            w.number(e.elapsedSeconds)
            w.number(e.startOffsetSeconds)
        }
        hasher.update(w.bytes)
        return hasher.finish()
    }
}

/// The canonical serialisation the store digest hashes: each value a type tag,
/// then its length and bytes (text, bytes) or its 8 bytes (numbers, integers),
/// little-endian.
struct CanonicalWriter {
    enum Tag: UInt8 { case absent = 0, text, number, integer, flag, bytes }

    var bytes: [UInt8] = []

    mutating func tag(_ tag: Tag, length: Int? = nil) {
        bytes.append(tag.rawValue)
        if let length { append(UInt64(length)) }
    }

    private mutating func append(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { bytes += $0 } }

    mutating func absent() { tag(.absent) }

    mutating func text(_ s: String?) {
        guard let s else { return absent() }
        tag(.text, length: s.utf8.count)
        bytes += s.utf8
    }

    mutating func bytes(_ b: [UInt8]) {
        tag(.bytes, length: b.count)
        bytes += b
    }

    mutating func number(_ v: Double?) {
        guard let v else { return absent() }
        tag(.number)
        append((v == 0 ? 0 : v).bitPattern)
    }

    mutating func integer(_ v: Int?) {
        guard let v else { return absent() }
        tag(.integer)
        append(UInt64(bitPattern: Int64(v)))
    }

    mutating func flag(_ v: Bool) {
        tag(.flag)
        bytes.append(v ? 1 : 0)
    }

    /// Every stored column of a run, named, in the run table's declared order
    /// (`RunColumns`: 0.4.0's columns, then the newer metrics'). A newer
    /// metric's column counts only when it holds a value, so a store whose
    /// runs lack a metric digests as one without the column.
    mutating func add(_ r: RunRecord) {
        for c in RunColumns.of(r.metrics.registry) {
            let value = c.get(r)
            if value == .null, !RunColumns.historical.contains(c.spec.name) { continue }
            text(c.spec.name)
            add(value, as: c.spec.type)
        }
    }

    /// A value as its declared type hashes (absent when null).
    mutating func add(_ v: StoreValue, as type: ColumnType) {
        switch v {
        case .null: absent()
        case .text(let s): text(s)
        case .real(let d): number(d)
        case .integer(let i): type == .real ? number(Double(i)) : integer(i)
        case .boolean(let b): flag(b)
        case .blob(let b): bytes(b)
        }
    }

    /// A daily measurement's columns, named, in the table's order.
    mutating func add(_ m: DailyMeasurement) {
        for (name, value) in zip(DailyMeasurement.columns, m.storeValues) {
            text(name)
            add(value, as: DailyMeasurement.table.column(name)?.type ?? .text)
        }
    }

    /// Every stored field of an athlete, named, in `CodingKeys` order.
    mutating func add(_ a: Athlete) {
        // A source order only when set (a store without one digests as before).
        for key in Athlete.CodingKeys.allCases where key != .sourceOrder || a.sourceOrder != nil {
            text(key.rawValue)
            switch key {
            case .id: text(a.id)
            case .name: text(a.name)
            case .sex: text(a.sex?.rawValue)
            case .maxHeartRate: number(a.maxHeartRate)
            case .restingHeartRate: number(a.restingHeartRate)
            case .thresholdHeartRate: number(a.thresholdHeartRate)
            case .thresholdPaceSecondsPerKm: number(a.thresholdPaceSecondsPerKm)
            case .timeZone: text(a.timeZone)
            case .zoneModel: text(a.zoneModel.rawValue)
            case .createdAt: number(a.createdAt)
            case .sourceOrder:
                integer(a.sourceOrder?.count ?? 0)
                for name in a.sourceOrder ?? [] { text(name) }
            }
        }
    }

    /// Every stored field of a race link, named, in `CodingKeys` order.
    mutating func add(_ l: RaceLink) {
        for key in RaceLink.CodingKeys.allCases {
            text(key.rawValue)
            switch key {
            case .setupKey: text(l.setupKey)
            case .setupSlug: text(l.setupSlug)
            case .setupFile: text(l.setupFile)
            case .raceName: text(l.raceName)
            case .raceDate: text(l.raceDate)
            case .targetSeconds: number(l.targetSeconds)
            case .runID: text(l.runID)
            case .actualSeconds: number(l.actualSeconds)
            case .reviewPath: text(l.reviewPath)
            }
        }
    }
}
