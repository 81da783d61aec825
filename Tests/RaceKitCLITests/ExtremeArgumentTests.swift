import Foundation
import RaceKitTestSupport
import Testing

/// Issue 13.4, "never crash on any argument": every numeric command-line argument
/// and every numeric key of a race setup is fed values no runner types. Each run
/// must end within 5 seconds with 0, 64 (usage), 65 (bad data) or 66 (no input),
/// never a trap or a backtrace; a refusal names the option or key; and the absurd
/// values (non-finite, or far past any physical range) are never accepted.
///
/// Parameterised per command line and per key, so the cases run in parallel, each
/// with its own temp folder and store (made once per case). The commands run in
/// this process (`CLI.runHere`): a trap still fails the run, a hang is reported
/// after `seconds`; what a process adds (its launch, its exit) is tested elsewhere.
@Suite struct ExtremeArgumentTests {
    static let values = [
        "0", "-1", "1e-300", "1e300", "1e19", "nan", "inf", "-inf", "9223372036854775807", "99999999999999999999"
    ]
    /// Values no range admits, for any argument or key in the tables below.
    static let absurd: Set<String> = ["1e300", "1e19", "nan", "inf", "-inf", "99999999999999999999"]
    /// How long a command may take: a hang, not a slow machine (a sanitizer
    /// slows the code up to tenfold).
    static let seconds = Sanitizer.name == nil ? 5.0 : 30.0

    /// A command line with `@V@` where the value goes (`@RUN@`: the imported run's
    /// id), and the option its errors must name; `withRun`: it needs a stored run.
    struct Line: CustomTestStringConvertible, Sendable {
        var args: [String]
        var option: String
        var withRun: Bool
        init(_ option: String, withRun: Bool = false, _ args: String...) {
            self.option = option; self.withRun = withRun; self.args = args
        }
        var testDescription: String { args.joined(separator: " ") }

        /// The command line for `runHere`: its files in `cli`'s work folder, its store there.
        func arguments(_ value: String, run: String, in cli: CLI) -> [String] {
            var out = args.map { a -> String in
                let a = a.replacingOccurrences(of: "@V@", with: value).replacingOccurrences(of: "@RUN@", with: run)
                return ["run.tcx", "rep"].contains(a) ? cli.at(a) : a
            }
            if out.starts(with: ["race", "new"]) { out += ["--out", cli.at("Races")] }
            return out + cli.store
        }
    }

    /// Every numeric argument of every command (strings parsed as numbers included:
    /// distances, times, paces, dates, weeks).
    static let lines: [Line] = [
        Line("--to", "predict", "--from", "10k=45:00", "--to=@V@"),
        Line("--to", withRun: true, "predict", "--to=@V@ km"),   // from the default athlete's records
        Line("--from", "predict", "--from=@V@=45:00", "--to", "marathon"),
        Line("--from", "predict", "--from=@V@ mi=45:00", "--to", "marathon"),
        Line("--from", "predict", "--from=10k=@V@", "--to", "marathon"),
        Line("--from", "predict", "--from=10k=@V@:00", "--to", "marathon"),
        Line("--from", "predict", "--from=10k=45:@V@", "--to", "marathon"),
        Line("--riegel-exponent", "predict", "--from", "10k=45:00", "--to", "marathon", "--riegel-exponent=@V@"),
        Line("--distance", "race", "new", "Probe", "--distance=@V@", "--target", "3:00:00", "--force"),
        Line("--distance", "race", "new", "Probe", "--distance=@V@ km", "--target", "3:00:00", "--force"),
        Line("--target", "race", "new", "Probe", "--distance", "marathon", "--target=@V@", "--force"),
        Line("--target", "race", "new", "Probe", "--distance", "marathon", "--target=@V@:00", "--force"),
        Line("--target", "race", "new", "Probe", "--distance", "marathon", "--target=3:@V@:00", "--force"),
        Line("--date", "race", "new", "Probe", "--distance", "10k", "--target", "45:00", "--date=@V@-09-27", "--force"),
        Line("--max-hr", withRun: true, "athlete", "set", "default", "--max-hr=@V@"),
        Line("--resting-hr", withRun: true, "athlete", "set", "default", "--resting-hr=@V@"),
        Line("--threshold-hr", withRun: true, "athlete", "set", "default", "--threshold-hr=@V@"),
        Line("--max-hr", "athlete", "add", "probe", "--max-hr=@V@"),
        Line("--threshold-pace", withRun: true, "athlete", "set", "default", "--threshold-pace=@V@:00/km"),
        Line("--threshold-pace", withRun: true, "athlete", "set", "default", "--threshold-pace=4:@V@/mi"),
        Line("--weeks", withRun: true, "report", "weekly", "--out", "rep", "--weeks=@V@"),
        Line("--wait", withRun: true, "report", "weekly", "--out", "rep", "--wait=@V@"),
        Line("--week", withRun: true, "report", "weekly", "--out", "rep", "--week=@V@-W10"),
        Line("--week", withRun: true, "report", "weekly", "--out", "rep", "--week=2026-W@V@"),
        Line("--limit", withRun: true, "runs", "list", "--limit=@V@"),
        Line("--since", withRun: true, "runs", "list", "--since=@V@-01-01"),
        Line("--until", withRun: true, "runs", "list", "--until=@V@-01-01"),
        Line("--limit", withRun: true, "runs", "bests", "--limit=@V@"),
        Line("--distance", withRun: true, "runs", "bests", "--distance=@V@"),
        Line("--rpe", withRun: true, "runs", "edit", "@RUN@", "--rpe=@V@"),
        Line("--jobs", withRun: true, "import", "--jobs=@V@", "run.tcx")
    ]

    /// A minimal valid setup with every numeric key (`hydration.every` and the
    /// custom segments are in the variants below).
    static let setup = """
        name: Probe
        date: 2026-09-27
        start_time: "09:15"
        distance: 10k
        target_time: "45:00"
        pacing:
          strategy: negative
          split_percent: 2
          smoothing_m: 200
        checkpoints: [2k, 5k]
        fueling:
          carbs_per_hour_g: 60
          gel_carbs_g: 25
          start_after: "0:10:00"
          stop_before_finish: "0:05:00"
          snap_tolerance: "0:02:00"
          caffeine: {mg: 100, after: "0:20:00", every: "0:10:00"}
        hydration:
          ml_per_hour: 500
          sodium_mg_per_hour: 400
          aid_stations_km: [2.5, 5]

        """
    static let custom = setup.replacingOccurrences(
        of: "  strategy: negative\n  split_percent: 2\n",
        with: """
              strategy: custom
              segments:
                - {until: 2k, pace: "4:30/km"}
                - {until: 5k, effort: 1.0}
                - {until: finish, effort: 0.98}

            """)
    static let every = setup.replacingOccurrences(of: "aid_stations_km: [2.5, 5]", with: "every: \"0:15:00\"")

    /// A key of the setup: the text of `base` where `original` becomes `template`
    /// with `@V@` replaced by the value; errors must name `key`.
    struct Key: CustomTestStringConvertible, Sendable {
        var key: String
        var base: String
        var original: String
        var template: String
        init(_ key: String, _ original: String, _ template: String, in base: String = ExtremeArgumentTests.setup) {
            self.key = key; self.original = original; self.template = template; self.base = base
        }
        var testDescription: String { template }
        func yaml(_ value: String) throws -> String {
            try #require(base.contains(original), "the setup has no \(original)")
            return base.replacingOccurrences(of: original, with: template.replacingOccurrences(of: "@V@", with: value))
        }
    }

    static let keys: [Key] = [
        Key("distance", "distance: 10k", "distance: @V@"),
        Key("distance", "distance: 10k", "distance: \"@V@ km\""),
        Key("target_time", "target_time: \"45:00\"", "target_time: \"@V@\""),
        Key("target_time", "target_time: \"45:00\"", "target_time: \"@V@:00\""),
        Key("target_time", "target_time: \"45:00\"", "target_time: @V@"),
        Key("start_time", "start_time: \"09:15\"", "start_time: \"@V@:00\""),
        Key("date", "date: 2026-09-27", "date: @V@-09-27"),
        Key("checkpoints", "checkpoints: [2k, 5k]", "checkpoints: [@V@]"),
        Key("checkpoints", "checkpoints: [2k, 5k]", "checkpoints: [2k, \"@V@ km\"]"),
        Key("pacing.split_percent", "split_percent: 2", "split_percent: @V@"),
        Key("pacing.smoothing_m", "smoothing_m: 200", "smoothing_m: @V@"),
        Key("fueling.carbs_per_hour_g", "carbs_per_hour_g: 60", "carbs_per_hour_g: @V@"),
        Key("fueling.gel_carbs_g", "gel_carbs_g: 25", "gel_carbs_g: @V@"),
        Key("fueling.start_after", "start_after: \"0:10:00\"", "start_after: \"@V@\""),
        Key("fueling.start_after", "start_after: \"0:10:00\"", "start_after: \"@V@:00\""),
        Key("fueling.stop_before_finish", "stop_before_finish: \"0:05:00\"", "stop_before_finish: \"@V@:00:00\""),
        Key("fueling.snap_tolerance", "snap_tolerance: \"0:02:00\"", "snap_tolerance: \"@V@:00\""),
        Key("fueling.caffeine.mg", "mg: 100", "mg: @V@"),
        Key("fueling.caffeine.after", "after: \"0:20:00\"", "after: \"@V@:00\""),
        Key("fueling.caffeine.every", "every: \"0:10:00\"", "every: \"@V@\""),
        Key("fueling.caffeine.every", "every: \"0:10:00\"", "every: \"@V@:00\""),
        Key("hydration.ml_per_hour", "ml_per_hour: 500", "ml_per_hour: @V@"),
        Key("hydration.sodium_mg_per_hour", "sodium_mg_per_hour: 400", "sodium_mg_per_hour: @V@"),
        Key("hydration.aid_stations_km", "aid_stations_km: [2.5, 5]", "aid_stations_km: [@V@]"),
        Key("hydration.aid_stations_km", "aid_stations_km: [2.5, 5]", "aid_stations_km: [2.5, @V@]"),
        Key("hydration.every", "every: \"0:15:00\"", "every: \"@V@:00\"", in: every),
        Key("hydration.every", "every: \"0:15:00\"", "every: \"@V@\"", in: every),
        Key("pacing", "until: 2k", "until: @V@", in: custom),
        Key("pacing", "until: 2k", "until: \"@V@ km\"", in: custom),
        Key("pacing", "pace: \"4:30/km\"", "pace: \"@V@:00/km\"", in: custom),
        Key("pacing", "pace: \"4:30/km\"", "pace: \"4:@V@/km\"", in: custom),
        Key("pacing", "effort: 1.0", "effort: @V@", in: custom)
    ]

    @Test(arguments: lines)
    func everyNumericArgumentIsRefusedOrAcceptedWithoutCrashing(_ line: Line) throws {
        let cli = try CLI()
        var runID = "0"
        if line.withRun {
            try cli.write("run.tcx", steadyTCX(seconds: 1300))   // 5.4 km at 4:00/km: records for predict and reports
            let imported = cli.runHere(["import", "--format", "json", cli.at("run.tcx")] + cli.store)
            let json = try JSONSerialization.jsonObject(with: Data(imported.stdout.utf8)) as? [[String: Any]]
            runID = try #require((json?.first?["runIds"] as? [String])?.first, "\(imported.stderr)")
        }
        for value in Self.values {
            let args = line.arguments(value, run: runID, in: cli)
            let r = cli.runHere(args, seconds: Self.seconds)
            Self.check(r, value: value, names: line.option, what: args.joined(separator: " "))
        }
    }

    @Test(arguments: keys)
    func everyNumericSetupKeyIsRefusedOrPlannedWithoutCrashing(_ key: Key) throws {
        let cli = try CLI()
        for value in Self.values {
            try cli.write("race.yaml", try key.yaml(value))
            // The script is generated from the plan: only worth running when the plan is made.
            for args in [
                ["race", "plan", cli.at("race.yaml")],
                ["race", "script", cli.at("race.yaml"), "--output", cli.at("race.json"), "--force"]
            ] {
                let r = cli.runHere(args + cli.store, seconds: Self.seconds)
                Self.check(
                    r, value: value, names: key.key,
                    what: "\(key.template) with \(value): \(args.joined(separator: " "))")
                if r.status != 0 { break }
            }
        }
    }

    /// The base setups plan: a refusal above is the value's, not the setup's.
    @Test func theBaseSetupsPlan() throws {
        let cli = try CLI()
        for yaml in [Self.setup, Self.custom, Self.every] {
            try cli.write("race.yaml", yaml)
            let r = cli.runHere(["race", "plan", cli.at("race.yaml")] + cli.store)
            #expect(r.status == 0, "\(r.stderr)")
        }
    }

    static func check(_ r: CLI.Result, value: String, names: String, what: String) {
        #expect(!r.timedOut, "\(what): still running after \(seconds) s (killed)")
        #expect([0, 64, 65, 66].contains(r.status), "\(what): exit \(r.status)\n\(r.stderr)")
        for crash in ["Fatal error", "Backtrace", "Program crashed"] {
            #expect(!r.stderr.contains(crash), "\(what): \(r.stderr)")
        }
        if absurd.contains(value) { #expect(r.status != 0, "\(what): accepted") }
        if r.status == 64 || r.status == 65 {
            // The message, without ArgumentParser's usage lines (which list every option).
            let message = r.stderr.split(separator: "\n").filter { !$0.hasPrefix("Usage:") && !$0.hasPrefix("  See '") }
                .joined(separator: "\n")
            #expect(message.contains(names), "\(what): the message does not name \(names): \(r.stderr)")
        }
    }
}

extension CLI.Result {
    /// Set by `runBounded` when the process had to be killed.
    var timedOut: Bool { status == CLI.killedStatus }
}

extension CLI {
    /// The status `runBounded` reports for a process it killed.
    static let killedStatus: Int32 = -9

    /// Runs the binary like `run`, but kills it after `seconds` (status `killedStatus`).
    /// Output goes to files, so a chatty process never blocks on a full pipe.
    func runBounded(_ args: [String], seconds: Double = ExtremeArgumentTests.seconds) throws -> Result {
        let p = process(args)
        let id = UUID().uuidString
        let outURL = workdir.appendingPathComponent(".out-\(id)"), errURL = workdir.appendingPathComponent(".err-\(id)")
        FileManager.default.createFile(atPath: outURL.path, contents: nil)
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)
        defer {
            try? out.close(); try? err.close()
            try? FileManager.default.removeItem(at: outURL); try? FileManager.default.removeItem(at: errURL)
        }
        p.standardOutput = out
        p.standardError = err
        let done = DispatchSemaphore(value: 0)
        p.terminationHandler = { _ in done.signal() }
        try p.run()
        var killed = false
        if done.wait(timeout: .now() + seconds) == .timedOut {
            killed = true
            kill(p.processIdentifier, SIGKILL)
            done.wait()
        }
        // Read through a file handle: under AddressSanitizer, Data(contentsOf:)'s
        // buffers were reported as leaked (Foundation's reader, not ours).
        func contents(_ url: URL) throws -> Data {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            return try handle.readToEnd() ?? Data()
        }
        let o = try contents(outURL), e = try contents(errURL)
        return Result(
            status: killed ? Self.killedStatus : p.terminationStatus,
            stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self))
    }
}

/// `predict` answers performances the models were not fitted to, with a warning.
@Suite struct PredictWarningTests {
    @Test func warnsBelowAMileAndAboveVDOT85OnStderrOrInJSON() throws {
        let cli = try CLI()
        let short = try cli.run(["predict", "--from", "800m=2:30", "--to", "5k"])
        #expect(
            short.status == 0 && short.stderr.contains("warning:") && short.stderr.contains("shorter than a mile"),
            "\(short.stderr)")
        let fast = try cli.run(["predict", "--from", "10k=26:00", "--to", "half", "--format", "json"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(fast.stdout.utf8)) as? [String: Any])
        let warnings = try #require(json["warnings"] as? [String])
        #expect(warnings.count == 1 && warnings[0].contains("above 85"), "\(warnings)")
        #expect(fast.stderr.isEmpty)
        let usual = try cli.run(["predict", "--from", "10k=45:00", "--to", "half", "--format", "json"])
        let plain = try #require(try JSONSerialization.jsonObject(with: Data(usual.stdout.utf8)) as? [String: Any])
        #expect((plain["warnings"] as? [String]) == [])
        #expect(try cli.run(["predict", "--from", "10k=45:00", "--to", "half"]).stderr.isEmpty)
    }
}
