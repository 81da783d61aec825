import RaceKitModel

/// The ground covered by points dropped for a backward timestamp, from the last
/// kept point with a position to the next one (`TrackRepair.compact`).
///
/// Some watches stamp a new lap's first points up to a minute before the previous
/// lap's last point while the runner goes on: the points go (times must
/// increase), but the path through them was run. Without it the next kept point
/// looks like a GPS jump and the lap's first minute is lost from the distance.
public struct BackwardBridge: Sendable, Equatable {
    /// Index (after compaction) of the kept point the path starts from.
    public var from: Int
    /// Great-circle metres from `from` through the dropped points to the kept point.
    public var meters: Double
    /// The fastest step of the path, m/s, each timed by the dropped points' own
    /// clock (under a second counts as one); the first, which goes back in time,
    /// by the path's longest step.
    public var fastestStep: Double
}

/// Builds `BackwardBridge`s while `compact` walks the points.
struct BackwardPath {
    private struct Walk {
        var latitude: Double, longitude: Double, time: Double
        /// Metres so far, and the first step's (from the anchor, back in time).
        var meters: Double, firstMeters: Double
        /// The fastest and the longest step timed by the dropped points' own clock.
        var fastest = 0.0, longestStep = 1.0
    }
    private var anchor: (index: Int, latitude: Double, longitude: Double)?
    private var walked: Walk?

    /// A point dropped for going back in time.
    mutating func dropped(latitude: Double, longitude: Double, time: Double) {
        guard Self.valid(latitude, longitude) else { return }
        if walked != nil {
            step(to: latitude, longitude, time: time)
        } else if let a = anchor {
            let meters = Geodesy.distance(lat1: a.latitude, lon1: a.longitude, lat2: latitude, lon2: longitude)
            walked = Walk(latitude: latitude, longitude: longitude, time: time, meters: meters, firstMeters: meters)
        }
    }

    /// A point merged into the previous one for having its time: on a path, a step of it.
    mutating func merged(latitude: Double, longitude: Double, time: Double) {
        guard walked != nil, Self.valid(latitude, longitude) else { return }
        step(to: latitude, longitude, time: time)
    }

    /// A kept point at index `index`: the bridge that leads to it, if points were
    /// dropped on the way. The first step's time is unknown (its clock went back):
    /// it counts as the path's longest timed step, the recording interval.
    mutating func kept(at index: Int, latitude: Double, longitude: Double, time: Double) -> BackwardBridge? {
        guard Self.valid(latitude, longitude) else { return nil }
        defer { anchor = (index, latitude, longitude); walked = nil }
        guard let a = anchor, walked != nil else { return nil }
        step(to: latitude, longitude, time: time)
        guard let w = walked else { return nil }
        let fastest = max(w.fastest, w.firstMeters / w.longestStep)
        return BackwardBridge(from: a.index, meters: w.meters, fastestStep: fastest)
    }

    private mutating func step(to latitude: Double, _ longitude: Double, time: Double) {
        guard var w = walked else { return }
        let meters = Geodesy.distance(lat1: w.latitude, lon1: w.longitude, lat2: latitude, lon2: longitude)
        let seconds = max(1, time - w.time)
        w.fastest = max(w.fastest, meters / seconds)
        w.longestStep = max(w.longestStep, seconds)
        w.meters += meters
        (w.latitude, w.longitude, w.time) = (latitude, longitude, time)
        walked = w
    }

    private static func valid(_ latitude: Double, _ longitude: Double) -> Bool {
        !latitude.isNaN && !longitude.isNaN
    }
}
