import Foundation
import RaceKitMetrics
import RaceKitModel
import RaceKitOutput
import RaceKitPlan

/// The conditions a race was run in, and what the result was worth on a cool
/// day by the same model the plan uses (docs/review.md, "Conditions").
public struct ReviewConditions: Sendable, Equatable {
    public enum Source: String, Sendable { case device, forecast }
    /// Where the temperature comes from: the run's own channel (FIT, GPX
    /// `atemp`), or the setup's forecast when the run has none.
    public var source: Source
    public var minC, maxC, meanC: Double
    /// The dew point used: the setup's forecast at the mean clock time, or
    /// nil when humidity was assumed (`assumedHumidityPercent`).
    public var dewPointC: Double?
    public var meanWBGTC: Double
    public var sun: Heat.Sun
    public var model: Heat.Model
    /// The run's finish time, and the slowdown, time-weighted over the run, percent.
    /// "heat", "cold" or "weather" (`Heat.cause`).
    public var cause: String
    public var actualSeconds: Double
    public var slowdownPercent: Double
    /// The run's time with the heat taken out (equal to it on a cool day).
    public var coolEquivalentSeconds: Double

    /// Without a forecast the humidity is taken as this (and said).
    public static let assumedHumidityPercent = 50.0
    /// A temperature channel with fewer readings than this share of the samples is not used.
    public static let minimumCoverage = 0.5

    /// The conditions of `samples` (times in epoch seconds; the first is the
    /// start), or nil when neither the run nor the setup tells a temperature.
    static func measure(
        _ samples: SampleSeries, actualSeconds: Double, weather: WeatherSettings?, timeZone: TimeZone
    ) -> ReviewConditions? {
        guard samples.count >= 2, actualSeconds > 0 else { return nil }
        let t0 = samples.time[0]
        // The start's local time of day: the hourly forecast is in local time.
        let local = t0 + Double(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: t0)))
        let localStart = (local.truncatingRemainder(dividingBy: 86_400) + 86_400).truncatingRemainder(
            dividingBy: 86_400)
        let measured = samples.temperature.filter { $0.isFinite && (-40...60).contains($0) }.count
        let fromDevice = Double(measured) >= minimumCoverage * Double(samples.count)
        guard fromDevice || weather != nil else { return nil }
        let sun = weather?.sun ?? .full, model = weather?.model ?? .mantzios2022
        var seconds = 0.0, weighted = 0.0, wbgt = 0.0, temperature = 0.0, dew = 0.0
        var lo = Double.infinity, hi = -Double.infinity, wLo = Double.infinity, wHi = -Double.infinity
        for i in 1..<samples.count {
            let dt = samples.time[i] - samples.time[i - 1]
            guard dt > 0, dt < 600, samples.time[i] - t0 <= actualSeconds + 1 else { continue }
            let clock = localStart + (samples.time[i] - t0)
            let forecast = weather?.reading(atSecondsOfDay: clock)
            let t: Double
            if fromDevice {
                let v = samples.temperature[i]
                guard v.isFinite, (-40...60).contains(v) else { continue }
                t = v
            } else {
                t = forecast!.temperatureC
            }
            let td = min(
                t, forecast?.dewPointC ?? Heat.dewPoint(celsius: t, humidityPercent: assumedHumidityPercent))
            let f = 1 + Heat.slowdownPercent(model: model, celsius: t, dewPoint: td, sun: sun) / 100
            seconds += dt; weighted += dt / f
            let wb = Heat.wbgt(celsius: t, dewPoint: td, sun: sun)
            wbgt += dt * wb
            (wLo, wHi) = (min(wLo, wb), max(wHi, wb))
            temperature += dt * t; dew += dt * td
            lo = min(lo, t); hi = max(hi, t)
        }
        guard seconds > 0 else { return nil }
        let cool = actualSeconds * weighted / seconds
        return ReviewConditions(
            source: fromDevice ? .device : .forecast, minC: lo, maxC: hi, meanC: temperature / seconds,
            dewPointC: weather == nil ? nil : dew / seconds, meanWBGTC: wbgt / seconds, sun: sun, model: model,
            cause: Heat.cause(wbgtLow: wLo, wbgtHigh: wHi), actualSeconds: actualSeconds,
            slowdownPercent: (actualSeconds / cool - 1) * 100, coolEquivalentSeconds: cool
        )
    }

    /// "Ran in 26-28 °C (the watch's sensor; dew point 18 °C from the forecast):
    /// WBGT 27.1 °C, full sun; by Mantzios 2022 the heat cost 4.2%: 3:28:10 is
    /// worth 3:19:50 on a cool day."
    public var sentence: String {
        func c(_ v: Double) -> String { TextFormat.fixed(v, 0) }
        let range = c(minC) == c(maxC) ? "\(c(minC)) °C" : "\(c(minC))-\(c(maxC)) °C"
        let from = fromDevice ? "the run's temperature channel" : "the setup's forecast"
        let humidity =
            dewPointC.map { "dew point \(c($0)) °C from the forecast" }
            ?? "humidity assumed \(c(Self.assumedHumidityPercent))%: the setup has no weather"
        let sunText = sun == .none ? "no sun" : "\(sun.rawValue) sun"
        var s = "Ran in \(range) (\(from); \(humidity)): WBGT \(TextFormat.fixed(meanWBGTC, 1)) °C with \(sunText)"
        if slowdownPercent < 0.05 {
            return s + "; no heat cost by \(model.citation)."
        }
        s += "; by \(model.citation) the \(cause) cost \(TextFormat.fixed(slowdownPercent, 1))%: "
        s +=
            "\(TextFormat.duration(actualSeconds)) is worth \(TextFormat.duration(coolEquivalentSeconds)) on a cool day"
        return s + (fromDevice ? "." : " (by the forecast: the run has no temperature channel).")
    }

    var fromDevice: Bool { source == .device }
}
