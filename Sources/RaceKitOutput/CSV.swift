/// The one CSV writer: every CSV the tool prints or writes (runs, splits, best
/// efforts, plans, cues, reviews, weekly reports) comes from here, so they all
/// follow RFC 4180 the same way:
///
/// - every record ends with CRLF, the header and the last record too;
/// - a field holding `"`, `,`, CR or LF is quoted, its quotes doubled (checked
///   on Unicode scalars: Swift's `"\r\n"` is one Character, which `contains("\n")`
///   does not find);
/// - a text field starting with `=`, `+`, `-`, `@`, tab or CR gets a leading `'`
///   so a spreadsheet shows it as text instead of running it as a formula
///   (OWASP's CSV injection advice); numbers are never changed that way;
/// - other control characters in text (ESC, BEL, DEL, C1, bidi overrides; all
///   but tab, CR and LF) are written as `DisplayText` shows them (`\u{1B}`):
///   they have no place in a cell and would reach a terminal raw;
/// - numbers have fixed decimals, a `.` point, no grouping and no `-0`, and an
///   unknown or non-finite value is an empty field.
public enum CSV {
    /// The end of every record.
    public static let recordEnd = "\r\n"

    /// One field of a record: text from anywhere, or a number the writer formats.
    public enum Cell: Sendable, Equatable {
        /// Text: neutralised when it could start a formula, quoted when needed.
        case text(String)
        /// A number with `digits` fixed decimals (0 to 9); empty when nil or not finite.
        case number(Double?, digits: Int)
        /// A whole number; empty when nil.
        case integer(Int?)
        /// `true` or `false`.
        case bool(Bool)
    }

    /// A whole CSV document: the header record, then a record per row.
    public static func document(header: [String], rows: [[Cell]]) -> String {
        var out = record(header.map(Cell.text))
        for row in rows { out += record(row) }
        return out
    }

    /// One record, CRLF included.
    public static func record(_ cells: [Cell]) -> String {
        cells.map(field).joined(separator: ",") + recordEnd
    }

    /// The text of one field as it stands in a record.
    public static func field(_ cell: Cell) -> String {
        switch cell {
        case .text(let s): return text(s)
        case .number(let v, let digits): return number(v, digits: digits)
        case .integer(let v): return v.map(String.init) ?? ""
        case .bool(let v): return v ? "true" : "false"
        }
    }

    /// A text field: control characters but tab, CR and LF escaped, a leading
    /// `'` when it starts like a formula, then quoted when it holds a quote, a
    /// comma, CR or LF.
    public static func text(_ s: String) -> String {
        var scalars = DisplayText.escaped(s, keeping: ["\t", "\r", "\n"]).unicodeScalars
        if let first = scalars.first, formulaStarts.contains(first) {
            scalars.insert("'", at: scalars.startIndex)
        }
        guard scalars.contains(where: needsQuotes.contains) else { return String(scalars) }
        var quoted = String.UnicodeScalarView()
        quoted.append("\"")
        for u in scalars {
            if u == "\"" { quoted.append(u) }
            quoted.append(u)
        }
        quoted.append("\"")
        return String(quoted)
    }

    /// A number field: `digits` fixed decimals (0 to 9, rounded half away from
    /// zero, `.` point, no grouping, never `-0`); empty when nil, NaN or infinite.
    public static func number(_ v: Double?, digits: Int) -> String {
        guard let v, v.isFinite else { return "" }
        return TextFormat.fixed(v, digits)
    }

    /// First characters that make a spreadsheet read a cell as a formula.
    static let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r"]

    /// Characters that need a field quoted.
    static let needsQuotes: Set<Unicode.Scalar> = ["\"", ",", "\r", "\n"]
}
