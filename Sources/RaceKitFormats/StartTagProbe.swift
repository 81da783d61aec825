#if canImport(Glibc)
import Glibc
#endif

/// Finds a start tag longer than `maximumBytes` in a document's bytes as they
/// are read, before libxml2 sees them. libxml2 2.9 checks an element's
/// attributes for duplicates pair by pair (200,000 attributes on one element
/// took 36 s), and its two parsers bound a start tag differently (the push
/// parser refuses one past 10 MB as "Huge input lookup", the pull parser
/// reads it), so a file would import plain and fail gzipped. One bound, in
/// the bytes, gives every parser the same answer.
///
/// It costs next to nothing on real files: an attribute value may not hold a
/// `<`, so a start tag is a stretch of bytes without one; the probe looks only
/// at the first and the last `<` of every `maximumBytes` window (a few bytes
/// from either end in any real file) and reads a window byte by byte only
/// where it has no `<` at all: a long text node, a comment, or the tag sought.
struct StartTagProbe {
    /// The longest start tag (name and attributes) a document may have: real
    /// activity files' are under 1 KB; 64 KB holds at most about 13,000
    /// attributes, which libxml2 checks in a tenth of a second.
    static let maximumBytes = 64 * 1024

    /// Offset (in the document) of the last `<` seen, -1 before the first.
    private var lastOpen = -1
    /// Bytes from `lastOpen` to the end of what was seen, while the stretch
    /// after it is shorter than `maximumBytes` (kept for the byte-by-byte look).
    private var carry: [UInt8] = []
    /// Offset of the end of the bytes seen so far.
    private var seen = 0
    /// The stretch since `lastOpen` was looked at and is no start tag of
    /// concern (a text node, a comment...): nothing to do until the next `<`.
    private var cleared = false

    /// The document's offset of the `<` opening the start tag that was too long.
    var longTagOffset: Int { lastOpen }

    /// Looks at the next bytes of the document; true when a start tag longer
    /// than `maximumBytes` is found (`longTagOffset` says where it starts).
    mutating func scan(_ bytes: UnsafeRawBufferPointer) -> Bool {
        // Pieces of at most a window: a stretch longer than a window then always
        // crosses from one piece into a later one.
        var from = 0
        while from < bytes.count {
            let n = min(Self.maximumBytes, bytes.count - from)
            if scanPiece(UnsafeRawBufferPointer(rebasing: bytes[from..<from + n])) { return true }
            from += n
        }
        return false
    }

    private mutating func scanPiece(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let base = bytes.baseAddress!
        let start = seen
        seen += bytes.count
        let lt = Int32(UInt8(ascii: "<"))
        guard let firstHit = memchr(base, lt, bytes.count) else {
            // No `<` here: the stretch since `lastOpen` goes on.
            guard !cleared, lastOpen >= 0 else { return false }
            if carry.count <= Self.maximumBytes {
                carry.append(contentsOf: bytes.prefix(Self.maximumBytes + 1 - carry.count))
            }
            if seen - lastOpen > Self.maximumBytes {
                if isLongStartTag(with: UnsafeRawBufferPointer(start: nil, count: 0)) { return true }
                cleared = true
            }
            return false
        }
        // The first `<` here ends the stretch since `lastOpen`: was it too long?
        let first = base.distance(to: UnsafeRawPointer(firstHit))
        if !cleared, lastOpen >= 0, start + first - lastOpen > Self.maximumBytes,
            isLongStartTag(with: UnsafeRawBufferPointer(rebasing: bytes[..<first]))
        {
            return true
        }
        // Within a piece no longer than a window, no stretch is too long; the
        // last `<` opens the next stretch.
        var last = bytes.count - 1
        while bytes[last] != UInt8(ascii: "<") { last -= 1 }   // stops at `first` at the latest
        lastOpen = start + last
        cleared = false
        carry.removeAll(keepingCapacity: true)
        carry.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[last...]))
        return false
    }

    /// Whether the stretch from `lastOpen` (its first bytes in `carry`, then
    /// `more`) opens a start tag that does not close within `maximumBytes`.
    private mutating func isLongStartTag(with more: UnsafeRawBufferPointer) -> Bool {
        var window = carry
        if window.count <= Self.maximumBytes { window += more.prefix(Self.maximumBytes + 1 - window.count) }
        guard window.count > 1 else { return false }
        // `</`, `<!` (comment, CDATA) and `<?` are short or bounded elsewhere.
        let kind = window[1]
        if kind == UInt8(ascii: "/") || kind == UInt8(ascii: "!") || kind == UInt8(ascii: "?") {
            cleared = true
            return false
        }
        var quote: UInt8 = 0
        for (k, b) in window.enumerated() where k > 0 {
            if quote != 0 {
                if b == quote { quote = 0 }
            } else if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
                quote = b
            } else if b == UInt8(ascii: ">") {
                cleared = true
                return false
            }
        }
        return window.count > Self.maximumBytes
    }
}
