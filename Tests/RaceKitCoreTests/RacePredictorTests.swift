import Foundation
import Testing

@testable import RaceKitMetrics

@Suite struct RacePredictorTests {
    @Test func riegelIsAPowerLaw() {
        #expect(abs(RacePredictor.riegel(seconds: 2700, meters: 10_000, to: 42_195) - 2700 * pow(4.2195, 1.06)) < 1e-9)
        #expect(
            abs(RacePredictor.riegel(seconds: 2700, meters: 10_000, to: 20_000, exponent: 1.1) - 2700 * pow(2, 1.1))
                < 1e-9)
    }

    @Test func vdotMatchesDanielsTables() {
        // Daniels' Running Formula: VDOT 50 runs 5K in 19:57 and the marathon in 3:10:49;
        // VDOT 45 runs 10K in 45:16.
        #expect(abs(RacePredictor.vdot(meters: 5000, seconds: 19 * 60 + 57) - 50) < 0.3)
        #expect(abs(RacePredictor.time(vdot: 50, meters: 42_195) - (3 * 3600 + 10 * 60 + 49)) < 60)
        #expect(abs(RacePredictor.vdot(meters: 10_000, seconds: 45 * 60 + 16) - 45) < 0.3)
    }

    @Test func vdotTimeInvertsVdot() {
        let t = RacePredictor.time(vdot: 47.3, meters: 21_097.5)
        #expect(abs(RacePredictor.vdot(meters: 21_097.5, seconds: t) - 47.3) < 1e-6)
    }

    @Test func cameronByHand() {
        // a(d) = 13.49681 - 0.000030363 d + 835.7114 / d^0.7905
        func a(_ d: Double) -> Double { 13.49681 - 0.000030363 * d + 835.7114 / pow(d, 0.7905) }
        let expected = (1200.0 / 5000) * (a(5000) / a(10_000)) * 10_000
        #expect(abs(RacePredictor.cameron(seconds: 1200, meters: 5000, to: 10_000) - expected) < 1e-9)
        #expect(RacePredictor.cameron(seconds: 1200, meters: 5000, to: 5000) == 1200)
    }

    @Test func riegelIsTheMostOptimisticForTheMarathonFromA10k() {
        let p = RacePredictor.predict(seconds: 2700, meters: 10_000, to: 42_195)
        let byModel = Dictionary(uniqueKeysWithValues: p.map { ($0.model, $0.seconds) })
        #expect(byModel[.riegel]! < byModel[.vdot]! && byModel[.riegel]! < byModel[.cameron]!)
        // All within a plausible band: 3:20 to 3:40.
        #expect(p.allSatisfy { (12_000...13_200).contains($0.seconds) })
    }
}

/// A suggested target is the middle model, but the slowest where Riegel's
/// caveat applies: the line that says "plan on the slower end" suggests it.
@Suite struct SuggestedTargetTests {
    @Test func aMarathonFromAHalfIsTheSlowerEnd() {
        let s = RacePredictor.suggestTarget(seconds: 5777, meters: 21_097.5, to: 42_195)
        #expect(s.seconds >= s.slowestSeconds && s.seconds - s.slowestSeconds < 60)
        let tenK = RacePredictor.suggestTarget(seconds: 2400, meters: 10_000, to: 21_097.5)
        let middle = RacePredictor.predict(seconds: 2400, meters: 10_000, to: 21_097.5).map(\.seconds).sorted()[1]
        #expect(tenK.seconds >= middle && tenK.seconds - middle < 60)
    }
}
