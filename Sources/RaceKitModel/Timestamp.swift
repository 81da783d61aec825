/// An instant read from an activity file.
public struct ParsedTimestamp: Sendable, Equatable {
    /// Seconds since 1970-01-01T00:00:00Z.
    public var secondsSinceEpoch: Double
    /// True when the text carried no zone designator and was taken as UTC.
    public var hadNoZone: Bool
}

/// Parses ISO-8601 / XML Schema `dateTime` values straight from bytes, without
/// Foundation formatters (they are far too slow for a per-point loop).
///
/// Accepted: `YYYY-MM-DDTHH:MM:SS`, optional fraction of any length (digits past
/// the 9th are ignored), then `Z`, `+hh:mm`, `-hh:mm`, `+hhmm`, `+hh` or nothing
/// (taken as UTC and flagged). A space instead of `T` is tolerated, as are leading
/// and trailing blanks. Offsets may be any minute value up to ±18:00 (e.g. +01:15).
public enum TimestampParser {
    /// Parses a string (convenience for tests and non-hot paths).
    public static func parse(_ text: String) -> ParsedTimestamp? {
        var text = text
        return text.withUTF8 { parse(UnsafeRawBufferPointer($0)) }
    }

    /// Parses the bytes of a timestamp; returns nil when they are not one.
    public static func parse(_ bytes: UnsafeRawBufferPointer) -> ParsedTimestamp? {
        var i = 0
        var end = bytes.count
        while i < end, isBlank(bytes[i]) { i += 1 }
        while end > i, isBlank(bytes[end - 1]) { end -= 1 }

        func digits(_ n: Int) -> Int? {
            guard i + n <= end else { return nil }
            var v = 0
            for k in 0..<n {
                let c = bytes[i + k]
                guard c >= 48, c <= 57 else { return nil }
                v = v * 10 + Int(c - 48)
            }
            i += n
            return v
        }
        func expect(_ c: UInt8) -> Bool {
            guard i < end, bytes[i] == c else { return false }
            i += 1
            return true
        }

        var negativeYear = false
        if i < end, bytes[i] == UInt8(ascii: "-") { negativeYear = true; i += 1 }
        guard var year = digits(4) else { return nil }
        if negativeYear { year = -year }
        guard expect(UInt8(ascii: "-")), let month = digits(2), expect(UInt8(ascii: "-")),
            let day = digits(2)
        else { return nil }
        guard i < end,
            bytes[i] == UInt8(ascii: "T") || bytes[i] == UInt8(ascii: "t")
                || bytes[i] == UInt8(ascii: " ")
        else { return nil }
        i += 1
        guard let hour = digits(2), expect(UInt8(ascii: ":")), let minute = digits(2),
            expect(UInt8(ascii: ":")), let second = digits(2)
        else { return nil }
        guard (1...12).contains(month), day >= 1, day <= daysInMonth(year, month),
            hour <= 24, minute <= 59, second <= 60
        else { return nil }
        if hour == 24, minute != 0 || second != 0 { return nil }

        var fraction = 0.0
        if i < end, bytes[i] == UInt8(ascii: ".") || bytes[i] == UInt8(ascii: ",") {
            i += 1
            var scale = 0.1
            var count = 0
            while i < end, bytes[i] >= 48, bytes[i] <= 57 {
                if count < 9 { fraction += Double(bytes[i] - 48) * scale; scale /= 10 }
                count += 1
                i += 1
            }
            guard count > 0 else { return nil }
        }

        var offsetSeconds = 0
        var hadNoZone = false
        if i == end {
            hadNoZone = true
        } else if bytes[i] == UInt8(ascii: "Z") || bytes[i] == UInt8(ascii: "z") {
            i += 1
        } else if bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") {
            let sign = bytes[i] == UInt8(ascii: "-") ? -1 : 1
            i += 1
            guard let oh = digits(2) else { return nil }
            var om = 0
            if i < end {
                _ = expect(UInt8(ascii: ":"))
                guard let m = digits(2) else { return nil }
                om = m
            }
            guard oh <= 18, om <= 59 else { return nil }
            offsetSeconds = sign * (oh * 3600 + om * 60)
        }
        guard i == end else { return nil }

        let days = daysFromCivil(year: year, month: month, day: day)
        let whole = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return ParsedTimestamp(secondsSinceEpoch: Double(whole) + fraction, hadNoZone: hadNoZone)
    }

    @inline(__always)
    static func isBlank(_ c: UInt8) -> Bool { c == 32 || c == 9 || c == 10 || c == 13 }

    /// True for XML blanks (space, tab, newline, carriage return).
    @inline(__always)
    public static func isBlankByte(_ c: UInt8) -> Bool { isBlank(c) }

    static func isLeap(_ y: Int) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }

    static func daysInMonth(_ y: Int, _ m: Int) -> Int {
        switch m {
        case 2: return isLeap(y) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 for a proleptic Gregorian date (Howard Hinnant's algorithm).
    public static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// Formats seconds since the epoch as `YYYY-MM-DDTHH:MM:SSZ` (or with
    /// milliseconds when `fractional` and the instant is not a whole second).
    /// Instants that are not finite or lie past year ±300,000 are `unknownText`.
    public static func format(_ seconds: Double, fractional: Bool = true) -> String {
        guard seconds.isFinite, abs(seconds) < 1e13 else { return unknownText }
        let whole = Int((seconds).rounded(.down))
        var millis = Int(((seconds - Double(whole)) * 1000).rounded())
        var w = whole
        if millis >= 1000 { w += 1; millis -= 1000 }
        var days = w / 86_400
        var rem = w % 86_400
        if rem < 0 { rem += 86_400; days -= 1 }
        let (y, m, d) = civilFromDays(days)
        if (0...9999).contains(y) {
            // Bytes, not interpolated strings: every run of a JSON listing has two.
            var b = [UInt8]()
            b.reserveCapacity(24)
            func digits(_ v: Int, _ n: Int) {
                var div = 1
                for _ in 1..<n { div *= 10 }
                while div > 0 {
                    b.append(UInt8(ascii: "0") + UInt8(v / div % 10))
                    div /= 10
                }
            }
            digits(y, 4); b.append(UInt8(ascii: "-")); digits(m, 2); b.append(UInt8(ascii: "-")); digits(d, 2)
            b.append(UInt8(ascii: "T")); digits(rem / 3600, 2); b.append(UInt8(ascii: ":"))
            digits(rem / 60 % 60, 2); b.append(UInt8(ascii: ":")); digits(rem % 60, 2)
            if fractional, millis != 0 { b.append(UInt8(ascii: ".")); digits(millis, 3) }
            b.append(UInt8(ascii: "Z"))
            return String(decoding: b, as: UTF8.self)
        }
        func pad(_ v: Int, _ n: Int) -> String {
            let s = String(abs(v))
            return (v < 0 ? "-" : "") + String(repeating: "0", count: max(0, n - s.count)) + s
        }
        var out =
            "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))T\(pad(rem / 3600, 2)):\(pad(rem / 60 % 60, 2)):\(pad(rem % 60, 2))"
        if fractional, millis != 0 { out += "." + pad(millis, 3) }
        return out + "Z"
    }

    /// The civil date of a day count since 1970-01-01.
    public static func civilFromDays(_ z0: Int) -> (year: Int, month: Int, day: Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}
