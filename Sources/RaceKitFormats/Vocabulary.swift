/// Element and attribute local names that the readers act on. XML names are
/// case-sensitive, so GPX `time` and TCX `Time` are different entries.
enum Local: UInt8 {
    case other
    // GPX
    case gpx, metadata, trk, trkseg, trkpt, rte, rtept, wpt, ele, time, name, type, extensions
    case hr, heartrate, heartRate, cad, cadence, speed, power, powerInWatts, atemp, temp, temperature
    case distance, lat, lon, bpm, creator
    // TCX
    case trainingCenterDatabase, activity, id, lap, totalTimeSeconds, distanceMeters, track, trackpoint
    case timeTCX, latitudeDegrees, longitudeDegrees, altitudeMeters, heartRateBpm, value, cadenceTCX
    case runCadence, watts, speedTCX, creatorTCX, nameTCX, courses, course, coursePoint, author
    case sport, startTime, notes, calories

    static let spellings: [(String, Local)] = [
        ("gpx", .gpx), ("metadata", .metadata), ("trk", .trk), ("trkseg", .trkseg), ("trkpt", .trkpt),
        ("rte", .rte), ("rtept", .rtept), ("wpt", .wpt), ("ele", .ele), ("time", .time), ("name", .name),
        ("type", .type), ("extensions", .extensions), ("hr", .hr), ("heartrate", .heartrate),
        ("heartRate", .heartRate), ("cad", .cad), ("cadence", .cadence), ("speed", .speed),
        ("power", .power), ("PowerInWatts", .powerInWatts), ("atemp", .atemp), ("temp", .temp),
        ("Temperature", .temperature), ("distance", .distance), ("lat", .lat), ("lon", .lon),
        ("bpm", .bpm), ("creator", .creator),
        ("TrainingCenterDatabase", .trainingCenterDatabase), ("Activity", .activity), ("Id", .id),
        ("Lap", .lap), ("TotalTimeSeconds", .totalTimeSeconds), ("DistanceMeters", .distanceMeters),
        ("Track", .track), ("Trackpoint", .trackpoint), ("Time", .timeTCX),
        ("LatitudeDegrees", .latitudeDegrees), ("LongitudeDegrees", .longitudeDegrees),
        ("AltitudeMeters", .altitudeMeters), ("HeartRateBpm", .heartRateBpm), ("Value", .value),
        ("Cadence", .cadenceTCX), ("RunCadence", .runCadence), ("Watts", .watts), ("Speed", .speedTCX),
        ("Creator", .creatorTCX), ("Name", .nameTCX), ("Courses", .courses), ("Course", .course),
        ("CoursePoint", .coursePoint), ("Author", .author), ("Sport", .sport), ("StartTime", .startTime),
        ("Notes", .notes), ("Calories", .calories)
    ]
}

/// Namespaces that the readers recognise, matched by URI (never by prefix).
enum Namespace: UInt8 {
    case none, gpx10, gpx11, trackPointV1, trackPointV2, gpxData, gpxx, powerV1, spoq
    case tcx2, tcx1, activityExtension, other

    static let uris: [(String, Namespace)] = [
        ("http://www.topografix.com/GPX/1/0", .gpx10),
        ("http://www.topografix.com/GPX/1/1", .gpx11),
        ("http://www.garmin.com/xmlschemas/TrackPointExtension/v1", .trackPointV1),
        ("http://www.garmin.com/xmlschemas/TrackPointExtension/v2", .trackPointV2),
        ("http://www.cluetrust.com/XML/GPXDATA/1/0", .gpxData),
        ("http://www.garmin.com/xmlschemas/GpxExtensions/v3", .gpxx),
        ("http://www.garmin.com/xmlschemas/PowerExtension/v1", .powerV1),
        ("urn:uuid:D0EB2ED5-49B6-44e3-B13C-CF15BE7DD7DD", .spoq),
        ("http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2", .tcx2),
        ("http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v1", .tcx1),
        ("http://www.garmin.com/xmlschemas/ActivityExtension/v2", .activityExtension)
    ]

    /// GPX's own namespaces or none: where un-namespaced extensions (Apple Health,
    /// OpenTracks, Cruiser) land, since a default namespace applies to them.
    var isPlainGPX: Bool { self == .none || self == .gpx10 || self == .gpx11 }
    var isGarminTrackPoint: Bool { self == .trackPointV1 || self == .trackPointV2 }
    var isTCX: Bool { self == .none || self == .tcx2 || self == .tcx1 }
}

/// Maps a reader's interned name pointers to `Local` values with a small
/// open-addressing table keyed by pointer: no string hashing and no reference
/// counting in the per-node path. (Namespaces: `NamespaceCache`.)
final class Vocabulary {
    private let locals = PointerTable<Local>(missing: .other)

    init(stream: XMLStream) {
        for (text, value) in Local.spellings { locals.insert(stream.intern(text), value) }
    }

    @inline(__always)
    func local(_ p: UnsafeRawPointer?) -> Local {
        guard let p else { return .other }
        return locals[p]
    }
}

/// A fixed-size (256 slots), linear-probing table from pointers to trivial values.
final class PointerTable<Value: BitwiseCopyable> {
    private static var capacity: Int { 256 }
    private let keys: UnsafeMutablePointer<UInt>
    private let values: UnsafeMutablePointer<Value>
    private let missing: Value

    init(missing: Value) {
        self.missing = missing
        keys = .allocate(capacity: Self.capacity)
        keys.initialize(repeating: 0, count: Self.capacity)
        values = .allocate(capacity: Self.capacity)
        values.initialize(repeating: missing, count: Self.capacity)
    }

    deinit {
        keys.deallocate()
        values.deallocate()
    }

    @inline(__always)
    private static func slot(_ key: UInt) -> Int { Int(truncatingIfNeeded: (key >> 3) ^ (key >> 11)) & (capacity - 1) }

    func insert(_ p: UnsafeRawPointer, _ value: Value) {
        let key = UInt(bitPattern: p)
        var i = Self.slot(key)
        while keys[i] != 0 && keys[i] != key { i = (i + 1) & (Self.capacity - 1) }
        keys[i] = key
        values[i] = value
    }

    @inline(__always)
    subscript(_ p: UnsafeRawPointer) -> Value {
        let key = UInt(bitPattern: p)
        var i = Self.slot(key)
        while true {
            let k = keys[i]
            if k == key { return values[i] }
            if k == 0 { return missing }
            i = (i + 1) & (Self.capacity - 1)
        }
    }
}
