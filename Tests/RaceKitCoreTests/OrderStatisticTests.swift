import RaceKitTestSupport
import Testing

@testable import RaceKitMetrics

/// `OrderStatistic.select` must give exactly what `sorted()[k]` gives, whatever
/// the order of the values: random, sorted, reversed, organ-pipe, all equal, few
/// distinct values, with a NaN.
@Suite struct OrderStatisticTests {
    static func inputs(_ rng: inout SplitMix64) -> [[Double]] {
        var out: [[Double]] = []
        for n in [1, 2, 3, 5, 8, 31, 100, 257, 1000, 4099] {
            let random = (0..<n).map { _ in Double.random(in: -50...50, using: &rng) }
            out.append(random)
            out.append(random.sorted())
            out.append(random.sorted(by: >))
            out.append((0..<n).map { Double(min($0, n - $0)) })   // organ pipe
            out.append([Double](repeating: 4.5, count: n))
            out.append((0..<n).map { _ in Double(Int.random(in: 0..<3, using: &rng)) })
            var withNaN = random
            withNaN[n / 2] = .nan
            out.append(withNaN)
        }
        return out
    }

    @Test func selectGivesTheSortedValueAtEveryRank() {
        var rng = SplitMix64(seed: 0x5e1ec7)
        var checked = 0
        for values in Self.inputs(&rng) {
            let sorted = values.sorted()
            let n = values.count
            let ranks = n <= 100 ? Array(values.indices) : [0, n / 2, n * 9 / 10, n - 1]
            for k in ranks {
                var copy = values
                let got = OrderStatistic.select(&copy, k)
                #expect(got.bitPattern == sorted[k].bitPattern, "n \(values.count), k \(k)")
                #expect(copy.count == values.count)
                checked += 1
            }
        }
        #expect(checked > 1000)
    }
}
