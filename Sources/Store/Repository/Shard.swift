/// One worker's share of the athletes when N workers split a job (`--shard K/N`
/// of `report weekly --all-athletes` and `runs recompute`): athlete `id` belongs
/// to shard `Shard.index(of: id, count: N)`, so shards 1/N ... N/N together hold
/// every athlete exactly once, and N workers on N machines do what one does.
///
/// `K` is 1-based: `1/3`, `2/3`, `3/3`. The partition is a pure function of the
/// athlete id's UTF-8 bytes and N: FNV-1a 64 (fixed offset basis and prime,
/// wrapping 64-bit arithmetic) followed by MurmurHash3's 64-bit finalizer, mod N.
/// Nothing in it depends on the machine, the process (unlike Swift's `Hasher`,
/// seeded per process), the Swift version or the store's backend. The finalizer is
/// there because FNV-1a alone leaves the low bits depending only on the bytes' low
/// bits (with N = 4, ids differing in one character's high bits would always share
/// a shard). It lives in Core, not on `ContentDigest` (SHA-256 in RaceKitFormats), so
/// the report library, which depends on Core only, partitions without libcrypto.
public struct Shard: Sendable, Equatable, CustomStringConvertible {
    /// The largest N: more workers than any deployment runs, and small enough
    /// that a typo (`1/30000`) is refused rather than run.
    public static let maxCount = 10_000

    /// This worker's shard, 1...count.
    public let index: Int
    /// The number of workers, 1...maxCount.
    public let count: Int

    /// Shard `index` of `count`; nil unless 1 ≤ index ≤ count ≤ `maxCount`.
    public init?(index: Int, count: Int) {
        guard (1...Self.maxCount).contains(count), (1...count).contains(index) else { return nil }
        self.index = index
        self.count = count
    }

    /// `K/N` as written on the command line (ASCII digits, no sign, no blanks);
    /// nil for anything else (`0/3`, `4/3`, `a/b`, `1/0`, `-1/2`, `1/3/4`).
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let numbers = parts.map { part -> Int? in
            guard (1...6).contains(part.utf8.count), part.utf8.allSatisfy({ (48...57).contains($0) }) else {
                return nil
            }
            return Int(part)
        }
        guard let k = numbers[0], let n = numbers[1] else { return nil }
        self.init(index: k, count: n)
    }

    /// `K/N`.
    public var description: String { "\(index)/\(count)" }

    /// True when athlete `id` belongs to this shard.
    public func contains(_ id: String) -> Bool { Self.index(of: id, count: count) == index }

    /// The 1-based shard of athlete `id` among `count` shards.
    public static func index(of id: String, count: Int) -> Int {
        precondition(count >= 1, "a shard count is at least 1")
        return Int(hash(id) % UInt64(count)) + 1
    }

    /// FNV-1a 64 of the UTF-8 bytes of `id`, through MurmurHash3's `fmix64`.
    public static func hash(_ id: String) -> UInt64 {
        var h = fnv1a64(id)
        h ^= h >> 33
        h = h &* 0xff51_afd7_ed55_8ccd
        h ^= h >> 33
        h = h &* 0xc4ce_b9fe_1a85_ec53
        h ^= h >> 33
        return h
    }

    /// FNV-1a 64 (Fowler, Noll, Vo) of the UTF-8 bytes of `text`.
    public static func fnv1a64(_ text: String) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            h ^= UInt64(byte)
            h = h &* 0x0000_0100_0000_01b3
        }
        return h
    }
}
