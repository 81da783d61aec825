/// The climbs and descents of a course worth a word in a race script: a run of
/// the smoothed profile steeper than `minimumGradePercent` over every
/// `windowMeters`, at least `minimumLengthMeters` long and `minimumGainMeters`
/// up (or down); stretches less steep than that for under `mergeMeters` do not
/// break a hill.
public enum Hills {
    public static let windowMeters = 100.0
    public static let minimumGradePercent = 2.0
    public static let minimumLengthMeters = 400.0
    public static let minimumGainMeters = 15.0
    public static let mergeMeters = 150.0
    /// The cue comes this far before the hill starts.
    public static let leadMeters = 300.0

    public struct Hill: Sendable, Equatable {
        public var startMeters: Double
        public var endMeters: Double
        /// Metres up (positive) or down (negative).
        public var gainMeters: Double
        public var lengthMeters: Double { endMeters - startMeters }
        public var gradePercent: Double { lengthMeters > 0 ? gainMeters / lengthMeters * 100 : 0 }
    }

    public static func find(_ course: CourseProfile) -> [Hill] {
        guard course.hasElevation else { return [] }
        let step = windowMeters
        var out: [Hill] = []
        for sign in [1.0, -1.0] {
            var runs: [(Double, Double)] = []
            var x = 0.0
            while x + step <= course.raceMeters {
                let e0 = course.elevation(at: x) ?? 0, e1 = course.elevation(at: x + step) ?? 0
                if sign * (e1 - e0) / step * 100 >= minimumGradePercent {
                    if let last = runs.last, x - last.1 <= mergeMeters {
                        runs[runs.count - 1].1 = x + step
                    } else {
                        runs.append((x, x + step))
                    }
                }
                x += step
            }
            for (a, b) in runs where b - a >= minimumLengthMeters {
                let gain = (course.elevation(at: b) ?? 0) - (course.elevation(at: a) ?? 0)
                if sign * gain >= minimumGainMeters { out.append(Hill(startMeters: a, endMeters: b, gainMeters: gain)) }
            }
        }
        return out.sorted { $0.startMeters < $1.startMeters }
    }
}
