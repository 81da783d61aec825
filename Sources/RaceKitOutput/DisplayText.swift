/// Text read from files (names, creators, notes, entry names, messages quoting
/// input) made safe to show: on a terminal, in a message on stderr, in a
/// Markdown report. A control character there could move the cursor, set the
/// window title or clear the screen, and a bidirectional override could make a
/// line read other than it is.
///
/// Each such character is replaced by a visible escape in Swift's string
/// literal syntax: `\t`, `\n`, `\r` for tab, LF and CR, and `\u{XX}` (the
/// code point in hex, at least two digits) for the rest: ESC is `\u{1B}`, BEL
/// `\u{07}`. Escaped are the C0 controls (U+0000-U+001F), DEL (U+007F), the C1
/// controls (U+0080-U+009F) and the bidirectional embeddings, overrides and
/// isolates (U+202A-U+202E, U+2066-U+2069). A backslash already in the text is
/// left as it is: the escaped text is for reading, not for parsing back.
///
/// JSON output does not go through here: its encoder escapes control
/// characters as JSON defines. CSV text fields keep tab, CR and LF (quoted)
/// and escape the rest as here (`CSV.text`).
public enum DisplayText {
    /// Text of several lines: LF is kept, every other character above is escaped.
    public static func escaped(_ s: String) -> String { escaped(s, keeping: ["\n"]) }

    /// Text for one line (a table cell, a name in a message): LF is escaped too.
    public static func line(_ s: String) -> String { escaped(s, keeping: []) }

    /// True for the characters that are escaped (LF included).
    public static func isUnsafe(_ u: Unicode.Scalar) -> Bool {
        switch u.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// Every character above escaped except those in `kept`.
    public static func escaped(_ s: String, keeping kept: Set<Unicode.Scalar>) -> String {
        func unsafe(_ u: Unicode.Scalar) -> Bool { isUnsafe(u) && !kept.contains(u) }
        // Nearly all text holds none: return it untouched.
        guard s.unicodeScalars.contains(where: unsafe) else { return s }
        var out = String.UnicodeScalarView()
        for u in s.unicodeScalars {
            if unsafe(u) { out.append(contentsOf: escape(u).unicodeScalars) } else { out.append(u) }
        }
        return String(out)
    }

    /// The visible form of one unsafe character.
    static func escape(_ u: Unicode.Scalar) -> String {
        switch u {
        case "\t": return "\\t"
        case "\n": return "\\n"
        case "\r": return "\\r"
        default:
            let hex = String(u.value, radix: 16, uppercase: true)
            return "\\u{" + (hex.count < 2 ? "0" : "") + hex + "}"
        }
    }
}
