/// Parsing and formatting of the units people type: durations, paces, distances.
public enum Units {
    /// The international mile, in metres: the one definition every mile uses.
    public static let metersPerMile = 1609.344

    /// `h:mm:ss`, `mm:ss` or plain seconds (`95`, `95.5`) as seconds; nil otherwise.
    public static func parseDuration(_ text: String) -> Double? {
        let parts = text.trimmingBlanks().split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard (1...3).contains(parts.count), parts.allSatisfy({ !$0.isEmpty }) else { return nil }
        var total = 0.0
        for (i, part) in parts.enumerated() {
            guard let v = NumberParser.parseDouble(part), v >= 0, !part.contains("e"), !part.contains("E") else {
                return nil
            }
            // Fields after the first are below 60; only the last may have a fraction.
            if i > 0, v >= 60 { return nil }
            if i < parts.count - 1, v != v.rounded() { return nil }
            total = total * 60 + v
        }
        return total
    }

    /// A pace: `4:37/km`, `7:26/mi`, `4:37 min/km`, or `4:37` (per km), as
    /// seconds per km; nil otherwise.
    public static func parsePace(_ text: String) -> Double? {
        var t = text.trimmingBlanks().lowercased()
        var perMeters = 1000.0
        for (suffix, meters) in [
            ("min/km", 1000.0), ("/km", 1000.0), ("min/mi", metersPerMile), ("/mi", metersPerMile),
            ("/mile", metersPerMile)
        ]
        where t.hasSuffix(suffix) {
            t = String(t.dropLast(suffix.count)).trimmingBlanks()
            perMeters = meters
            break
        }
        guard t.contains(":"), let seconds = parseDuration(t), seconds > 0 else { return nil }
        return seconds * 1000 / perMeters
    }

    /// Named race distances.
    public static let namedDistances: [(names: [String], meters: Double)] = [
        (["400m"], 400), (["800m"], 800), (["1k", "1km"], 1000), (["1500m"], 1500),
        (["1mi", "mile", "1 mile"], metersPerMile),
        (["3k"], 3000), (["5k"], 5000), (["8k"], 8000), (["10k"], 10_000), (["15k"], 15_000),
        (["10mi", "10 mi", "10 miles"], 16_093.44), (["20k"], 20_000),
        (["half", "half marathon", "half-marathon", "hm"], 21_097.5), (["25k"], 25_000), (["30k"], 30_000),
        (["marathon", "full"], 42_195), (["50k"], 50_000), (["50mi", "50 mi"], 80_467.2), (["100k"], 100_000),
        (["100mi", "100 mi"], 160_934.4)
    ]

    /// A distance: a name (`5k`, `10 mi`, `half`, `marathon`), a value with a
    /// unit (`42.195 km`, `26.2 mi`, `2k`, `800 m`, `3000m`), or plain metres; nil otherwise.
    public static func parseDistance(_ text: String) -> Double? {
        let t = text.trimmingBlanks().lowercased()
        if let named = namedDistances.first(where: { $0.names.contains(t) }) { return named.meters }
        for (suffix, factor) in [
            ("km", 1000.0), ("mi", metersPerMile), ("miles", metersPerMile), ("mile", metersPerMile), ("k", 1000.0),
            ("m", 1.0)
        ]
        where t.hasSuffix(suffix) {
            let number = String(t.dropLast(suffix.count)).trimmingBlanks()
            if let v = NumberParser.parseDouble(number), v > 0 { return v * factor }
        }
        if let v = NumberParser.parseDouble(t), v > 0 { return v }
        return nil
    }
}

/// Distance units for splits and human output.
public enum DistanceUnit: String, Sendable, CaseIterable, Codable {
    case km, mi
    /// Metres in one unit.
    public var meters: Double { self == .km ? 1000 : Units.metersPerMile }
}
