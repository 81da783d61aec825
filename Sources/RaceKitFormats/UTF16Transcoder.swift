/// UTF-16 (either byte order) to UTF-8, a piece at a time: a UTF-16 document
/// is handed to the parser as UTF-8, so that every byte-level guard (the NUL
/// rule, the comment count, the start-tag bound, the DOCTYPE check) reads it as
/// it reads any other document. (libxml2 decodes UTF-16 itself, but the guards
/// would see every other byte as a NUL, and a byte-order mark made the file
/// look binary.)
struct UTF16Transcoder {
    let bigEndian: Bool
    /// A byte of a code unit whose other byte is in the next piece.
    private var oddByte: UInt8?
    /// A high surrogate waiting for its low one.
    private var high: UInt32?
    /// True until the first code unit: a byte-order mark there is dropped.
    private var atStart = true
    /// Code units decoded so far (for a message's position).
    private(set) var units = 0

    /// Whether a document starting with `a b` is UTF-16: a byte-order mark, or
    /// `<` as its first character.
    static func byteOrder(_ a: UInt8, _ b: UInt8) -> Bool? {
        switch (a, b) {
        case (0xFF, 0xFE), (0x3C, 0x00): return false
        case (0xFE, 0xFF), (0x00, 0x3C): return true
        default: return nil
        }
    }

    init(bigEndian: Bool) { self.bigEndian = bigEndian }

    /// Appends the UTF-8 of `bytes` to `out`; false on an unpaired surrogate.
    mutating func transcode(_ bytes: UnsafeRawBufferPointer, into out: inout [UInt8]) -> Bool {
        var i = 0
        out.reserveCapacity(out.count + bytes.count * 3 / 2 + 4)
        while i < bytes.count {
            let a: UInt8
            if let odd = oddByte {
                a = odd
                oddByte = nil
            } else {
                a = bytes[i]
                i += 1
            }
            guard i < bytes.count else {
                oddByte = a
                break
            }
            let b = bytes[i]
            i += 1
            let unit = bigEndian ? UInt32(a) << 8 | UInt32(b) : UInt32(b) << 8 | UInt32(a)
            units += 1
            if atStart {
                atStart = false
                if unit == 0xFEFF { continue }
            }
            if let h = high {
                high = nil
                guard (0xDC00...0xDFFF).contains(unit) else { return false }
                append(0x10000 + ((h - 0xD800) << 10) + (unit - 0xDC00), to: &out)
                continue
            }
            switch unit {
            case 0xD800...0xDBFF: high = unit
            case 0xDC00...0xDFFF: return false
            default: append(unit, to: &out)
            }
        }
        return true
    }

    /// True when the input ended on a whole character.
    var isComplete: Bool { oddByte == nil && high == nil }

    private func append(_ c: UInt32, to out: inout [UInt8]) {
        switch c {
        case 0..<0x80: out.append(UInt8(c))
        case 0x80..<0x800:
            out.append(UInt8(0xC0 | c >> 6))
            out.append(UInt8(0x80 | c & 0x3F))
        case 0x800..<0x10000:
            out.append(UInt8(0xE0 | c >> 12))
            out.append(UInt8(0x80 | c >> 6 & 0x3F))
            out.append(UInt8(0x80 | c & 0x3F))
        default:
            out.append(UInt8(0xF0 | c >> 18))
            out.append(UInt8(0x80 | c >> 12 & 0x3F))
            out.append(UInt8(0x80 | c >> 6 & 0x3F))
            out.append(UInt8(0x80 | c & 0x3F))
        }
    }
}
