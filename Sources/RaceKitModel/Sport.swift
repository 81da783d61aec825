/// A normalised sport. Analytics and reports default to `running`.
public enum Sport: String, Sendable, Codable, CaseIterable {
    case running, walking, hiking, cycling, swimming, skiing, driving, other

    /// Maps what files write (`Running`, `running`, `run`, `trail_running`,
    /// Strava's numeric GPX codes `9` run, `1` ride, `10` walk, `4` hike, TCX
    /// `Biking`, `Other`) to a sport; nil for an empty or missing value.
    public init?(fileValue raw: String?) {
        guard let raw else { return nil }
        let value = raw.trimmingBlanks().lowercased()
        guard !value.isEmpty else { return nil }
        switch value {
        case "9", "run", "running", "trail_running", "trail running", "treadmill_running", "treadmill",
            "street_running", "track_running", "indoor_running", "virtualrun", "virtual_run", "jogging":
            self = .running
        case "10", "walk", "walking", "casual_walking", "speed_walking": self = .walking
        case "4", "hike", "hiking": self = .hiking
        case "1", "ride", "biking", "cycling", "bike", "road_biking", "mountain_biking", "gravel_cycling",
            "indoor_cycling", "virtualride", "virtual_ride", "ebikeride":
            self = .cycling
        case "2", "swim", "swimming", "lap_swimming", "open_water_swimming": self = .swimming
        case "alpine_skiing", "alpineski", "downhill_skiing", "backcountryski", "nordicski", "cross_country_skiing",
            "snowboarding", "snowboard", "skiing":
            self = .skiing
        case "driving", "drive", "motorcycling", "car": self = .driving
        default:
            if value.contains("run") {
                self = .running
            } else if value.contains("bik") || value.contains("cycl") || value.contains("ride") {
                self = .cycling
            } else if value.contains("swim") {
                self = .swimming
            } else if value.contains("walk") {
                self = .walking
            } else if value.contains("hik") {
                self = .hiking
            } else if value.contains("ski") || value.contains("snowboard") {
                self = .skiing
            } else {
                self = .other
            }
        }
    }
}

extension String {
    /// The string without leading and trailing spaces, tabs and newlines.
    public func trimmingBlanks() -> String {
        let blanks: Set<Character> = [" ", "\t", "\n", "\r"]
        guard let first = firstIndex(where: { !blanks.contains($0) }),
            let last = lastIndex(where: { !blanks.contains($0) })
        else { return "" }
        return String(self[first...last])
    }
}

/// How a run counts: `race` marks a race (reports highlight it), `training` a
/// planned session, `free` anything else.
public enum RunMode: String, Sendable, Codable, CaseIterable {
    case free, training, race
}

/// Where a run was done: a treadmill run has no course (no GPS distance, no
/// elevation worth a climb).
public enum RunType: String, Sendable, Codable, CaseIterable {
    case outdoor, treadmill
}
