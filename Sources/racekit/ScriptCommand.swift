import ArgumentParser
import Foundation
import RaceKitCore
import RaceKitRace
import RaceKitScript
import RaceKitStore

extension RaceKitCommand.Race {
    struct Script: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "script",
            abstract: "Generate the branched race script of a race setup (JSON for a companion app).",
            discussion: """
                The personality comes from --personality, --personality-file, the setup's script.personality \
                (or script.personality_file), else calm_coach. The script is written beside the race file, \
                named after it (Races/hilly-half.yaml: Races/hilly-half.script.json), unless the setup's \
                script.output or --out says otherwise; an unchanged script (same input digest) is left alone \
                unless --force.

                  racekit race script Races/berlin-marathon-2026.yaml --personality calm_coach
                  racekit race script Races/hilly-half.yaml --personality-file my-voice.yaml
                """
        )
        @OptionGroup var storeOptions: StoreOptions
        @Argument(help: "The race setup (YAML).") var file: String
        @Option(help: "A shipped personality (or --personality-file).")
        var personality: ShippedPersonality?
        @Option(help: ArgumentHelp("A personality YAML of your own.", valueName: "file")) var personalityFile: String?
        @Option(help: ArgumentHelp("Where to write the script.", valueName: "file")) var out: String?
        /// The old name of --out, kept working and out of the help.
        @Option(name: .customLong("output"), help: .hidden) var output: String?
        @Option(help: "Pace feedback every km or mi.") var unit: DistanceUnit = .km
        @Flag(help: "Write even when the script is up to date.") var force = false

        func validate() throws {
            if out != nil, output != nil { throw ValidationError("--output is the old name of --out: give one") }
        }

        func run() throws {
            let plan = try RacePlanner.plan(try SetupLoader.load(path: file), unitMeters: unit.meters)
            let athlete = plan.setup.athlete ?? Athlete.defaultID
            let store = try storeOptions.readIfExists()
            let physiology = try store.flatMap { store in
                try store.athlete(id: athlete) == nil ? nil : try store.physiology(athleteID: athlete)
            }
            let options = RaceScriptJob.Options(
                personality: personality, personalityFile: personalityFile, output: out ?? output, force: force,
                physiology: physiology)
            switch try RaceScriptJob.run(options, plan: plan) {
            case .upToDate(let path, let digest):
                Console.out("\(path) is up to date (input digest \(digest.prefix(12))); --force rewrites it")
            case .written(let path, let s, let voice, let warnings):
                for w in warnings { Console.error("warning: \(w)") }
                // Why there is no heart-rate message: no store at all (a wrong --store
                // is not an athlete without a threshold), or the athlete's settings.
                let heart =
                    store == nil
                    ? "; no heart-rate message (no store at \(storeOptions.path): give --store or RACEKIT_STORE)"
                    : physiology?.thresholdHeartRate == nil && physiology?.maxHeartRate == nil
                        ? "; no heart-rate message (athlete '\(athlete)' has no threshold or max HR in the store)" : ""
                Console.out(
                    "wrote \(path): \(s.messages) messages, \(s.branchPoints) branch points, \(s.gels) gels, \(s.drinks) drinks, \(s.hills) hill cues (\(voice))\(heart)"
                )
            }
        }
    }
}

extension RaceKitCommand {
    struct ScriptGroup: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "script",
            abstract: "Race scripts: validate, show, simulate against a stored run or the plan, and render to audio.",
            discussion: """
                  racekit script validate Races/berlin-marathon-2026.script.json
                  racekit script show Races/berlin-marathon-2026.script.json --format md
                  racekit script simulate Races/berlin-marathon-2026.script.json --run 01KKB8Q7
                  racekit script simulate Races/berlin.script.json --race Races/berlin.yaml
                  racekit script render Races/berlin-marathon-2026.script.json
                """,
            subcommands: [Validate.self, Show.self, Simulate.self, Render.self]
        )
    }
}

/// How `script show` and `script simulate` place and name messages.
enum ScriptLoading {
    static func load(_ path: String) throws -> RaceScript { try RaceScript.load(path: path) }

    /// Where a message speaks, for ordering: metres, or nil for conditions.
    static func position(_ m: ScriptMessage, _ plan: ScriptPlan) -> Double? {
        let t = m.trigger
        switch t.type {
        case .distance: return t.atMeters ?? t.everyMeters
        case .time: return (t.atSeconds ?? 0) / plan.targetSeconds * plan.distanceMeters
        case .halfway: return plan.distanceMeters / 2
        case .near_finish: return plan.distanceMeters - (t.remainingMeters ?? 0)
        case .condition, .fatigue_zone: return nil
        }
    }

    static func shortID(_ id: String, _ script: RaceScript) -> String {
        id.hasPrefix(script.race + ".") ? String(id.dropFirst(script.race.count + 1)) : id
    }
}

extension RaceKitCommand.ScriptGroup {
    struct Validate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "validate",
            abstract: "Check a script: structure, triggers, expressions, branches, placeholders.")
        @OptionGroup var storeOptions: StoreOptions
        @Argument(help: "The script (JSON).") var file: String
        func run() throws {
            let s = try ScriptLoading.load(file)
            Console.out(
                "\(file): valid: \(s.messages.count) messages, \(s.branches.count) branches, personality \(s.personality), generator \(s.generator)"
            )
        }
    }

    enum ShowFormat: String, ExpressibleByArgument, CaseIterable { case table, md }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "Print a script for a coach, grouped by distance.")
        @OptionGroup var storeOptions: StoreOptions
        @Argument(help: "The script (JSON).") var file: String
        @Option(help: "table or md.") var format: ShowFormat = .table
        func run() throws {
            let s = try ScriptLoading.load(file)
            let placed = s.messages.compactMap { m in ScriptLoading.position(m, s.plan).map { (m, $0) } }
                .sorted { ($0.1, -$0.0.priority) < ($1.1, -$1.0.priority) }
            let anytime = s.messages.filter { ScriptLoading.position($0, s.plan) == nil }
            var out =
                s.messages.isEmpty
                ? ""
                : (format == .md
                    ? "# Race script: \(s.race) (\(s.personality))\n\n"
                    : "Race script: \(s.race) (\(s.personality))\n\n")
            out +=
                "Target \(TextFormat.duration(s.plan.targetSeconds)) over \(TextFormat.fixed(s.plan.distanceMeters / 1000, 3)) km; \(s.messages.count) messages. "
                + "{placeholders} are filled during the race.\n"
            var group: Double?
            for (m, x) in placed {
                if group == nil || abs(group! - x) > 0.5 {
                    group = x
                    let clock = TextFormat.duration(s.plan.clock(at: x))
                    out +=
                        format == .md
                        ? "\n## \(TextFormat.fixed(x / 1000, 2)) km (planned \(clock))\n\n"
                        : "\n\(TextFormat.fixed(x / 1000, 2)) km (planned \(clock))\n"
                }
                out += line(m, s) + "\n"
            }
            if !anytime.isEmpty {
                out += format == .md ? "\n## Any time (conditions)\n\n" : "\nAny time (conditions)\n"
                for m in anytime { out += line(m, s) + "\n" }
            }
            Console.out(out.trimmingTrailingNewlines())
        }

        func line(_ m: ScriptMessage, _ s: RaceScript) -> String {
            var tags = ["priority \(m.priority)"]
            if let k = m.branchKey, let e = s.branches[k] { tags.insert("if \(e)", at: 0) }
            if let e = m.trigger.expression { tags.insert("when \(e)", at: 0) }
            if m.priority >= s.engine.criticalPriority { tags.append("race-critical") }
            let id = ScriptLoading.shortID(m.id, s)
            return format == .md
                ? "- **\(id)** (\(tags.joined(separator: "; "))): \(m.text)"
                : "  \(id) [\(tags.joined(separator: "; "))]\n      \(m.text)"
        }
    }

    struct Simulate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "simulate",
            abstract: "Replay a stored run (or a run exactly on plan) through the script at 1 Hz.",
            discussion:
                "Prints every message that would have played and, for each that never did, why: window, lower_priority, cooldown, branch_not_taken, never_triggered or stale."
        )
        @OptionGroup var storeOptions: StoreOptions
        @Argument(help: "The script (JSON).") var file: String
        @Option(name: .customLong("run"), help: "A stored run (id or unique prefix).") var runID: String?
        @Option(
            help: ArgumentHelp(
                "Simulate a run that follows the plan exactly (the race setup the script was made from).",
                valueName: "file")) var race: String?
        @Option(help: "table, md or json.") var format: ShowFormatWithJSON = .table
        @Flag(help: "With --race: simulate even when the script was made from another version of the setup.")
        var allowStale = false

        enum ShowFormatWithJSON: String, ExpressibleByArgument, CaseIterable { case table, md, json }

        func validate() throws {
            guard (runID == nil) != (race == nil) else { throw ValidationError("give --run ID or --race FILE") }
        }

        func run() throws {
            let s = try ScriptLoading.load(file)
            let metrics: [Metrics]
            var source: String
            if let race {
                let setup = try SetupLoader.load(path: race)
                guard setup.slug == s.race else {
                    throw Failure(.usage, "\(race) is race '\(setup.slug)' but the script is for '\(s.race)'")
                }
                if let why = ScriptStaleness.check(s, against: try RacePlanner.plan(setup, unitMeters: s.plan.unit)) {
                    guard allowStale else {
                        throw Failure(
                            .dataError,
                            "\(file) was not made from \(race) as it is now (\(why)): run racekit race script \(race) to make it again, or give --allow-stale"
                        )
                    }
                    Console.error("warning: \(file) is stale for \(race) (\(why)); simulating the script's own plan")
                }
                metrics = ScriptReplay.onPlan(s)
                source = "a run exactly on plan (\(TextFormat.duration(s.plan.targetSeconds)))"
            } else {
                let store = try storeOptions.read()
                let record = try RunLookup.find(store, runID!)
                let tz =
                    try store.athlete(id: record.athleteID).flatMap { TimeZone(identifier: $0.timeZone) } ?? TimeZone(
                        identifier: "UTC")!
                metrics = ScriptReplay.recorded(
                    try store.samples(of: record), startEpoch: record.startedAt, script: s,
                    physiology: try store.physiology(athleteID: record.athleteID), timeZone: tz)
                guard !metrics.isEmpty else {
                    throw Failure(.dataError, "run \(record.id) has too few samples to simulate")
                }
                source =
                    "run \(record.id) (\(String(Format.isoTime(record.startedAt).prefix(10))), \(TextFormat.fixed((metrics.last?.distance ?? 0) / 1000, 2)) km in \(TextFormat.duration(Double(metrics.count - 1))))"
            }
            let result: SimulationResult
            do { result = try TriggerEngine.simulate(s, metrics: metrics) } catch {
                throw ScriptError(path: file, message: "\(error)")
            }
            let report = ScriptReplay.Report(result)
            if format == .json {
                Console.json(try JSONOutput.string(report))
                return
            }
            let rows = result.played.map { p in
                [
                    TextFormat.duration(Double(p.elapsedSeconds)), TextFormat.fixed(p.distanceMeters / 1000, 2),
                    ScriptLoading.shortID(p.messageId, s),
                    p.triggerType.rawValue, p.branchKey ?? "", p.text
                ]
            }
            let summary = report.summaryLine
            if format == .md {
                var out = "# Simulation of \(s.race) (\(s.personality))\n\nAgainst \(source).\n\n"
                out +=
                    TextFormat.markdownTable(
                        header: ["elapsed", "km", "message", "trigger", "branch", "text"],
                        rows: rows, rightAligned: [0, 1]) + "\n"
                out +=
                    "\n## Not played\n\n"
                    + result.notPlayed.map { "- \(ScriptLoading.shortID($0.messageId, s)): \($0.reason.rawValue)" }
                    .joined(separator: "\n")
                Console.out(out + "\n\n" + summary)
                return
            }
            Console.out("Simulating \(s.race) (\(s.personality)) against \(source)\n")
            Console.out(
                Format.table(
                    header: ["elapsed", "km", "message", "trigger", "branch", "text"], rows: rows, rightAligned: [0, 1])
            )
            if !result.notPlayed.isEmpty {
                Console.out("\nNot played:")
                Console.out(
                    Format.table(
                        header: ["message", "reason"],
                        rows: result.notPlayed.map { [ScriptLoading.shortID($0.messageId, s), $0.reason.rawValue] }))
            }
            Console.out("\n" + summary)
        }
    }
}
