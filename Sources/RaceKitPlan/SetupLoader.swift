import Foundation
import RaceKitMetrics
import RaceKitModel
import RaceKitOutput
import Yams

/// A race setup that cannot be used: names the file, the line and the key.
public struct SetupError: RaceKitError, Equatable {
    public var exitClass: ExitClass { kind == .unreadable ? .noInput : .dataError }

    public enum Kind: Sendable, Equatable {
        /// The file could not be read (missing, unreadable).
        case unreadable
        /// The YAML is malformed or a value is wrong.
        case invalid
    }
    public var kind: Kind
    public var file: String
    /// 1-based line, 0 when unknown.
    public var line: Int
    /// Dotted key path (`pacing.split_percent`), empty for the whole file.
    public var key: String
    public var message: String

    public init(kind: Kind, file: String, line: Int, key: String, message: String) {
        self.kind = kind; self.file = file; self.line = line; self.key = key; self.message = message
    }

    public var description: String {
        var s = file
        if line > 0 { s += ":\(line)" }
        s += ": "
        if !key.isEmpty { s += "\(key): " }
        return s + message
    }
}

/// Reads race setups (docs/race-plans.md, "The setup file") with Yams, strictly: every key is
/// known, every value has its type, and the plan the setup asks for can be made.
public enum SetupLoader {
    /// Keys of each mapping, in the order `race new` writes them.
    static let topKeys = [
        "name", "date", "start_time", "athlete", "distance", "target_time", "pacing", "course",
        "checkpoints", "fueling", "hydration", "weather", "script", "notes"
    ]
    static let pacingKeys = [
        "strategy", "split_percent", "segments", "grade_model", "smoothing_m", "watts", "cp_percent",
        "critical_power_w", "watts_per_mps"
    ]
    /// The keys only a power strategy takes.
    static let powerKeys = ["watts", "cp_percent", "critical_power_w", "watts_per_mps"]
    static let segmentKeys = ["until", "pace", "effort"]
    static let fuelingKeys = [
        "carbs_per_hour_g", "gel_carbs_g", "start_after", "stop_before_finish", "snap_tolerance", "caffeine"
    ]
    static let caffeineKeys = ["mg", "after", "every"]
    static let hydrationKeys = [
        "ml_per_hour", "sodium_mg_per_hour", "aid_stations_km", "every", "sweat_rate_l_per_h", "body_mass_kg"
    ]
    static let scriptKeys = ["personality", "personality_file", "output"]

    public static func load(path: String) throws -> RaceSetup {
        try parse(yaml: try yamlText(path: path), file: path)
    }

    /// The most a setup or personality file may hold: a marathon's setup with
    /// every checkpoint, or a personality with many texts, is a few KB.
    public static let maxFileBytes = 1 << 20

    /// A setup or personality file's text: a regular file of at most
    /// `maxFileBytes` (no more is read), UTF-8. What is refused is described,
    /// never quoted: a secret file given by mistake stays unsaid.
    package static func yamlText(path: String) throws -> String {
        func refuse(_ kind: SetupError.Kind, _ message: String) -> SetupError {
            SetupError(kind: kind, file: path, line: 0, key: "", message: message)
        }
        if let why = RegularFile.refusal(path) { throw refuse(.unreadable, why) }
        guard let data = InputFile.read(path, limit: maxFileBytes) else {
            throw refuse(
                .unreadable, FileManager.default.fileExists(atPath: path) ? "cannot read the file" : "no such file")
        }
        guard data.count <= maxFileBytes else {
            throw refuse(
                .invalid, "larger than \(maxFileBytes / 1024) KB, the most a setup or personality file may hold")
        }
        guard let text = String(data: data, encoding: .utf8) else { throw refuse(.invalid, "not UTF-8 text") }
        return text
    }

    /// Refuses the control characters YAML does not allow (all of C0 but tab,
    /// LF and CR, and DEL), naming the first one's line and column, before the
    /// YAML parser sees them: its error quoted the whole line, and a file of
    /// NULs took it time growing with the square of its size.
    package static func checkControls(_ text: String, file: String) throws {
        var line = 1, column = 1
        for u in text.unicodeScalars {
            if u == "\n" {
                line += 1; column = 1
                continue
            }
            if (u.value < 0x20 && u != "\t" && u != "\r") || u.value == 0x7F {
                let code = String(u.value, radix: 16, uppercase: true)
                throw SetupError(
                    kind: .invalid, file: file, line: line, key: "",
                    message:
                        "not valid YAML: column \(column) holds a control character (U+\(code.count < 2 ? "0" : "")\(code)), which YAML does not allow"
                )
            }
            column += 1
        }
    }

    public static func parse(yaml: String, file: String) throws -> RaceSetup {
        try checkControls(yaml, file: file)
        let root: Node?
        do {
            root = try Yams.compose(yaml: yaml)
        } catch let e as YamlError {
            throw yamlError(e, file: file, text: yaml)
        }
        guard let root else {
            throw SetupError(kind: .invalid, file: file, line: 0, key: "", message: "the file is empty")
        }
        var r = YAMLReader(file: file)
        let top = try r.mapping(root, path: "", known: topKeys)

        let name = try r.string(top.require("name"), "name")
        let distanceNode = try top.require("distance")
        let distanceText = try r.scalarText(distanceNode, "distance")
        guard let distance = Units.parseDistance(distanceText), PacePlan.distanceRange.contains(distance) else {
            throw r.error(
                distanceNode, "distance",
                "'\(distanceText)' is not a race distance (400 m to 250 km: 5k, 10k, half, marathon, \"42.195 km\", \"26.2 mi\", or metres)"
            )
        }
        let targetNode = try top.require("target_time")
        let targetText = try r.scalarText(targetNode, "target_time")
        guard let target = Units.parseDuration(targetText), target > 0 else {
            throw r.error(targetNode, "target_time", "'\(targetText)' is not a time (h:mm:ss or mm:ss)")
        }
        var setup = RaceSetup(
            file: file, name: name, distanceText: distanceText, distanceMeters: distance, targetSeconds: target)
        try readWhenAndWho(top, into: &setup, reader: &r)
        if let n = top["checkpoints"] {
            setup.checkpointsMeters = try checkpoints(n, reader: &r, distance: distance, distanceText: distanceText)
        }
        try readPacing(top, targetNode: targetNode, into: &setup, reader: &r)
        if let n = top["fueling"] { setup.fueling = try fueling(n, keyLine: top.keyLines["fueling"], reader: &r) }
        if let n = top["hydration"] {
            setup.hydration = try hydration(n, keyLine: top.keyLines["hydration"], reader: &r, distance: distance)
            if let sweat = setup.hydration?.sweatRateLPerHour, sweat > 2.5 {
                setup.warnings.append(
                    "hydration: a sweat rate of \(TextFormat.fixed(sweat, 2)) l/h is unusual (runners sweat 0.5-2.5 l/h; ACSM 2007): check sweat_rate_l_per_h (the loss over a run, in kg, plus what was drunk, per hour)"
                )
            }
        }
        if let n = top["weather"] {
            setup.weather = try weather(n, keyLine: top.keyLines["weather"], reader: &r, setup: &setup)
        }
        if let n = top["script"] {
            let m = try r.mapping(n, path: "script", known: scriptKeys, keyLine: top.keyLines["script"])
            for (key, value) in m.pairs { setup.script[key] = try r.string(value, "script.\(key)") }
            setup.personality = setup.script["personality"]
        }
        return setup
    }

    /// `date`, `start_time`, `athlete`, `notes` and `course`.
    private static func readWhenAndWho(_ top: YAMLFields, into setup: inout RaceSetup, reader r: inout YAMLReader)
        throws
    {
        if let n = top["date"] {
            let d = try r.scalarText(n, "date")
            guard Self.isDate(d) else { throw r.error(n, "date", "'\(d)' is not a date (YYYY-MM-DD)") }
            setup.date = d
        }
        if let n = top["start_time"] {
            let t = try r.scalarText(n, "start_time")
            guard let s = Units.parseDuration(t), t.contains(":"), s < 24 * 60 else {
                throw r.error(n, "start_time", "'\(t)' is not a time of day (HH:MM)")
            }
            setup.startTime = t
        }
        if let n = top["athlete"] { setup.athlete = try r.string(n, "athlete") }
        if let n = top["notes"] { setup.notes = try r.string(n, "notes") }
        if let n = top["course"] {
            let c = try r.string(n, "course")
            setup.course = c
            setup.courseLine = n.mark?.line ?? 0
            setup.coursePath = setup.resolvedPath(c)
        }
    }

    /// `checkpoints`: increasing distances before the finish.
    private static func checkpoints(_ n: Node, reader r: inout YAMLReader, distance: Double, distanceText: String)
        throws
        -> [Double]
    {
        let items = try r.sequence(n, "checkpoints")
        var points: [Double] = []
        for (i, item) in items.enumerated() {
            let key = "checkpoints[\(i)]"
            let t = try r.scalarText(item, key)
            guard let x = Units.parseDistance(t) else { throw r.error(item, key, "'\(t)' is not a distance") }
            guard x < distance else { throw r.error(item, key, "\(t) is not before the finish (\(distanceText))") }
            if let last = points.last, x <= last { throw r.error(item, key, "checkpoints must increase") }
            points.append(x)
        }
        return points
    }

    /// `pacing`, and whether the plan is possible at all (a course may change
    /// it; checked again when planned).
    private static func readPacing(
        _ top: YAMLFields, targetNode: Node, into setup: inout RaceSetup, reader r: inout YAMLReader
    )
        throws
    {
        var strategyNode: Node = targetNode
        if let n = top["pacing"] {
            strategyNode = n
            setup.pacingLine = top.keyLines["pacing"] ?? 0
            setup.strategy = try pacing(
                n, keyLine: top.keyLines["pacing"], reader: &r, setup: &setup, distance: setup.distanceMeters)
        }
        do {
            _ = try PacePlan(
                distanceMeters: setup.distanceMeters, targetSeconds: setup.targetSeconds, strategy: setup.strategy)
        } catch let e as PacePlanError {
            switch e {
            case .impossibleTarget(let why): throw r.error(targetNode, "target_time", why)
            case .inconsistentPlan(let why):
                throw SetupError(
                    kind: .invalid, file: setup.file, line: top.keyLines["pacing"] ?? strategyNode.mark?.line ?? 0,
                    key: "pacing", message: why)
            }
        }
    }

    private static func pacing(
        _ n: Node, keyLine: Int?, reader r: inout YAMLReader, setup: inout RaceSetup, distance: Double
    ) throws -> PacingStrategy {
        let m = try r.mapping(n, path: "pacing", known: pacingKeys, keyLine: keyLine)
        let strategyNode = try m.require("strategy")
        let name = try r.string(strategyNode, "pacing.strategy")
        if let g = m["grade_model"] {
            let text = try r.string(g, "pacing.grade_model")
            guard let model = GradeCostModel(rawValue: text) else {
                throw r.error(
                    g, "pacing.grade_model",
                    "'\(text)' is not one of \(GradeCostModel.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            setup.gradeModel = model
        }
        if let s = m["smoothing_m"] {
            setup.smoothingMeters = try r.number(s, "pacing.smoothing_m", in: 0...2000)
        }
        let percentNode = m["split_percent"], segmentsNode = m["segments"]
        if ["even", "negative", "positive", "custom"].contains(name), let k = powerKeys.first(where: { m[$0] != nil }) {
            throw r.error(m[k]!, "pacing.\(k)", "only a power strategy takes \(k)")
        }
        switch name {
        case "power":
            if let p = percentNode {
                throw r.error(p, "pacing.split_percent", "only a negative or positive strategy takes a split percent")
            }
            if let s = segmentsNode { throw r.error(s, "pacing.segments", "only a custom strategy takes segments") }
            var target = PacingStrategy.PowerTarget()
            switch (m["watts"], m["cp_percent"]) {
            case (let w?, nil): target.watts = try r.number(w, "pacing.watts", in: PowerPacing.wattsRange)
            case (nil, let c?): target.cpPercent = try r.number(c, "pacing.cp_percent", in: PowerPacing.cpPercentRange)
            case (_?, _?): throw r.error(n, "pacing", "give watts or cp_percent, not both")
            case (nil, nil):
                throw r.error(n, "pacing.watts", "a power strategy needs watts (e.g. 265) or cp_percent (e.g. 92)")
            }
            if let c = m["critical_power_w"] {
                target.criticalPowerWatts = try r.number(c, "pacing.critical_power_w", in: CriticalPower.plausibleWatts)
                target.criticalPowerSource = "the setup"
            }
            if let k = m["watts_per_mps"] {
                target.wattsPerMps = try r.number(k, "pacing.watts_per_mps", in: PowerPacing.wattsPerMpsRange)
                target.wattsPerMpsSource = "the setup"
            }
            return .power(target)
        case "even":
            if let p = percentNode {
                throw r.error(p, "pacing.split_percent", "only a negative or positive strategy takes a split percent")
            }
            if let s = segmentsNode { throw r.error(s, "pacing.segments", "only a custom strategy takes segments") }
            return .even
        case "negative", "positive":
            if let s = segmentsNode { throw r.error(s, "pacing.segments", "only a custom strategy takes segments") }
            guard let p = percentNode else {
                throw r.error(n, "pacing.split_percent", "a \(name) split needs split_percent (e.g. 2)")
            }
            let percent = try r.number(p, "pacing.split_percent", in: 0...19.99)
            return name == "negative" ? .negative(percent: percent) : .positive(percent: percent)
        case "custom":
            if let p = percentNode {
                throw r.error(p, "pacing.split_percent", "only a negative or positive strategy takes a split percent")
            }
            guard let s = segmentsNode else {
                throw r.error(
                    n, "pacing.segments", "a custom strategy needs segments: a list of {until, pace} or {until, effort}"
                )
            }
            let items = try r.sequence(s, "pacing.segments")
            guard !items.isEmpty else { throw r.error(s, "pacing.segments", "needs at least one segment") }
            var segments: [PacingStrategy.Segment] = []
            for (i, item) in items.enumerated() {
                let key = "pacing.segments[\(i)]"
                let seg = try r.mapping(item, path: key, known: segmentKeys)
                let untilNode = try seg.require("until")
                let untilText = try r.scalarText(untilNode, "\(key).until")
                let until: Double
                if ["finish", "end"].contains(untilText.lowercased()) {
                    until = distance
                } else {
                    guard let x = Units.parseDistance(untilText) else {
                        throw r.error(untilNode, "\(key).until", "'\(untilText)' is not a distance")
                    }
                    until = x
                }
                if let last = segments.last, until <= last.untilMeters {
                    throw r.error(untilNode, "\(key).until", "segments must end at increasing distances")
                }
                guard until <= distance + 0.5 else {
                    throw r.error(
                        untilNode, "\(key).until", "\(untilText) is beyond the finish (\(setup.distanceText))")
                }
                switch (seg["pace"], seg["effort"]) {
                case (let p?, nil):
                    let t = try r.scalarText(p, "\(key).pace")
                    guard let pace = Units.parsePace(t) else {
                        throw r.error(p, "\(key).pace", "'\(t)' is not a pace (4:37/km or 7:26/mi)")
                    }
                    guard PacePlan.paceRange.contains(pace) else {
                        throw r.error(p, "\(key).pace", "\(t) is out of range (2:00/km to 20:00/km)")
                    }
                    segments.append(.init(untilMeters: until, intensity: .pace(pace)))
                case (nil, let e?):
                    let v = try r.number(e, "\(key).effort", in: 0.5...2)
                    segments.append(.init(untilMeters: until, intensity: .effort(v)))
                case (_?, _?):
                    throw r.error(item, key, "give pace or effort, not both")
                case (nil, nil):
                    throw r.error(item, key, "needs pace (4:40/km) or effort (a multiplier such as 1.02)")
                }
            }
            if let last = segments.last, last.untilMeters < distance - 0.5 {
                throw r.error(
                    items.last!, "pacing.segments",
                    "the segments end at \(TextFormat.fixed(last.untilMeters / 1000, 3)) km; they must cover the whole \(setup.distanceText) (end with until: finish)"
                )
            }
            return .custom(segments)
        default:
            throw r.error(
                strategyNode, "pacing.strategy", "'\(name)' is not one of even, negative, positive, custom, power")
        }
    }

    private static func fueling(_ n: Node, keyLine: Int?, reader r: inout YAMLReader) throws -> FuelingSettings {
        let m = try r.mapping(n, path: "fueling", known: fuelingKeys, keyLine: keyLine)
        let carbs = try r.number(m.require("carbs_per_hour_g"), "fueling.carbs_per_hour_g", in: 0...200)
        let gel = try r.number(m.require("gel_carbs_g"), "fueling.gel_carbs_g", in: 1...100)
        var f = FuelingSettings(
            carbsPerHourGrams: carbs, gelCarbsGrams: gel,
            startAfterSeconds: try m["start_after"].map { try r.duration($0, "fueling.start_after") } ?? 30 * 60)
        if let s = m["stop_before_finish"] {
            f.stopBeforeFinishSeconds = try r.duration(s, "fueling.stop_before_finish")
        }
        if let s = m["snap_tolerance"] { f.snapToleranceSeconds = try r.duration(s, "fueling.snap_tolerance") }
        if let c = m["caffeine"] {
            let cm = try r.mapping(c, path: "fueling.caffeine", known: caffeineKeys, keyLine: m.keyLines["caffeine"])
            let mg = try r.number(cm.require("mg"), "fueling.caffeine.mg", in: 1...1000)
            let after = try cm["after"].map { try r.duration($0, "fueling.caffeine.after") } ?? 0
            var every: Double?
            if let e = cm["every"] {
                every = try r.duration(e, "fueling.caffeine.every", in: 60...YAMLReader.longestDuration)
            }
            f.caffeine = .init(milligrams: mg, afterSeconds: after, everySeconds: every)
        }
        return f
    }

    static func hydration(_ n: Node, keyLine: Int?, reader r: inout YAMLReader, distance: Double) throws
        -> HydrationSettings
    {
        let m = try r.mapping(n, path: "hydration", known: hydrationKeys, keyLine: keyLine)
        let sweat = try m["sweat_rate_l_per_h"].map { try r.number($0, "hydration.sweat_rate_l_per_h", in: 0.1...4) }
        let mass = try m["body_mass_kg"].map { try r.number($0, "hydration.body_mass_kg", in: 30...200) }
        if sweat != nil, mass == nil {
            throw r.error(
                n, "hydration.body_mass_kg", "a sweat rate needs the body mass (kg) to keep the loss under 2%")
        }
        if let b = m["body_mass_kg"], sweat == nil {
            throw r.error(b, "hydration.body_mass_kg", "the body mass is used with sweat_rate_l_per_h: give both")
        }
        // Without a sweat rate the ask is the plan; with one it is a floor.
        if sweat == nil { _ = try m.require("ml_per_hour") }
        let asked = try m["ml_per_hour"].map { try r.number($0, "hydration.ml_per_hour", in: 0...3000) }
        var h = HydrationSettings(mlPerHour: asked ?? 0)
        (h.sweatRateLPerHour, h.bodyMassKg, h.askedMlPerHour) = (sweat, mass, asked)
        if let s = m["sodium_mg_per_hour"] {
            h.sodiumMgPerHour = try r.number(s, "hydration.sodium_mg_per_hour", in: 0...5000)
        }
        switch (m["aid_stations_km"], m["every"]) {
        case (let a?, nil):
            let items = try r.sequence(a, "hydration.aid_stations_km")
            for (i, item) in items.enumerated() {
                let key = "hydration.aid_stations_km[\(i)]"
                let km = try r.number(item, key, in: 0...1000)
                guard km > 0, km * 1000 <= distance + 0.5 else {
                    throw r.error(
                        item, key,
                        "\(TextFormat.fixed(km, 3)) km is not on the course (0 to \(TextFormat.fixed(distance / 1000, 3)) km)"
                    )
                }
                if let last = h.aidStationsMeters.last, km * 1000 <= last {
                    throw r.error(item, key, "aid stations must be listed in increasing order")
                }
                h.aidStationsMeters.append(km * 1000)
            }
        case (nil, let e?):
            let every = try r.duration(e, "hydration.every", in: 60...YAMLReader.longestDuration)
            h.everySeconds = every
        case (_?, let e?):
            throw r.error(e, "hydration.every", "give aid_stations_km or every, not both")
        case (nil, nil):
            throw r.error(n, "hydration", "needs aid_stations_km (a list of km) or every (e.g. \"0:20:00\")")
        }
        return h
    }

    /// Where a block-mapping key appears a second time under the same parent:
    /// its line and dotted path (Yams reports only the mapping's start).
    static func secondOccurrence(of key: String, in text: String) -> (line: Int, path: String)? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        func keyOf(_ line: String) -> (indent: Int, key: String)? {
            let indent = line.prefix { $0 == " " }.count
            var rest = line.dropFirst(indent)
            if rest.hasPrefix("- ") { rest = rest.dropFirst(2) }
            guard let colon = rest.firstIndex(of: ":") else { return nil }
            let k = rest[..<colon].trimmingCharacters(in: .whitespaces)
            guard !k.isEmpty, !k.hasPrefix("#"), k.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
                return nil
            }
            return (indent, k)
        }
        var seen: [String: Int] = [:]
        for (i, line) in lines.enumerated() {
            guard let (indent, k) = keyOf(line), k == key else { continue }
            // Parents: the nearest keys above with smaller indentation.
            var path = [k], level = indent, j = i - 1
            while j >= 0, level > 0 {
                if let (pi, pk) = keyOf(lines[j]), pi < level { path.insert(pk, at: 0); level = pi }
                j -= 1
            }
            let dotted = path.joined(separator: ".")
            if seen[dotted] != nil { return (i + 1, dotted) }
            seen[dotted] = i + 1
        }
        return nil
    }

    /// A calendar date `YYYY-MM-DD` (a four-digit year, a real day of that month).
    public static func isDate(_ s: String) -> Bool {
        let parts = s.split(separator: "-")
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let y = Int(parts[0]), let mo = Int(parts[1]), let d = Int(parts[2])
        else { return false }
        let days = [31, (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return (1...12).contains(mo) && (1...days[mo - 1]).contains(d)
    }

    package static func yamlError(_ e: YamlError, file: String, text: String) -> SetupError {
        switch e {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _),
            .composer(_, let problem, let mark, _):
            return SetupError(
                kind: .invalid, file: file, line: mark.line, key: "", message: "not valid YAML: \(problem)")
        case .duplicatedKeysInMapping(let duplicates, let context):
            if let key = duplicates.first, let found = secondOccurrence(of: key, in: text) {
                return SetupError(
                    kind: .invalid, file: file, line: found.line, key: found.path,
                    message: "the key appears more than once")
            }
            return SetupError(
                kind: .invalid, file: file, line: context.mark.line, key: duplicates.joined(separator: ", "),
                message: "the key appears more than once")
        case .reader(let problem, let offset, _, _):
            // Not the text at the offset: what is refused is described, never quoted.
            let line = text.utf8.prefix(max(0, offset ?? 0)).reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
            return SetupError(kind: .invalid, file: file, line: line, key: "", message: "not valid YAML: \(problem)")
        default:
            return SetupError(kind: .invalid, file: file, line: 0, key: "", message: "not valid YAML")
        }
    }
}

/// A mapping's pairs by key.
package struct YAMLFields {
    package var path: String
    package var pairs: [(String, Node)]
    package let file: String
    /// Line of each key.
    package var keyLines: [String: Int] = [:]

    package subscript(key: String) -> Node? { pairs.first { $0.0 == key }?.1 }

    /// Line of the key holding this mapping (its own start for the top level).
    package var line: Int

    package func require(_ key: String) throws -> Node {
        if let n = self[key] { return n }
        let full = path.isEmpty ? key : "\(path).\(key)"
        throw SetupError(kind: .invalid, file: file, line: line, key: full, message: "is required")
    }
}

/// Typed access to nodes, with errors that name the file, line and key.
package struct YAMLReader {
    package let file: String

    package init(file: String) { self.file = file }

    package func error(_ node: Node, _ key: String, _ message: String) -> SetupError {
        SetupError(kind: .invalid, file: file, line: node.mark?.line ?? 0, key: key, message: message)
    }

    /// A value as a message shows it: a text's first 40 characters at most (a
    /// file given by mistake, a secret one, is not echoed whole).
    package func describe(_ node: Node) -> String {
        switch node {
        case .scalar(let s): return s.string.count > 40 ? "'\(s.string.prefix(40))…'" : "'\(s.string)'"
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .alias: return "an alias"
        }
    }

    package func mapping(_ node: Node, path: String, known: [String], keyLine: Int? = nil) throws -> YAMLFields {
        guard case .mapping(let m) = node else {
            // The whole file, when it is not a mapping, is described, not quoted:
            // it may be any file given by mistake (a password file).
            let got = path.isEmpty && node.scalar != nil ? "a single text" : describe(node)
            throw error(node, path.isEmpty ? "" : path, "expected a mapping of keys, got \(got)")
        }
        var pairs: [(String, Node)] = []
        var lines: [String: Int] = [:]
        for (k, v) in m {
            guard case .scalar(let s) = k else { throw error(k, path, "keys must be plain words") }
            let full = path.isEmpty ? s.string : "\(path).\(s.string)"
            guard known.contains(s.string) else {
                // A key that is not a word is described, not quoted: it may be a
                // line of any file given by mistake (a password file).
                let word =
                    s.string.count <= 40
                    && s.string.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }
                var message = word ? "unknown key" : "an unknown key that is not a word (\(s.string.count) characters)"
                if word, let close = Self.closest(s.string, in: known) { message += " (did you mean '\(close)'?)" }
                message += "; known keys here: \(known.joined(separator: ", "))"
                throw error(k, word ? full : path, message)
            }
            if pairs.contains(where: { $0.0 == s.string }) { throw error(k, full, "the key appears more than once") }
            pairs.append((s.string, v))
            lines[s.string] = k.mark?.line ?? 0
        }
        return YAMLFields(path: path, pairs: pairs, file: file, keyLines: lines, line: keyLine ?? node.mark?.line ?? 0)
    }

    package func sequence(_ node: Node, _ key: String) throws -> [Node] {
        guard case .sequence(let s) = node else { throw error(node, key, "expected a list, got \(describe(node))") }
        return Array(s)
    }

    /// A scalar's text as written (durations like 3:15:00 must not be read as YAML 1.1 sexagesimal numbers).
    package func scalarText(_ node: Node, _ key: String) throws -> String {
        guard case .scalar(let s) = node else {
            throw error(node, key, "expected a single value, got \(describe(node))")
        }
        let t = s.string.trimmingCharacters(in: .whitespaces)
        guard !t.isEmpty, !(s.style == .plain && ["~", "null"].contains(t)) else {
            throw error(node, key, "has no value")
        }
        return t
    }

    package func string(_ node: Node, _ key: String) throws -> String { try scalarText(node, key) }

    package func number(_ node: Node, _ key: String, in range: ClosedRange<Double>) throws -> Double {
        let t = try scalarText(node, key)
        guard case .scalar(let s) = node, s.style == .plain, let v = NumberParser.parseDouble(t), v.isFinite else {
            throw error(node, key, "expected a number, got '\(t)'")
        }
        guard range.contains(v) else {
            throw error(
                node, key,
                "\(t) is out of range (\(TextFormat.plain(range.lowerBound)) to \(TextFormat.plain(range.upperBound)))")
        }
        return v
    }

    /// The longest time a setup's durations may name: 100 hours, above any
    /// target (250 km at 20:00/km is 83:20:00).
    package static let longestDuration = 100.0 * 3600

    /// A duration as h:mm:ss, always three parts.
    static func hms(_ s: Double) -> String {
        let t = Int(s.rounded())
        return "\(t / 3600):\(String(format: "%02d", t / 60 % 60)):\(String(format: "%02d", t % 60))"
    }

    package func duration(_ node: Node, _ key: String, in range: ClosedRange<Double> = 0...longestDuration) throws
        -> Double
    {
        let t = try scalarText(node, key)
        guard let v = Units.parseDuration(t) else { throw error(node, key, "'\(t)' is not a time (h:mm:ss or mm:ss)") }
        // "1:00" is a minute to the parser and an hour to many a coach: two parts
        // whose first is under 10 say neither for sure.
        let parts = t.split(separator: ":", omittingEmptySubsequences: false)
        if parts.count == 2, v > 0, let first = Double(parts[0].trimmingCharacters(in: .whitespaces)), first < 10 {
            let (m, h) = (TextFormat.duration(v), TextFormat.duration(v * 60))
            throw error(
                node, key,
                "'\(t)' could be \(m) (minutes and seconds) or \(h) (hours and minutes): write it as h:mm:ss (\(Self.hms(v)) or \(Self.hms(v * 60)))"
            )
        }
        guard range.contains(v) else {
            throw error(
                node, key,
                "\(t) is out of range (\(TextFormat.duration(range.lowerBound)) to \(TextFormat.duration(range.upperBound)))"
            )
        }
        return v
    }

    /// The known key nearest to `s` by edit distance, if it is close.
    static func closest(_ s: String, in known: [String]) -> String? { Spelling.nearest(s, in: known) }
}
