import Foundation

/// The sentences of a spoken text, for "no sentence is said twice in a race"
/// (nor one of the same form, its numbers aside: see `form`):
/// a sentence ends at `.`, `;`, `!` or `?` followed by a space or the end
/// (so "11.3" and "4:20" stay whole).
public enum SpokenSentences {
    /// The sentences of `text`, each with its closing mark, trimmed.
    public static func split(_ text: String) -> [String] {
        ascii(text, splitASCII) ?? splitCharacters(text)
    }

    /// `body` over the UTF-8 of `text` when it is all ASCII (a script generator
    /// splits and compares every text of a race: by bytes it is many times quicker
    /// than by `Character`, and the same for ASCII), else nil.
    static func ascii<T>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T? {
        var text = text
        return text.withUTF8 { bytes in bytes.allSatisfy { $0 < 0x80 } ? body(bytes) : nil }
    }

    static func string(_ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: b[range]), as: UTF8.self)
    }

    static func isEnd(_ c: UInt8) -> Bool { c == 0x2E || c == 0x3B || c == 0x21 || c == 0x3F }   // . ; ! ?
    static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }

    static func splitASCII(_ b: UnsafeBufferPointer<UInt8>) -> [String] {
        var out: [String] = []
        // ASCII's `.whitespaces` are the space and the tab.
        func emit(_ lo: Int, _ hi: Int) {
            var lo = lo, hi = hi
            while lo < hi, b[lo] == 0x20 || b[lo] == 0x09 { lo += 1 }
            while hi > lo, b[hi - 1] == 0x20 || b[hi - 1] == 0x09 { hi -= 1 }
            if lo < hi { out.append(string(b, lo..<hi)) }
        }
        var start = 0
        for i in 0..<b.count where isEnd(b[i]) && (i + 1 == b.count || b[i + 1] == 0x20) {
            emit(start, i + 1)
            start = i + 1
        }
        emit(start, b.count)
        return out
    }

    static func splitCharacters(_ text: String) -> [String] {
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
        ascii(sentence, keyASCII) ?? keyCharacters(sentence)
    }

    static func keyASCII(_ b: UnsafeBufferPointer<UInt8>) -> String {
        var end = b.count
        while end > 0, isEnd(b[end - 1]) || b[end - 1] == 0x2C { end -= 1 }   // and ","
        var out: [UInt8] = []
        out.reserveCapacity(end)
        for i in 0..<end {
            let c = b[i]
            if c == 0x20 {
                // Words joined by one space.
                if let last = out.last, last != 0x20 { out.append(c) }
            } else {
                out.append(c >= 0x41 && c <= 0x5A ? c + 0x20 : c)
            }
        }
        if out.last == 0x20 { out.removeLast() }
        return String(decoding: out, as: UTF8.self)
    }

    static func keyCharacters(_ sentence: String) -> String {
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
        ascii(key, formASCII) ?? formCharacters(key: key)
    }

    static func formASCII(_ b: UnsafeBufferPointer<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(b.count)
        var inNumber = false, inField = false
        for i in 0..<b.count {
            let c = b[i]
            if inNumber, c == 0x3A || c == 0x2E, i + 1 < b.count, isDigit(b[i + 1]) { continue }
            if inField {
                if c == 0x7D { inField = false }
                continue
            }
            if c == 0x7B {
                inField = true
                out.append(0x23)
                continue
            }
            if isDigit(c) {
                if !inNumber { out.append(0x23) }
                inNumber = true
                continue
            }
            inNumber = false
            out.append(c)
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func formCharacters(key: String) -> String {
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
