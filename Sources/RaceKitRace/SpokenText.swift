import Foundation

/// A message text as the speech engine should read it. espeak-ng reads a clock
/// time `3:15:00` as "three fifteen zero zero" and `km` as "K M": clock times
/// become hours and minutes, and units after a number their words. A pace or
/// split `4:58` stays: "four fifty-eight" is how a runner says it.
public enum SpokenText {
    /// Bumped when the rules change: part of every audio file's key.
    public static let version = 1

    public static func normalize(_ text: String) -> String {
        var out = text.replacing(#/\b(\d{1,2}):([0-5]\d):([0-5]\d)\b/#) { m in
            let (h, min, s) = (Int(m.1)!, Int(m.2)!, Int(m.3)!)
            var parts = h > 0 ? ["\(h) \(h == 1 ? "hour" : "hours")"] : []
            if min > 0 { parts.append("\(min) \(min == 1 ? "minute" : "minutes")") }
            if s > 0 || parts.isEmpty { parts.append("\(s) \(s == 1 ? "second" : "seconds")") }
            return parts.joined(separator: " ")
        }
        let words = ["km": "kilometre", "mi": "mile", "ml": "millilitre", "mg": "milligram", "g": "gram"]
        out = out.replacing(#/\b(\d+(?:\.\d+)?) ?(km|mi|ml|mg|g)\b/#) { m in
            "\(m.1) \(words[String(m.2)]!)\(m.1 == "1" ? "" : "s")"
        }
        return out
    }
}
