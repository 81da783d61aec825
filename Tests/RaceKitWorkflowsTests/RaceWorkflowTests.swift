import Foundation
import RaceKitMetrics
import RaceKitModel
import RaceKitOutput
import RaceKitPlan
import RaceKitSQLite
import RaceKitScriptWriter
import RaceKitStore
import RaceKitTestSupport
import Testing

@testable import RaceKitWorkflows

/// A 10 km race on 2026-03-10 with a 50:00 target, and a store holding the run
/// it became (10.2 km on the watch in 3000 s: GPS 2% long) and a 10.15 km run
/// the day before.
func raceFixture() throws -> (dir: URL, setup: String, store: RunStore, race: RunRecord) {
    let dir = try workFolder()
    let setup = dir.appendingPathComponent("Races/ten.yaml").path
    try FileManager.default.createDirectory(
        at: dir.appendingPathComponent("Races"), withIntermediateDirectories: true)
    try """
    name: Test Ten
    date: 2026-03-10
    distance: 10k
    target_time: "50:00"
    hydration: {ml_per_hour: 500, aid_stations_km: [5]}
    """.write(toFile: setup, atomically: false, encoding: .utf8)
    let (store, runs) = try storeWith([
        "before.gpx": trackGPX(seconds: 2900, speed: 3.5, start: "2026-03-09T07:00:00Z", heartRate: 150),
        "race.gpx": trackGPX(seconds: 3000, speed: 3.4, start: "2026-03-10T07:00:00Z", heartRate: 160)
    ])
    return (dir, setup, store, try #require(runs.last))
}

@Suite struct RaceReviewJobTests {
    @Test func findsTheRunOnTheRaceDateReviewsItAndLinksIt() throws {
        let f = try raceFixture()
        var notes: [String] = []
        let outcome = try RaceReviewJob(setupFile: f.setup).run(f.store, .init()) { notes.append($0) }
        #expect(outcome.record.id == f.race.id)
        #expect(outcome.review.targetSeconds == 3000)
        // Aligned on the course, the 10 km took 50:00: the target.
        #expect(abs(outcome.review.actualSeconds - 3000) < 0.5)
        #expect(notes.isEmpty, "\(notes)")
        #expect(outcome.text().contains("Finished in 50:00, exactly on the 50:00 target."), "\(outcome.text())")
        let link = try #require(try f.store.raceLinks(runID: f.race.id).first)
        #expect(link.setupSlug == "test-ten" && link.setupFile == f.setup && link.reviewPath == nil)
        #expect(link.actualSeconds == outcome.review.actualSeconds)
    }

    @Test func writesTheFilesRefusesAnotherSetupsReviewAndUnlinks() throws {
        let f = try raceFixture()
        let out = f.dir.appendingPathComponent("reviews").path
        var notes: [String] = []
        _ = try RaceReviewJob(setupFile: f.setup).run(f.store, .init(outputDirectory: out)) { notes.append($0) }
        let md = out + "/ten-review.md"
        #expect(FileManager.default.fileExists(atPath: md))
        #expect(FileManager.default.fileExists(atPath: out + "/ten-review.svg"))
        #expect(notes == ["wrote \(md) and \(out)/ten-review.svg"])
        #expect(try f.store.raceLinks(runID: f.race.id).first?.reviewPath == md)

        // The same file name from a setup file in another folder: refused unless force.
        let other = f.dir.appendingPathComponent("other/ten.yaml").path
        try FileManager.default.createDirectory(
            atPath: (other as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: f.setup, toPath: other)
        let job = try RaceReviewJob(setupFile: other)
        #expect(throws: OutputError.self) { try job.run(f.store, .init(outputDirectory: out)) { _ in } }
        _ = try job.run(f.store, .init(outputDirectory: out, force: true)) { _ in }
        // The first setup's link no longer names the review another setup wrote.
        let first = try #require(try f.store.raceLink(setupKey: RaceLink.key(setupFile: f.setup), slug: "test-ten"))
        #expect(first.reviewPath == nil)

        #expect(try RaceReviewJob(setupFile: f.setup).unlink(f.store) == "unlinked \(f.setup) from run \(f.race.id)")
        #expect(try RaceReviewJob(setupFile: f.setup).unlink(f.store) == "\(f.setup) was not linked to a run")
    }

    @Test func anotherRunGivenByPrefixIsReviewedWithADateWarning() throws {
        let f = try raceFixture()
        let before = try #require(try f.store.runs().first)
        var notes: [String] = []
        let outcome = try RaceReviewJob(setupFile: f.setup).run(f.store, .init(runID: String(before.id.prefix(24)))) {
            notes.append($0)
        }
        #expect(outcome.record.id == before.id)
        #expect(
            notes.first?.hasPrefix("warning: the run started on 2026-03-09, 1 day before the race date") == true,
            "\(notes)")
    }

    @Test func aBadSetupFailsBeforeTheStoreIsTouched() throws {
        let dir = try workFolder()
        let path = dir.appendingPathComponent("bad.yaml").path
        try "name: [".write(toFile: path, atomically: false, encoding: .utf8)
        #expect(throws: (any Error).self) { try RaceReviewJob(setupFile: path) }
    }
}

@Suite struct ScriptAndPlanWorkflowTests {
    /// The script of the fixture's race, written without a store, simulated on
    /// plan (no store opened) and against the race run.
    @Test func aScriptMadeWithoutAStoreSimulatesOnPlanAndAgainstTheRun() throws {
        let f = try raceFixture()
        let scriptPath = f.dir.appendingPathComponent("ten.script.json").path
        let said = try RaceScriptWorkflow.run(
            setupFile: f.setup, unitMeters: 1000,
            options: .init(personality: nil, personalityFile: nil, output: scriptPath, force: false),
            openStore: { nil }, storePath: "/nowhere.sqlite", note: { _ in })
        #expect(said.hasPrefix("wrote \(scriptPath): "), "\(said)")
        #expect(said.hasSuffix("; no heart-rate message (no store at /nowhere.sqlite: give --store or RACEKIT_STORE)"))

        var opened = false
        let onPlan = try ScriptSimulation(
            file: scriptPath, source: .race(f.setup, allowStale: false),
            openStore: {
                opened = true
                return f.store
            }, note: { _ in })
        #expect(!opened)
        #expect(!onPlan.result.played.isEmpty)
        #expect(onPlan.text().hasPrefix("Simulating test-ten ("))
        #expect(onPlan.text().contains("against a run exactly on plan (50:00)"))

        let recorded = try ScriptSimulation(
            file: scriptPath, source: .run(String(f.race.id.prefix(20))), openStore: { f.store }, note: { _ in })
        // The watch's 10.2 km scaled to the course's 10 km.
        #expect(recorded.against == "run \(f.race.id) (2026-03-10, 10.00 km in 50:00)", "\(recorded.against)")
        #expect(recorded.markdown().hasPrefix("# Simulation of test-ten"))
    }

    @Test func aCourseExportWithoutACourseIsRefusedBeforeAnyOutput() throws {
        let f = try raceFixture()
        #expect(throws: Failure.self) { try RacePlanJob(setupFile: f.setup, unitMeters: 1000, exports: [.tcx]) }
        let band = try RacePlanJob(setupFile: f.setup, unitMeters: 1000, exports: [.band])
        #expect(try band.writeExports(to: nil) == [f.dir.appendingPathComponent("Races/ten-band.svg").path])
        #expect(band.text().contains("50:00"))
    }
}

@Suite struct PredictionTests {
    @Test func aGivenPerformanceNeedsNoStore() throws {
        let p = try Prediction(
            from: .performance(meters: 10_000, seconds: 2700), toMeters: 42_195, riegelExponent: 1.06,
            openStore: {
                Issue.record("the store was opened")
                return try RunStore()
            })
        #expect(p.ageDays == nil && p.predictions.count == 3)
        #expect(p.text(unit: .km).hasPrefix("From 10.000 km in 45:00, VDOT "))
        // Riegel: 45:00 * 4.2195^1.06.
        let riegel = try #require(p.predictions.first { $0.model == .riegel })
        #expect(abs(riegel.seconds - 2700 * pow(4.2195, 1.06)) < 0.5)
    }

    @Test func theAthletesBestRecordIsUsedAndNoRecordIsBadData() throws {
        let empty = try RunStore()
        do {
            _ = try Prediction(
                from: .records(athlete: nil, withinMonths: 12), toMeters: 21_097.5, riegelExponent: 1.06,
                openStore: { empty })
            Issue.record("a prediction without records")
        } catch let error as Failure {
            #expect(error.exitClass == .dataError)
            #expect("\(error)".contains("athlete 'default' has no best effort of a mile or more yet"))
        }
        let (store, _) = try sixRuns()
        let p = try Prediction(
            from: .records(athlete: "default", withinMonths: 600), toMeters: 21_097.5, riegelExponent: 1.06,
            openStore: { store })
        let form = try BestRecord.recentForm(store, athlete: "default", withinMonths: 600, hint: "")
        #expect(p.fromMeters == form.record.distanceMeters && p.fromSeconds == form.record.elapsedSeconds)
        #expect(p.origin == form.origin)
    }

    /// `--temperature` and `--dew-point`: each time slowed by Mantzios 2022 in full sun.
    @Test func theRaceDaysHeatSlowsEachTimeAndACoolDayNone() throws {
        func predict(_ w: (Double, Double)?) throws -> Prediction {
            try Prediction(
                from: .performance(meters: 10_000, seconds: 2700), toMeters: 42_195, riegelExponent: 1.06,
                weather: w.map { (temperatureC: $0.0, dewPointC: $0.1) }, openStore: { try RunStore() })
        }
        let warm = try predict((24, 18))
        let percent = Heat.slowdownPercent(model: .mantzios2022, celsius: 24, dewPoint: 18, sun: .full)
        #expect(abs(warm.heatPercent - percent) < 1e-9 && percent > 3 && percent < 4.5)
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(try warm.json().utf8)) as? [String: Any])
        let heat = try #require(json["heat"] as? [String: Any])
        let cool = try #require(json["predictions"] as? [[String: Any]])
        let hot = try #require(heat["predictions"] as? [[String: Any]])
        for (c, h) in zip(cool, hot) {
            let (a, b) = ((c["seconds"] as? Double) ?? 0, (h["seconds"] as? Double) ?? 0)
            #expect(abs(b - a * (1 + percent / 100)) <= 1, "\(c["model"] ?? "")")
        }
        #expect(
            warm.text(unit: .km).contains(
                "On the day: 24.0 °C, dew point 18.0 °C: WBGT 25.6 °C in full sun; +3.7% by Mantzios 2022"))
        let mild = try predict((8, 4))
        #expect(mild.heatPercent == 0 && mild.text(unit: .km).hasSuffix("no heat cost by Mantzios 2022."))
        #expect(try JSONSerialization.jsonObject(with: Data(try predict(nil).json().utf8)) as? [String: Any] != nil)
        #expect(try predict(nil).json().contains("\"heat\" : null"))
        #expect(Prediction.weatherProblem(75, 4) == "--temperature: 75 is out of range (-30 to 50 °C)")
        #expect(Prediction.weatherProblem(18, 20)?.hasPrefix("--dew-point: 20 is out of range") == true)
        #expect(Prediction.weatherProblem(18, nil) == "give --temperature and --dew-point together")
        #expect(Prediction.weatherProblem(.nan, 4) != nil && Prediction.weatherProblem(nil, nil) == nil)
    }
}

/// `--audio` into the script's own audio folder is refused by any name the
/// folder has: through a symbolic link, or a path with `..`.
@Suite struct HeardAudioPathTests {
    @Test func theAudioFolderByAnotherNameIsStillTheAudioFolder() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rk-heard-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir + "/five-audio", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        symlink(dir + "/five-audio", dir + "/alias")
        try FileManager.default.createDirectory(atPath: dir + "/other", withIntermediateDirectories: true)
        for audio in ["alias/x.opus", "five-audio/x.opus", "other/../five-audio/x.opus"] {
            #expect {
                try ScriptSimulation.checkAudio(
                    scriptPath: dir + "/five.script.json", to: dir + "/" + audio, voice: "en")
            } throws: { error in
                ExitClass(of: error) == .usage && "\(error)".contains("that is the script's audio folder")
            }
        }
    }
}

/// A script replayed against a run shorter than its race says so: a marathon
/// script against a half cannot play its second half nor its finish.
@Suite struct ShortRunSimulationTests {
    @Test func aMarathonScriptAgainstAHalfWarns() throws {
        let setup = try SetupLoader.parse(
            yaml: "name: M\ndistance: marathon\ntarget_time: \"3:30:00\"\n", file: "m.yaml")
        let script = ScriptGenerator.generate(
            plan: try RacePlanner.plan(setup), personality: try Personality.named("calm_coach"))
        let warning = try #require(ScriptSimulation.shortRun(script, ranMeters: 21_097.5))
        #expect(warning.contains("21.10 km, 50% of the race's 42.20 km") && warning.contains("the finish never comes"))
        #expect(ScriptSimulation.shortRun(script, ranMeters: 42_100) == nil)
        #expect(ScriptSimulation.shortRun(script, ranMeters: 43_000) == nil)
    }
}
