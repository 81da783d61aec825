import RaceKitMetrics
import Testing

@testable import racekit

@Suite struct JSONContractTests {
    /// `runs list --format json` is written in one pass only while the run's
    /// keys are declared sorted (`FlatSortedEncodable`).
    @Test func theRunsKeysAreDeclaredSorted() {
        let keys = RunJSON.keys()
        #expect(keys == keys.sorted())
        // The fixed keys and one per metric.
        #expect(keys.count == 18 + MetricRegistry.standard.metrics.count)
        #expect(keys.contains("gradeAdjustedPaceSecondsPerKm"))
    }
}
