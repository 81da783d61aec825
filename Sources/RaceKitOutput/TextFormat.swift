import Foundation
import RaceKitModel

/// Locale-free formatting of numbers, durations, paces, times and plain tables:
/// the one formatting namespace of the CLI, the reports and the race outputs
/// (report files must come out byte-identical on every machine). CSV is `CSV`'s,
/// JSON `JSON`'s; text from files is made printable by `DisplayText`.
public enum TextFormat {
    /// `v` rounded to `digits` decimals: the one rounding of numbers for JSON and
    /// CSV output. Non-finite values come back unchanged.
    public static func rounded(_ v: Double, _ digits: Int) -> Double {
        guard v.isFinite else { return v }
        var scale = 1.0
        for _ in 0..<max(0, digits) { scale *= 10 }
        // + 0 turns -0 (a small negative value rounded) into 0.
        return (v * scale).rounded() / scale + 0
    }

    /// As `rounded(_:_:)`, and nil for nil or a non-finite value (unknown).
    public static func round(_ v: Double?, _ digits: Int) -> Double? {
        guard let v, v.isFinite else { return nil }
        return rounded(v, digits)
    }

    /// Two digits with a leading zero.
    public static func two(_ v: Int) -> String { v < 10 ? "0\(v)" : String(v) }

    /// What every formatter prints for a value it cannot show (unknown,
    /// non-finite, or past what the format can hold).
    public static let unknown = unknownText

    /// Fixed decimals (0 to 9), rounded half away from zero, no negative zero.
    /// Nil and non-finite values are `unknown`; magnitudes past 1e15 (no reading
    /// of a run comes near) are printed as Swift writes them (`1e+30`) instead of trapping.
    public static func fixed(_ v: Double?, _ digits: Int) -> String {
        guard let v, v.isFinite else { return unknown }
        let digits = min(9, max(0, digits))
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        guard abs(v) * scale < 9e18 else { return "\(v)" }
        let scaled = Int64((abs(v) * scale).rounded())
        let sign = v < 0 && scaled != 0 ? "-" : ""
        guard digits > 0 else { return sign + String(scaled) }
        var fraction = String(scaled % Int64(scale))
        while fraction.count < digits { fraction = "0" + fraction }
        return "\(sign)\(scaled / Int64(scale)).\(fraction)"
    }

    /// A bound as help texts and range messages write it: at most two
    /// decimals, no trailing zeros (`0.5`, `19.99`, `3600`).
    public static func plain(_ v: Double) -> String {
        var s = fixed(v, 2)
        while s.contains("."), s.hasSuffix("0") || s.hasSuffix(".") { s.removeLast() }
        return s
    }

    /// `h:mm:ss`, or `m:ss` under an hour.
    /// Nil and non-finite values, and durations past 100 million hours, are
    /// `unknown`; a negative duration keeps its sign.
    public static func duration(_ seconds: Double?) -> String {
        guard let seconds, seconds.isFinite, abs(seconds) < 3.6e11 else { return unknown }
        if seconds < 0, seconds.rounded() < 0 { return "-" + duration(-seconds) }
        let s = Int(seconds.rounded())
        return s >= 3600 ? "\(s / 3600):\(two(s / 60 % 60)):\(two(s % 60))" : "\(s / 60):\(two(s % 60))"
    }

    /// A Markdown pipe table (no trailing newline); `|` in cells is escaped, and
    /// control characters (a line break would end the row) as `DisplayText.line` does.
    public static func markdownTable(header: [String], rows: [[String]], rightAligned: Set<Int> = []) -> String {
        func line(_ cells: [String]) -> String {
            "| "
                + cells.map { DisplayText.line($0).replacingOccurrences(of: "|", with: "\\|") }
                .joined(separator: " | ") + " |"
        }
        let rule = "|" + header.indices.map { rightAligned.contains($0) ? " ---: |" : " --- |" }.joined()
        return ([line(header), rule] + rows.map(line)).joined(separator: "\n")
    }

    /// Text for XML/SVG content and attribute values; control characters (most
    /// are not allowed in XML 1.0) are escaped as `DisplayText.line` does.
    public static func xmlEscape(_ s: String) -> String {
        DisplayText.line(s).replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// `m:ss` from seconds per unit.
    /// Nil, non-finite, zero or negative paces (no distance covered in no time),
    /// and paces past 100 million hours a unit, are `unknown`.
    public static func pace(_ secondsPerUnit: Double?) -> String {
        guard let secondsPerUnit, secondsPerUnit.isFinite, secondsPerUnit > 0, secondsPerUnit < 3.6e11 else {
            return unknown
        }
        let s = Int(secondsPerUnit.rounded())
        return "\(s / 60):\(two(s % 60))"
    }
}

extension Sequence where Element == UInt8 {
    /// Lower-case hexadecimal (digests).
    public var hexString: String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in self { out.append(digits[Int(byte >> 4)]); out.append(digits[Int(byte & 15)]) }
        return String(decoding: out, as: UTF8.self)
    }
}
