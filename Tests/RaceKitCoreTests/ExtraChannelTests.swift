import Testing

@testable import RaceKitModel

/// Extra channels (running dynamics, developer fields) stay point for point with
/// the fixed ones through the repairs and the store's codec.
@Suite struct ExtraChannelTests {
    /// `times` as points with ground contact `100 + i` at point i (NaN where `gap`).
    static func series(_ times: [Double], gap: Set<Int> = []) -> SampleSeries {
        var s = SampleSeries()
        for (i, t) in times.enumerated() {
            s.append(point(t, lat: 48 + Double(i) * 1e-4, lon: 11, hr: 100 + Double(i)))
            if !gap.contains(i), let k = s.extraIndex(ExtraChannel.Key.groundContact, unit: "ms") {
                s.extras[k].values[i] = 100 + Double(i)
            }
        }
        return s
    }

    @Test func theCodecKeepsExtraChannelsAndReadsBlobsWithout() throws {
        var s = Self.series([0, 1, 2, 3], gap: [2])
        let index = s.extraIndex(ExtraChannel.developer("Form Power"), unit: "Watts")
        let k = try #require(index)
        s.extras[k].values[1] = 55.5
        _ = s.extraIndex(ExtraChannel.developer("empty"), unit: nil)   // no value: not stored
        let decoded = try SampleCodec.decode(SampleCodec.encode(s))
        #expect(decoded.extras.map(\.key) == [ExtraChannel.Key.groundContact, "developer:Form Power"])
        #expect(decoded.extras.map(\.unit) == ["ms", "Watts"])
        let gct = try #require(decoded.extra(ExtraChannel.Key.groundContact))
        #expect(gct[0] == 100 && gct[1] == 101 && gct[2].isNaN && gct[3] == 103)
        #expect(decoded.extra("developer:Form Power")?[1] == 55.5)
        // Without extras the blob is byte for byte the old layout (flag bit 1 clear).
        var plain = s
        plain.extras = []
        let bytes = SampleCodec.encode(plain)
        #expect(bytes[10] & 2 == 0)
        #expect(try SampleCodec.decode(bytes).extras.isEmpty)
        // Cut inside the extras: refused as truncated, never read past the end.
        let full = SampleCodec.encode(s)
        for cut in 1..<40 {
            #expect(throws: SampleCodec.DecodeError.self) { try SampleCodec.decode(Array(full.dropLast(cut))) }
        }
    }

    @Test func repairsMoveExtraChannelsWithTheirPoints() throws {
        // Two segments out of order, a point at a repeated time (merged), one stepping back (dropped).
        var raw = rawActivity([], segments: [0, 4])
        raw.samples = Self.series([100, 101, 101, 102, 0, 1, 0.5, 2], gap: [1])
        let a = try repaired(raw, .fit)
        // Segment 2 first (times 0, 1, 2: 0.5 dropped), then 100, 101 (merged: 101's missing value from its twin), 102.
        #expect(Array(a.samples.time.map { $0 }) == [0, 1, 2, 100, 101, 102])
        let gct = try #require(a.samples.extra(ExtraChannel.Key.groundContact))
        #expect(Array(gct) == [104, 105, 107, 100, 102, 103])
        #expect(Array(a.samples.heartRate) == [104, 105, 107, 100, 101, 103])
        #expect(a.samples.extras.allSatisfy { $0.values.count == a.samples.count })
    }

    @Test func aRunKeepsAtMostTheLimitOfExtraChannels() {
        var s = Self.series([0, 1])
        for i in 0..<100 { _ = s.extraIndex(ExtraChannel.developer("field \(i)"), unit: nil) }
        #expect(s.extras.count == ExtraChannel.maximumCount)
        #expect(s.extraIndex(ExtraChannel.developer("one more"), unit: nil) == nil)
        #expect(s.extraIndex(ExtraChannel.Key.groundContact, unit: "ms") == 0)
        let long = String(repeating: "é", count: 100)
        var t = Self.series([0])
        _ = t.extraIndex(ExtraChannel.developer(long), unit: long)
        #expect(t.extras.last!.key.utf8.count <= ExtraChannel.maximumKeyBytes)
    }
}
