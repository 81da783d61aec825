import Foundation
import RaceKitMetrics
import RaceKitModel
import RaceKitOutput
import RaceKitPlan
import RaceKitScript

/// `race script`: the personality chosen, the script generated and written
/// unless the one on disk was made from the same inputs.
public enum RaceScriptJob {
    public struct Options: Sendable {
        public var personality: ShippedPersonality?
        public var personalityFile: String?
        /// The script file (`--output`), or the folder it goes in (`--out`,
        /// created when missing, the file named after the setup).
        public var output: String?
        public var outputDirectory: String?
        public var force: Bool
        /// The athlete's physiology, for the heart-rate message (none without it).
        public var physiology: Physiology?

        public init(
            personality: ShippedPersonality?, personalityFile: String?, output: String?,
            outputDirectory: String? = nil, force: Bool, physiology: Physiology? = nil
        ) {
            self.personality = personality
            self.personalityFile = personalityFile
            self.output = output
            self.outputDirectory = outputDirectory
            self.force = force
            self.physiology = physiology
        }
    }

    public enum Outcome: Sendable {
        case upToDate(path: String, digest: String)
        /// `warnings`: the generator's (a personality that cannot cover the race
        /// without repeating a sentence).
        case written(path: String, statistics: ScriptGenerator.Statistics, personality: String, warnings: [String])
    }

    /// The personality: --personality-file, --personality, the setup's
    /// `script.personality_file` or `script.personality`, else calm_coach.
    public static func personality(_ o: Options, setup: RaceSetup) throws -> Personality {
        if let f = o.personalityFile
            ?? (o.personality == nil ? setup.script["personality_file"].map(setup.resolvedPath) : nil)
        {
            return try Personality.load(path: f)
        }
        return try Personality.named(
            o.personality?.rawValue ?? setup.personality ?? ShippedPersonality.calmCoach.rawValue)
    }

    /// Where the script goes: `--output FILE`; `--out DIR` (a folder, as
    /// everywhere: a name ending in .json that is no folder is refused, naming
    /// --output) with the setup's file name; the setup's `script.output`; or
    /// beside the setup. The file's folder is created when missing.
    static func scriptPath(_ o: Options, setup: RaceSetup) throws -> String {
        let name = "\(setup.fileStem).script.json"
        var isFolder: ObjCBool = false
        if let dir = o.outputDirectory, dir.hasSuffix(".json"),
            !(FileManager.default.fileExists(atPath: dir, isDirectory: &isFolder) && isFolder.boolValue)
        {
            throw Failure(
                .usage, "--out \(dir): --out is a folder (created when missing); give --output \(dir) for a file")
        }
        let path =
            o.output ?? o.outputDirectory.map { "\($0)/\(name)" } ?? setup.resolvedPath(setup.script["output"] ?? name)
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty { try AtomicFile.createDirectory(folder) }
        return path
    }

    public static func run(_ o: Options, plan: RacePlan) throws -> Outcome {
        let setup = plan.setup
        let voice = try personality(o, setup: setup)
        let path = try scriptPath(o, setup: setup)
        // Up to date when the existing script was made from the same inputs:
        // decided before generating anything. An existing file that does not
        // decode is not up to date, so it is regenerated (try? on purpose).
        let generation = ScriptGenerator.Options(physiology: o.physiology)
        let digests = ScriptGenerator.digests(plan: plan, personality: voice, options: generation)
        if !o.force, let data = InputFile.read(path), let old = try? RaceScript.decode(data),
            old.inputDigest == digests.input
        {
            return .upToDate(path: path, digest: digests.input)
        }
        var warnings: [String] = []
        let script = ScriptGenerator.generate(
            plan: plan, personality: voice, options: generation, known: digests, warnings: &warnings)
        let problems = script.validate()
        guard problems.isEmpty else {
            throw ScriptError(
                path: "",
                message: "the generated script is invalid (a bug): "
                    + problems.map(\.description).joined(separator: "; "))
        }
        try AtomicFile.write(String(decoding: try script.json(), as: UTF8.self) + "\n", to: path)
        return .written(
            path: path, statistics: ScriptGenerator.statistics(script), personality: voice.name, warnings: warnings)
    }
}

/// Whether a script still matches the race setup it is replayed against.
public enum ScriptStaleness {
    /// Why the script is stale for this plan, or nil when it matches. Version 2
    /// scripts carry the plan's digest; older ones are compared on the whole
    /// input digest, with their personality when it is a shipped one.
    public static func check(_ script: RaceScript, against plan: RacePlan) -> String? {
        if let recorded = script.planDigest {
            let now = ScriptGenerator.planDigest(plan)
            return recorded == now ? nil : "its plan digest is \(recorded.prefix(12)), the setup's is \(now.prefix(12))"
        }
        guard let voice = try? Personality.named(script.personality) else {
            return
                "it is a version \(script.version) script without a plan digest and its personality is not a shipped one"
        }
        let now = ScriptGenerator.digest(plan: plan, personality: voice)
        return script.inputDigest == now
            ? nil : "its input digest is \(script.inputDigest.prefix(12)), the setup's is \(now.prefix(12))"
    }
}
