import Foundation

/// A fixed text as the speech engine should read it. espeak-ng reads a clock
/// time `3:15:00` as "three fifteen zero zero", a pace `4:05` as "four zero
/// five" and `km` as "K M": times become the words a slot would say for them
/// (`SpokenWords`: "three hours, fifteen", "four oh five"; a time before
/// "ahead"/"behind" is a gap, "four minutes forty-five ahead"), and units after
/// a number their words ("25 kilometres", "2 seconds").
public enum SpokenText {
    /// Bumped when the rules change: part of every audio file's key.
    public static let version = 3

    static let unitWords = [
        "km": "kilometre", "mi": "mile", "ml": "millilitre", "mg": "milligram", "g": "gram", "s": "second"
    ]

    /// `text` with its times and units in words. `afterNumber`: the text
    /// follows a spoken number (a slot), so a unit at its very start is said
    /// as a word too ("{distance_km} km": " kilometres").
    public static func normalize(_ text: String, afterNumber: Bool = false) -> String {
        // (^|[^\d:.]): no lookbehind in Swift's regexes; the character before is
        // kept. A minus sign before a time is said.
        func sign(_ s: Substring) -> String { s.isEmpty ? "" : "minus " }
        func words(_ w: [String]) -> String { SpokenWords.text(w) }
        var out = text.replacing(#/(^|[^\d:.\-])(-?)(\d{1,3}):([0-5]\d):([0-5]\d)(?![\d:])/#) { m in
            let said: String = words(SpokenWords.clock(Int(m.3)!, Int(m.4)!, Int(m.5)!))
            return String(m.1) + sign(m.2) + said
        }
        out = out.replacing(#/(^|[^\d:.\-])(-?)(\d{1,3}):([0-5]\d)(?![\d:]) (ahead|behind)\b/#) { m in
            let said: String = words(SpokenWords.duration(0, Int(m.3)!, Int(m.4)!))
            return String(m.1) + sign(m.2) + said + " " + String(m.5)
        }
        out = out.replacing(#/(^|[^\d:.\-])(-?)(\d{1,3}):([0-5]\d)(?![\d:])/#) { m in
            let said: String = words(SpokenWords.minutesSeconds(Int(m.3)!, Int(m.4)!))
            return String(m.1) + sign(m.2) + said
        }
        // espeak-ng reads [[...]] as phonemes: the text says brackets, so they stay brackets.
        out = out.replacingOccurrences(of: "[[", with: "[ [").replacingOccurrences(of: "]]", with: "] ]")
        out = out.replacing(#/\b(\d+(?:\.\d+)?) ?(km|mi|ml|mg|g|s)\b/#) { m in
            "\(m.1) \(unitWords[String(m.2)]!)\(m.1 == "1" ? "" : "s")"
        }
        if afterNumber, let m = out.prefixMatch(of: #/(\s*)(km|mi|ml|mg|g|s)\b/#) {
            out = "\(m.1)\(unitWords[String(m.2)]!)s" + out[m.range.upperBound...]
        }
        return out
    }
}
