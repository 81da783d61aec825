import Foundation
import RaceKitScript
import Testing

@testable import RaceKitAudio
@testable import RaceKitModel
@testable import RaceKitPlan
@testable import RaceKitScriptWriter

/// How run-time values are said by joining clips, and how a text is cut into
/// the parts a companion plays (issue: every message playable offline).
@Suite struct SpokenWordsTests {
    func said(_ kind: SpokenWords.Kind, _ value: String, unit: Double = 1000) -> String? {
        SpokenWords.words(kind, value, unitMeters: unit).map(SpokenWords.text)
    }

    @Test func numbersAreOneClipUnderAHundredThenComposed() {
        #expect(SpokenWords.number(0) == ["zero"] && SpokenWords.number(26) == ["twenty-six"])
        #expect(SpokenWords.number(40) == ["forty"] && SpokenWords.number(19) == ["nineteen"])
        #expect(SpokenWords.number(152) == ["one", "hundred", "fifty-two"])
        #expect(SpokenWords.number(300) == ["three", "hundred"])
        #expect(SpokenWords.number(2026) == ["two", "thousand", "twenty-six"])
        #expect(SpokenWords.number(100_000_007) == ["one", "hundred", "million", "seven"])
        #expect(SpokenWords.number(-5) == ["minus", "five"])
        #expect(SpokenWords.number(Int.min).first == "minus")
        // Every word any number uses is in the vocabulary.
        let vocabulary = Set(SpokenWords.vocabulary(unitMeters: 1000))
        for n in [0, 7, 99, 100, 101, 999, 1000, 65_535, 123_456_789, -40] {
            #expect(Set(SpokenWords.number(n)).isSubset(of: vocabulary), "\(n)")
        }
    }

    @Test func timesAreSaidAsRunnersSayThem() {
        #expect(said(.clock, "4:26") == "four twenty-six")
        #expect(said(.clock, "4:05") == "four oh five")
        #expect(said(.clock, "4:00") == "four minutes")
        #expect(said(.clock, "1:00") == "one minute")
        #expect(said(.clock, "0:45") == "forty-five seconds")
        #expect(said(.clock, "0:00") == "zero seconds")
        #expect(said(.clock, "1:35:00") == "one hour, thirty-five")
        #expect(said(.clock, "1:35:20") == "one hour, thirty-five twenty")
        #expect(said(.clock, "3:27:05") == "three hours, twenty-seven oh five")
        #expect(said(.clock, "2:00:00") == "two hours")
        #expect(said(.clock, "1:00:09") == "one hour, nine seconds")
        #expect(said(.clock, "100:00:00") == "one hundred hours")
        #expect(said(.clock, "-0:12") == "minus twelve seconds")
        #expect(said(.pace, "4:30") == "four thirty per kilometre")
        #expect(said(.pace, "7:15", unit: Units.metersPerMile) == "seven fifteen per mile")
        #expect(said(.pace, "5:00") == "five minutes per kilometre")
    }

    @Test func gapsSayTheirSizeAndSide() {
        #expect(said(.gap, "on plan") == "on plan")
        #expect(said(.gap, "25 s ahead of plan") == "twenty-five seconds ahead of plan")
        #expect(said(.gap, "1 s behind plan") == "one second behind plan")
        #expect(said(.gap, "1:10 behind plan") == "one minute ten behind plan")
        #expect(said(.gap, "2:00 ahead of plan") == "two minutes ahead of plan")
        #expect(said(.gap, "1:02:03 behind plan") == "one hour, two oh three behind plan")
        // The engine's gap for negative, zero and large values, said whole.
        for (behind, words) in [
            (-25.0, "twenty-five seconds ahead of plan"), (0, "on plan"), (2.4, "on plan"),
            (-70, "one minute ten ahead of plan"), (3725, "one hour, two oh five behind plan")
        ] {
            #expect(said(.gap, Placeholders.gap(behind)) == words, "\(behind)")
        }
    }

    /// A script in miles says its paces per mile, as its words do.
    @Test func pacesAreFilledPerTheScriptsUnit() {
        var m = Metrics()
        (m.currentPace, m.avgPace, m.targetPace, m.splitSeconds) = (300, 270, 280, 482)
        let mile = ScriptPlan(
            distanceMeters: 42_195, targetSeconds: 12_600, stepMeters: 100, clockSeconds: [0, 30],
            unitMeters: Units.metersPerMile)
        let km = ScriptPlan(distanceMeters: 42_195, targetSeconds: 12_600, stepMeters: 100, clockSeconds: [0, 30])
        let text = "{current_pace} {avg_pace} {target_pace} {split_pace}"
        #expect(Placeholders.fill(text, metrics: m, plan: mile) == "8:03 7:15 7:31 8:02")
        m.splitSeconds = 300
        #expect(Placeholders.fill(text, metrics: m, plan: km) == "5:00 4:30 4:40 5:00")
    }

    @Test func numbersDecimalsAndUnknownValues() {
        #expect(said(.decimal, "12.3") == "twelve point three")
        #expect(said(.decimal, "0.0") == "zero point zero")
        #expect(said(.decimal, "-0.5") == "minus zero point five")
        #expect(said(.integer, "152") == "one hundred fifty-two")
        for kind in SpokenWords.Kind.allCases { #expect(said(kind, "unknown") == "unknown") }
        // What the engine never writes is not guessed at.
        #expect(said(.clock, "4:7") == nil && said(.clock, "4:60") == nil && said(.pace, "1:00:00") == nil)
        #expect(said(.integer, "1e3") == nil && said(.decimal, "1.") == nil && said(.gap, "soon") == nil)
    }

    @Test func aTextIsCutAtItsSlotsWithThePausesItsMarksAskFor() {
        let parts = AudioPart.parts(of: "Kilometre 1, {split_time}; keep your hands soft.")
        guard parts.count == 3, case .fixed(let a) = parts[0], case .slot(let name, let kind) = parts[1],
            case .fixed(let b) = parts[2]
        else {
            Issue.record("\(parts)")
            return
        }
        #expect(a.text == "Kilometre 1, " && a.spoken == "Kilometre 1," && a.leadMilliseconds == 40)
        #expect(a.trailMilliseconds == AudioFragment.commaPause)
        #expect(name == "split_time" && kind == .clock)
        #expect(b.text == "; keep your hands soft." && b.spoken == "keep your hands soft.")
        #expect(b.leadMilliseconds == AudioFragment.commaPause && b.trailMilliseconds == 40)
        // A unit after a number slot is said as a word; marks alone are a pause; spaces nothing.
        let km = AudioPart.parts(of: "{distance_km} km, {hr}. {split_time} {split_pace}")
        let fixed = km.compactMap { if case .fixed(let f) = $0 { return f } else { return nil } }
        #expect(fixed.map(\.spoken) == ["kilometres,", "", ""])
        #expect(fixed.map(\.isPause) == [false, true, false])
        // Braces that are not run-time placeholders stay text.
        #expect(AudioPart.parts(of: "{nope} and {{gap}").count == 2)
    }

    static let setup = """
        name: Words Marathon
        distance: marathon
        target_time: "3:30:00"
        fueling: {carbs_per_hour_g: 60, gel_carbs_g: 25, start_after: "0:30:00", caffeine: {mg: 100, after: "2:00:00"}}
        hydration: {ml_per_hour: 500, aid_stations_km: [5, 10, 15, 20, 25, 30, 35, 40]}
        """

    /// Metrics that fill every slot with a kind of value: zero, hours, a
    /// negative gap, unknown (NaN) values, a slow mile.
    static var metricSets: [Metrics] {
        var zero = Metrics()
        (zero.duration, zero.splitSeconds, zero.currentPace, zero.hr, zero.timeVsPlan) = (0, 0, 0, 0, 0)
        var hours = Metrics()
        (hours.distance, hours.duration, hours.splitSeconds, hours.splitPlanSeconds) = (30_123, 9_900, 301, 300)
        (hours.currentPace, hours.avgPace, hours.timeVsPlan, hours.projectedFinish) = (305, 298, 3725, 13_505)
        (hours.hr, hours.planTime, hours.targetPace) = (171.4, 6_000, 299)
        var ahead = Metrics()
        (ahead.distance, ahead.duration, ahead.splitSeconds, ahead.timeVsPlan) = (5_000, 1_380, 265, -25)
        (ahead.hr, ahead.currentPace) = (99, 240)
        let unknown = Metrics()
        return [zero, hours, ahead, unknown]
    }

    @Test(arguments: Personality.shipped, [1000.0, Units.metersPerMile])
    func everyTextsPartsJoinToTheTextTheEngineSpeaks(personality: String, unit: Double) throws {
        let plan = try RacePlanner.plan(try SetupLoader.parse(yaml: Self.setup, file: "m.yaml"), unitMeters: unit)
        let script = ScriptGenerator.generate(plan: plan, personality: try Personality.named(personality))
        let vocabulary = Set(SpokenWords.vocabulary(unitMeters: unit))
        var slots = 0
        for m in script.messages {
            for text in [m.text] + (m.variants ?? []) {
                let parts = AudioPart.parts(of: text)
                for metrics in Self.metricSets {
                    let filled = Placeholders.filled(text, metrics: metrics, plan: script.plan)
                    var joined = ""
                    for part in parts {
                        switch part {
                        case .fixed(let f): joined += f.text
                        case .slot(let name, let kind):
                            let value = try #require(filled.values[name], "\(m.id): {\(name)}")
                            joined += value
                            let words = try #require(
                                SpokenWords.words(kind, value, unitMeters: unit), "\(m.id): {\(name)} = \(value)")
                            #expect(Set(words).isSubset(of: vocabulary), "\(m.id): \(words)")
                            slots += 1
                        }
                    }
                    #expect(joined == filled.text, "\(m.id)")
                }
            }
        }
        #expect(slots > 100, "the script's slots were not exercised")
    }
}
