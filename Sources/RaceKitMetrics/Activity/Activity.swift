import RaceKitModel
import RaceKitOutput

/// Where a run's distance comes from.
public enum DistanceSource: String, Sendable, Codable {
    /// Cumulative distance recorded by the device (TCX `DistanceMeters`, gpxdata `distance`).
    case device
    /// Great-circle distance over the cleaned positions, summed within segments.
    case gps
    /// The sum of the laps' `DistanceMeters` (the points carry neither distance nor position).
    case laps
    /// Unknown.
    case none
}

/// What the repair step changed, by rule (docs/numbers.md, "Real-world repairs").
public struct RepairReport: Sendable, Equatable, Codable {
    /// Points dropped for missing, non-numeric or out-of-range coordinates (GPX).
    public var droppedInvalidPosition = 0
    /// Points dropped (GPX) or stripped of their position (TCX) for lying at 0°/0°.
    public var nullIslandPositions = 0
    /// Points dropped because they had no usable timestamp.
    public var droppedUntimed = 0
    /// Points dropped because their time was earlier than the previous point's.
    public var droppedBackwardTime = 0
    /// Points merged into the previous one because they had the same time.
    public var mergedDuplicateTime = 0
    /// Heart-rate values outside 25...250 bpm removed.
    public var droppedHeartRate = 0
    /// Device distance values that went backwards, held at the previous value.
    public var clampedDistance = 0
    /// Device distance values dropped as spikes (a step faster than the sport's plausible speed).
    public var distanceSpikes = 0
    /// Device distance values filled in by interpolation.
    public var interpolatedDistance = 0
    /// Device distance did not start at 0: the offset subtracted, in metres.
    public var distanceOffsetMeters = 0.0
    /// Elevation was 0 on every point (a placeholder), so it was taken as unknown.
    public var zeroElevationDiscarded = false
    /// GPS fixes left out of the distance as jumps (faster than the sport allows).
    public var gpsJumpPoints = 0
    /// Metres of GPS distance run through points dropped for a backward timestamp
    /// (a lap whose first points step back in time), kept in the distance.
    public var backwardPathMeters = 0.0
    /// Jumps after which the track resumed from a new place.
    public var gpsJumps = 0
    /// Segments reordered by time.
    public var reorderedSegments = 0
    /// Timestamps without a zone designator, taken as UTC.
    public var timesWithoutZone = 0
    /// Lap totals ignored because they describe more than the points hold (an excerpt).
    public var lapTotalsIgnored = false
    /// Clock jumps repaired (`TrackRepair.rebaseClockJumps`), the largest in
    /// seconds, and the points moved onto the rest of the track.
    public var clockJumps = 0
    public var clockJumpSeconds = 0.0
    public var rebasedPoints = 0
    /// The session's totals ignored for the same reason.
    public var sessionTotalsIgnored = false
    /// Values in the file that are not numbers (`<ele>n/a</ele>`, `<Calories>abc</Calories>`).
    public var nonNumericValues = 0
    /// Running cadence doubled from per-leg (strides) to steps per minute.
    public var cadenceDoubled = false
    /// A per-leg cadence field (TCX `RunCadence`) already held steps per minute: not doubled.
    public var cadenceAlreadySteps = false
    /// Elevation values outside -500...9,000 m (including no-data sentinels) removed.
    public var droppedElevation = 0
    /// Exact 0 m at the start or end of a real profile removed (altitude not yet known).
    public var edgeZeroElevation = 0
    /// Cadence values outside the sport's range removed.
    public var droppedCadence = 0
    /// Other impossible values removed (non-finite numbers, power, temperature, speed).
    public var droppedOtherValues = 0
    /// The sport inferred from the speeds of a file that declared none.
    public var inferredSport: String?

    public init() {}

    /// The descriptions the import note carries: what the runner would miss
    /// (the device's totals not used, values that are not numbers).
    public var importNotes: [String] {
        var out: [String] = []
        if lapTotalsIgnored { out.append(Self.lapTotalsText) }
        if sessionTotalsIgnored { out.append(Self.sessionTotalsText) }
        if nonNumericValues > 0 { out.append(nonNumericText) }
        if clockJumps > 0 { out.append(clockJumpText) }
        return out
    }

    var clockJumpText: String {
        let days = clockJumpSeconds / 86_400
        let size =
            days >= 1 ? "\(TextFormat.fixed(days, 1)) days" : "\(TextFormat.fixed(clockJumpSeconds / 3600, 1)) hours"
        return
            "the clock jumps \(clockJumps == 1 ? "once" : "\(clockJumps) times") (by up to \(size)): \(rebasedPoints) point\(rebasedPoints == 1 ? "" : "s") re-based onto the rest of the track"
    }

    static let lapTotalsText =
        "lap totals describe a longer activity: trackpoints trusted, the laps' timer and energy not used"
    static let sessionTotalsText =
        "the session's timer is longer than its records: the session's totals not used"
    var nonNumericText: String {
        "\(nonNumericValues) value\(nonNumericValues == 1 ? "" : "s") that \(nonNumericValues == 1 ? "is" : "are") not a number ignored"
    }

    /// Short human descriptions of the non-zero entries.
    public var descriptions: [String] {
        var out: [String] = []
        if droppedInvalidPosition > 0 {
            out.append("\(droppedInvalidPosition) points with missing or invalid coordinates dropped")
        }
        if nullIslandPositions > 0 {
            out.append("\(nullIslandPositions) points at 0°/0° treated as having no position")
        }
        if droppedUntimed > 0 { out.append("\(droppedUntimed) points without a timestamp dropped") }
        if droppedBackwardTime > 0 { out.append("\(droppedBackwardTime) points with a backward timestamp dropped") }
        if mergedDuplicateTime > 0 { out.append("\(mergedDuplicateTime) points with a duplicate timestamp merged") }
        if droppedHeartRate > 0 { out.append("\(droppedHeartRate) impossible heart-rate values removed") }
        if clampedDistance > 0 { out.append("\(clampedDistance) backward distance values held") }
        if distanceSpikes > 0 {
            out.append("\(distanceSpikes) device distance spike\(distanceSpikes == 1 ? "" : "s") dropped")
        }
        if interpolatedDistance > 0 { out.append("\(interpolatedDistance) missing distance values interpolated") }
        if distanceOffsetMeters > 0 { out.append(String(format1: distanceOffsetMeters) + " m distance offset removed") }
        if zeroElevationDiscarded { out.append("all-zero elevation taken as unknown") }
        if gpsJumpPoints > 0 { out.append("\(gpsJumpPoints) GPS fixes left out of the distance as jumps") }
        if backwardPathMeters > 0 {
            out.append(String(format1: backwardPathMeters) + " m along points with a backward time kept")
        }
        if gpsJumps > 0 { out.append("\(gpsJumps) GPS jumps after which the track resumed elsewhere") }
        if reorderedSegments > 0 { out.append("segments reordered by time") }
        if timesWithoutZone > 0 { out.append("\(timesWithoutZone) timestamps without a zone taken as UTC") }
        if lapTotalsIgnored { out.append(Self.lapTotalsText) }
        if sessionTotalsIgnored { out.append(Self.sessionTotalsText) }
        if nonNumericValues > 0 { out.append(nonNumericText) }
        if cadenceDoubled { out.append("running cadence doubled to steps per minute") }
        if cadenceAlreadySteps { out.append("per-leg cadence already in steps per minute: kept") }
        if droppedElevation > 0 {
            out.append(
                "\(droppedElevation) impossible elevation values removed (outside -500...9000 m, or climbing faster than \(TextFormat.fixed(Plausibility.maxVerticalSpeed, 0)) m/s)"
            )
        }
        if edgeZeroElevation > 0 {
            out.append("\(edgeZeroElevation) placeholder 0 m elevations at the start or end removed")
        }
        if droppedCadence > 0 { out.append("\(droppedCadence) impossible cadence values removed") }
        if droppedOtherValues > 0 {
            out.append("\(droppedOtherValues) impossible power, temperature, speed or non-finite values removed")
        }
        if let inferredSport { out.append("no sport in the file: \(inferredSport) inferred from the speeds") }
        return out
    }
}

extension String {
    init(format1 value: Double) {
        let r = TextFormat.rounded(value, 1)
        self = r == r.rounded() ? String(Int(r)) : String(r)
    }
}

/// A cleaned activity, ready to summarise and store.
public struct Activity: Sendable {
    /// Normalised sport.
    public var sport: Sport
    /// True when the file declared the sport; false when `running` was assumed.
    public var sportDeclared: Bool
    public var name: String?
    public var creator: String?
    /// The athlete's notes from the file (TCX `Notes`).
    public var notes: String?
    public var format: SourceFormat
    /// Cleaned points: every point has a time, times strictly increase, and
    /// `distance` holds cumulative metres from 0 when `distanceSource` is device or gps.
    public var samples: SampleSeries
    /// Index of the first point of each segment.
    public var segmentStarts: [Int]
    public var distanceSource: DistanceSource
    /// Total distance in metres, nil when unknown.
    public var distanceMeters: Double?
    /// Laps as the file summarised them.
    public var laps: [Lap]
    /// True when the activity has no positions but a device or lap distance (treadmill, indoor).
    public var isIndoor: Bool
    public var repairs: RepairReport
    /// The device's totals for the whole activity (`RawActivity.session`).
    public var session: Lap?
    /// A stored run's values (`activity(of:)` of a store): what the file
    /// reported (`RunMetric.isReported`) is kept by a recompute.
    public var stored: RunMetrics?

    public init(
        sport: Sport, sportDeclared: Bool, name: String?, creator: String?, format: SourceFormat,
        samples: SampleSeries, segmentStarts: [Int], distanceSource: DistanceSource,
        distanceMeters: Double?, laps: [Lap], isIndoor: Bool, repairs: RepairReport
    ) {
        self.sport = sport; self.sportDeclared = sportDeclared; self.name = name; self.creator = creator
        self.format = format; self.samples = samples; self.segmentStarts = segmentStarts
        self.distanceSource = distanceSource; self.distanceMeters = distanceMeters; self.laps = laps
        self.isIndoor = isIndoor; self.repairs = repairs
    }
}

/// Written by the JSON writer's one-pass path as its raw value.
extension DistanceSource: FlatWritable {}
