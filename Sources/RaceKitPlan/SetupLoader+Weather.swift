import RaceKitMetrics
import RaceKitOutput
import Yams

/// `weather:` (docs/race-plans.md, "Weather and heat").
extension SetupLoader {
    static let weatherKeys = [
        "temperature_c", "dew_point_c", "humidity_percent", "hourly", "sun", "wind_kmh", "model", "adjust"
    ]
    static let hourKeys = ["time", "temperature_c", "dew_point_c", "humidity_percent"]
    static let temperatureRange = Heat.temperatureRange
    static let dewPointRange = Heat.dewPointRange

    static func weather(_ n: Node, keyLine: Int?, reader r: inout YAMLReader, setup: inout RaceSetup) throws
        -> WeatherSettings
    {
        let m = try r.mapping(n, path: "weather", known: weatherKeys, keyLine: keyLine)
        var readings: [WeatherSettings.Reading] = []
        var hourlyLine = 0
        switch (m["temperature_c"], m["hourly"]) {
        case (_?, _?):
            throw r.error(m["hourly"]!, "weather.hourly", "give temperature_c (at the start) or hourly, not both")
        case (nil, nil):
            throw r.error(
                n, "weather",
                "needs temperature_c with dew_point_c or humidity_percent, or hourly: a list of {time, temperature_c, dew_point_c}"
            )
        case (_?, nil):
            readings = [try reading(m, path: "weather", node: n, reader: &r, time: nil)]
        case (nil, let h?):
            hourlyLine = m.keyLines["hourly"] ?? 0
            guard setup.startSecondsOfDay != nil else {
                throw r.error(
                    h, "weather.hourly",
                    "an hourly forecast needs start_time (HH:MM): it is when the runner passes each stretch")
            }
            for key in ["dew_point_c", "humidity_percent"] {
                if let v = m[key] {
                    throw r.error(v, "weather.\(key)", "give it in each hour of the hourly list")
                }
            }
            let items = try r.sequence(h, "weather.hourly")
            guard !items.isEmpty else { throw r.error(h, "weather.hourly", "needs at least one hour") }
            for (i, item) in items.enumerated() {
                let path = "weather.hourly[\(i)]"
                let hm = try r.mapping(item, path: path, known: hourKeys)
                let timeNode = try hm.require("time")
                let t = try clockTime(timeNode, "\(path).time", reader: r)
                if let last = readings.last?.secondsOfDay, t <= last {
                    throw r.error(
                        timeNode, "\(path).time",
                        "\(WeatherSettings.clock(t)) is not after \(WeatherSettings.clock(last)): list the hours in order (after midnight, write 24:00, 25:00)"
                    )
                }
                readings.append(try reading(hm, path: path, node: item, reader: &r, time: t))
            }
        }
        var w = WeatherSettings(readings: readings)
        w.line = keyLine ?? 0
        w.hourlyLine = hourlyLine
        /// A key whose value is one of an enumeration's raw values.
        func choice<E: CaseIterable & RawRepresentable>(_ key: String, _: E.Type) throws -> E?
        where E.RawValue == String {
            guard let s = m[key] else { return nil }
            let text = try r.string(s, "weather.\(key)")
            guard let value = E(rawValue: text) else {
                throw r.error(
                    s, "weather.\(key)", "'\(text)' is not one of \(E.allCases.map(\.rawValue).joined(separator: ", "))"
                )
            }
            return value
        }
        w.sun = try choice("sun", Heat.Sun.self) ?? w.sun
        w.model = try choice("model", Heat.Model.self) ?? w.model
        w.adjust = try choice("adjust", WeatherSettings.Adjust.self) ?? w.adjust
        if let s = m["wind_kmh"] {
            let v = try r.number(s, "weather.wind_kmh", in: 0...150)
            w.windKmh = v
            if v > 50 {
                setup.warnings.append(
                    "weather: a wind of \(TextFormat.fixed(v, 0)) km/h is a gale (Beaufort 7 from 50 km/h): check wind_kmh; the heat estimate assumes light wind"
                )
            }
        }
        if let hot = readings.max(by: { $0.temperatureC < $1.temperatureC }), hot.temperatureC > 40 {
            setup.warnings.append(
                "weather: \(TextFormat.fixed(hot.temperatureC, 1)) °C is hotter than almost any race is run in: check the forecast"
            )
        }
        return w
    }

    /// A temperature with its dew point or relative humidity.
    private static func reading(_ m: YAMLFields, path: String, node: Node, reader r: inout YAMLReader, time: Double?)
        throws
        -> WeatherSettings.Reading
    {
        let tNode = try m.require("temperature_c")
        let t = try r.number(tNode, "\(path).temperature_c", in: temperatureRange)
        switch (m["dew_point_c"], m["humidity_percent"]) {
        case (let d?, nil):
            let dew = try r.number(d, "\(path).dew_point_c", in: dewPointRange)
            guard dew <= t + 0.05 else {
                throw r.error(
                    d, "\(path).dew_point_c",
                    "\(TextFormat.plain(dew)) °C is above the temperature \(TextFormat.plain(t)) °C: the dew point is at most the air temperature"
                )
            }
            return .init(secondsOfDay: time, temperatureC: t, dewPointC: min(dew, t))
        case (nil, let h?):
            let rh = try r.number(h, "\(path).humidity_percent", in: 1...100)
            var reading = WeatherSettings.Reading(
                secondsOfDay: time, temperatureC: t, dewPointC: Heat.dewPoint(celsius: t, humidityPercent: rh))
            reading.humidityPercent = rh
            return reading
        case (_?, let h?):
            throw r.error(h, "\(path).humidity_percent", "give dew_point_c or humidity_percent, not both")
        case (nil, nil):
            throw r.error(node, "\(path).dew_point_c", "needs dew_point_c or humidity_percent with the temperature")
        }
    }

    /// `HH:MM` from 00:00 to 47:59 (past 24:00: the next day, for a race over midnight).
    private static func clockTime(_ n: Node, _ key: String, reader r: YAMLReader) throws -> Double {
        let text = try r.scalarText(n, key)
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[1].count == 2, (1...2).contains(parts[0].count),
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let h = Int(parts[0]), let mi = Int(parts[1]), h < 48, mi < 60
        else {
            throw r.error(n, key, "'\(text)' is not a time of day (HH:MM, local; 24:00 and later for the next day)")
        }
        return Double(h * 3600 + mi * 60)
    }
}
