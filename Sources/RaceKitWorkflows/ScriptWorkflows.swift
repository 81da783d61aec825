import Foundation
import RaceKitAudio
import RaceKitModel
import RaceKitOutput
import RaceKitPlan
import RaceKitScript
import RaceKitScriptWriter
import RaceKitStore

/// How `script show` and `script simulate` place and name messages.
public enum ScriptLoading {
    public static func load(_ path: String) throws -> RaceScript { try RaceScript.load(path: path) }

    /// Where a message speaks, for ordering: metres, or nil for conditions.
    public static func position(_ m: ScriptMessage, _ plan: ScriptPlan) -> Double? {
        let t = m.trigger
        switch t.type {
        case .distance: return t.atMeters ?? t.everyMeters
        case .time: return (t.atSeconds ?? 0) / plan.targetSeconds * plan.distanceMeters
        case .halfway: return plan.distanceMeters / 2
        case .near_finish: return plan.distanceMeters - (t.remainingMeters ?? 0)
        case .condition, .fatigue_zone: return nil
        }
    }

    public static func shortID(_ id: String, _ script: RaceScript) -> String {
        id.hasPrefix(script.race + ".") ? String(id.dropFirst(script.race.count + 1)) : id
    }
}

/// `script show`: a script for a coach, its messages grouped by where they speak.
public enum ScriptListing {
    /// The script as text, or Markdown when `markdown`.
    public static func text(_ s: RaceScript, markdown: Bool) -> String {
        let placed = s.messages.compactMap { m in ScriptLoading.position(m, s.plan).map { (m, $0) } }
            .sorted { ($0.1, -$0.0.priority) < ($1.1, -$1.0.priority) }
        let anytime = s.messages.filter { ScriptLoading.position($0, s.plan) == nil }
        var out =
            s.messages.isEmpty
            ? ""
            : (markdown
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
                    markdown
                    ? "\n## \(TextFormat.fixed(x / 1000, 2)) km (planned \(clock))\n\n"
                    : "\n\(TextFormat.fixed(x / 1000, 2)) km (planned \(clock))\n"
            }
            out += line(m, s, markdown: markdown) + "\n"
        }
        if !anytime.isEmpty {
            out += markdown ? "\n## Any time (conditions)\n\n" : "\nAny time (conditions)\n"
            for m in anytime { out += line(m, s, markdown: markdown) + "\n" }
        }
        return out.trimmingTrailingNewlines()
    }

    static func line(_ m: ScriptMessage, _ s: RaceScript, markdown: Bool) -> String {
        var tags = ["priority \(m.priority)"]
        if let k = m.branchKey, let e = s.branches[k] { tags.insert("if \(e)", at: 0) }
        if let e = m.trigger.expression { tags.insert("when \(e)", at: 0) }
        if m.priority >= s.engine.criticalPriority { tags.append("race-critical") }
        let id = ScriptLoading.shortID(m.id, s)
        return markdown
            ? "- **\(id)** (\(tags.joined(separator: "; "))): \(m.text)"
            : "  \(id) [\(tags.joined(separator: "; "))]\n      \(m.text)"
    }
}

/// `script simulate`: replays a stored run, or a run exactly on the plan of the
/// race setup the script was made from, through the script at 1 Hz.
public struct ScriptSimulation {
    /// What the script is replayed against.
    public enum Source: Sendable {
        /// A stored run (id or unique prefix).
        case run(String)
        /// A run exactly on the plan of this race setup file; `allowStale`
        /// simulates even when the script was made from another version of it.
        case race(String, allowStale: Bool)
    }

    public let script: RaceScript
    public let result: SimulationResult
    /// "run ID (date, km in time)" or "a run exactly on plan (target)".
    public let against: String

    /// Simulates the script at `file`; the store is opened (`openStore`) only for
    /// a stored run, or for a power setup that takes its figures from the store
    /// (as `race script` did). A stale-script warning is told to `note`.
    public init(
        file: String, source: Source, openStore: () throws -> any Store, note: (String) -> Void
    ) throws {
        let s = try ScriptLoading.load(file)
        let metrics: [Metrics]
        switch source {
        case .race(let race, let allowStale):
            metrics = try Self.onPlan(
                s, file: file, race: race, allowStale: allowStale, openStore: openStore, note: note)
            against = "a run exactly on plan (\(TextFormat.duration(s.plan.targetSeconds)))"
        case .run(let runID):
            (metrics, against) = try Self.recorded(s, store: try openStore(), runID: runID)
            if let short = Self.shortRun(s, ranMeters: metrics.last?.distance ?? 0) { note(short) }
        }
        do { result = try TriggerEngine.simulate(s, metrics: metrics) } catch {
            throw ScriptError(path: file, message: "\(error)")
        }
        script = s
    }

    static func onPlan(
        _ s: RaceScript, file: String, race: String, allowStale: Bool, openStore: () throws -> any Store,
        note: (String) -> Void
    ) throws -> [Metrics] {
        var setup = try SetupLoader.load(path: race)
        guard setup.slug == s.race else {
            throw Failure(.usage, "\(race) is race '\(setup.slug)' but the script is for '\(s.race)'")
        }
        // Power figures the setup leaves to the store: without a store the
        // planner names the key that is missing; a store that cannot be read
        // is said as such.
        if case .power(let target) = setup.strategy,
            target.wattsPerMps == nil || (target.cpPercent != nil && target.criticalPowerWatts == nil)
        {
            let store: (any Store)?
            do { store = try openStore() } catch StoreError.missing { store = nil }
            try PowerPlanning.fill(&setup, store: store)
        }
        if let why = ScriptStaleness.check(s, against: try RacePlanner.plan(setup, unitMeters: s.plan.unit)) {
            guard allowStale else {
                throw Failure(
                    .dataError,
                    "\(file) was not made from \(race) as it is now (\(why)): run racekit race script \(race) to make it again, or give --allow-stale"
                )
            }
            note("warning: \(file) is stale for \(race) (\(why)); simulating the script's own plan")
        }
        return ScriptReplay.onPlan(s)
    }

    /// The warning for a run shorter than the race (by more than 2%): a
    /// marathon script replayed against a half cannot say what it says past
    /// the half, and the replay must not look like the race.
    static func shortRun(_ s: RaceScript, ranMeters: Double) -> String? {
        let race = s.plan.distanceMeters
        guard race > 0, ranMeters < race * 0.98 else { return nil }
        let km = { (m: Double) in TextFormat.fixed(m / 1000, 2) }
        return
            "warning: the run is \(km(ranMeters)) km, \(Int((100 * ranMeters / race).rounded()))% of the race's \(km(race)) km: nothing the script says past \(km(ranMeters)) km can play, and the finish never comes"
    }

    static func recorded(_ s: RaceScript, store: any Store, runID: String) throws -> ([Metrics], String) {
        let record = try RunLookup.find(store, runID)
        let tz =
            try store.athlete(id: record.athleteID).flatMap { TimeZone(identifier: $0.timeZone) } ?? TimeZone(
                identifier: "UTC")!
        let metrics = ScriptReplay.recorded(
            try store.samples(of: record), startEpoch: record.startedAt, script: s,
            physiology: try store.physiology(athleteID: record.athleteID), timeZone: tz)
        guard !metrics.isEmpty else {
            throw Failure(.dataError, "run \(record.id) has too few samples to simulate")
        }
        return (
            metrics,
            "run \(record.id) (\(String(TextFormat.isoTime(record.startedAt).prefix(10))), \(TextFormat.fixed((metrics.last?.distance ?? 0) / 1000, 2)) km in \(TextFormat.duration(Double(metrics.count - 1))))"
        )
    }

    /// `--format json`.
    public func json() throws -> String { try JSONOutput.string(ScriptReplay.Report(result)) }

    var rows: [[String]] {
        result.played.map { p in
            [
                TextFormat.duration(Double(p.elapsedSeconds)), TextFormat.fixed(p.distanceMeters / 1000, 2),
                ScriptLoading.shortID(p.messageId, script),
                p.triggerType.rawValue, p.branchKey ?? "", p.text
            ]
        }
    }

    /// `--format md`.
    public func markdown() -> String {
        var out = "# Simulation of \(script.race) (\(script.personality))\n\nAgainst \(against).\n\n"
        out +=
            TextFormat.markdownTable(
                header: ["elapsed", "km", "message", "trigger", "branch", "text"],
                rows: rows, rightAligned: [0, 1]) + "\n"
        out +=
            "\n## Not played\n\n"
            + result.notPlayed.map { "- \(ScriptLoading.shortID($0.messageId, script)): \($0.reason.rawValue)" }
            .joined(separator: "\n")
        return out + "\n\n" + ScriptReplay.Report(result).summaryLine
    }

    /// The table: what played, what did not and why, the summary.
    public func text() -> String {
        var out = "Simulating \(script.race) (\(script.personality)) against \(against)\n\n"
        out += TextFormat.table(
            header: ["elapsed", "km", "message", "trigger", "branch", "text"], rows: rows, rightAligned: [0, 1])
        if !result.notPlayed.isEmpty {
            out += "\n\nNot played:\n"
            out += TextFormat.table(
                header: ["message", "reason"],
                rows: result.notPlayed.map { [ScriptLoading.shortID($0.messageId, script), $0.reason.rawValue] })
        }
        return out + "\n\n" + ScriptReplay.Report(result).summaryLine
    }
}

/// `script simulate --audio FILE`: the race as heard, and its cue sheet.
extension ScriptSimulation {
    /// What was written.
    public struct HeardFiles: Sendable {
        public var audioPath: String
        public var cuesPath: String
        public var lines: Int
        public var seconds: Double
        /// The render that made (or reused) the clips.
        public var render: ScriptAudio.Outcome

        /// The line `script simulate --audio` prints (to stderr: stdout is the simulation).
        public var summary: String {
            "the race as heard: \(lines) lines, \(TextFormat.duration(seconds)) of audio → \(audioPath) (cue sheet \(cuesPath); clips rendered \(render.rendered), reused \(render.reused))"
        }
    }

    /// The containers the race as heard can be written in, by the file's extension.
    public enum HeardFormat: String, Sendable {
        case opus, ogg, m4a, wav

        public init?(path: String) {
            self.init(rawValue: (path as NSString).pathExtension.lowercased())
        }

        /// The container of `path`, or a usage error naming the ones there are.
        public static func of(_ path: String) throws -> HeardFormat {
            guard let format = HeardFormat(path: path) else {
                throw Failure(.usage, "--audio \(path): give a file ending in .opus, .ogg, .m4a or .wav")
            }
            return format
        }
    }

    /// Renders (or reuses) the script's clips in its default audio folder, joins
    /// every played line (`HeardRace`), writes the audio to `path` (Ogg Opus;
    /// M4A through ffmpeg, WAV through opusfile, by extension) and the cue sheet
    /// beside it (`STEM.cues.txt`).
    public func writeAudio(
        scriptPath: String, to path: String, voice: String, realTime: Bool,
        progress: (@Sendable (Int, Int) -> Void)? = nil
    ) throws -> HeardFiles {
        let tools = try Self.checkAudio(scriptPath: scriptPath, to: path, voice: voice)
        let format = try HeardFormat.of(path)
        var options = ScriptAudio.Options(scriptPath: scriptPath, voice: voice, tools: tools, progress: progress)
        options.lockHeld = true
        // The folder stays locked until the clips are joined: no other render removes one meanwhile.
        let lock = try ScriptAudio.lock(ScriptAudio.directory(options))
        let render = try ScriptAudio.render(options)
        let heard = try HeardRace.build(played: result.played, render: render, realTime: realTime)
        withExtendedLifetime(lock) {}
        switch format {
        case .opus, .ogg: try AtomicFile.write(heard.bytes, to: path)
        case .m4a, .wav: try tools.convert(heard.bytes, to: path, format == .m4a ? .m4a : .wav)
        }
        let cuesPath = (path as NSString).deletingPathExtension + ".cues.txt"
        do { try AtomicFile.write(cueSheet(heard, audioPath: path), to: cuesPath) } catch {
            unlink(path)   // no audio without its cue sheet
            throw error
        }
        return HeardFiles(
            audioPath: path, cuesPath: cuesPath, lines: heard.cues.count, seconds: heard.seconds, render: render)
    }

    /// What `writeAudio` needs, checked before a simulation prints anything: a
    /// known container (64), a folder to write in (73), the libraries and programs (74) and
    /// the voice (64), and a file that is not one of the script's own clips (64).
    /// Returns the engine, encoder and programs.
    @discardableResult
    public static func checkAudio(scriptPath: String, to path: String, voice: String) throws -> SpeechTools {
        let format = try HeardFormat.of(path)
        let folder = ScriptAudio.folder(of: path)
        // A missing folder is created, as for every output (`AtomicFile.createDirectory`).
        try AtomicFile.createDirectory(folder)
        guard access(folder, W_OK) == 0 else {
            throw OutputError.cannotCreate(path: path, reason: "\(folder) is not a folder this user can write in")
        }
        // The same folder by any name (a symbolic link to it, `..` paths): its
        // device and inode, not its spelling.
        let audioFolder = ScriptAudio.directory(ScriptAudio.Options(scriptPath: scriptPath))
        var a = stat()
        var b = stat()
        if stat(folder, &a) == 0, stat(audioFolder, &b) == 0, a.st_dev == b.st_dev, a.st_ino == b.st_ino {
            throw Failure(
                .usage, "--audio \(path): that is the script's audio folder; write the race as heard elsewhere")
        }
        let tools = try SpeechTools.find(format: format == .m4a ? .m4a : .opus)
        if format == .wav, OpusLibrary.decoder == nil {
            throw AudioError.toolMissing(tool: "libopusfile", package: "libopusfile0")
        }
        try tools.checkVoice(voice)
        return tools
    }

    /// The cue sheet: where each line starts in the audio, when and where in
    /// the race it played, the message and the text as said.
    func cueSheet(_ heard: HeardRace.Audio, audioPath: String) -> String {
        func audioTime(_ s: Double) -> String {
            let tenths = Int((s * 10).rounded())
            return TextFormat.duration(Double(tenths / 10)) + ".\(tenths % 10)"
        }
        let rows = heard.cues.map { c in
            [
                audioTime(c.audioSeconds), TextFormat.duration(Double(c.elapsedSeconds)),
                TextFormat.fixed(c.distanceMeters / 1000, 2), ScriptLoading.shortID(c.messageId, script), c.text
            ]
        }
        return "The race as heard: \(script.race) (\(script.personality)) against \(against)\n"
            + "\((audioPath as NSString).lastPathComponent), \(audioTime(heard.seconds)) of audio, \(heard.cues.count) lines\n\n"
            + TextFormat.table(header: ["audio", "race", "km", "message", "text"], rows: rows, rightAligned: [0, 1, 2])
            + "\n"
    }
}
