import Foundation
import RaceKitImport
import RaceKitMetrics
import RaceKitModel
import RaceKitOutput
import RaceKitPlan
import RaceKitReports
import RaceKitStore
import RaceKitStoreOpener
import RaceKitTestSupport
import Testing

@testable import RaceKitWorkflows

/// Issue 38 item 2: the power-duration curve of stored runs, the critical power
/// fitted from the 90 days before each run (or set by hand), and the intensity,
/// power stress and weekly sums that follow, on both backends.
@Suite struct PowerProfileTests {
    /// Morton's curve of the made-up athlete: CP 280 W, W' 15 kJ, Pmax 700 W.
    static func morton(_ t: Double) -> Double { 280 + 15_000 / (t + 15_000 / 420) }

    /// A run of all-out efforts of `durations` (seconds, multiples of 5) at the
    /// curve's power, 10 minutes at 100 W before each and after the last.
    static func effortsGPX(_ durations: [Int], start: String) -> String {
        var blocks: [(end: Int, watts: Double)] = []
        var t = 0
        for d in durations {
            t += 600
            blocks.append((t, 100))
            t += d
            blocks.append((t, morton(Double(d))))
        }
        t += 600
        blocks.append((t, 100))
        return trackGPX(
            seconds: t, speed: 3.2, start: start, heartRate: 150,
            power: { i in
                blocks.first { i < $0.end }?.watts ?? 100
            })
    }

    static let efforts: [(durations: [Int], start: String)] = [
        ([15, 60, 180, 480, 720, 1200], "2026-05-04T07:00:00Z"),
        ([30, 120, 300, 600, 900], "2026-05-13T07:00:00Z")
    ]

    @Test(arguments: StoreCopyTests.pgURL == nil ? ["sqlite"] : ["sqlite", "postgres"])
    func theCriticalPowerOfTheNinetyDaysSetsEachRunsIntensity(_ backend: String) throws {
        let dir = try workFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let location =
            backend == "sqlite"
            ? StoreLocation.sqlite(path: dir.appendingPathComponent("s.sqlite").path)
            : try StoreCopyTests.freshDatabase(try #require(StoreCopyTests.pgURL))
        let store = try location.open(access: .create)
        var files: [String] = []
        for (i, e) in Self.efforts.enumerated() {
            let url = dir.appendingPathComponent("efforts-\(i).gpx")
            try Self.effortsGPX(e.durations, start: e.start).write(to: url, atomically: true, encoding: .utf8)
            files.append(url.path)
        }
        // An easy run without power in between, and a ride with power (another sport's curve).
        let easy = dir.appendingPathComponent("easy.gpx")
        try trackGPX(seconds: 1800, speed: 3, start: "2026-05-08T07:00:00Z", heartRate: 140)
            .write(to: easy, atomically: true, encoding: .utf8)
        let ride = dir.appendingPathComponent("ride.gpx")
        try trackGPX(seconds: 3600, speed: 8, type: "cycling", start: "2026-05-10T07:00:00Z", power: { _ in 900 })
            .write(to: ride, atomically: true, encoding: .utf8)
        let results = try Importer(store: store, options: ImportOptions()).run(files: files + [easy.path, ride.path])
        #expect(results.allSatisfy { $0.status == .imported })

        // Both runs' efforts make the curve: the fit of the 90 days to the second is Morton's.
        let current = try #require(try PowerJobs.current(store, athleteID: "default").first { $0.sport == .running })
        let fit = try #require(current.inForce)
        #expect(fit.value.model == .threeParameter && fit.runs == 2)
        #expect(abs(fit.value.watts - 280) < 2.8, "CP \(fit.value.watts)")
        #expect(abs(try #require(fit.value.wPrimeJoules) - 15_000) < 750)
        for (seconds, watts) in [(15, Self.morton(15)), (300, Self.morton(300)), (1200, Self.morton(1200))] {
            let best = try #require(current.bests.first { $0.seconds == seconds })
            #expect(abs(best.watts - watts) < 0.01, "\(seconds) s")
        }
        // The ride's 900 W are cycling's, not running's.
        #expect(current.bests.allSatisfy { $0.watts < 900 })

        func runs() throws -> [RunRecord] { try store.runs().filter { $0.sport == .running } }
        // A power plan's watts per m/s of flat running: the median over the two power runs.
        let ratios = try runs().compactMap { r in
            r.metrics[Metric.AvgPower.self].flatMap { w in r.gradeAdjustedPaceSecondsPerKm.map { w * $0 / 1000 } }
        }
        #expect(ratios.count == 2)
        let (k, n) = try #require(try PowerPlanning.wattsPerMps(store, athleteID: "default"))
        #expect(n == 2 && abs(k - ratios.reduce(0, +) / 2) < 1e-9)
        var setup = try SetupLoader.parse(
            yaml: "name: P\ndistance: 10k\ntarget_time: \"45:00\"\npacing: {strategy: power, cp_percent: 95}\n",
            file: "p.yaml")
        try PowerPlanning.fill(&setup, store: store)
        guard case .power(let target) = setup.strategy else { Issue.record("not a power plan"); return }
        #expect(target.wattsPerMps == k && target.wattsPerMpsSource == "athlete default's 2 runs with power")
        #expect(abs(try #require(target.criticalPowerWatts) - fit.value.watts) < 1e-9)
        let plan = try RacePlanner.plan(setup)
        #expect(abs(plan.plannedSeconds - 10_000 * k / (0.95 * fit.value.watts)) < 1e-6)
        // Its script, made with the store's figures, simulates on plan with them (the store opened for them).
        let setupPath = dir.appendingPathComponent("p.yaml").path
        try "name: P\ndistance: 10k\ntarget_time: \"45:00\"\npacing: {strategy: power, cp_percent: 95}\n"
            .write(toFile: setupPath, atomically: true, encoding: .utf8)
        let scriptPath = dir.appendingPathComponent("p.script.json").path
        _ = try RaceScriptWorkflow.run(
            setupFile: setupPath, unitMeters: 1000,
            options: .init(personality: nil, personalityFile: nil, output: scriptPath, force: false),
            openStore: { store }, storePath: "s.sqlite", note: { _ in })
        var opened = false
        var notes: [String] = []
        let simulated = try ScriptSimulation(
            file: scriptPath, source: .race(setupPath, allowStale: false),
            openStore: {
                opened = true
                return store
            }, note: { notes.append($0) })
        #expect(opened && notes.isEmpty, "\(notes)")
        #expect(!simulated.result.played.isEmpty)
        // A store that cannot be read is said as such, not taken for a setup without figures.
        let unreadable = #expect(throws: StoreError.self) {
            try ScriptSimulation(
                file: scriptPath, source: .race(setupPath, allowStale: false),
                openStore: { throw StoreError.database("unreadable") }, note: { _ in })
        }
        #expect(unreadable?.description.contains("unreadable") == true)
        func check(_ cpOf: (RunRecord) -> Double?, _ what: String) throws {
            for r in try runs() {
                let np = r.metrics[Metric.NormalizedPower.self]
                guard let np, let cp = cpOf(r) else {
                    #expect(r.metrics[Metric.PowerIntensity.self] == nil, "\(what): \(r.sourceFile)")
                    continue
                }
                let intensity = try #require(r.metrics[Metric.PowerIntensity.self], "\(what): \(r.sourceFile)")
                #expect(abs(intensity - np / cp) < 1e-9, "\(what): \(r.sourceFile)")
                let seconds = try #require(r.metrics[Metric.PowerSeconds.self])
                #expect(
                    abs(
                        try #require(r.metrics[Metric.PowerStressScore.self]) - seconds / 3600 * intensity * intensity
                            * 100) < 1e-6)
            }
        }
        // Each run against the fit of the 90 days up to it: the first alone, the second with both.
        let history = try PowerRefresh.history(store, athleteID: "default").history
        let first = try #require(try runs().first { $0.sourceFile.hasSuffix("efforts-0.gpx") })
        let firstCP = try #require(history.criticalPower(.running, at: first.startedAt)).value.watts
        #expect(abs(firstCP - fit.value.watts) > 0.1, "the first run's own curve is not both runs'")
        // A review of a race run as the second takes the figures known before it: the first run's alone.
        let second = try #require(try runs().first { $0.sourceFile.hasSuffix("efforts-1.gpx") })
        let before = try #require(try PowerPlanning.wattsPerMps(store, athleteID: "default", before: second.startedAt))
        let firstRatio = try #require(
            first.metrics[Metric.AvgPower.self].flatMap { w in first.gradeAdjustedPaceSecondsPerKm.map { w * $0 / 1000 }
            })
        #expect(before.1 == 1 && abs(before.0 - firstRatio) < 1e-9)
        var reviewed = try SetupLoader.parse(
            yaml: "name: P\ndistance: 10k\ntarget_time: \"45:00\"\npacing: {strategy: power, cp_percent: 95}\n",
            file: "p.yaml")
        try PowerPlanning.fill(&reviewed, store: store, before: second.startedAt)
        guard case .power(let known) = reviewed.strategy else { Issue.record("not a power plan"); return }
        #expect(known.wattsPerMps == before.0)
        #expect(known.wattsPerMpsSource == "athlete default's 1 run with power before the race")
        #expect(abs(try #require(known.criticalPowerWatts) - firstCP) < 1e-9)
        let firstModel = try #require(history.criticalPower(.running, at: first.startedAt)).value.model.rawValue
        #expect(known.criticalPowerSource == "the \(firstModel) fit of athlete default's runs before the race")
        try check(
            { r in
                r.sourceFile.hasSuffix("efforts-0.gpx")
                    ? firstCP : r.sourceFile.hasSuffix("efforts-1.gpx") ? fit.value.watts : nil
            }, "fitted")

        // Set by hand from 2026-05-10: the second run is against 300 W, the first keeps its fit.
        let said = try PowerJobs.apply(
            PowerChange(criticalPower: 300, wPrimeKJ: 18, from: "2026-05-10", clear: false), store: store,
            athleteID: "default", now: 1_800_000_000)
        #expect(
            said == [
                "Critical power for running: 300 W, W′ 18 kJ, in force from 2026-05-10.",
                "Updated the intensity and power stress of 1 run."
            ])
        try check(
            { r in
                r.sourceFile.hasSuffix("efforts-0.gpx") ? firstCP : r.sourceFile.hasSuffix("efforts-1.gpx") ? 300 : nil
            }, "set")
        let shown = try #require(try PowerJobs.current(store, athleteID: "default").first { $0.sport == .running })
        #expect(
            PowerJobs.describe(shown, timeZone: "UTC") == "300 W, W′ 18.0 kJ (set by hand, in force from 2026-05-10)")

        // The same day set again without a W′: the old W′ is not kept with the new value.
        _ = try PowerJobs.apply(
            PowerChange(criticalPower: 305, wPrimeKJ: nil, from: "2026-05-10", clear: false), store: store,
            athleteID: "default", now: 1_800_000_000)
        let again = try #require(try PowerJobs.current(store, athleteID: "default").first { $0.sport == .running })
        #expect(PowerJobs.describe(again, timeZone: "UTC") == "305 W (set by hand, in force from 2026-05-10)")
        // Without --cp-from, from the start of today in the athlete's zone (a morning's test run is under it).
        let noon = 1_800_000_000.0 - 1_800_000_000.0.truncatingRemainder(dividingBy: 86_400) + 43_200
        let today = try PowerJobs.apply(
            PowerChange(criticalPower: 300, wPrimeKJ: 18, from: nil, clear: false), store: store,
            athleteID: "default", now: noon)
        #expect(
            today.first?.hasSuffix(
                "in force from \(LocalCalendar.dateString(LocalCalendar(identifier: "UTC").day(of: noon))).") == true)
        let set = try PowerRefresh.settings(store, athleteID: "default")
        #expect(set.contains { $0.from == noon - 43_200 && $0.watts == 300 && $0.wPrimeJoules == 18_000 })
        #expect(set.contains { $0.from == noon - 43_200 } && !set.contains { $0.from == noon })
        _ = try PowerJobs.apply(
            PowerChange(criticalPower: 300, wPrimeKJ: 18, from: "2026-05-10", clear: false), store: store,
            athleteID: "default", now: 1_800_000_000)

        // The weekly report sums the week's power stress.
        var options = WeeklyReportJob.Options()
        options.through = .week(
            ISOWeek(containing: LocalCalendar(identifier: "UTC").day(of: first.startedAt)).adding(weeks: 1))
        options.weeks = 2
        let weeks = try WeeklyReportJob(store: store, options: options).weeks(
            for: try #require(try store.athlete(id: "default")))
        let stressOf = Dictionary(
            uniqueKeysWithValues: try runs().map { ($0.sourceFile, $0.metrics[Metric.PowerStressScore.self]) })
        #expect(weeks.rows.map(\.runsWithPowerStress) == [1, 1])
        #expect(abs(try #require(weeks.rows[0].powerStress) - (try #require(stressOf[first.sourceFile] ?? nil))) < 1e-9)
        #expect(weeks.rows[0].runs == 2, "the easy run counts as a run without power stress")
        let lines = WeeklyCSV.render(weeks).split(separator: "\r\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false)
        }
        let column = try #require(lines[0].firstIndex(of: "power_stress"))
        #expect(lines[1][column] == Substring(TextFormat.fixed(weeks.rows[0].powerStress!, 1)))
        #expect(lines[1][column + 1] == "1")

        // Forgotten: the fit again.
        _ = try PowerJobs.apply(
            PowerChange(criticalPower: nil, wPrimeKJ: nil, from: nil, clear: true), store: store, athleteID: "default",
            now: 1_800_000_000)
        try check(
            { r in
                r.sourceFile.hasSuffix("efforts-0.gpx")
                    ? firstCP : r.sourceFile.hasSuffix("efforts-1.gpx") ? fit.value.watts : nil
            }, "cleared")

        // The first run deleted: the second is against the fit of its own efforts.
        try store.delete(runID: first.id)
        #expect(try PowerRefresh.run(store, athleteID: "default") == 1)
        let after = try PowerRefresh.history(store, athleteID: "default").history
        try check({ r in after.criticalPower(.running, at: r.startedAt)?.value.watts }, "after delete")
    }
}
