import Foundation
import RaceKitScript
import Testing

@testable import RaceKitMetrics
@testable import RaceKitModel
@testable import RaceKitOutput
@testable import RaceKitPlan
@testable import RaceKitScriptWriter

/// Heat-aware plans (docs/race-plans.md, "Weather and heat").
@Suite struct HeatPlanTests {
    /// A 3:30 marathon starting at 08:00, with `extra` appended (a `weather:` block).
    static func setup(_ extra: String = "", hydration: String? = nil) throws -> RaceSetup {
        try SetupLoader.parse(
            yaml: """
                name: Warm Marathon
                date: 2026-09-27
                start_time: "08:00"
                distance: marathon
                target_time: "3:30:00"
                pacing:
                  strategy: negative
                  split_percent: 1
                \(hydration ?? "")
                \(extra)
                """, file: "Races/warm.yaml")
    }

    static func plan(_ extra: String = "", hydration: String? = nil) throws -> RacePlan {
        try RacePlanner.plan(try setup(extra, hydration: hydration))
    }

    static func weather(_ t: Double, _ dew: Double, _ more: String = "") -> String {
        "weather:\n  temperature_c: \(t)\n  dew_point_c: \(dew)\n" + more
    }

    // MARK: the formulas

    @Test func wetBulbDewPointAndWBGTMatchTheirSources() {
        // Stull 2011's own example: 20 °C at 50% is a wet bulb of 13.7 °C.
        #expect(abs(Heat.wetBulb(celsius: 20, humidityPercent: 50) - 13.7) < 0.05)
        // The dew point and the humidity are each other's inverse.
        let dew = Heat.dewPoint(celsius: 24, humidityPercent: 69)
        #expect(abs(Heat.humidity(celsius: 24, dewPoint: dew) - 69) < 1e-6)
        #expect(abs(dew - 17.99) < 0.1, "24 °C at 69% has a dew point near 18 °C (psychrometric tables)")
        // BoM's approximation at 24 °C, dew point 18 °C: e = 20.6 hPa (Buck 1981
        // gives 20.64), so 0.567·24 + 0.393·20.6 + 3.94 = 25.6 °C.
        let buck = 6.1121 * exp((18.678 - 18 / 234.5) * (18 / (257.14 + 18)))
        #expect(abs(Heat.wbgt(celsius: 24, dewPoint: 18, sun: .full) - (0.567 * 24 + 0.393 * buck + 3.94)) < 0.05)
        // In shade: 0.7 Tw + 0.3 T, below the sunny value; partial between.
        let shade = Heat.wbgt(celsius: 24, dewPoint: 18, sun: .none)
        let rh = Heat.humidity(celsius: 24, dewPoint: 18)
        #expect(abs(shade - (0.7 * Heat.wetBulb(celsius: 24, humidityPercent: rh) + 0.3 * 24)) < 1e-9)
        let partial = Heat.wbgt(celsius: 24, dewPoint: 18, sun: .partial)
        #expect(shade < partial && partial < Heat.wbgt(celsius: 24, dewPoint: 18, sun: .full))
    }

    @Test func theModelsFollowTheirPapers() {
        // Mantzios 2022: none inside 7.5-15 °C WBGT, 0.35% a degree outside it.
        func mantzios(wbgtAbout t: Double) -> (Double, Double) {
            // At 100% humidity in shade the WBGT is the temperature.
            (
                Heat.wbgt(celsius: t, dewPoint: t, sun: .none),
                Heat.slowdownPercent(model: .mantzios2022, celsius: t, dewPoint: t, sun: .none)
            )
        }
        for t in [8.0, 11, 14.9] { #expect(mantzios(wbgtAbout: t).1 == 0) }
        let (w, p) = mantzios(wbgtAbout: 25)
        #expect(abs(p - (w - 15) * 0.35) < 1e-9 && p > 3)
        let (cold, coldP) = mantzios(wbgtAbout: 0)
        #expect(abs(coldP - (7.5 - cold) * 0.35) < 1e-9, "the cold side of the optimum slows too")
        // Hadley: 70 °F + 60 °F = 130: 2%; 100 or less: none; 145: 3.75%.
        func c(_ f: Double) -> Double { (f - 32) * 5 / 9 }
        #expect(abs(Heat.slowdownPercent(model: .hadley, celsius: c(70), dewPoint: c(60), sun: .full) - 2) < 1e-9)
        #expect(Heat.slowdownPercent(model: .hadley, celsius: c(60), dewPoint: c(40), sun: .full) == 0)
        #expect(abs(Heat.slowdownPercent(model: .hadley, celsius: c(80), dewPoint: c(65), sun: .full) - 3.75) < 1e-9)
        // Ely 2007: the top men's quartile means, 0.8 points a quartile up to 15-20 °C.
        #expect(abs(Heat.piecewise(Heat.elyPoints.map { ($0.wbgt, $0.percent) }, at: 17.5) - 1.6) < 1e-9)
        #expect(Heat.beyondData(model: .ely2007, celsius: 30, dewPoint: 22, sun: .full))
    }

    // MARK: the plan

    @Test func aCoolDayPlansTheSameAsNoWeather() throws {
        let plain = try Self.plan()
        let cool = try Self.plan(Self.weather(8, 4))
        #expect(abs(cool.pacePlan.targetSeconds / plain.pacePlan.targetSeconds - 1) < 0.002)
        #expect(cool.splits.map(\.split.cumulativeSeconds) == plain.splits.map(\.split.cumulativeSeconds))
        #expect(cool.heat?.changesNothing == true)
        #expect(cool.notes.first { $0.hasPrefix("Heat: none") }?.contains("WBGT 11.7 °C") == true)
    }

    @Test func aWarmDayIsSlowerWithTheModelNamed() throws {
        for model in Heat.Model.allCases {
            let warm = try Self.plan(Self.weather(24, 18, "  model: \(model.rawValue)\n"))
            let slower = warm.pacePlan.targetSeconds / 12_600 - 1
            #expect((0.015...0.12).contains(slower), "\(model): \(slower)")
            #expect(warm.splits.last?.split.cumulativeSeconds == Int(warm.pacePlan.targetSeconds.rounded()))
            let line = try #require(warm.notes.first { $0.hasPrefix("Heat: +") })
            #expect(line.contains(model.citation) && line.contains(TextFormat.duration(warm.pacePlan.targetSeconds)))
            // The cool-day time this day needs, slowed, finishes in the target.
            let cool = try #require(warm.heat?.coolEquivalentSeconds)
            let back = try PacePlan(distanceMeters: 42_195, targetSeconds: cool, strategy: .negative(percent: 1))
                .slowed(by: warm.setup.weather!.factor(startOfDay: 8 * 3600))
            #expect(abs(back.targetSeconds - 12_600) < 1)
        }
    }

    @Test func aWarmingForecastSlowsTheLateSplitsMore() throws {
        let hourly = """
            weather:
              hourly:
                - {time: "08:00", temperature_c: 11, dew_point_c: 7}
                - {time: "09:00", temperature_c: 15, dew_point_c: 9}
                - {time: "10:00", temperature_c: 20, dew_point_c: 11}
                - {time: "11:00", temperature_c: 25, dew_point_c: 13}
                - {time: "12:00", temperature_c: 28, dew_point_c: 14}
            """
        let plain = try Self.plan()
        let warming = try Self.plan(hourly)
        let slowdown = zip(warming.splits, plain.splits).map {
            Double($0.split.splitSeconds) / Double($1.split.splitSeconds) - 1
        }
        let early = slowdown.prefix(5).reduce(0, +) / 5
        let late = slowdown.dropLast().suffix(5).reduce(0, +) / 5
        #expect(late - early >= 0.02, "early \(early), late \(late)")
        // The negative split survives: the shape is the strategy's, the heat on top.
        #expect(warming.heat!.wbgtFinish > warming.heat!.wbgtStart + 5)
    }

    @Test func adjustWarnKeepsThePlanAndSaysTheCost() throws {
        let plain = try Self.plan()
        let kept = try Self.plan(Self.weather(26, 18, "  adjust: warn\n"))
        #expect(kept.splits.map(\.split.cumulativeSeconds) == plain.splits.map(\.split.cumulativeSeconds))
        let w = try #require(kept.warnings.first { $0.hasPrefix("weather: the plan keeps 3:30:00") })
        #expect(w.contains("+\(TextFormat.fixed(kept.heat!.percent, 1))%"))
    }

    @Test func hotterThanTheDataOrTheSafeLimitIsSaid() throws {
        let hot = try Self.plan(Self.weather(33, 24))
        #expect(hot.heat!.wbgtMax > 28)
        #expect(hot.warnings.contains { $0.contains("above 28 °C") && $0.contains("ACSM") })
        let ely = try Self.plan(Self.weather(33, 24, "  model: ely2007\n"))
        #expect(ely.warnings.contains { $0.contains("extrapolated") })
        #expect(!(try Self.plan(Self.weather(20, 10))).warnings.contains { $0.hasPrefix("weather:") })
    }

    // MARK: fluids

    static let stations =
        "  aid_stations_km: [2.5, 5, 7.5, 10, 12.5, 15, 17.5, 20, 22.5, 25, 27.5, 30, 32.5, 35, 37.5, 40]"

    @Test func theFluidsKeepTheLossUnderTwoPercent() throws {
        let hydration = """
            hydration:
              ml_per_hour: 400
              sodium_mg_per_hour: 400
              sweat_rate_l_per_h: 1.1
              body_mass_kg: 62
            \(Self.stations)
            """
        for extra in ["", Self.weather(24, 18)] {
            let p = try Self.plan(extra, hydration: hydration)
            let sweat = 1100 * p.pacePlan.targetSeconds / 3600
            let drunk = p.cues.totals.fluidMl
            #expect(sweat - drunk <= 0.02 * 62_000 + 5 * Double(p.cues.totals.drinks), "loss \(sweat - drunk)")
            #expect(sweat - drunk > 0.02 * 62_000 - 100, "no more than needed: the 2% is allowed")
            #expect(p.setup.hydration!.mlPerHour <= 1100 && p.setup.hydration!.mlPerHour > 400)
            // Sodium keeps the 1000 mg/l asked (400 mg in 400 ml).
            #expect(abs(p.cues.totals.sodiumMg / drunk * 1000 - 1000) < 30)
            #expect(!p.warnings.contains { $0.contains("keeping the loss under 2%") })
            #expect(p.notes.contains { $0.hasPrefix("Fluids: sweat 1.10 l/h") })
        }
        // The heat makes the race longer, so more to drink.
        let cool = try Self.plan(hydration: hydration), warm = try Self.plan(Self.weather(24, 18), hydration: hydration)
        #expect(warm.cues.totals.fluidMl > cool.cues.totals.fluidMl)
    }

    @Test func neverMoreThanTheSweatRateAndAWarningWhenStationsFallShort() throws {
        let light = try Self.plan(
            hydration: "hydration:\n  ml_per_hour: 800\n  sweat_rate_l_per_h: 0.4\n  body_mass_kg: 60\n\(Self.stations)"
        )
        #expect(light.setup.hydration!.mlPerHour == 400)
        #expect(light.warnings.contains { $0.contains("more than the sweat rate (400 ml/h)") })
        #expect(light.cues.totals.fluidMl <= 400 * light.pacePlan.targetSeconds / 3600)
        // Two stations cannot give a heavy sweater 2 litres.
        let few = try Self.plan(
            hydration: "hydration:\n  sweat_rate_l_per_h: 1.5\n  body_mass_kg: 70\n  aid_stations_km: [14, 28]")
        let w = try #require(few.warnings.first { $0.contains("keeping the loss under 2% of 70.0 kg (1.40 l)") })
        #expect(w.contains("more than 400 ml at a stop") && w.contains("% of the body mass"))
    }

    // MARK: bad input

    @Test func badWeatherIsRefusedWithTheKeyLineAndRange() throws {
        func refused(_ extra: String, hydration: String? = nil) -> SetupError? {
            do {
                _ = try Self.plan(extra, hydration: hydration)
                return nil
            } catch let e as SetupError { return e } catch { return nil }
        }
        /// An hourly list of (time, temperature) with a dew point of 8 °C.
        func hourly(_ hours: (String, Double)...) -> String {
            "weather:\n  hourly:\n"
                + hours.map { "    - {time: \"\($0.0)\", temperature_c: \($0.1), dew_point_c: 8}\n" }.joined()
        }
        let hot = try #require(refused(Self.weather(75, 10)))
        #expect(hot.key == "weather.temperature_c" && hot.line == 11 && hot.message.contains("-30 to 50"))
        let dew = try #require(refused(Self.weather(20, 22)))
        #expect(dew.key == "weather.dew_point_c" && dew.line == 12 && dew.message.contains("above the temperature"))
        let order = try #require(refused(hourly(("08:00", 11), ("07:00", 12))))
        #expect(order.key == "weather.hourly[1].time" && order.line == 13 && order.message.contains("in order"))
        let short = try #require(refused(hourly(("08:00", 11), ("10:00", 14))))
        #expect(short.key == "weather.hourly" && short.line == 11 && short.message.contains("ends at 10:00"))
        let late = try #require(refused(hourly(("08:30", 11), ("13:00", 14))))
        #expect(late.message.contains("starts at 08:30, after the start at 08:00"))
        let sweat = try #require(
            refused("", hydration: "hydration:\n  sweat_rate_l_per_h: 9\n  body_mass_kg: 60\n  every: \"0:20:00\""))
        #expect(sweat.key == "hydration.sweat_rate_l_per_h" && sweat.line == 10 && sweat.message.contains("0.1 to 4"))
        #expect(refused(Self.weather(20, 10, "  model: vihma\n"))?.key == "weather.model")
        #expect(refused("weather:\n  temperature_c: 20\n")?.key == "weather.dew_point_c")
        #expect(refused("weather:\n  hourly: []\n")?.key == "weather.hourly")
        #expect(refused(Self.weather(20, 10, "  sun: cloudy\n"))?.message.contains("full, partial, none") == true)
        // Possible but unusual: planned, with a warning.
        let odd = try Self.plan(
            Self.weather(41, 10), hydration: "hydration:\n  sweat_rate_l_per_h: 3\n  body_mass_kg: 60\n\(Self.stations)"
        )
        #expect(odd.warnings.contains { $0.contains("3.00 l/h is unusual") })
        #expect(odd.warnings.contains { $0.contains("41.0 °C is hotter than almost any race") })
    }

    @Test func hourlyNeedsAStartTime() throws {
        let yaml = """
            name: No start
            distance: 10k
            target_time: "45:00"
            weather:
              hourly:
                - {time: "08:00", temperature_c: 11, dew_point_c: 8}
            """
        #expect(throws: SetupError.self) { try SetupLoader.parse(yaml: yaml, file: "t.yaml") }
    }
}

extension HeatPlanTests {
    /// Mantzios 2022 also slows below WBGT 7.5 °C: that cost is the cold's, and said so.
    @Test func aColdDaysCostIsCalledTheCold() throws {
        let cold = try Self.plan(Self.weather(-10, -15))
        let line = try #require(cold.notes.first { $0.hasPrefix("Cold: +") })
        #expect(line.contains("Mantzios 2022") && !cold.notes.contains { $0.hasPrefix("Heat") })
        #expect(PlanOutput.summary(cold)[0].contains("on a cool day, slowed for the cold)"))
        #expect(Heat.cause(wbgtLow: 5, wbgtHigh: 20) == "weather" && Heat.cause(wbgtLow: 16, wbgtHigh: 20) == "heat")
        let warm = try Self.plan(Self.weather(24, 18))
        #expect(PlanOutput.summary(warm)[0].contains("slowed for the heat)"))
    }

    /// The script's heat cue: at the clock time the forecast first passes WBGT
    /// 15 °C, in words true of the forecast and the plan; none on a cool day.
    @Test func theScriptSaysTheHeatWhenTheForecastIsWarm() throws {
        func cue(_ plan: RacePlan) throws -> ScriptMessage? {
            ScriptGenerator.generate(plan: plan, personality: try Personality.named("calm_coach"))
                .messages.first { $0.id.hasSuffix(".heat") }
        }
        #expect(try cue(try Self.plan(Self.weather(8, 4))) == nil && (try cue(try Self.plan())) == nil)
        let warm = try Self.plan(Self.weather(24, 18))
        let hot = try #require(try cue(warm))
        #expect(hot.trigger.atSeconds == ScriptGenerator.heatCueEarliest)
        #expect(hot.text.hasPrefix("It is warm today: the forecast gives a wet bulb globe temperature of 26 degrees."))
        #expect(hot.text.contains("already slowed for it, \(TextFormat.fixed(warm.heat!.percent, 1)) percent"))
        let warnOnly = try #require(try cue(try Self.plan(Self.weather(24, 18, "  adjust: warn\n"))))
        #expect(warnOnly.text.contains("The plan keeps its pace, so judge by effort."))
        let warming = try Self.plan(
            """
            weather:
              hourly:
                - {time: "08:00", temperature_c: 8, dew_point_c: 4}
                - {time: "12:00", temperature_c: 28, dew_point_c: 14}
            """)
        let later = try #require(try cue(warming))
        let w = try #require(warming.setup.weather)
        let at = try #require(later.trigger.atSeconds)
        #expect(later.text.hasPrefix("It is getting warm"))
        #expect(w.wbgt(atSecondsOfDay: 8 * 3600 + at) > 15 && w.wbgt(atSecondsOfDay: 8 * 3600 + at - 60) <= 15)
    }
}

/// The review's conditions (docs/review.md, "Conditions").
@Suite struct ReviewConditionsTests {
    /// The plan's run with the temperature channel `celsius(x)` (nil: none).
    static func run(_ plan: RacePlan, extra: Double = 0, celsius: ((Double) -> Double)?) -> SampleSeries {
        var s = plannedRun(plan, extra: { x in extra * x / plan.setup.distanceMeters })
        if let celsius { s.temperature = ContiguousArray(s.distance.map(celsius)) }
        return s
    }

    @Test func aRaceRunAt26To28DegreesNamesTheHeatAndItsCoolWorth() throws {
        let plan = try reviewPlan()
        let r = try review(plan, Self.run(plan, extra: 600, celsius: { 26 + 2 * $0 / 42_195 }))
        let c = try #require(r.conditions)
        #expect(c.source == .device && c.dewPointC == nil && c.model == .mantzios2022)
        #expect(abs(c.minC - 26) < 0.01 && abs(c.maxC - 28) < 0.01 && abs(c.meanC - 27) < 0.1)
        // 50% humidity assumed, full sun: WBGT and the slowdown by the same formulas as the plan.
        let dew = Heat.dewPoint(celsius: 27, humidityPercent: 50)
        #expect(abs(c.meanWBGTC - Heat.wbgt(celsius: 27, dewPoint: dew, sun: .full)) < 0.1)
        let expected = Heat.slowdownPercent(model: .mantzios2022, celsius: 27, dewPoint: dew, sun: .full)
        #expect(expected > 3 && abs(c.slowdownPercent - expected) < 0.05)
        #expect(abs(c.coolEquivalentSeconds * (1 + c.slowdownPercent / 100) - r.actualSeconds) < 1)
        let line = try #require(r.verdict.first { $0.hasPrefix("Ran in") })
        #expect(line.hasPrefix("Ran in 26-28 °C (the run's temperature channel; humidity assumed 50%"))
        #expect(line.contains("by Mantzios 2022 the heat cost \(TextFormat.fixed(c.slowdownPercent, 1))%"))
        #expect(line.contains("3:25:00 is worth \(TextFormat.duration(c.coolEquivalentSeconds)) on a cool day."))
        // Right after the finish, before the splits' story.
        #expect(r.verdict.firstIndex(of: line) == 1)
    }

    @Test func aCoolRunHasNoHeatCostAndARunWithoutTemperatureSaysNothing() throws {
        let plan = try reviewPlan()
        let cool = try #require(try review(plan, Self.run(plan, celsius: { _ in 10 })).conditions)
        #expect(cool.slowdownPercent == 0 && abs(cool.coolEquivalentSeconds - 11_700) < 0.5)
        #expect(cool.sentence.hasSuffix("; no heat cost by Mantzios 2022."))
        let none = try review(plan, Self.run(plan, celsius: nil))
        #expect(none.conditions == nil && !none.verdict.contains { $0.hasPrefix("Ran in") })
    }

    @Test func withoutAChannelTheForecastTellsAndItsDewPointIsUsed() throws {
        var plan = try reviewPlan()
        var w = WeatherSettings(readings: [
            .init(secondsOfDay: 0, temperatureC: 24, dewPointC: 18),
            .init(secondsOfDay: 86_400, temperatureC: 24, dewPointC: 18)
        ])
        w.sun = .none
        plan.setup.weather = w
        let c = try #require(try review(plan, Self.run(plan, celsius: nil)).conditions)
        #expect(c.source == .forecast && c.sun == Heat.Sun.none && abs(c.meanC - 24) < 0.01)
        #expect(abs((c.dewPointC ?? 0) - 18) < 0.01)
        #expect(abs(c.meanWBGTC - Heat.wbgt(celsius: 24, dewPoint: 18, sun: .none)) < 0.05)
        #expect(c.sentence.contains("(the setup's forecast; dew point 18 °C from the forecast)"))
        #expect(c.sentence.hasSuffix("(by the forecast: the run has no temperature channel)."))
    }

    /// A plan slowed for the heat is the one the finish is judged against, and said so.
    @Test func aSlowedPlanIsTheFinishesMeasureAndSaidSo() throws {
        let plan = try HeatPlanTests.plan(HeatPlanTests.weather(24, 18))
        let r = try review(plan, Self.run(plan, celsius: nil))
        let planned = TextFormat.duration(plan.plannedSeconds), target = TextFormat.duration(12_600)
        #expect(r.targetSeconds == plan.plannedSeconds.rounded() && planned != target)
        #expect(
            r.verdict[0].hasSuffix("the plan's \(planned) (the \(target) target slowed for the heat)."),
            "\(r.verdict[0])")
    }
}
