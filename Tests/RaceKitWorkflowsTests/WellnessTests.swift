import Foundation
import RaceKitTestSupport
import Testing

@testable import RaceKitFormats
@testable import RaceKitImport
@testable import RaceKitMetrics
@testable import RaceKitModel
@testable import RaceKitOutput
@testable import RaceKitReports
@testable import RaceKitSQLite
@testable import RaceKitStore
@testable import RaceKitWorkflows

/// Issue 39's acceptance on a made-up export of 100 nights (`WellnessExport`):
/// the import, one night one truth, and a band that flags the illness week
/// without crying wolf.
@Suite struct WellnessTests {
    static func imported(_ export: WellnessExport) throws -> (SQLiteStore, [FileResult]) {
        let store = try RunStore()
        var athlete = try store.athlete(id: Athlete.defaultID)!
        athlete.timeZone = export.timeZone
        try store.updateAthlete(athlete)
        let results = Importer(store: store, options: ImportOptions()).importHealthExport(
            MemoryByteStream(name: "export.xml", bytes: Array(export.xml.utf8)), routes: { _ in nil })
        return (store, results.results)
    }

    @Test func everyNightIsToldOnceByItsBestSourceAndItsHRVIsTheSleepsReadings() throws {
        let export = WellnessExport()
        let (store, results) = try Self.imported(export)
        #expect(results.map(\.status) == [.imported])
        let days = Dictionary(
            try WellnessJobs.days(store, athleteID: Athlete.defaultID).map {
                (LocalCalendar.dateString($0.day.day), $0)
            },
            uniquingKeysWith: { a, _ in a })
        var sleepRight = 0, hrvRight = 0, hrvNights = 0
        for night in export.nights {
            let day = try #require(days[night.date], "no day \(night.date)")
            if let s = day.day.sleepSeconds, abs(s - night.sleepSeconds) <= 300 { sleepRight += 1 }
            #expect(day.day.restingHeartRate == night.restingHeartRate, "\(night.date): the watch's resting HR")
            if let truth = night.hrvMs {
                hrvNights += 1
                if let v = day.day.hrvMs, abs(v - truth) <= 0.03 * truth { hrvRight += 1 }
            } else {
                #expect(day.day.hrvMs == nil, "\(night.date): only daytime readings, no night HRV")
            }
        }
        #expect(days.count == export.nights.count)
        #expect(Double(sleepRight) >= 0.95 * Double(export.nights.count), "sleep right on \(sleepRight) nights")
        #expect(Double(hrvRight) >= 0.95 * Double(hrvNights), "HRV right on \(hrvRight) of \(hrvNights) nights")
        // The nights told in the old value, by the app alone, and around the DST change.
        #expect(days["2026-01-09"]?.day.sleepBasis == .asleep)
        #expect(days["2026-01-13"]?.day.sleepSource == "AutoSleep")
        #expect(days["2026-01-07"]?.day.sleepSource == "Ben's Apple Watch")
        #expect(days["2026-01-07"]?.day.sleepBasis == .stages)
        #expect(days["2026-03-29"]?.day.sleepSeconds != nil && days["2026-03-30"]?.day.sleepSeconds != nil)
    }

    @Test(arguments: [39, 7, 2026] as [UInt64])
    func theBandFlagsTheIllnessWeekAndLeavesNormalDaysGreen(seed: UInt64) throws {
        let export = WellnessExport(seed: seed)
        let (store, _) = try Self.imported(export)
        let days = try WellnessJobs.days(store, athleteID: Athlete.defaultID)
        #expect(days.count == 100)
        let bands = days.map(\.readiness.band)
        #expect(bands.prefix(7).allSatisfy { $0 == .insufficient }, "the first week: \(bands.prefix(7))")
        let ill = export.illness.map { bands[$0] }
        #expect(ill.filter { $0 == .amber || $0 == .red }.count >= 5, "illness week: \(ill)")
        // Normal days: after the first week, outside the illness week and the two days after it.
        let normal = (7..<100).filter { $0 < export.illness.lowerBound || $0 >= export.illness.upperBound + 2 }
        let green = normal.filter { bands[$0] == .green }.count
        #expect(Double(green) >= 0.9 * Double(normal.count), "\(green) of \(normal.count) normal days green")
        // The reasons name the measure and its numbers.
        let flagged = days[export.illness.lowerBound + 2].readiness
        #expect(flagged.reasons.contains { $0.hasPrefix("HRV 2-day ") && $0.contains("below its 60-day mean") })
        #expect(flagged.reasons.contains { $0.hasPrefix("resting HR 2-day ") && $0.contains("above its 60-day mean") })
        #expect(
            days[0].readiness.reasons == [
                "a band needs 7 days of HRV or resting heart rate in the 60 before; there are 0"
            ])
    }

    @Test func aSecondImportOfTheSameExportChangesNothing() throws {
        let export = WellnessExport(nights: 20)
        let (store, _) = try Self.imported(export)
        let before = try store.allMeasurements()
        let again = Importer(store: store, options: ImportOptions()).importHealthExport(
            MemoryByteStream(name: "export.xml", bytes: Array(export.xml.utf8)), routes: { _ in nil })
        #expect(again.results.map(\.status) == [.duplicate])
        #expect(try store.allMeasurements() == before)
    }

    @Test func impossibleValuesAreLeftOutAndCountedAndUnknownSleepValuesNamed() throws {
        let xml = """
            <HealthData>
             <Record type="HKQuantityTypeIdentifierHeartRateVariabilitySDNN" sourceName="W" unit="ms" startDate="2026-01-01 02:00:00 +0000" endDate="2026-01-01 02:01:00 +0000" value="0"/>
             <Record type="HKQuantityTypeIdentifierHeartRateVariabilitySDNN" sourceName="W" unit="ms" startDate="2026-01-01 02:00:00 +0000" endDate="2026-01-01 02:01:00 +0000" value="301"/>
             <Record type="HKQuantityTypeIdentifierRestingHeartRate" sourceName="W" unit="count/min" startDate="2026-01-01 02:00:00 +0000" endDate="2026-01-01 02:01:00 +0000" value="24"/>
             <Record type="HKQuantityTypeIdentifierRestingHeartRate" sourceName="W" unit="count/min" startDate="2026-01-01 02:00:00 +0000" endDate="2026-01-01 02:01:00 +0000" value="nan"/>
             <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="W" startDate="2026-01-01 02:00:00 +0000" endDate="2026-01-01 01:00:00 +0000" value="HKCategoryValueSleepAnalysisAsleepCore"/>
             <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="W" startDate="2026-01-01 02:00:00 +0000" endDate="2026-01-02 02:00:00 +0000" value="HKCategoryValueSleepAnalysisInBed"/>
             <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="W" startDate="2026-01-01 02:00:00 +0000" endDate="2026-01-01 03:00:00 +0000" value="HKCategoryValueSleepAnalysisNapping"/>
             <Record type="HKQuantityTypeIdentifierRestingHeartRate" sourceName="W" unit="count/min" startDate="2026-01-01 02:00:00 +0000" endDate="2026-01-01 02:01:00 +0000" value="48"/>
             <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="W" startDate="2026-01-01 02:00:00 +0000" endDate="2026-01-01 02:00:00 +0000" value="HKCategoryValueSleepAnalysisAsleepCore"/>
             <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="W" startDate="2026-01-01 02:00:00 +0000" value="HKCategoryValueSleepAnalysisAsleepCore"/>
             <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="" startDate="2026-01-01 01:00:00 +0000" endDate="2026-01-01 02:00:00 +0000" value="HKCategoryValueSleepAnalysisAsleepDeep"/>
             <Record type="HKQuantityTypeIdentifierRestingHeartRate" sourceName="Sleep &amp; Recovery" unit="count/min" startDate="2026-01-02 02:00:00 +0000" value="50"/>
            </HealthData>
            """
        let export = try AppleHealthReader.read(MemoryByteStream(name: "export.xml", bytes: Array(xml.utf8)))
        #expect(export.wellnessCount == 3)
        #expect(export.issues.badWellness == 4)
        // End before start, 24 h, and a span of no length; a span without its end is a bad date.
        #expect(export.issues.badSleepSpan == 3)
        #expect(export.issues.badDate == 1)
        let kept = export.measurements(athleteID: "a", sourceFile: "export.xml", importedAt: 0)
        #expect(kept.map(\.source) == ["W", "unknown source", "Sleep & Recovery"])
        #expect(kept.allSatisfy { $0.problem == nil })
        #expect(export.issues.unknownSleepValues == ["HKCategoryValueSleepAnalysisNapping": 1])
        #expect(export.issues.descriptions.contains { $0.contains("\"HKCategoryValueSleepAnalysisNapping\" (1)") })
    }

    /// A device that calls itself "manual" is not what was entered by hand: its
    /// readings are kept beside a `wellness add` of the same day, as "manual (imported)".
    @Test func anImportedSourceNamedManualIsNotTheHandEntered() throws {
        let xml = """
            <HealthData>
             <Record type="HKQuantityTypeIdentifierRestingHeartRate" sourceName="Manual" unit="count/min" startDate="2026-11-30 06:00:00 +0000" value="50"/>
             <Record type="HKQuantityTypeIdentifierRestingHeartRate" sourceName="manual" unit="count/min" startDate="2026-11-30 06:00:00 +0000" value="51"/>
            </HealthData>
            """
        let store = try RunStore()
        _ = Importer(store: store, options: ImportOptions()).importHealthExport(
            MemoryByteStream(name: "export.xml", bytes: Array(xml.utf8)), routes: { _ in nil })
        let day = LocalCalendar.day(parsing: "2026-11-30")!
        let start = LocalCalendar(identifier: "UTC").instant(day: day, seconds: 0)
        _ = try WellnessJobs.add(
            store, athleteID: Athlete.defaultID, day: day, hrvMs: nil, restingHeartRate: 47, sleepSeconds: nil,
            bodyMassKg: nil)
        let stored = try store.measurements(
            athleteID: Athlete.defaultID, kind: "resting_hr", from: start, until: start + 86_400)
        #expect(
            Set(stored.map { "\($0.source) \(Int($0.value))" })
                == ["Manual (imported) 50", "manual (imported) 51", "manual 47"], "\(stored)")
        #expect(DailyMeasurement.importedSource("Oura") == "Oura")
    }

    @Test func aDayEnteredByHandIsReplacedByASecondEntry() throws {
        let store = try RunStore()
        #expect(
            WellnessEntry(date: "2026-11-30", hrvMs: 0.001, restingHeartRate: nil, sleep: nil, bodyMassKg: nil).problem
                == "--hrv: 0.001 is out of range (0.01 to 300 ms)")
        #expect(
            WellnessEntry(date: "2026-02-30", hrvMs: 50, restingHeartRate: nil, sleep: nil, bodyMassKg: nil).problem
                == "<date>: '2026-02-30' is not a date (YYYY-MM-DD)")
        for bad in ["25:00", "7:5", "99999999999999999999:00", "-1:00", "7:60", "٧:30"] {
            #expect(WellnessEntry.sleepSeconds(bad) == nil, "\(bad)")
        }
        #expect(WellnessEntry.sleepSeconds("20:00") == 72_000 && WellnessEntry.sleepSeconds("0:00") == 0)
        let day = LocalCalendar.day(parsing: "2026-11-30")!
        _ = try WellnessJobs.add(
            store, athleteID: Athlete.defaultID, day: day, hrvMs: 60, restingHeartRate: 48, sleepSeconds: 7 * 3600,
            bodyMassKg: nil)
        _ = try WellnessJobs.add(
            store, athleteID: Athlete.defaultID, day: day, hrvMs: 64, restingHeartRate: nil, sleepSeconds: 6.5 * 3600,
            bodyMassKg: nil)
        let rows = try WellnessJobs.rows(store, athleteID: Athlete.defaultID)
        #expect(rows.count == 1)
        #expect(rows[0].date == "2026-11-30")
        #expect(rows[0].hrvMs == 64 && rows[0].hrvMeasure == "rmssd")
        #expect(rows[0].restingHeartRate == 48)
        #expect(rows[0].sleepMinutes == 390)
    }

    @Test func theWeeklyReportSaysTheIllnessWeek() throws {
        let export = WellnessExport()
        let (store, _) = try Self.imported(export)
        var options = WeeklyReportJob.Options()
        // The illness week: nights 70-76 wake up 2026-03-17 to 2026-03-23, ISO week 2026-W12.
        options.through = .week(ISOWeek("2026-W12")!)
        options.weeks = 4
        let weeks = try WeeklyReportJob(store: store, options: options).weeks(
            for: try store.athlete(id: Athlete.defaultID)!)
        let last = try #require(weeks.rows.last?.wellness)
        #expect(last.amber + last.red >= 5)
        #expect(try #require(weeks.rows.first?.wellness).green >= 6)
        let csv = WeeklyCSV.render(weeks).split(separator: "\r\n")
        #expect(csv[0].hasSuffix(WeeklyWellness.csvHeader.joined(separator: ",")))
        #expect(csv.last!.hasSuffix(",\(last.green),\(last.amber),\(last.red)"))
        let md = WeeklyMarkdown.render(weeks, chartFile: "x.svg")
        #expect(md.contains("## Wellness"))
        #expect(md.contains("Readiness: \(last.green) green, \(last.amber) amber, \(last.red) red."))
        #expect(md.contains("| 2026-03-19 | 🔴 red |"))
        #expect(md.contains("resting HR 2-day"))
    }

    /// A run on `day` (days after 2026-01-05 00:00 UTC) with a training load of `load`.
    static func loaded(_ day: Int, _ load: Double) -> NewRun {
        var raw = RawActivity()
        raw.sport = "running"
        for i in 0..<3 {
            var p = SamplePoint()
            p.time = 1_767_571_200 + Double(day) * 86_400 + 7 * 3600 + Double(i) * 10
            p.distance = Double(i) * 40
            raw.samples.append(p)
        }
        raw.segmentStarts = [0]
        guard case .activity(let a) = TrackRepair.repair(raw, format: .tcx) else { fatalError("repairs") }
        var analysis = RunAnalyzer.analyse(a, physiology: Physiology())
        analysis.load = TrainingLoad(value: load, source: .pace, estimated: [])
        analysis.metrics = analysis.metrics.registry.compute(analysis.context)
        return NewRun(activity: a, analysis: analysis, activityIndex: 0)
    }

    @Test func aRacePlanInRaceWeekWarnsOfAnAmberOrRedDayAndOfFormFarFromRested() throws {
        let export = WellnessExport()
        let (store, _) = try Self.imported(export)
        // Twenty weeks of 50 a day (fitness warmed up), then a crushing last week of 160 a day (the illness week's).
        for day in -70..<77 {
            _ = try store.insert(
                [Self.loaded(day, day >= 70 ? 160 : 50)], athleteID: Athlete.defaultID, sourceFile: "d\(day).tcx",
                format: .tcx, sha256: "d\(day)", allowDuplicates: false, importedAt: 1)
        }
        let berlin = LocalCalendar(identifier: export.timeZone)
        let now = berlin.instant(day: LocalCalendar.day(parsing: "2026-03-20")!, seconds: 12 * 3600)
        let warnings = try RaceWeekCheck.warnings(
            store, athleteID: Athlete.defaultID, raceDate: "2026-03-22", now: now)
        #expect(warnings.count == 2, "\(warnings)")
        #expect(warnings.first?.hasPrefix("readiness red on 2026-03-20, 2 days before the race: HRV 2-day") == true)
        #expect(
            warnings.last?.hasPrefix("form -") == true && warnings.last?.contains("far below the +5 to +25") == true)
        // Outside race week, nothing; a green week before, neither readiness nor form.
        #expect(
            try RaceWeekCheck.warnings(store, athleteID: Athlete.defaultID, raceDate: "2026-03-29", now: now).isEmpty)
        let earlier = berlin.instant(day: LocalCalendar.day(parsing: "2026-03-05")!, seconds: 12 * 3600)
        #expect(
            try RaceWeekCheck.warnings(store, athleteID: Athlete.defaultID, raceDate: "2026-03-08", now: earlier)
                .isEmpty)
    }

    @Test func theHRVAppsCSVExportsAreReadInTheAthletesTimeZone() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rk-hrv-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let hrv4t = dir.appendingPathComponent("hrv4training.csv")
        try """
        date,time,HR,AVNN,SDNN,rMSSD,pNN50,HRV4T_Recovery_Points
        2026-03-28,07:05,48,1250,70,62.5,40,7.9
        2026-03-29,07:02,49,1224,66,58.1,38,7.5
        2026-03-30,06:58,47,1276,71,-3,41,8.1
        2026-03-31,,,,,,,
        """.write(to: hrv4t, atomically: false, encoding: .utf8)
        let elite = dir.appendingPathComponent("elite.csv")
        try
            "Date Time Start,Reading Type,Position,HR,RMSSD,ln(RMSSD)\r\n2026-03-30 07:10:00,Morning Readiness,Sitting,50,55.0,4.0\r\n"
            .write(to: elite, atomically: false, encoding: .utf8)
        let other = dir.appendingPathComponent("activities.csv")
        try "Activity ID,Activity Date\n1,2026-03-30\n".write(to: other, atomically: false, encoding: .utf8)

        let store = try RunStore()
        var athlete = try store.athlete(id: Athlete.defaultID)!
        athlete.timeZone = "Europe/Berlin"
        try store.updateAthlete(athlete)
        let importer = Importer(store: store, options: ImportOptions())
        let results = try importer.run(files: [hrv4t.path, elite.path, other.path])
        #expect(results.map(\.status) == [.imported, .imported, .skipped], "\(results)")
        #expect(results[0].reason?.contains("2 HRV4Training readings") == true, "\(results[0].reason ?? "")")
        #expect(
            results[0].reason?.contains(
                "2 rows left out (line 4: rMSSD \"-3\" is not 0.01 to 300 ms; line 5: rMSSD \"\" is not 0.01 to 300 ms)"
            )
                == true, "\(results[0].reason ?? "")")
        #expect(results[2].reason?.contains("not an HRV app export") == true)
        let rows = try store.measurements(athleteID: Athlete.defaultID, kind: nil, from: nil, until: nil)
        #expect(rows.count == 6)
        // 07:02 in Berlin on the day DST starts is 05:02 UTC.
        let dst = try #require(rows.first { $0.kind == "hrv_rmssd" && $0.value == 58.1 })
        #expect(dst.start == TimestampParser.parse("2026-03-29T05:02:00Z")!.secondsSinceEpoch)
        #expect(dst.source == "HRV4Training")
        #expect(rows.contains { $0.source == "Elite HRV" && $0.kind == "resting_hr" && $0.value == 50 })
        var reread = ImportOptions()
        reread.allowDuplicates = true   // read again, not skipped by its import stamp
        let again = try Importer(store: store, options: reread).run(files: [hrv4t.path])
        #expect(again.map(\.status) == [.duplicate])
        let days = try WellnessJobs.rows(store, athleteID: Athlete.defaultID)
        #expect(days.map(\.hrvMeasure) == ["rmssd", "rmssd", "rmssd"])
    }

    static func order(_ text: String) -> ProfileChange {
        ProfileChange(
            name: nil, maxHr: nil, restingHr: nil, thresholdHr: nil, thresholdPace: nil, sex: nil, timeZone: nil,
            zoneModel: nil, sourceOrder: text)
    }

    /// The athlete's source order tells a value where sources disagree; `athlete
    /// set` spells the names as stored and says which it has no data from.
    @Test func theAthletesSourceOrderTellsTheDaysValue() throws {
        let export = WellnessExport(nights: 30)
        let (store, _) = try Self.imported(export)
        func day(_ n: Int) throws -> WellnessDay {
            let d = LocalCalendar.day(parsing: export.nights[n].date)!
            return try #require(try WellnessJobs.days(store, athleteID: Athlete.defaultID, from: d, until: d).first).day
        }
        // Oura tells resting HR every third day, 4 bpm below the watch, which has more records.
        #expect(try day(3).restingHeartRate == export.nights[3].restingHeartRate)
        var said: [String] = [], noted: [String] = []
        try AthleteJobs.update(
            store, id: Athlete.defaultID, change: Self.order(" oura ,Whoop,").apply, recompute: false,
            say: { said.append($0) }, note: { noted.append($0) })
        #expect(try store.athlete(id: Athlete.defaultID)?.sourceOrder == ["Oura", "Whoop"])
        #expect(
            said == [
                "Updated athlete default.",
                "Wellness sources in order: Oura, Whoop; then the one with the most records."
            ])
        #expect(noted.count == 1)
        #expect(
            noted.first?.hasPrefix("note: no wellness data from 'Whoop' yet; the sources stored: Ben's Apple Watch (")
                == true, "\(noted)")
        #expect(try day(3).restingHeartRate == export.nights[3].restingHeartRate - 4)
        #expect(try day(4).restingHeartRate == export.nights[4].restingHeartRate, "no Oura reading: the watch's")
        // The weekly report reads the same order.
        let text = try AthleteProfile(store, id: Athlete.defaultID).text()
        #expect(
            text.contains("Sources         Oura, Whoop, then the one with the most records of each kind"), "\(text)")
        said = []
        try AthleteJobs.update(
            store, id: Athlete.defaultID, change: Self.order("").apply, recompute: false, say: { said.append($0) },
            note: { noted.append($0) })
        #expect(try store.athlete(id: Athlete.defaultID)?.sourceOrder == nil)
        #expect(said.last == "Wellness sources: the one with the most records tells each value.")
        #expect(try day(3).restingHeartRate == export.nights[3].restingHeartRate)
    }

    @Test func aSourceOrderOfBadNamesIsRefused() {
        #expect(Self.order("A, b ,a").problem == "--source-order: 'a' is named twice")
        #expect(Self.order("Oura\u{7}").problem == "--source-order: 'Oura\\u{07}' holds a control character")
        #expect(Self.order((0...20).map { "s\($0)" }.joined(separator: ",")).problem?.contains("21 sources") == true)
        #expect(Self.order(String(repeating: "x", count: 1001)).problem?.contains("1001 characters") == true)
        #expect(Self.order("Oura, manual").problem == nil && Self.order("").problem == nil)
    }

    /// `wellness add` says when what was entered is not what the day shows,
    /// and why; with `manual` first in the order, the entry tells the day.
    @Test func wellnessAddSaysWhatTheDayDoesNotShow() throws {
        let export = WellnessExport(nights: 30)
        let (store, _) = try Self.imported(export)
        func entry(_ n: Int, hrv: Double? = nil, rhr: Double? = nil, sleep: String? = nil) -> WellnessEntry {
            WellnessEntry(date: export.nights[n].date, hrvMs: hrv, restingHeartRate: rhr, sleep: sleep, bodyMassKg: nil)
        }
        // Night 7: the watch was not worn, AutoSleep told the night.
        var (stored, notes) = try WellnessJobs.add(store, athleteID: Athlete.defaultID, entry(7, sleep: "6:00"))
        #expect(stored == 1)
        #expect(notes.count == 1)
        #expect(
            notes.first?.hasPrefix("sleep 6 h 00 min is stored, but the night is told by AutoSleep (") == true,
            "\(notes)")
        #expect(
            notes.first?.hasSuffix("`racekit athlete set default --source-order \"manual\"` puts what you enter first")
                == true)
        (_, notes) = try WellnessJobs.add(store, athleteID: Athlete.defaultID, entry(4, hrv: 70, rhr: 60))
        #expect(notes.count == 2, "\(notes)")
        #expect(
            notes.first?.contains("HRV 70 ms (RMSSD) is stored, but this athlete's days use the watch's SDNN") == true)
        #expect(
            notes.last?.hasPrefix(
                "resting HR 60 bpm is stored, but the day's value is \(TextFormat.fixed(export.nights[4].restingHeartRate, 1)) bpm from another source"
            ) == true, "\(notes)")
        try AthleteJobs.update(
            store, id: Athlete.defaultID, change: Self.order("manual").apply, recompute: false, say: { _ in },
            note: { _ in })
        (_, notes) = try WellnessJobs.add(store, athleteID: Athlete.defaultID, entry(7, sleep: "6:00"))
        #expect(notes.isEmpty, "\(notes)")
        let d = LocalCalendar.day(parsing: export.nights[7].date)!
        let shown = try #require(try WellnessJobs.days(store, athleteID: Athlete.defaultID, from: d, until: d).first)
            .day
        #expect(shown.sleepSource == WellnessJobs.manualSource && shown.sleepSeconds == 6 * 3600)
        (_, notes) = try WellnessJobs.add(store, athleteID: Athlete.defaultID, entry(4, rhr: 60))
        #expect(notes.isEmpty, "\(notes)")
        // A night in the watch's stages stays the watch's: stages come before any order.
        (_, notes) = try WellnessJobs.add(store, athleteID: Athlete.defaultID, entry(1, sleep: "5:00"))
        #expect(
            notes.count == 1 && notes[0].contains("Ben's Apple Watch's sleep stages")
                && notes[0].hasSuffix("stages tell a night before a plain time asleep"), "\(notes)")
    }

    /// Names are found as stored: a comma inside a name, case, a straight for a
    /// typographic apostrophe; the exact spelling first when two differ in case.
    @Test func sourceNamesAreFoundAsStored() throws {
        let store = try RunStore()
        let names = ["Polar, Inc.", "oura", "Oura", "Anna\u{2019}s Apple Watch"]
        _ = try store.addMeasurements(
            names.enumerated().map { i, source in
                DailyMeasurement(
                    athleteID: Athlete.defaultID, kind: DailyKind.named("resting_hr")!, value: 50,
                    start: 1_790_000_000 + Double(i), end: 1_790_000_000 + Double(i), source: source, importedAt: 0)
            })
        let order = ProfileChange.sourceNames("polar , inc., oura, OURA, anna's apple watch")
        let (spelt, _, unknown) = try AthleteJobs.sourceOrder(order, store: store, athleteID: Athlete.defaultID)
        #expect(spelt == ["Polar, Inc.", "oura", "Oura", "Anna\u{2019}s Apple Watch"])
        #expect(unknown.isEmpty, "\(unknown)")
    }

    /// An HRV entered on a day whose night has no watch reading is said as
    /// the watch's SDNN athlete's, not as another source's value of 0.
    @Test func anHRVEntryOnAnSDNNAthletesDayIsSaidTruly() throws {
        let export = WellnessExport(nights: 30)
        let (store, _) = try Self.imported(export)
        var athlete = try #require(try store.athlete(id: Athlete.defaultID))
        athlete.sourceOrder = ["Oura"]
        try store.updateAthlete(athlete)
        let after = LocalCalendar.dateString(LocalCalendar.day(parsing: export.nights.last!.date)! + 1)
        let (_, notes) = try WellnessJobs.add(
            store, athleteID: Athlete.defaultID,
            WellnessEntry(date: after, hrvMs: 55, restingHeartRate: nil, sleep: nil, bodyMassKg: 80))
        #expect(notes.count == 1 && notes[0].contains("this athlete's days use the watch's SDNN"), "\(notes)")
        let (_, rhr) = try WellnessJobs.add(
            store, athleteID: Athlete.defaultID, entry(export, 3, rhr: 60))
        #expect(
            rhr.count == 1 && rhr[0].hasSuffix("--source-order \"manual, Oura\"` puts what you enter first"), "\(rhr)")
    }

    func entry(_ export: WellnessExport, _ n: Int, rhr: Double) -> WellnessEntry {
        WellnessEntry(date: export.nights[n].date, hrvMs: nil, restingHeartRate: rhr, sleep: nil, bodyMassKg: nil)
    }

    /// The note of an HRV entry is true of the whole history: with more RMSSD
    /// days than SDNN ones after the entry, the entry shows and nothing is said;
    /// `athlete show` names the measure on a newest day without HRV.
    @Test func theHRVMeasureOfANoteAndOfAthleteShowIsTheHistorys() throws {
        let store = try RunStore()
        let night = LocalCalendar(identifier: "UTC").instant(day: LocalCalendar.day(parsing: "2026-11-02")!, seconds: 0)
        func m(_ kind: String, _ value: Double, _ start: Double, _ end: Double) -> DailyMeasurement {
            DailyMeasurement(
                athleteID: Athlete.defaultID, kind: DailyKind.named(kind)!, value: value, start: start, end: end,
                source: "Watch", importedAt: 0)
        }
        // One night in stages with one SDNN reading during it (woken 2026-11-02).
        _ = try store.addMeasurements([
            m("sleep_core", 7 * 3600, night - 7 * 3600, night), m("hrv_sdnn", 50, night - 3600, night - 3540)
        ])
        func add(_ date: String, hrv: Double? = nil, rhr: Double? = nil) throws -> [String] {
            try WellnessJobs.add(
                store, athleteID: Athlete.defaultID,
                WellnessEntry(date: date, hrvMs: hrv, restingHeartRate: rhr, sleep: nil, bodyMassKg: nil)
            ).notes
        }
        #expect(try add("2026-11-03", hrv: 58).count == 1, "a tie: the watch's SDNN, said")
        #expect(try add("2026-11-02", hrv: 57).isEmpty, "two RMSSD days to one: the entry is shown")
        let rows = try WellnessJobs.rows(store, athleteID: Athlete.defaultID)
        #expect(rows.map(\.hrvMeasure) == ["rmssd", "rmssd"] && rows.map(\.hrvMs) == [57, 58])
        // athlete show on a newest day without HRV still names the measure of its baselines.
        let export = WellnessExport(nights: 30)
        let (watch, _) = try Self.imported(export)
        let after = LocalCalendar.dateString(LocalCalendar.day(parsing: export.nights.last!.date)! + 1)
        _ = try WellnessJobs.add(
            watch, athleteID: Athlete.defaultID,
            WellnessEntry(date: after, hrvMs: nil, restingHeartRate: 50, sleep: nil, bodyMassKg: nil))
        let text = try AthleteProfile(watch, id: Athlete.defaultID).text()
        #expect(text.contains("ms SDNN (") && text.contains("HRV range"), "\(text)")
        #expect(try AthleteProfile(watch, id: Athlete.defaultID).json().contains("\"hrvMeasure\" : \"sdnn\""))
    }
}
