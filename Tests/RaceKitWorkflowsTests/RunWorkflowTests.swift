import Foundation
import RaceKitTestSupport
import Testing

@testable import RaceKitMetrics
@testable import RaceKitModel
@testable import RaceKitOutput
@testable import RaceKitSQLite
@testable import RaceKitStore
@testable import RaceKitWorkflows

/// Six activities on six days: two runs of the same length (a tie), one without
/// heart rate, at different paces, and a treadmill session with neither distance
/// nor heart rate (no pace, no load).
func sixRuns() throws -> (RunStore, [RunRecord]) {
    let times = (0...60).map {
        "<Trackpoint><Time>2026-03-06T07:\(String(format: "%02d", $0 / 2)):\($0 % 2 == 0 ? "00" : "30")Z</Time></Trackpoint>"
    }
    return try storeWith([
        "f.tcx": """
        <?xml version="1.0"?><TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2">
        <Activities><Activity Sport="Running"><Id>2026-03-06T07:00:00Z</Id><Lap StartTime="2026-03-06T07:00:00Z"><Track>
        \(times.joined())
        </Track></Lap></Activity></Activities></TrainingCenterDatabase>
        """,
        "a.gpx": trackGPX(seconds: 1200, speed: 3.0, start: "2026-03-01T07:00:00Z", heartRate: 150),
        "b.gpx": trackGPX(seconds: 1800, speed: 3.5, start: "2026-03-02T07:00:00Z", heartRate: 160),
        "c.gpx": trackGPX(seconds: 1200, speed: 3.0, start: "2026-03-03T07:00:00Z"),
        "d.gpx": trackGPX(seconds: 600, speed: 4.0, start: "2026-03-04T07:00:00Z", heartRate: 170),
        "e.gpx": trackGPX(seconds: 2400, speed: 2.8, start: "2026-03-05T07:00:00Z", heartRate: 140)
    ])
}

@Suite struct RunLookupTests {
    @Test func aUniquePrefixOrTheWholeIdFindsTheRunInAnyCase() throws {
        let (store, runs) = try sixRuns()
        let ids = runs.map(\.id)
        for run in runs {
            // The shortest prefix no other id shares.
            let length = (1...run.id.count).first { n in
                ids.filter { $0.hasPrefix(run.id.prefix(n)) }.count == 1
            }!
            #expect(try RunLookup.find(store, String(run.id.prefix(length))).id == run.id)
            #expect(try RunLookup.find(store, String(run.id.prefix(length)).lowercased()).id == run.id)
            #expect(try RunLookup.find(store, run.id).id == run.id)
        }
    }

    @Test func aPrefixOfSeveralRunsIsAUsageErrorNamingThem() throws {
        let (store, runs) = try sixRuns()
        // The prefix all five ids share (ULIDs of runs days apart share their first characters).
        var common = runs[0].id
        for r in runs { while !r.id.hasPrefix(common) { common.removeLast() } }
        try #require(!common.isEmpty)
        do {
            _ = try RunLookup.find(store, common)
            Issue.record("an ambiguous prefix was accepted")
        } catch let error as Failure {
            #expect(error.exitClass == .usage)
            // The first five matches are named (the store returns at most five).
            #expect("\(error)".contains("'\(common)' matches several runs"))
            #expect(runs.filter { "\(error)".contains($0.id) }.count == 5, "\(error)")
            #expect("\(error)".contains("give more of the id"))
        }
    }

    @Test func anUnknownIdIsNoInput() throws {
        let (store, _) = try sixRuns()
        let error = #expect(throws: StoreError.self) { try RunLookup.find(store, "ZZZZ") }
        guard case .unknownRun(let id) = error else {
            Issue.record("not an unknown run: \(String(describing: error))")
            return
        }
        #expect(id == "ZZZZ" && error?.exitClass == .noInput)
    }
}

@Suite struct RunListTests {
    /// The order `runs list` had when it sorted in memory: start order, then a
    /// stable sort by the key, reversed whole, then the first `limit` (the last
    /// in plain date order).
    static func reference(
        _ runs: [RunRecord], _ order: RunOrder, reversed: Bool, limit: Int?
    ) -> [String] {
        func pace(_ r: RunRecord) -> Double { RunView(r).avgPaceSecondsPerKm ?? .infinity }
        var runs = runs.sorted { ($0.startedAt, $0.id) < ($1.startedAt, $1.id) }
        switch order {
        case .startedAt: break
        case .distance: runs.sort { ($0.distanceMeters ?? -1) > ($1.distanceMeters ?? -1) }
        case .elapsedTime: runs.sort { $0.elapsedSeconds > $1.elapsedSeconds }
        case .pace: runs.sort { pace($0) < pace($1) }
        case .load: runs.sort { ($0.load ?? -1) > ($1.load ?? -1) }
        }
        if reversed { runs.reverse() }
        if let limit { runs = order == .startedAt && !reversed ? Array(runs.suffix(limit)) : Array(runs.prefix(limit)) }
        return runs.map(\.id)
    }

    @Test func theStoreSortsAndLimitsAsTheListDidInMemory() throws {
        let (store, runs) = try sixRuns()
        #expect(runs.count == 6)
        #expect(runs.contains { $0.load == nil } && runs.contains { $0.load != nil })
        #expect(runs.contains { $0.distanceMeters == nil } && runs.contains { RunView($0).avgPaceSecondsPerKm == nil })
        for order in RunOrder.allCases {
            for reversed in [false, true] {
                for limit in [nil, 1, 2, 5, 9] {
                    let listed = try RunList(store, .init(order: order, reversed: reversed, limit: limit))
                    #expect(
                        listed.runs.map(\.id) == Self.reference(runs, order, reversed: reversed, limit: limit),
                        "\(order) reversed \(reversed) limit \(limit.map(String.init) ?? "none")")
                }
            }
        }
    }

    @Test func plainDateOrderWithALimitIsTheNewestOldestFirst() throws {
        let (store, runs) = try sixRuns()
        let listed = try RunList(store, .init(limit: 2))
        #expect(listed.runs.map(\.id) == runs.suffix(2).map(\.id))
        #expect(listed.runs[0].record.startedAt < listed.runs[1].record.startedAt)
        let newest = try RunList(store, .init(reversed: true, limit: 2))
        #expect(newest.runs.map(\.id) == [runs[5].id, runs[4].id])
    }

    @Test func theDistanceTieKeepsStartOrderAndFiltersStillApply() throws {
        let (store, runs) = try sixRuns()
        // a and c: the same 3.6 km; a started first.
        let byDistance = try RunList(store, .init(order: .distance)).runs.map(\.id)
        let a = try #require(byDistance.firstIndex(of: runs[0].id))
        let c = try #require(byDistance.firstIndex(of: runs[2].id))
        #expect(c == a + 1)
        let since = runs[2].startedAt
        let later = try RunList(store, .init(since: since, order: .elapsedTime))
        // e 2400 s, the treadmill 1800 s, c 1200 s, d 600 s.
        #expect(later.runs.map(\.id) == [runs[4].id, runs[5].id, runs[2].id, runs[3].id])
    }

    @Test func theTableEndsWithTheTotalsAndAnEmptyListSaysHowToImport() throws {
        let (store, runs) = try sixRuns()
        let text = try RunList(store, .init()).text(unit: .km)
        #expect(text.split(separator: "\n").count == 2 + 6 + 1)
        #expect(text.hasSuffix(RunList.totals(runs, unit: .km)))
        #expect(RunList.totals(runs, unit: .km).hasPrefix("6 runs 22.6"), "\(text)")
        let none = try RunList(store, .init(athleteID: "nobody")).text(unit: .km)
        #expect(none == "No runs match. Import some with: racekit import PATH")
    }
}

@Suite struct RunDetailTests {
    @Test func theDetailOfARunByPrefixHasItsFactsAndSplits() throws {
        let (store, runs) = try sixRuns()
        let run = runs[3]   // 600 s at 4 m/s: 2.4 km, 4:10 /km
        let detail = try RunDetail.load(store, id: String(run.id.prefix(run.id.count - 2)))
        #expect(detail.record.id == run.id)
        let splits = detail.analysis.splits(.km)
        #expect(splits.count == 3 && splits.last?.partial == true)
        let text = try detail.text(splits: splits, unit: .km)
        #expect(text.contains("Distance    2.40 km"), "\(text)")
        #expect(text.contains("Avg pace    4:10 /km"), "\(text)")
        #expect(text.contains("Splits (km)"))
        let json = try detail.json(splits: splits, unit: .mi)
        #expect(json.splitUnit == "mi" && json.splits.count == 3 && json.races.isEmpty)
    }

    /// `runs show` says why a run has no grade-adjusted pace only where the
    /// stored run says so: a track with elevation whose every step was too fast
    /// to be running has no distance moving, not "no elevation".
    @Test func anUnknownGAPSaysItsTrueReason() throws {
        var r = try sixRuns().1[3]
        r.gradeAdjustedPaceSecondsPerKm = nil
        r.ascentMeters = nil
        #expect(RunDetail.unknownGAP(r) == "unknown (no elevation)")
        r.ascentMeters = 12
        #expect(RunDetail.unknownGAP(r) == "unknown")
        r.distanceMeters = 0
        #expect(RunDetail.unknownGAP(r) == "unknown (no distance covered moving)")
        r.distanceMeters = 2400
        r.movingSeconds = nil
        #expect(RunDetail.unknownGAP(r) == "unknown (no distance covered moving)")
    }
}

/// `runs list --format json` writes each run's fields directly
/// (`RunJSON.writeFields`); its `Encodable` conformance is the reference.
@Suite struct RunJSONWriterTests {
    @Test func theDirectWriterGivesTheEncodersText() throws {
        let (_, records) = try sixRuns()
        var full = try #require(records.first)
        full.label = "Race \"A\"\n"
        full.notes = "tab\there, slash / and é"
        full.perceivedEffort = 7
        full.name = nil
        var odd = full
        odd.distanceMeters = 0
        odd.movingSeconds = nil
        let runs = (records + [full, odd]).map { RunView($0).json }
        let direct = try JSONOutput.line(runs)
        var reference = try RaceKitOutput.JSONTextEncoder().encodeBytes(runs)
        reference.append(UInt8(ascii: "\n"))
        #expect(String(decoding: direct, as: UTF8.self) == String(decoding: reference, as: UTF8.self))
        #expect(try JSONOutput.line([RunJSON]()) == Array("[]\n".utf8))
    }
}

/// `TextFormat.localTime` by arithmetic against Foundation's DateFormatter (what it
/// used before): the same text for random instants from 1900 to 2200 and for
/// years 1, 999 and around the Gregorian reform of 1582 (Julian before it) in zones
/// with daylight saving, half-hour and negative offsets, at DST changes, and for
/// instants past year 9999 (the formatter's answer).
@Suite struct LocalTimeTests {
    @Test func arithmeticAnswersAsTheDateFormatter() {
        var rng = SplitMix64(seed: 1_115)
        let zones = [
            "UTC", "Europe/Berlin", "America/New_York", "Asia/Kolkata", "Australia/Adelaide",
            "Pacific/Chatham", "America/St_Johns", "Nope/Unknown"
        ]
        var instants: [Double] = [
            0, -1, 86_399.5, -2_208_988_800, 7_258_118_400, 1_774_745_999, 1_774_746_000,
            1_774_749_600, 1_792_890_000, 253_402_300_799, 253_402_300_800, 1e12, -1e12,
            -62_135_596_800, -30_610_224_000, -12_219_292_800, -12_219_292_801, -12_212_553_600, -11_676_096_000
        ]
        for _ in 0..<800 {
            instants.append(-2_208_988_800 + Double(rng.next() % 9_466_848_000) + Double(rng.next() % 1000) / 1000)
        }
        for zone in zones {
            let tz = TimeZone(identifier: zone) ?? TimeZone(identifier: "UTC")!
            for t in instants {
                #expect(
                    TextFormat.localTime(t, timeZone: zone) == TextFormat.localTimeFormatted(t, timeZone: tz),
                    "\(zone) \(t)")
            }
        }
        #expect(TextFormat.localTime(1_774_746_000, timeZone: "Europe/Berlin") == "2026-03-29 03:00 (Sun)")
    }
}
