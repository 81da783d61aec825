import RaceKitTestSupport
import Testing

@Suite struct SplitMix64Tests {
    /// The reference implementation's first outputs for seed 0 (Vigna's splitmix64.c).
    @Test func givesTheReferenceSequence() {
        var rng = SplitMix64(seed: 0)
        #expect(rng.next() == 0xE220_A839_7B1D_CDAF)
        #expect(rng.next() == 0x6E78_9E6A_A1B9_65F4)
        #expect(rng.next() == 0x06C4_5D18_8009_454F)
    }

    @Test func theSameSeedGivesTheSameDraws() {
        var a = SplitMix64(seed: 42), b = SplitMix64(seed: 42), c = SplitMix64(seed: 43)
        let x = (0..<5).map { _ in Int.random(in: 0..<1000, using: &a) }
        #expect(x == (0..<5).map { _ in Int.random(in: 0..<1000, using: &b) })
        #expect(x != (0..<5).map { _ in Int.random(in: 0..<1000, using: &c) })
    }
}
