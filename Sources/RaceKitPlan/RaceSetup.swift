import Foundation
import RaceKitMetrics

/// A race setup (one YAML file under Races/), validated and normalised.
public struct RaceSetup: Sendable {
    /// Where the setup was read from (for messages and relative paths).
    public var file: String
    public var name: String
    /// Slug of the name: stable id for scripts and file names.
    public var slug: String
    public var date: String?
    /// Start time of day, "HH:MM" (local), for wall-clock cue times and exported course times.
    public var startTime: String?
    public var athlete: String?
    /// As written (e.g. "marathon") and in metres.
    public var distanceText: String
    public var distanceMeters: Double
    public var targetSeconds: Double
    public var strategy: PacingStrategy
    public var gradeModel: GradeCostModel = .road
    public var smoothingMeters: Double = 200
    /// The course file as written, and resolved against the setup's folder.
    public var course: String?
    public var coursePath: String?

    /// The setup file's name without `.yaml`/`.yml` (the slug when that leaves
    /// nothing): the stem of every output made from it (script, band, TCX, GPX,
    /// review), so that two setup files, even with the same `name:`, never share one.
    public var fileStem: String {
        let name = (file as NSString).lastPathComponent
        let ext = (name as NSString).pathExtension.lowercased()
        let stem = ext == "yaml" || ext == "yml" ? (name as NSString).deletingPathExtension : name
        return stem.isEmpty || stem == "." || stem == ".." ? slug : stem
    }

    /// A path named in the setup (course, script files), resolved against the
    /// setup file's folder unless absolute.
    public func resolvedPath(_ path: String) -> String {
        path.hasPrefix("/")
            ? path : URL(fileURLWithPath: file).deletingLastPathComponent().appendingPathComponent(path).path
    }
    /// Lines of the `course` and `pacing` keys (0 when absent), for messages
    /// about the course file or a plan the course makes impossible.
    public var courseLine = 0
    public var pacingLine = 0
    /// Seconds after midnight of `start_time` (nil without one).
    public var startSecondsOfDay: Double? {
        startTime.flatMap { t in
            let p = t.split(separator: ":").compactMap { Double($0) }
            return p.count == 2 ? p[0] * 3600 + p[1] * 60 : nil
        }
    }
    /// Custom split points (metres); nil: every km or mile.
    public var checkpointsMeters: [Double]?
    public var fueling: FuelingSettings?
    public var hydration: HydrationSettings?
    /// Values that are possible but unusual (a sweat rate of 3 l/h): said with the plan.
    public var warnings: [String] = []
    /// The forecast and what to do with its heat (nil: none given).
    public var weather: WeatherSettings?
    public var personality: String?
    /// Keys under `script:` kept verbatim for the script generator.
    public var script: [String: String] = [:]
    public var notes: String?

    public init(
        file: String, name: String, distanceText: String, distanceMeters: Double, targetSeconds: Double,
        strategy: PacingStrategy = .even
    ) {
        self.file = file
        self.name = name
        self.slug = RaceSetup.slug(name)
        self.distanceText = distanceText
        self.distanceMeters = distanceMeters
        self.targetSeconds = targetSeconds
        self.strategy = strategy
    }

    /// Lower-case ASCII letters and digits, runs of anything else as one '-'.
    public static func slug(_ text: String) -> String {
        var out = ""
        var dash = false
        for scalar in text.lowercased().unicodeScalars {
            let folded: String
            switch scalar {
            case "ä", "æ": folded = "ae"
            case "ö", "ø", "œ": folded = "oe"
            case "ü": folded = "ue"
            case "ß": folded = "ss"
            case "à", "á", "â", "ã", "å": folded = "a"
            case "è", "é", "ê", "ë": folded = "e"
            case "ì", "í", "î", "ï": folded = "i"
            case "ò", "ó", "ô", "õ": folded = "o"
            case "ù", "ú", "û": folded = "u"
            case "ç": folded = "c"
            case "ñ": folded = "n"
            default:
                folded =
                    (scalar.isASCII && (("a"..."z").contains(scalar) || ("0"..."9").contains(scalar)))
                    ? String(scalar) : ""
            }
            if folded.isEmpty { dash = !out.isEmpty; continue }
            if dash { out += "-"; dash = false }
            out += folded
        }
        return out.isEmpty ? "race" : out
    }
}
