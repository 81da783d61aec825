#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Strict decimal parsing from bytes for the per-point loop.
///
/// Accepts an optional sign, digits, an optional fraction and an optional
/// exponent, surrounded by optional blanks. Anything else (empty text, `abc`,
/// `1,5`, `nan`, `inf`) is rejected, so a malformed value is counted and dropped
/// instead of silently becoming 0.
public enum NumberParser {
    /// Parses the bytes; nil when they are not a finite decimal number.
    public static func parseDouble(_ bytes: UnsafeRawBufferPointer) -> Double? {
        var i = 0
        var end = bytes.count
        while i < end, TimestampParser.isBlank(bytes[i]) { i += 1 }
        while end > i, TimestampParser.isBlank(bytes[end - 1]) { end -= 1 }
        guard i < end else { return nil }

        var negative = false
        if bytes[i] == UInt8(ascii: "-") { negative = true; i += 1 } else if bytes[i] == UInt8(ascii: "+") { i += 1 }
        var mantissa: UInt64 = 0
        var digitCount = 0
        var exponent = 0
        var sawDigit = false
        while i < end, bytes[i] >= 48, bytes[i] <= 57 {
            sawDigit = true
            if digitCount < 18 {
                mantissa = mantissa * 10 + UInt64(bytes[i] - 48); if mantissa != 0 { digitCount += 1 }
            } else {
                exponent += 1
            }
            i += 1
        }
        if i < end, bytes[i] == UInt8(ascii: ".") {
            i += 1
            while i < end, bytes[i] >= 48, bytes[i] <= 57 {
                sawDigit = true
                if digitCount < 18 {
                    mantissa = mantissa * 10 + UInt64(bytes[i] - 48); exponent -= 1;
                    if mantissa != 0 { digitCount += 1 }
                }
                i += 1
            }
        }
        guard sawDigit else { return nil }
        if i < end, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            // Rare in activity files: hand the whole text to strtod for exact rounding.
            return slowPath(bytes, from: 0, to: bytes.count)
        }
        guard i == end else { return nil }
        // Exact when mantissa < 2^53 and |exponent| <= 22 (both operands exactly representable).
        if mantissa < (1 << 53), exponent >= -22, exponent <= 22 {
            let m = Double(mantissa)
            let v = exponent < 0 ? m / powersOfTen[-exponent] : m * powersOfTen[exponent]
            return negative ? -v : v
        }
        return slowPath(bytes, from: 0, to: bytes.count)
    }

    /// Parses a string (convenience for non-hot paths).
    public static func parseDouble(_ text: String) -> Double? {
        var text = text
        return text.withUTF8 { parseDouble(UnsafeRawBufferPointer($0)) }
    }

    private static let powersOfTen: [Double] = (0...22).map { p in
        var v = 1.0
        for _ in 0..<p { v *= 10 }
        return v
    }

    private static func slowPath(_ bytes: UnsafeRawBufferPointer, from: Int, to: Int) -> Double? {
        guard to - from < 512 else { return nil }
        var buffer = [CChar](repeating: 0, count: to - from + 1)
        for k in from..<to { buffer[k - from] = CChar(bitPattern: bytes[k]) }
        return buffer.withUnsafeMutableBufferPointer { buf -> Double? in
            var endPtr: UnsafeMutablePointer<CChar>?
            let value = strtod(buf.baseAddress!, &endPtr)
            guard let endPtr else { return nil }
            var rest = endPtr
            while rest.pointee == 32 || rest.pointee == 9 || rest.pointee == 10 || rest.pointee == 13 { rest += 1 }
            guard rest.pointee == 0, endPtr != buf.baseAddress!, value.isFinite else { return nil }
            // strtod accepts "nan"/"inf"/hex; the fast path above already rejected those shapes.
            return value
        }
    }
}
