import Foundation
import Testing

@testable import RaceKitMetrics
@testable import RaceKitModel
@testable import RaceKitReports

/// A run on a local day, for the pure aggregation tests.
func reportRun(
    day: Int, km: Double, minutes: Double, load: Double?, hr: Double? = 150, label: String? = nil,
    zones: [String: Double] = [:], efforts: [BestEffort] = []
) -> ReportRun {
    ReportRun(
        id: "R\(day)", startedAt: Double(day) * 86_400 + 7 * 3600, day: day, label: label,
        distanceMeters: km * 1000, movingSeconds: minutes * 60, elapsedSeconds: minutes * 60 + 60,
        ascentMeters: 10 * km, avgHeartRate: hr, heartRateCoveragePercent: hr == nil ? nil : 100, load: load,
        zoneSeconds: zones, bestEfforts: efforts)
}

let w46 = ISOWeek("2026-W46")!

@Suite struct ISOWeekTests {
    @Test(arguments: [
        ("2026-01-01", "2026-W01"), ("2027-01-01", "2026-W53"), ("2024-12-30", "2025-W01"),
        ("2021-01-03", "2020-W53"), ("2026-11-15", "2026-W46"), ("2026-11-16", "2026-W47")
    ])
    func numbersWeeksByTheirThursday(date: String, week: String) throws {
        let day = Int(try #require(TimestampParser.parse(date + "T12:00:00Z")).secondsSinceEpoch / 86_400)
        #expect(ISOWeek(containing: day).description == week)
        #expect(ISOWeek(week)?.monday == ISOWeek(containing: day).monday)
    }

    @Test func rejectsWeeksThatDoNotExist() {
        #expect(ISOWeek("2026-W53") != nil)   // 2026 starts on a Thursday: 53 weeks
        #expect(ISOWeek("2025-W53") == nil)
        #expect(ISOWeek("2026-W00") == nil)
        #expect(ISOWeek("2026-46") == nil)
        #expect(ISOWeek("last week") == nil)
    }

    @Test func aLateSundayRunBelongsToThatSundaysWeekInTheAthletesZone() throws {
        // Sunday 2026-11-15 23:30 in Berlin (UTC+1) is 22:30 UTC; in Los Angeles (UTC-8) it is Monday 07:30 UTC.
        let berlin = LocalCalendar(identifier: "Europe/Berlin")
        let la = LocalCalendar(identifier: "America/Los_Angeles")
        let sundayBerlin = try #require(TimestampParser.parse("2026-11-15T22:30:00Z")).secondsSinceEpoch
        let sundayLA = try #require(TimestampParser.parse("2026-11-16T07:30:00Z")).secondsSinceEpoch
        #expect(ISOWeek(containing: berlin.day(of: sundayBerlin)) == w46)
        #expect(ISOWeek(containing: la.day(of: sundayLA)) == w46)
        // Monday 00:30 in Berlin is still Sunday in UTC, but next week locally.
        let mondayBerlin = try #require(TimestampParser.parse("2026-11-15T23:30:00Z")).secondsSinceEpoch
        #expect(ISOWeek(containing: berlin.day(of: mondayBerlin)) == w46.adding(weeks: 1))
    }

    @Test func daylightSavingChangesKeepLocalDays() throws {
        // Berlin springs forward on 2026-03-29 at 01:00 UTC (02:00 -> 03:00 local).
        let berlin = LocalCalendar(identifier: "Europe/Berlin")
        let before = try #require(TimestampParser.parse("2026-03-28T22:30:00Z")).secondsSinceEpoch   // Sat 23:30 CET
        let after = try #require(TimestampParser.parse("2026-03-29T21:30:00Z")).secondsSinceEpoch   // Sun 23:30 CEST
        #expect(berlin.day(of: after) - berlin.day(of: before) == 1)
        #expect(ISOWeekTests.weekday(berlin.day(of: after)) == 6)
    }

    static func weekday(_ day: Int) -> Int { ISOWeek.weekday(day) }
}

@Suite struct LoadModelTests {
    @Test func fitnessFatigueAndFormMatchHandComputation() {
        // 100 on day 0, rest after. k = 1 - e^(-1/tau).
        let days = LoadModel.days(loads: [0: 100], first: 0, last: 2)
        let kFit = 1 - exp(-1.0 / 42), kFat = 1 - exp(-1.0 / 7)
        #expect(abs(days[0].fitness - 100 * kFit) < 1e-12)   // 2.3528...
        #expect(abs(days[0].fatigue - 100 * kFat) < 1e-12)   // 13.3122...
        #expect(days[0].form == 0)   // yesterday: nothing yet
        #expect(abs(days[1].fitness - 100 * kFit * (1 - kFit)) < 1e-12)
        #expect(abs(days[1].form - (100 * kFit - 100 * kFat)) < 1e-12)   // yesterday's fitness - fatigue
        #expect(abs(days[0].fitness - 2.35283) < 1e-5 && abs(days[0].fatigue - 13.31221) < 1e-5)
    }

    @Test func aConstantLoadConvergesToThatLoad() {
        let loads = Dictionary(uniqueKeysWithValues: (0..<1000).map { ($0, 50.0) })
        let last = LoadModel.days(loads: loads, first: 0, last: 999).last!
        #expect(abs(last.fitness - 50) < 1e-6 && abs(last.fatigue - 50) < 1e-6 && abs(last.form) < 1e-6)
    }
}

@Suite struct WeeklyAggregatorTests {
    @Test func emptyWeeksAreRowsOfZerosNotGaps() {
        let monday = w46.monday
        let weeks = WeeklyAggregator.weeks(
            athleteID: "a", athleteName: "A", timeZone: "UTC", zoneNames: ["1", "2"],
            runs: [
                reportRun(day: monday - 21, km: 10, minutes: 50, load: 60),
                reportRun(day: monday + 2, km: 8, minutes: 40, load: 50)
            ],
            through: w46, count: 4)
        #expect(weeks.rows.map(\.week.description) == ["2026-W43", "2026-W44", "2026-W45", "2026-W46"])
        #expect(weeks.rows.map(\.runs) == [1, 0, 0, 1])
        #expect(weeks.rows[1].distanceKm == 0 && weeks.rows[1].load == 0 && weeks.rows[1].avgHeartRate == nil)
        #expect(weeks.rows[2].distanceChangePercent == nil)   // from 0: undefined, not infinite
    }

    @Test func sumsAveragesAndRatiosMatchHandComputation() throws {
        let m = w46.monday
        let runs = [
            reportRun(day: m - 7, km: 20, minutes: 100, load: 100),
            reportRun(day: m, km: 10, minutes: 50, load: 60, zones: ["1": 600, "2": 2400]),
            reportRun(day: m + 2, km: 5, minutes: 30, load: nil, hr: nil),
            reportRun(day: m + 6, km: 15, minutes: 80, load: 90, hr: 160, zones: ["2": 4800])
        ]
        let weeks = WeeklyAggregator.weeks(
            athleteID: "a", athleteName: "A", timeZone: "UTC", zoneNames: ["1", "2"],
            runs: runs, through: w46, count: 2)
        let r = try #require(weeks.rows.last)
        #expect(r.runs == 3 && abs(r.distanceKm - 30) < 1e-9)
        #expect(r.movingSeconds == 160 * 60 && r.elapsedSeconds == 163 * 60)
        #expect(abs(r.longestRunKm - 15) < 1e-9)
        #expect(abs(r.avgPaceSecondsPerKm! - 160 * 60 / 30) < 1e-9)
        // HR weighted by moving time over runs with HR: (150*50 + 160*80) / 130.
        #expect(abs(r.avgHeartRate! - (150.0 * 50 + 160 * 80) / 130) < 1e-9)
        // HR covers 51 + 81 of 163 elapsed minutes.
        #expect(abs(r.heartRateCoveragePercent! - 132.0 / 163 * 100) < 1e-9)
        #expect(r.load == 150 && r.runsWithoutLoad == 1)
        #expect(r.zoneSeconds == [600, 7200])
        #expect(abs(r.distanceChangePercent! - 50) < 1e-9 && abs(r.loadChangePercent! - 50) < 1e-9)
        // Daily loads Mon..Sun: 60,0,0,0,0,0,90: mean 150/7, sd by hand.
        let daily = [60.0, 0, 0, 0, 0, 0, 90]
        let mean = 150.0 / 7
        let sd = (daily.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / 7).squareRoot()
        #expect(abs(r.monotony! - mean / sd) < 1e-9)
        #expect(abs(r.strain! - 150 * mean / sd) < 1e-9)
        // ACWR: none with 14 days of history (the chronic window is 28 days).
        #expect(r.historyDays == 14)
        #expect(r.acwr == nil)
        // Fitness at Sunday from the daily series.
        let series = LoadModel.days(loads: [m - 7: 100, m: 60, m + 6: 90], first: m - 7, last: m + 6)
        #expect(abs(r.fitnessEnd - series.last!.fitness) < 1e-9 && abs(r.formEnd - series.last!.form) < 1e-9)
        #expect(abs(r.ramp7d - (series.last!.fitness - series[6].fitness)) < 1e-9)
        #expect(r.fitnessWarmup)
    }

    @Test func athletesWithoutHeartRateGetEmptyHeartRateColumns() throws {
        let m = w46.monday
        let weeks = WeeklyAggregator.weeks(
            athleteID: "a", athleteName: "A", timeZone: "UTC", zoneNames: ["1", "2", "3"],
            runs: [reportRun(day: m, km: 10, minutes: 50, load: nil, hr: nil)],
            through: w46, count: 1)
        let csv = WeeklyCSV.render(weeks)
        let row = csv.split(separator: "\r\n")[1].split(separator: ",", omittingEmptySubsequences: false).map(
            String.init)
        let header = WeeklyCSV.header(zoneNames: weeks.zoneNames)
        func col(_ name: String) -> String { row[header.firstIndex(of: name)!] }
        #expect(col("avg_hr_bpm") == "" && col("hr_coverage_pct") == "")
        #expect(col("load") == "0.0" && col("runs_without_load") == "1")
        #expect(col("hr_zone_1_s") == "0" && col("monotony") == "")
        let md = WeeklyMarkdown.render(weeks, chartFile: "x.svg")
        #expect(md.contains("no heart rate"))
        #expect(md.contains("1 runs have no load"))
    }

    @Test func warnsAboutRampsLongRunsAndMissingHeartRate() {
        let m = w46.monday
        var runs: [ReportRun] = []
        for (k, km) in [20.0, 23, 26, 30].enumerated() {   // +15%, +13%, +15%
            let day = m - 7 * (3 - k)
            runs.append(reportRun(day: day, km: km * 0.55, minutes: 100, load: 80, hr: nil))
            runs.append(reportRun(day: day + 2, km: km * 0.45, minutes: 80, load: 70, hr: nil))
        }
        let weeks = WeeklyAggregator.weeks(
            athleteID: "a", athleteName: "A", timeZone: "UTC", zoneNames: ["1"],
            runs: runs, through: w46, count: 4)
        let warnings = WeeklyMarkdown.warnings(weeks.rows, runs: weeks.runsByWeek[w46] ?? [])
        #expect(warnings.contains { $0.hasPrefix("Distance up more than 10%") && $0.contains("3 weeks") })
        #expect(warnings.contains { $0.hasPrefix("The long run is 55%") })
        #expect(warnings.contains { $0.hasPrefix("2 of 2 runs have no heart rate") })
    }

    /// "Acute:chronic load ratio 4.00 ... a sharp rise in load" in an athlete's
    /// first week: there is no chronic load yet.
    @Test func theLoadRatioWaitsForTwentyEightDaysOfHistory() throws {
        let m = w46.monday
        let first = WeeklyAggregator.weeks(
            athleteID: "a", athleteName: "A", timeZone: "UTC", zoneNames: ["1"],
            runs: [
                reportRun(day: m, km: 10, minutes: 50, load: 60), reportRun(day: m + 3, km: 12, minutes: 60, load: 80)
            ],
            through: w46, count: 1)
        let week = try #require(first.rows.last)
        #expect(week.acwr == nil && week.historyDays == 7)
        #expect(
            !WeeklyMarkdown.warnings(first.rows, runs: first.runsByWeek[w46] ?? []).contains { $0.contains("Acute") })
        #expect(
            WeeklyMarkdown.render(first, chartFile: "x.svg").contains(
                "| Acute:chronic load | not enough history (7 of 28 days) |"))
        // From the 28th day on: last 7 days over the last 28, by hand.
        let runs = [
            reportRun(day: m - 21, km: 10, minutes: 50, load: 100),
            reportRun(day: m + 6, km: 10, minutes: 50, load: 300)
        ]
        let later = WeeklyAggregator.weeks(
            athleteID: "a", athleteName: "A", timeZone: "UTC", zoneNames: ["1"], runs: runs, through: w46, count: 1)
        let row = try #require(later.rows.last)
        #expect(row.historyDays == 28)
        let acwr = try #require(row.acwr)
        let expected: Double = (300.0 / 7) / (400.0 / 28)
        #expect(abs(acwr - expected) < 1e-9)
        #expect(
            WeeklyMarkdown.warnings(later.rows, runs: later.runsByWeek[w46] ?? []).contains {
                $0.hasPrefix("Acute:chronic load ratio 3.00 is above 1.5")
            })
    }

    /// "The long run is 46% of the week's distance" in race week: the race is not a long run.
    @Test func theRaceIsNotALongRun() throws {
        let m = w46.monday
        var race = reportRun(day: m + 6, km: 21.1, minutes: 95, load: 200)
        race.mode = .race
        let runs = [
            reportRun(day: m, km: 8, minutes: 45, load: 50), reportRun(day: m + 2, km: 10, minutes: 55, load: 60), race
        ]
        let weeks = WeeklyAggregator.weeks(
            athleteID: "a", athleteName: "A", timeZone: "UTC", zoneNames: ["1"], runs: runs, through: w46, count: 1)
        let row = try #require(weeks.rows.last)
        #expect(abs(row.longestRunKm - 21.1) < 1e-9 && abs(row.longestTrainingRunKm - 10) < 1e-9)
        let warnings = WeeklyMarkdown.warnings(weeks.rows, runs: weeks.runsByWeek[w46] ?? [])
        #expect(!warnings.contains { $0.hasPrefix("The long run is") }, "\(warnings)")
        // The same week with the race as a training run warns (21.1 of 39.1 km: 54%).
        var training = runs
        training[2].mode = .free
        let plain = WeeklyAggregator.weeks(
            athleteID: "a", athleteName: "A", timeZone: "UTC", zoneNames: ["1"], runs: training, through: w46, count: 1)
        #expect(
            WeeklyMarkdown.warnings(plain.rows, runs: plain.runsByWeek[w46] ?? []).contains {
                $0.hasPrefix("The long run is 54%")
            })
    }

    @Test func sparklinesScaleBetweenMinimumAndMaximum() {
        #expect(WeeklyMarkdown.sparkline([0, 1, 2, 3, 4, 5, 6, 7]) == "▁▂▃▄▅▆▇█")
        #expect(WeeklyMarkdown.sparkline([0, 0]) == "▁▁")
    }

    /// A trend is drawn from the numbers printed beside it: a fitness decaying
    /// from 0.4 to 0.01, printed as twelve zeros, is a flat line, not a decline.
    @Test func aTrendPrintedAsZerosIsFlat() throws {
        let runs = [reportRun(day: w46.monday - 77, km: 1, minutes: 10, load: 1)]
        let weeks = WeeklyAggregator.weeks(
            athleteID: "a", athleteName: "A", timeZone: "UTC", zoneNames: ["1"], runs: runs, through: w46, count: 12)
        let md = WeeklyMarkdown.render(weeks, chartFile: "c.svg")
        let fitness = try #require(md.split(separator: "\n").first { $0.hasPrefix("| fitness |") })
        #expect(fitness.contains("0 0 0 0 0 0 0 0 0 0 0 0") && fitness.contains("▁▁▁▁▁▁▁▁▁▁▁▁"), "\(fitness)")
    }

    /// Gridline labels say their values: an empty chart's are whole, a quarter is 1.25, never 1.3.
    @Test func chartTicksAreExact() throws {
        #expect(WeeklyChart.tick(1.25) == "1.25" && WeeklyChart.tick(12.5) == "12.5" && WeeklyChart.tick(3) == "3")
        let empty = WeeklyAggregator.weeks(
            athleteID: "a", athleteName: "A", timeZone: "UTC", zoneNames: ["1"], runs: [], through: w46, count: 4)
        let svg = WeeklyChart.render(empty)
        #expect(!svg.contains(">0.3<") && !svg.contains(">0.8<") && svg.contains(">4<"), "\(svg.prefix(600))")
    }
}
