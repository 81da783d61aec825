import Foundation

/// How a run-time value is said aloud, as a list of words from a fixed
/// vocabulary (`vocabulary(unitMeters:)`): each word is one pre-rendered clip,
/// so a companion app speaks any value the engine fills by playing clips in
/// order, with no speech synthesizer. The same words are used for the times
/// written into fixed texts (`SpokenText`), so a split read from a clip and one
/// spoken inside a sentence sound alike.
///
/// The rules (docs/audio.md gives them with examples):
/// - a number: its words, one clip per number under a hundred ("twenty-six"),
///   then "hundred", "thousand", "million" ("one hundred", "fifty-two");
/// - minutes and seconds `m:ss` (a pace or a split): "four thirty", "four oh
///   five", "four minutes" for `4:00`, "forty-five seconds" for `0:45`;
/// - a clock `h:mm:ss`: "one hour", then after a pause the minutes and seconds
///   ("one hour, thirty-five", "three hours, twenty-seven forty-one", "two
///   hours, five seconds");
/// - a gap "25 s ahead of plan": "twenty-five seconds ahead of plan"; "1:10
///   behind plan": "one minute ten behind plan"; "on plan";
/// - a pace adds its unit: "four thirty per kilometre" (or "per mile");
/// - a decimal `12.3`: "twelve point three";
/// - a value the engine could not know (`unknown`): "unknown".
public enum SpokenWords {
    /// The clip that is a short silence: the comma of "one hour, thirty-five".
    public static let pause = ","

    /// How a slot's value is said.
    public enum Kind: String, Sendable, CaseIterable, Codable {
        /// `m:ss` per unit, then "per kilometre" or "per mile".
        case pace
        /// `m:ss` or `h:mm:ss`: a split, a planned time, the elapsed or projected time.
        case clock
        /// "25 s ahead of plan", "1:10 behind plan", "on plan".
        case gap
        /// A number with one decimal (`12.3`).
        case decimal
        /// A whole number (a heart rate).
        case integer
    }

    /// The kind of each run-time placeholder (`RaceScript.placeholders`).
    public static func kind(of placeholder: String) -> Kind? {
        switch placeholder {
        case "current_pace", "avg_pace", "target_pace", "split_pace": return .pace
        case "split_time", "split_plan", "plan_time", "projected_finish", "elapsed": return .clock
        case "gap": return .gap
        case "distance_km": return .decimal
        case "hr": return .integer
        default: return nil
        }
    }

    static let ones = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
        "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"
    ]
    static let tens = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]

    /// The words of a whole number: one word per number under a hundred, then
    /// "hundred", "thousand", "million" (`minus` before a negative one).
    public static func number(_ n: Int) -> [String] {
        if n < 0 { return ["minus"] + number(n == Int.min ? Int.max : -n) }
        if n < 20 { return [ones[n]] }
        if n < 100 { return [n % 10 == 0 ? tens[n / 10] : "\(tens[n / 10])-\(ones[n % 10])"] }
        for (size, word) in [(1_000_000, "million"), (1000, "thousand"), (100, "hundred")] where n >= size {
            let rest = n % size
            return number(n / size) + [word] + (rest > 0 ? number(rest) : [])
        }
        return []
    }

    /// `m:ss` as a runner says it: "four thirty", "four oh five", "four
    /// minutes", "forty-five seconds".
    static func minutesSeconds(_ m: Int, _ s: Int) -> [String] {
        if m == 0 { return number(s) + [s == 1 ? "second" : "seconds"] }
        if s == 0 { return number(m) + [m == 1 ? "minute" : "minutes"] }
        return number(m) + (s < 10 ? ["oh"] : []) + number(s)
    }

    /// A clock `h:mm:ss` (or `m:ss`): "one hour, thirty-five", "one hour,
    /// thirty-five twenty", "two hours", "four twenty-six".
    static func clock(_ h: Int, _ m: Int, _ s: Int) -> [String] {
        guard h > 0 else { return minutesSeconds(m, s) }
        let hours = number(h) + [h == 1 ? "hour" : "hours"]
        if m == 0, s == 0 { return hours }
        if m == 0 { return hours + [pause] + number(s) + [s == 1 ? "second" : "seconds"] }
        return hours + [pause] + number(m) + (s == 0 ? [] : (s < 10 ? ["oh"] : []) + number(s))
    }

    /// A duration said with its units, for gaps: "one minute ten", "two
    /// minutes", "twenty-five seconds"; an hour or more as a clock.
    static func duration(_ h: Int, _ m: Int, _ s: Int) -> [String] {
        guard h == 0 else { return clock(h, m, s) }
        if m == 0 { return number(s) + [s == 1 ? "second" : "seconds"] }
        return number(m) + [m == 1 ? "minute" : "minutes"] + (s == 0 ? [] : number(s))
    }

    /// `[h:]m:ss` (or `-m:ss`) as hours, minutes, seconds and sign; nil when it is not one.
    static func parseTime(_ text: Substring) -> (negative: Bool, h: Int, m: Int, s: Int)? {
        var t = text
        let negative = t.first == "-"
        if negative { t = t.dropFirst() }
        let fields = t.split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count == 2 || fields.count == 3,
            fields.allSatisfy({ !$0.isEmpty && $0.count <= 12 && $0.allSatisfy(\.isASCIIDigitLike) }),
            fields.dropFirst().allSatisfy({ $0.count == 2 })
        else { return nil }
        let numbers = fields.compactMap { Int($0) }
        guard numbers.count == fields.count, numbers.dropFirst().allSatisfy({ $0 < 60 }) else { return nil }
        return fields.count == 3
            ? (negative, numbers[0], numbers[1], numbers[2]) : (negative, 0, numbers[0], numbers[1])
    }

    /// The words of a value the engine filled, or nil when the text is not a
    /// value of that kind (the slot is then said as "unknown": the engine only
    /// writes values of its own forms).
    public static func words(_ kind: Kind, _ value: String, unitMeters: Double = 1000) -> [String]? {
        if value == "unknown" { return ["unknown"] }
        switch kind {
        case .pace:
            guard let t = parseTime(value[...]), !t.negative, t.h == 0 else { return nil }
            return minutesSeconds(t.m, t.s) + [unitMeters == 1000 ? "per kilometre" : "per mile"]
        case .clock:
            guard let t = parseTime(value[...]) else { return nil }
            return (t.negative ? ["minus"] : []) + clock(t.h, t.m, t.s)
        case .gap:
            if value == "on plan" { return ["on plan"] }
            for side in ["ahead of plan", "behind plan"] where value.hasSuffix(" " + side) {
                let size = value.dropLast(side.count + 1)
                if size.hasSuffix(" s"), let n = Int(size.dropLast(2)), n >= 0 {
                    return number(n) + [n == 1 ? "second" : "seconds", side]
                }
                guard let t = parseTime(size), !t.negative else { return nil }
                return duration(t.h, t.m, t.s) + [side]
            }
            return nil
        case .decimal:
            let parts = value.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count <= 2, let whole = Int(parts[0]),
                parts.count == 1 || parts[1].allSatisfy(\.isASCIIDigitLike),
                parts.count == 1 || !parts[1].isEmpty
            else { return nil }
            let decimals = parts.count == 2 ? parts[1].map { ones[Int(String($0))!] } : []
            let sign = value.hasPrefix("-") && whole == 0 ? ["minus"] : []
            return sign + number(whole) + (decimals.isEmpty ? [] : ["point"] + decimals)
        case .integer:
            guard let n = Int(value) else { return nil }
            return number(n)
        }
    }

    /// Words as one text: spaces between them, the pause as a comma.
    public static func text(_ words: [String]) -> String {
        var out = ""
        for w in words {
            if w == pause { out += ","; continue }
            if !out.isEmpty { out += " " }
            out += w
        }
        return out
    }

    /// Every word a slot of any kind can say, in a stable order: the clips one
    /// voice renders once. Numbers under a hundred, the number words, the
    /// units, the gap words, "unknown" and the pause.
    public static func vocabulary(unitMeters: Double) -> [String] {
        var words = (0..<100).flatMap { number($0) }
        words += ["hundred", "thousand", "million", "minus", "oh", "point"]
        words += ["hour", "hours", "minute", "minutes", "second", "seconds"]
        words += [unitMeters == 1000 ? "per kilometre" : "per mile"]
        words += ["ahead of plan", "behind plan", "on plan", "unknown", pause]
        return words
    }
}

extension Character {
    /// 0-9 only (not other scripts' digits, which `Int(_:)` refuses anyway).
    var isASCIIDigitLike: Bool { ("0"..."9").contains(self) }
}
