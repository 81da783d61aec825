import RaceKitModel

/// Per-sport speeds that decide what is movement and what is a GPS error.
public struct SportLimits: Sendable, Equatable {
    /// A step faster than this (m/s) between two GPS fixes is a jump, not movement.
    public var maxPlausibleSpeed: Double
    /// Moving when the smoothed speed (m/s) is at least this.
    public var movingThreshold: Double

    /// The limits for a sport. An undeclared sport (a GPX file without `<type>`,
    /// stored as running) gets the permissive `other` jump limit, since it may be a
    /// ride or a drive, but the running moving threshold.
    ///
    /// - Jump limits: running 12 m/s (43 km/h, above Bolt's 12.4 m/s top speed only
    ///   by GPS error), walking and hiking 6 m/s, swimming 4 m/s, cycling 35 m/s
    ///   (126 km/h, a fast descent), skiing 50 m/s, driving 90 m/s, other 70 m/s.
    /// - Moving thresholds: 0.5 m/s (1.8 km/h) on foot: a slow walk is about
    ///   1 m/s, while a good 1 Hz fix drifts well under 0.5 m when standing;
    ///   cycling and driving 1.5 m/s; skiing 1 m/s; swimming 0.2 m/s. Checked against the reference moving
    ///   times of the conformance corpus (docs/numbers.md, "Accuracy").
    public static func of(_ sport: Sport, declared: Bool) -> SportLimits {
        switch sport {
        case .running:
            return SportLimits(maxPlausibleSpeed: declared ? 12 : 70, movingThreshold: 0.5)
        case .walking, .hiking: return SportLimits(maxPlausibleSpeed: 6, movingThreshold: 0.5)
        case .cycling: return SportLimits(maxPlausibleSpeed: 35, movingThreshold: 1.5)
        case .swimming: return SportLimits(maxPlausibleSpeed: 4, movingThreshold: 0.2)
        case .skiing: return SportLimits(maxPlausibleSpeed: 50, movingThreshold: 1.0)
        case .driving: return SportLimits(maxPlausibleSpeed: 90, movingThreshold: 1.5)
        case .other: return SportLimits(maxPlausibleSpeed: 70, movingThreshold: 0.5)
        }
    }
}
