import RaceKitStore
import RaceKitTestSupport
import Testing

/// `--shard K/N`: the partition of athletes among workers.
@Suite struct ShardTests {
    /// The published FNV-1a 64 test vectors (Fowler, Noll, Vo: "", "a", "foobar").
    @Test func fnv1aMatchesThePublishedVectors() {
        #expect(Shard.fnv1a64("") == 0xcbf2_9ce4_8422_2325)
        #expect(Shard.fnv1a64("a") == 0xaf63_dc4c_8601_ec8c)
        #expect(Shard.fnv1a64("foobar") == 0x8594_4171_f739_67e8)
    }

    /// The partition must never change (cron workers on different machines and
    /// versions must agree): hashes and shards recorded from an independent
    /// implementation (Python: FNV-1a 64, MurmurHash3 fmix64, mod N, plus one).
    @Test(arguments: [
        ("default", 0xd470_84e0_f7c5_d5ad as UInt64, [2, 2, 2, 4286]),
        ("anna", 0xcc12_1689_c086_b9b9, [2, 1, 2, 6218]),
        ("mia", 0x65ae_c019_776c_36b3, [2, 2, 4, 1668]),
        ("athlete-01", 0x6538_5eec_5157_a3cf, [2, 3, 4, 9136]),
        ("athlete-02", 0x1bf6_dc7f_c26a_804c, [1, 3, 1, 2525]),
        ("josé", 0x9ca3_6cac_2708_6681, [2, 2, 2, 1618])
    ])
    func theHashAndShardsOfAnIdNeverChange(id: String, hash: UInt64, shards: [Int]) {
        #expect(Shard.hash(id) == hash)
        #expect([2, 3, 4, 10_000].map { Shard.index(of: id, count: $0) } == shards)
        #expect(Shard.index(of: id, count: 1) == 1)
    }

    @Test func everyIdIsInExactlyOneShard() {
        var rng = SplitMix64(seed: 0x5eed_5a4d)
        for count in [1, 2, 3, 5, 8, 64, 10_000] {
            let shards = (1...count).map { Shard(index: $0, count: count)! }
            var sizes = [Int](repeating: 0, count: count)
            // 2,000 ids a count; 100 against 10,000 shards (each id asks every shard).
            for _ in 0..<(count > 64 ? 100 : 2000) {
                let id = "athlete-\(rng.next() % 1_000_000)"
                let holders = shards.filter { $0.contains(id) }
                #expect(holders.count == 1 && holders[0].index == Shard.index(of: id, count: count))
                sizes[holders[0].index - 1] += 1
            }
            // and the shards get their share (none under half of it).
            if count <= 8 { #expect(sizes.allSatisfy { $0 > 2000 / count / 2 }, "\(count): \(sizes)") }
        }
    }

    @Test func parsesKOfN() {
        #expect(Shard("1/3") == Shard(index: 1, count: 3))
        #expect(Shard("3/3")?.description == "3/3")
        #expect(Shard("1/1") == Shard(index: 1, count: 1))
        #expect(Shard("10000/10000")?.count == 10_000)
        #expect(Shard("007/10")?.index == 7)
    }

    @Test(arguments: [
        "0/3", "4/3", "a/b", "1/0", "-1/2", "1/-2", "+1/2", "1/3/4", "1/", "/3", "", "/", "1 /3", " 1/3", "1/3 ",
        "1/10001", "99999999999999999999/3", "1/99999999999999999999", "1.0/3", "１/３", "1\\3"
    ])
    func refusesAnythingElse(text: String) {
        #expect(Shard(text) == nil)
    }
}
