import RaceKitModel

/// Which steps of a run are movement.
///
/// A step is the interval between two consecutive points. It never counts when it
/// crosses a segment break (the watch was paused). Otherwise the step moves when
/// its own speed is at or above the sport's moving threshold: standing at a light
/// is a pause, even for two seconds, and a long step covered at running speed
/// (sparse sampling, a tunnel) is movement. With device distance the speed is the
/// GPS displacement when both ends have a fix (device distance is often kept in
/// whole metres, which reads 0 m for a walking second); otherwise the distance
/// stream (GPS distance, whose GPS jumps do not count as movement; treadmills).
/// Without any distance (an indoor workout, an Apple Health workout without a
/// route: heart-rate records minutes apart) nothing says the athlete stopped but
/// the pauses the file records: every step inside a segment is movement, so
/// moving time is the elapsed time less the recorded pauses (a 50-minute walk
/// showed "Moving 0:00" when steps over 30 s counted as pauses).
public enum MovingTime {
    /// One flag per step (`steps[k]` is the step from point k to k+1).
    /// `gpsFromPositions`: measure steps by GPS displacement where both ends have a
    /// fix (device distance); with GPS distance the stream already is that
    /// displacement, jumps left out.
    public static func movingSteps(
        _ s: SampleSeries, segmentStarts: [Int], hasDistance: Bool,
        gpsFromPositions: Bool = true, limits: SportLimits
    ) -> [Bool] {
        let n = s.count
        guard n > 1 else { return [] }
        var moving = [Bool](repeating: false, count: n - 1)
        var breakAt = [Bool](repeating: false, count: n)
        for start in segmentStarts where start > 0 && start < n { breakAt[start] = true }
        for k in 0..<(n - 1) where !breakAt[k + 1] {
            let dt = s.time[k + 1] - s.time[k]
            guard hasDistance else {
                moving[k] = dt > 0
                continue
            }
            let meters: Double
            if gpsFromPositions, !s.latitude[k].isNaN, !s.latitude[k + 1].isNaN {
                meters = Geodesy.distance(
                    lat1: s.latitude[k], lon1: s.longitude[k],
                    lat2: s.latitude[k + 1], lon2: s.longitude[k + 1])
            } else {
                meters = s.distance[k + 1] - s.distance[k]
            }
            moving[k] = dt > 0 && meters / dt >= limits.movingThreshold
        }
        return moving
    }

    /// Sum of the moving steps' durations, in seconds.
    public static func seconds(_ s: SampleSeries, moving: [Bool]) -> Double {
        var total = 0.0
        for k in moving.indices where moving[k] { total += s.time[k + 1] - s.time[k] }
        return total
    }
}
