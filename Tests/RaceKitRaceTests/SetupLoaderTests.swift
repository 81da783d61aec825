import Foundation
import RaceKitScript
import Testing

@testable import RaceKitModel
@testable import RaceKitOutput
@testable import RaceKitPlan
@testable import RaceKitScriptWriter

@Suite struct SetupLoaderTests {
    static let good = """
        name: Berlin Marathon 2026
        date: 2026-09-27
        athlete: anna
        distance: marathon
        target_time: 3:15:00
        pacing:
          strategy: negative
          split_percent: 2
        fueling:
          carbs_per_hour_g: 75
          gel_carbs_g: 25
          start_after: "0:30:00"
        hydration:
          ml_per_hour: 500
          sodium_mg_per_hour: 500
          aid_stations_km: [5, 10, 15, 20, 25, 30, 35, 40]
        script:
          personality: calm_coach
        notes: "Cobblestones at km 41"
        """

    @Test func readsTheDesignExample() throws {
        let s = try SetupLoader.parse(yaml: Self.good, file: "Races/berlin.yaml")
        #expect(s.name == "Berlin Marathon 2026" && s.slug == "berlin-marathon-2026")
        #expect(
            s.distanceMeters == 42_195 && s.targetSeconds == 11_700, "3:15:00 unquoted is a time, not a base-60 number")
        #expect(s.strategy == .negative(percent: 2))
        #expect(s.fueling?.carbsPerHourGrams == 75 && s.fueling?.startAfterSeconds == 1800)
        #expect(s.hydration?.aidStationsMeters.count == 8 && s.hydration?.aidStationsMeters.last == 40_000)
        #expect(s.personality == "calm_coach" && s.athlete == "anna" && s.date == "2026-09-27")
    }

    @Test func customSegmentsAndUnits() throws {
        let s = try SetupLoader.parse(
            yaml: """
                name: Ten
                distance: 10 mi
                target_time: "1:10:00"
                pacing:
                  strategy: custom
                  segments:
                    - {until: 5 mi, pace: "7:00/mi"}
                    - {until: finish, effort: 0.98}
                checkpoints: [5k, 5 mi, 15 km]
                """, file: "t.yaml")
        #expect(abs(s.distanceMeters - 16_093.44) < 1e-6)
        guard case .custom(let segs) = s.strategy else { Issue.record("not custom"); return }
        #expect(segs[0].untilMeters == 8046.72 && segs[0].intensity == .pace(420 / 1.609344))
        #expect(segs[1].untilMeters == s.distanceMeters && segs[1].intensity == .effort(0.98))
        #expect(s.checkpointsMeters == [5000, 8046.72, 15_000])
    }

    /// (YAML with one mistake, line, key, words in the message)
    static let broken: [(String, Int, String, String)] = [
        (
            good.replacingOccurrences(of: "target_time: 3:15:00", with: "target_tme: 3:15:00"), 5, "target_tme",
            "did you mean 'target_time'"
        ),
        (
            good.replacingOccurrences(of: "  split_percent: 2", with: "  split_percent: two"), 8,
            "pacing.split_percent", "expected a number"
        ),
        (
            good.replacingOccurrences(of: "  split_percent: 2", with: "  split_percent: 25"), 8, "pacing.split_percent",
            "out of range"
        ),
        (
            good.replacingOccurrences(of: "strategy: negative", with: "strategy: sprint"), 7, "pacing.strategy",
            "not one of"
        ),
        (
            good.replacingOccurrences(of: "target_time: 3:15:00", with: "target_time: 0:50:00"), 5, "target_time",
            "faster than 2:00/km"
        ),
        (
            good.replacingOccurrences(of: "target_time: 3:15:00", with: "target_time: soon"), 5, "target_time",
            "not a time"
        ),
        (
            good.replacingOccurrences(of: "distance: marathon", with: "distance: far"), 4, "distance",
            "not a race distance"
        ),
        (good.replacingOccurrences(of: "date: 2026-09-27", with: "date: 2026-02-30"), 2, "date", "not a date"),
        (
            good.replacingOccurrences(of: "  gel_carbs_g: 25", with: "  gel_carbs_g: [25]"), 11, "fueling.gel_carbs_g",
            "expected a single value"
        ),
        (good.replacingOccurrences(of: "  gel_carbs_g: 25\n", with: ""), 9, "fueling.gel_carbs_g", "is required"),
        (
            good.replacingOccurrences(of: "[5, 10, 15, 20, 25, 30, 35, 40]", with: "[5, 10, 50]"), 16,
            "hydration.aid_stations_km[2]", "not on the course"
        ),
        (
            good.replacingOccurrences(of: "[5, 10, 15, 20, 25, 30, 35, 40]", with: "[10, 5]"), 16,
            "hydration.aid_stations_km[1]", "increasing"
        ),
        (
            good.replacingOccurrences(of: "  personality: calm_coach", with: "  voice: calm_coach"), 18, "script.voice",
            "unknown key"
        ),
        (
            good.replacingOccurrences(
                of: "  start_after: \"0:30:00\"", with: "  start_after: \"0:30:00\"\n  carbs_per_hour_g: 80"), 13,
            "fueling.carbs_per_hour_g", "more than once"
        ),
        (
            good.replacingOccurrences(
                of: "  strategy: negative\n  split_percent: 2", with: "  strategy: even\n  split_percent: 2"), 8,
            "pacing.split_percent", "only a negative or positive"
        ),
        (
            good.replacingOccurrences(
                of: "  strategy: negative\n  split_percent: 2",
                with: "  strategy: custom\n  segments:\n    - {until: 30k, effort: 1}"),
            9, "pacing.segments", "cover the whole"
        ),
        (
            good.replacingOccurrences(
                of: "  strategy: negative\n  split_percent: 2",
                with:
                    "  strategy: custom\n  segments:\n    - {until: 20k, pace: \"4:00/km\"}\n    - {until: finish, pace: \"4:00/km\"}"
            ),
            6, "pacing", "add up to"
        ),
        (good.replacingOccurrences(of: "pacing:\n", with: "pacing: [\n"), 8, "", "not valid YAML"),
        (
            good.replacingOccurrences(
                of: "  sodium_mg_per_hour: 500\n", with: "  sodium_mg_per_hour: 500\n  every: \"0:20:00\"\n"), 16,
            "hydration.every", "not both"
        )
    ]

    @Test func everyErrorNamesTheFileTheLineAndTheKey() {
        for (yaml, line, key, words) in Self.broken {
            do {
                _ = try SetupLoader.parse(yaml: yaml, file: "Races/bad.yaml")
                Issue.record("accepted a setup with a mistake at \(key)")
            } catch let e as SetupError {
                #expect(e.file == "Races/bad.yaml")
                #expect(e.line == line, "\(key): line \(e.line), expected \(line): \(e)")
                #expect(e.key == key, "\(e)")
                #expect(e.description.contains(words), "\(e)")
                #expect(e.description.hasPrefix("Races/bad.yaml:\(line): "))
            } catch {
                Issue.record("unexpected error \(error)")
            }
        }
    }

    @Test func missingFileIsUnreadable() {
        #expect(throws: SetupError.self) { try SetupLoader.load(path: "/nonexistent/race.yaml") }
        do { _ = try SetupLoader.load(path: "/nonexistent/race.yaml") } catch let e as SetupError {
            #expect(e.kind == .unreadable && e.description.contains("no such file"))
        } catch { Issue.record("\(error)") }
    }

    @Test func templateOfRaceNewLoadsForEveryDistance() throws {
        for (d, t) in [("5k", 1200.0), ("10k", 2700.0), ("half", 6300.0), ("marathon", 12_600.0), ("50k", 18_000.0)] {
            let yaml = RaceTemplate.yaml(
                name: "Test \(d)", distance: d, distanceMeters: Units.parseDistance(d)!, targetSeconds: t,
                athlete: "anna", course: nil, date: "2026-10-01", suggestion: "from a test")
            let s = try SetupLoader.parse(yaml: yaml, file: "x.yaml")
            #expect(s.targetSeconds == t && s.athlete == "anna")
            #expect((s.fueling != nil) == (t >= 4500), "fueling only for races of 75 minutes or more")
            _ = try RacePlanner.plan(s)
        }
    }

    @Test func slugs() {
        #expect(RaceSetup.slug("Berlin Marathon 2026") == "berlin-marathon-2026")
        #expect(RaceSetup.slug("  Zürich Läuft! -- 10k ") == "zuerich-laeuft-10k")
        #expect(RaceSetup.slug("???") == "race")
    }
}

@Suite struct SetupFuzzRegressionTests {
    /// Inputs kept from fuzzing and hand-made extremes: each loads or fails with a
    /// SetupError, and a plan that loads ends on its target.
    @Test func fuzzFixturesLoadOrFailCleanly() throws {
        let dir = try #require(Bundle.module.url(forResource: "Fixtures/fuzz", withExtension: nil))
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".yaml") }
        #expect(!files.isEmpty)
        for f in files {
            let text = try String(contentsOf: dir.appendingPathComponent(f), encoding: .utf8)
            do {
                var setup = try SetupLoader.parse(yaml: text, file: f)
                setup.coursePath = nil
                let plan = try RacePlanner.plan(setup)
                #expect(plan.splits.last?.split.cumulativeSeconds == Int(setup.targetSeconds.rounded()), "\(f)")
                _ = PlanOutput.markdown(plan)
            } catch is SetupError {
            }
        }
    }
}

/// A setup, script or personality that is a FIFO (or a device) is refused with
/// what it is, never waited for.
@Suite struct NonRegularInputTests {
    @Test func aFIFOIsRefusedAtOnce() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rk-fifo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("race.yaml").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let started = Date()
        for load in [
            { _ = try SetupLoader.load(path: fifo) }, { _ = try RaceScript.load(path: fifo) },
            { _ = try Personality.load(path: fifo) }
        ] as [() throws -> Void] {
            #expect {
                try load()
            } throws: { error in
                ExitClass(of: error) == .noInput && "\(error)".contains("a FIFO (named pipe), not a regular file")
            }
        }
        #expect(InputFile.read("/dev/zero") == nil)
        #expect(Date().timeIntervalSince(started) < 5)
    }
}

/// "start_after: 1:00" is a minute to the parser and an hour to many a coach:
/// a fueling or hydration time of two parts whose first is under 10 is refused
/// with both readings, never silently read one way.
@Suite struct AmbiguousDurationTests {
    static func setup(_ fueling: String) -> String {
        "name: T\ndistance: half\ntarget_time: \"1:45:00\"\nfueling: {carbs_per_hour_g: 60, gel_carbs_g: 25, \(fueling)}\n"
    }

    @Test(arguments: ["start_after: \"1:00\"", "stop_before_finish: \"5:00\"", "snap_tolerance: \"0:30\""])
    func aShortTwoPartTimeIsRefusedWithBothReadings(_ key: String) {
        #expect {
            _ = try SetupLoader.parse(yaml: Self.setup(key), file: "t.yaml")
        } throws: { error in
            let text = "\(error)"
            return ExitClass(of: error) == .dataError && text.contains("could be") && text.contains("h:mm:ss")
                && text.contains("(minutes and seconds) or")
        }
    }

    @Test func unambiguousTimesAreRead() throws {
        let s = try SetupLoader.parse(
            yaml: Self.setup("start_after: \"45:00\", stop_before_finish: \"0:10:00\", snap_tolerance: \"0:00\""),
            file: "t.yaml")
        #expect(s.fueling?.startAfterSeconds == 2700 && s.fueling?.stopBeforeFinishSeconds == 600)
        #expect(s.fueling?.snapToleranceSeconds == 0)
    }
}
