import Foundation

/// The sentences of a spoken text, for "no sentence is said twice in a race"
/// (nor one of the same form, its numbers aside: see `form`):
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

    /// What makes two sentences say the same thing to a listener: `key` with
    /// every number (a time or a decimal is one) and every `{placeholder}` as `#`. "Gel 2: 25 grams of
    /// sticky joy" and "Gel 5: 25 grams of sticky joy" have one form: the
    /// joke is heard twice, with new numbers.
    public static func form(_ sentence: String) -> String { form(key: key(sentence)) }

    /// `form` of a sentence whose `key` is known.
    static func form(key: String) -> String {
        var out = ""
        var inNumber = false, inField = false
        let chars = Array(key)
        for (i, c) in chars.enumerated() {
            // "4:48", "12.3" and "1:45:00" are one number, as a {placeholder} is.
            if inNumber, c == ":" || c == ".", i + 1 < chars.count, chars[i + 1].isNumber { continue }
            if inField {
                if c == "}" { inField = false }
                continue
            }
            if c == "{" {
                inField = true
                out.append("#")
                continue
            }
            if c.isNumber {
                if !inNumber { out.append("#") }
                inNumber = true
                continue
            }
            inNumber = false
            out.append(c)
        }
        return out
    }

    /// Whether a sentence of this form is all facts: at most two words of its
    /// own besides its numbers and fields ("10K, 25 s behind plan", "Kilometre
    /// 17 in 4:31", "Gel 3: 25 grams"). Such a sentence may be said again with
    /// other numbers; one with more words (advice, a joke) may not.
    public static func isFactOnly(_ form: String) -> Bool {
        let words = form.split(separator: " ").map { $0.trimmingCharacters(in: .punctuationCharacters) }
        return words.filter { !$0.contains("#") && $0.count > 1 }.count <= 2
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
