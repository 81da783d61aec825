import Foundation

/// The sentences of a spoken text, for "no sentence is said twice in a race":
/// a sentence ends at `.`, `;`, `!` or `?` followed by a space or the end
/// (so "11.3" and "4:20" stay whole).
public enum SpokenSentences {
    /// The sentences of `text`, each with its closing mark, trimmed.
    public static func split(_ text: String) -> [String] {
        var out: [String] = []
        var current = ""
        let chars = Array(text)
        for (i, c) in chars.enumerated() {
            current.append(c)
            let ends = ".;!?".contains(c) && (i + 1 == chars.count || chars[i + 1] == " ")
            if ends {
                let s = current.trimmingCharacters(in: .whitespaces)
                if !s.isEmpty { out.append(s) }
                current = ""
            }
        }
        let rest = current.trimmingCharacters(in: .whitespaces)
        if !rest.isEmpty { out.append(rest) }
        return out
    }

    /// What makes two sentences the same: their words, ignoring case and the
    /// closing mark.
    public static func key(_ sentence: String) -> String {
        var s = sentence.lowercased()
        while let last = s.last, ".;!?,".contains(last) { s.removeLast() }
        return s.split(separator: " ").joined(separator: " ")
    }

    /// Sentences back into one text: capitalised, ending with a full stop
    /// where the last kept one ended with a semicolon.
    public static func join(_ sentences: [String]) -> String {
        var text = sentences.joined(separator: " ")
        if let first = text.first, first.isLowercase { text = first.uppercased() + text.dropFirst() }
        if let last = text.last, last == ";" || last == "," { text = String(text.dropLast()) + "." }
        return text
    }
}
