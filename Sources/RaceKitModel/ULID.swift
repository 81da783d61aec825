/// A ULID: 48 bits of milliseconds since the epoch then 80 random bits, written
/// as 26 Crockford base-32 characters, so that ids sort by creation time.
public enum ULID {
    private static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ".utf8)

    /// A new ULID for the given time (seconds since the epoch).
    public static func make(at seconds: Double, using rng: inout some RandomNumberGenerator) -> String {
        let millis = UInt64(max(0, min(seconds * 1000, Double(1 << 48 - 1))))
        var out = [UInt8](repeating: 0, count: 26)
        var t = millis
        for i in stride(from: 9, through: 0, by: -1) { out[i] = alphabet[Int(t & 31)]; t >>= 5 }
        var hi = UInt64(rng.next() as UInt16)   // 16 bits
        var lo = rng.next() as UInt64   // 64 bits
        for i in stride(from: 25, through: 10, by: -1) {
            out[i] = alphabet[Int(lo & 31)]
            lo = (lo >> 5) | ((hi & 31) << 59)
            hi >>= 5
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A new ULID for the given time using the system's random generator.
    public static func make(at seconds: Double) -> String {
        var rng = SystemRandomNumberGenerator()
        return make(at: seconds, using: &rng)
    }
}
