import RaceKitModel

/// Apple Health's timestamps, `2019-07-01 07:00:00 +0200`, parsed from bytes
/// (no Foundation formatter: an export holds millions of them).
///
/// Accepted: `YYYY-MM-DD HH:MM:SS` then blanks and a `+hhmm`/`-hhmm` offset (also
/// `+hh:mm` and `Z`), leading and trailing blanks. Refused (nil): anything else,
/// an impossible calendar date or time, an offset past ±18:00, and years outside
/// `AppleHealthDate.years` (HealthKit started in 2014; imported data goes back a
/// little further, never before GPS watches).
public enum AppleHealthDate {
    /// Years accepted.
    public static let years = 1990...2100

    static func daysIn(_ year: Int, _ month: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Seconds since 1970-01-01T00:00:00Z, or nil when the text is not such a date.
    public static func parse(_ text: String) -> Int64? {
        var text = text
        return text.withUTF8 { parse(UnsafeRawBufferPointer($0)) }
    }

    /// Seconds since 1970-01-01T00:00:00Z, or nil when the bytes are not such a date.
    @inline(__always)
    public static func parse(_ b: UnsafeRawBufferPointer) -> Int64? {
        var i = 0
        var end = b.count
        while i < end, TimestampParser.isBlankByte(b[i]) { i += 1 }
        while end > i, TimestampParser.isBlankByte(b[end - 1]) { end -= 1 }
        // The fixed part: 19 bytes.
        guard end - i >= 19 else { return nil }
        func digits(_ at: Int, _ n: Int) -> Int? {
            var v = 0
            for k in at..<at + n {
                let c = b[k]
                guard c >= 48, c <= 57 else { return nil }
                v = v * 10 + Int(c - 48)
            }
            return v
        }
        guard let year = digits(i, 4), b[i + 4] == UInt8(ascii: "-"), let month = digits(i + 5, 2),
            b[i + 7] == UInt8(ascii: "-"), let day = digits(i + 8, 2),
            b[i + 10] == UInt8(ascii: " ") || b[i + 10] == UInt8(ascii: "T"),
            let hour = digits(i + 11, 2), b[i + 13] == UInt8(ascii: ":"), let minute = digits(i + 14, 2),
            b[i + 16] == UInt8(ascii: ":"), let second = digits(i + 17, 2)
        else { return nil }
        guard years.contains(year), (1...12).contains(month), day >= 1,
            day <= daysIn(year, month), hour <= 23, minute <= 59, second <= 59
        else { return nil }
        i += 19
        while i < end, b[i] == UInt8(ascii: " ") { i += 1 }
        guard i < end else { return nil }   // Apple always writes the offset
        var offset = 0
        if b[i] == UInt8(ascii: "Z"), i + 1 == end {
            offset = 0
        } else {
            guard b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") else { return nil }
            let sign = b[i] == UInt8(ascii: "-") ? -1 : 1
            let rest = end - i - 1
            let colon = rest == 5 && b[i + 3] == UInt8(ascii: ":")
            guard rest == 4 || colon, let oh = digits(i + 1, 2), let om = digits(i + (colon ? 4 : 3), 2),
                oh < 18 || (oh == 18 && om == 0), om <= 59
            else { return nil }
            offset = sign * (oh * 3600 + om * 60)
        }
        let days = TimestampParser.daysFromCivil(year: year, month: month, day: day)
        return Int64(days * 86_400 + hour * 3600 + minute * 60 + second - offset)
    }
}
