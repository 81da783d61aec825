import RaceKitTestSupport
import Testing

@testable import RaceKitMetrics
@testable import RaceKitModel

/// The power-duration curve, critical power fits, the critical power in force
/// on a day, intensity, stress and power zones (docs/numbers.md).
struct CriticalPowerTests {
    /// Morton's curve: P(t) = CP + W'/(t + k), k = W'/(Pmax - CP).
    static func morton(_ t: Double, cp: Double = 280, w: Double = 15_000, pmax: Double = 700) -> Double {
        cp + w / (t + w / (pmax - cp))
    }

    static let curveSeconds = PeakPowerCurve.seconds.map(Double.init)

    @Test func aBestEffortLiesWithinOneStretchOfRecording() throws {
        // 600 s at 200 W, a 5-minute gap, 100 s at 400 W.
        let points = (0...600).map { (Double($0), 200.0) } + (0...100).map { (900 + Double($0), 400.0) }
        let p = PowerSeries(PowerSeriesTests.series(points))
        #expect(p.stretchStarts == [0, 600])
        #expect(p.peak(seconds: 60) == 400)
        // Joined across the gap, 300 s would be (100 x 400 + 200 x 200) / 300 = 267 W: it is not one effort.
        #expect(p.peak(seconds: 300) == 200)
        #expect(p.peak(seconds: 601) == nil)
        // A repeated timestamp is no break.
        let repeated = PowerSeries(
            PowerSeriesTests.series([(0, 300), (0, 300)] + (1...120).map { (Double($0), 300.0) }))
        #expect(repeated.stretchStarts == [0])
    }

    @Test func peaksAreTheBestWindowMeansOnRandomRecordings() throws {
        var rng = SplitMix64(seed: 4038)
        for round in 0..<30 {
            var t = 0.0
            var points: [(t: Double, w: Double)] = []
            for _ in 0..<Int.random(in: 200...1500, using: &rng) {
                points.append(
                    (t, Int.random(in: 0..<40, using: &rng) == 0 ? .nan : Double(Int.random(in: 0...900, using: &rng))))
                t += Int.random(in: 0..<60, using: &rng) == 0 ? 45 : Double(Int.random(in: 1...3, using: &rng))
            }
            let p = PowerSeries(PowerSeriesTests.series(points))
            let ends = Array(p.stretchStarts.dropFirst()) + [p.watts.count]
            for seconds in [5, 30, 60, 300] {
                var best: Double?
                for (start, end) in zip(p.stretchStarts, ends) where end - start >= seconds {
                    for i in start...(end - seconds) {
                        let mean = p.watts[i..<(i + seconds)].reduce(0, +) / Double(seconds)
                        best = max(best ?? mean, mean)
                    }
                }
                let got = p.peak(seconds: seconds)
                #expect((got == nil) == (best == nil || !p.isUsable), "round \(round), \(seconds) s")
                if let got, let best { #expect(abs(got - best) < 1e-6, "round \(round), \(seconds) s") }
            }
        }
    }

    @Test func theTwoParameterFitIsTheWorkTimeLine() throws {
        let curve = Self.curveSeconds.map { (seconds: $0, watts: 300 + 20_000 / $0) }
        let two = try #require(CriticalPower.twoParameter(curve))
        #expect(abs(two.watts - 300) < 1e-6)
        #expect(abs(try #require(two.wPrimeJoules) - 20_000) < 1e-3)
        #expect(two.efforts == 8 && two.residualWatts < 1e-6)
        // 2-20 minutes only: the 5 s to 1 min points and the hour are not part of it.
        let withSprints = curve.map { $0.seconds < 120 || $0.seconds > 1200 ? ($0.seconds, $0.watts * 1.3) : $0 }
        #expect(abs(try #require(CriticalPower.twoParameter(withSprints)).watts - 300) < 1e-6)
    }

    @Test func mortonsModelIsRecoveredWhereTheEffortsReachFromAMinuteToTwelve() throws {
        let curve = Self.curveSeconds.map { (seconds: $0, watts: Self.morton($0)) }
        let fit = try #require(CriticalPower.fit(curve))
        #expect(fit.model == .threeParameter)
        #expect(abs(fit.watts - 280) < 0.5)
        #expect(abs(try #require(fit.wPrimeJoules) - 15_000) < 150)
        #expect(abs(try #require(fit.maxPowerWatts) - 700) < 7)
        #expect(abs(try #require(fit.power(forSeconds: 300)) - Self.morton(300)) < 0.5)
        // Without an effort of a minute or less: the two-parameter line, which
        // over-reads critical power on this curve (the known bias of the model).
        let noSprints = curve.filter { $0.seconds >= 120 }
        let two = try #require(CriticalPower.fit(noSprints))
        #expect(two.model == .twoParameter && two.watts > 280)
    }

    @Test func effortsThatCannotTellAreNoCriticalPower() {
        // Only short efforts; only long ones; a flat curve (one steady run: no W').
        #expect(CriticalPower.fit(Self.curveSeconds.filter { $0 <= 300 }.map { ($0, Self.morton($0)) }) == nil)
        #expect(CriticalPower.fit(Self.curveSeconds.filter { $0 >= 720 }.map { ($0, Self.morton($0)) }) == nil)
        #expect(CriticalPower.fit(Self.curveSeconds.map { ($0, 200) }) == nil)
        #expect(CriticalPower.fit([]) == nil)
        // A rising curve (a broken one) gives a negative W'.
        #expect(CriticalPower.fit(Self.curveSeconds.map { ($0, 100 + $0 / 10) }) == nil)
        #expect(CriticalPower.fit(Self.curveSeconds.map { ($0, .nan) }) == nil)
    }

    @Test func aFitBelowAnHourTheAthleteHeldIsRefusedWithItsReason() throws {
        // A long steady ride's curve: its short "efforts" were not all-out, so a
        // fit of them would put CP below the 60 minutes actually ridden.
        let ride = Self.curveSeconds.map { t in (seconds: t, watts: t <= 1200 ? 115 + 2_000 / t : 128) }
        #expect(CriticalPower.fit(ride.filter { $0.seconds <= 1200 }) != nil)
        #expect(CriticalPower.fit(ride) == nil)
        let why = CriticalPower.refusal(ride)
        #expect(why.hasPrefix("the 2-parameter fit: its 115 W is below the 128 W held for 30 min"), "\(why)")
        // One steady run: every effort present, the curve flat.
        let flat = Self.curveSeconds.map { (seconds: $0, watts: 250.0) }
        #expect(
            CriticalPower.refusal(flat)
                == "the curve is too flat for a W′ (W′ 0.0 kJ: steady running, not all-out efforts)")
        // A curve too steep for any athlete: the bound it breaks is named.
        let steep = Self.curveSeconds.map { (seconds: $0, watts: 300 + 500_000 / $0) }
        #expect(CriticalPower.refusal(steep) == "the curve is too steep: W′ 500 kJ is above 100 kJ")
        #expect(CriticalPower.refusal([(seconds: 300, watts: 300)]).hasPrefix("too few efforts"))
        // Efforts far off any curve (a residual of more than 8% of CP).
        let noisy = Self.curveSeconds.enumerated().map { i, t in
            (seconds: t, watts: Self.morton(t) * (i % 2 == 0 ? 1.3 : 0.8))
        }
        #expect(CriticalPower.fit(noisy) == nil)
        #expect(CriticalPower.refusal(noisy).contains("(RMS) off it, more than 8% of its"))
    }

    static func run(_ id: String, day: Double, _ curve: (Double) -> Double?, sport: Sport = .running)
        -> PowerHistory.Run
    {
        PowerHistory.Run(id: id, start: day * 86_400, sport: sport, peaks: Self.curveSeconds.map(curve))
    }

    @Test func theCriticalPowerInForceIsTheLastSetOrTheFitOfTheNinetyDaysBefore() throws {
        let efforts = Self.run("a", day: 100, { Self.morton($0) })
        let easy = Self.run("b", day: 150, { $0 <= 1800 ? 180 : nil })
        let settings = [PowerHistory.Setting(from: 170 * 86_400, sport: .running, watts: 300, wPrimeJoules: nil)]
        let h = PowerHistory(
            runs: [efforts, easy, Self.run("c", day: 160, { Self.morton($0) * 2 }, sport: .cycling)], settings: settings
        )
        #expect(h.criticalPower(.running, at: 99 * 86_400) == nil)
        let fit = try #require(h.criticalPower(.running, at: 150 * 86_400))
        #expect(abs(fit.value.watts - 280) < 0.5 && fit.setFrom == nil && fit.windowEnd == 150 * 86_400)
        // The cycling ride is no part of running's curve.
        #expect(h.recentBests(.running, at: 165 * 86_400).allSatisfy { $0.runID == "a" || $0.watts == 180 })
        // 90 days after the efforts they are out of the window (without the setting).
        let unset = PowerHistory(runs: [efforts, easy], settings: [])
        #expect(unset.criticalPower(.running, at: (100 + 90) * 86_400)?.value.model == .threeParameter)
        #expect(unset.criticalPower(.running, at: (100 + 90) * 86_400 + 1) == nil)
        #expect(unset.criticalPower(.running, at: 171 * 86_400)?.value.model == .threeParameter)
        // From the day set, the set value.
        let set = try #require(h.criticalPower(.running, at: 171 * 86_400))
        #expect(set.value.watts == 300 && set.value.model == .set && set.setFrom == 170 * 86_400)
        #expect(h.criticalPower(.swimming, at: 171 * 86_400) == nil)
        let ride = try #require(h.criticalPower(.cycling, at: 160 * 86_400))
        #expect(abs(ride.value.watts - 560) < 1)
    }

    @Test func anHourAtCriticalPowerScoresAHundred() throws {
        #expect(PowerStress.stress(seconds: 3600, normalized: 280, criticalPower: 280) == 100)
        #expect(abs(try #require(PowerStress.stress(seconds: 1800, normalized: 252, criticalPower: 280)) - 40.5) < 1e-9)
        #expect(PowerStress.intensity(normalized: 250, criticalPower: 0) == nil)
    }

    @Test func powerZonesCountEachSecondOnce() throws {
        // 100 s at 150 W (Easy at 250 W CP), 100 s at 240 W (Threshold), 50 s at 400 W (Repetition).
        let watts: (Int) -> Double = { i in i < 100 ? 150 : i < 200 ? 240 : 400 }
        let points: [(Double, Double)] = (0..<250).map { i in (Double(i), watts(i)) } + [(250, 0)]
        let zones = try #require(
            PowerZones.time(PowerSeries(PowerSeriesTests.series(points)), sport: .running, criticalPower: 250))
        #expect(zones.map(\.seconds) == [100, 0, 100, 0, 50])
        #expect(zones.map(\.lowWatts) == [0, 200, 225, 250, 288] && zones.last?.highWatts == nil)
        #expect(PowerZones.zones(.cycling, criticalPower: 250)?.count == 7)
        #expect(PowerZones.zones(.swimming, criticalPower: 250) == nil)
    }
}
