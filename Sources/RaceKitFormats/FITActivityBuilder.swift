import RaceKitModel
import RaceKitOutput

/// Collects the activity content of a FIT document as its messages stream by:
/// records into one sample series, timer stops as segment breaks, laps,
/// sessions, the file type and the creator. `finish` splits the records by
/// session into activities.
final class FITActivityBuilder: FITSink {
    struct Session {
        var start: Double?
        var end: Double?
        var sport: Int?
        var subSport: Int?
        var elapsed: Double?
        var timer: Double?
        var distance: Double?
        var calories: Double?
        /// Pool swims: `pool_length`, `num_active_lengths`, `total_cycles` (strokes).
        var poolLength: Double?
        var activeLengths: Double?
        var strokes: Double?

        /// The session's totals as one lap (a file without laps).
        var lap: Lap { Lap(startTime: start, totalTimeSeconds: timer, distanceMeters: distance, energyKcal: calories) }
    }

    /// A pool length (FIT `length`): its start, timer time and strokes; idle
    /// lengths are the rests between.
    struct Length {
        var start: Double
        var seconds: Double
        var strokes: Double?
        var active: Bool
    }

    struct LapEntry {
        var lap: Lap
        var time: Double?
    }

    private let pointLimit: Int
    private let name: String
    private(set) var samples = SampleSeries()
    /// Indices of records that begin a new segment (after a timer stop).
    private var segmentStarts: [Int] = []
    private var timerStopped = false
    private var laps: [LapEntry] = []
    private var lengths: [Length] = []
    private var sessions: [Session] = []
    private var sportMessage: (sport: Int?, subSport: Int?)?
    /// `file_id.type` of the current FIT file (nil: no file_id yet).
    private var unitType: Int?
    private var unitHasFileID = false
    /// File types of the chained files that are not activities.
    private(set) var otherTypes: [Int] = []
    private(set) var activityUnits = 0
    private var fileCreator: (manufacturer: Int?, product: Int?, name: String?)?
    private var deviceCreator: (manufacturer: Int?, product: Int?, name: String?, software: Double?)?
    private var developerKeys = Set<UInt16>()
    private var developerNames: [UInt16: String] = [:]
    /// The developer fields read into a channel (by the description's native
    /// field, else by name), with their scale and offset.
    private var developerChannels: [UInt16: FITDeveloperChannel] = [:]
    /// The developer fields whose values went into power, heart rate or cadence
    /// (this FIT file's: a chained file describes its own).
    private var developerApplied = Set<UInt16>()
    /// The extra channel each developer field of the records is kept in (nil:
    /// none left), and what its values are multiplied by (this FIT file's).
    private var developerSlots: [UInt16: (slot: Int, factor: Double)?] = [:]
    /// Which developer field each extra channel holds (a longer name cut to the
    /// same key must not share it).
    private var slotOwners: [Int: UInt16] = [:]
    /// Over all chained files, in order: the fields read into a channel ("Power
    /// as power") and those kept as channels, for the notes; the keys used.
    private var readNames: [String] = []
    private var keptNames: [String] = []
    private var usedKeys = Set<UInt16>()
    /// Developer channels that stand for a running-dynamics channel, used as it
    /// when the file has no native values for it (`finish`).
    private var developerDynamics: [(channel: String, dynamics: String)] = []
    /// The extra channel of each running-dynamics record field, once seen.
    private var dynamicsSlots = [Int?](repeating: nil, count: FITProfile.dynamics.count)
    /// Most sessions of one file: a triathlon has 5 (transitions included), a
    /// swimrun a few dozen; each becomes an activity of its own.
    static let maxSessions = 1_000

    init(name: String, pointLimit: Int) {
        self.name = name
        self.pointLimit = pointLimit
        samples.reserveCapacity(4096)
    }

    /// True while the current FIT file may hold activity content.
    private var inActivity: Bool { unitType == nil || unitType == 4 }

    func unitStarted() {
        unitType = nil
        unitHasFileID = false
        timerStopped = false
        breakSegment()
        // A chained file's developer fields are its own descriptions.
        developerChannels = [:]
        developerSlots = [:]
        developerApplied = []
        plans = []
    }

    /// The next record starts a segment (once, however many reasons there are).
    private func breakSegment() {
        if !samples.isEmpty, segmentStarts.last != samples.count { segmentStarts.append(samples.count) }
    }

    /// Most records reserved up front from the header's data size (16 MB of
    /// samples), whatever a hostile header claims; more grow as they come.
    static let maximumReserve = 200_000

    func recordsExpected(_ count: Int) {
        let n = min(count, Self.maximumReserve, pointLimit)
        if samples.time.capacity < n { samples.reserveCapacity(n) }
    }

    func developerFields(_ keys: [UInt16]) {
        if developerKeys.count < 4096 { developerKeys.formUnion(keys) }
    }

    func message(_ m: FITMessage) throws {
        switch m.global {
        case FITProfile.Message.record:
            if inActivity { try record(m) }
        case FITProfile.Message.event:
            // Timer events (event 0): stop (1), stop_all (4), stop_disable(_all) (8, 9) pause; start (0) resumes.
            guard inActivity, m.int(0) == 0, let type = m.int(1) else { return }
            if type == 1 || type == 4 || type == 8 || type == 9 { timerStopped = true }
        case FITProfile.Message.lap:
            guard inActivity else { return }
            if laps.count >= ActivityFileReader.maxParts {
                throw FITError.tooManyParts(file: name, what: "laps", limit: ActivityFileReader.maxParts)
            }
            let start = time(m[2])
            laps.append(
                LapEntry(
                    lap: Lap(
                        startTime: start, totalTimeSeconds: scaled(m[8], 1000), distanceMeters: scaled(m[9], 100),
                        energyKcal: calories(m[11])),
                    time: start ?? time(m[253])))
        case FITProfile.Message.session:
            guard inActivity else { return }
            if sessions.count >= Self.maxSessions {
                throw FITError.tooManyParts(file: name, what: "sessions", limit: Self.maxSessions)
            }
            var s = Session(
                start: time(m[2]), end: time(m[253]), sport: m.int(5), subSport: m.int(6),
                elapsed: scaled(m[7], 1000), timer: scaled(m[8], 1000), distance: scaled(m[9], 100),
                calories: calories(m[11]))
            if s.start == nil, let end = s.end, let elapsed = s.elapsed { s.start = end - elapsed }
            if let pool = scaled(m[44], 100), pool > 0 { s.poolLength = pool }
            s.activeLengths = m.int(47).map(Double.init)
            s.strokes = scaled(m[10], 1)
            sessions.append(s)
        case FITProfile.Message.length:
            guard inActivity, let start = time(m[2]) ?? time(m[253]),
                let seconds = scaled(m[4], 1000) ?? scaled(m[3], 1000)
            else { return }
            if lengths.count >= ActivityFileReader.maxParts {
                throw FITError.tooManyParts(file: name, what: "lengths", limit: ActivityFileReader.maxParts)
            }
            // length_type 0 is idle (a rest); a length without one that took time is swum.
            let active = m.int(12).map { $0 == 1 } ?? (seconds > 0)
            lengths.append(Length(start: start, seconds: seconds, strokes: scaled(m[5], 1), active: active))
        case FITProfile.Message.sport:
            if inActivity, sportMessage == nil { sportMessage = (m.int(0), m.int(1)) }
        case FITProfile.Message.fileID:
            unitHasFileID = true
            unitType = m.int(0)
            if let t = unitType {
                if t == 4 { activityUnits += 1 } else if otherTypes.count < 16 { otherTypes.append(t) }
            }
            if inActivity, fileCreator == nil { fileCreator = (m.int(1), m.int(2), m.strings[8]) }
        case FITProfile.Message.deviceInfo:
            // Device index 0 is the device that wrote the file.
            if inActivity, deviceCreator == nil, m.int(0) == 0 {
                deviceCreator = (m.int(2), m.int(4), m.strings[27], scaled(m[5], 100))
            }
        case FITProfile.Message.fieldDescription:
            // May come after the definitions that use the field, and without a
            // developer_data_id message: names are looked up at the end.
            guard let index = m.int(0), let number = m.int(1), (0..<256).contains(index), (0..<256).contains(number),
                developerNames.count < FITDecoder.maximumDeveloperFields
            else { return }
            let key = UInt16(index) << 8 | UInt16(number)
            if let fieldName = m.strings[3] { developerNames[key] = fieldName }
            plans = []
            developerSlots[key] = nil   // described again: its values go where the new description says
            developerApplied.remove(key)
            developerChannels[key] = FITDeveloperChannel(
                name: m.strings[3], units: m.strings[8], nativeMessage: m.int(14), nativeField: m.int(15),
                scale: m[6], offset: m[7])
        default:
            break
        }
    }

    /// A `date_time` as seconds since the Unix epoch; nil when invalid, beyond a
    /// uint32 (another base type declared), or a relative time (below
    /// 0x10000000: seconds since the device was switched on).
    @inline(__always)
    private func time(_ v: Double) -> Double? {
        v >= Double(FITProfile.minimumDateTime) && v <= Double(UInt32.max) ? v + FITProfile.epochOffset : nil
    }

    /// A total (time, distance) with its scale; nil when missing, negative or
    /// beyond a uint32 (another base type declared).
    @inline(__always)
    private func scaled(_ v: Double, _ scale: Double) -> Double? {
        v >= 0 && v <= Double(UInt32.max) ? v / scale : nil
    }

    /// `total_calories` (uint16 kcal); nil when missing. A device that counts
    /// none writes 0: kept (a 0 is what it says, not our guess).
    @inline(__always)
    private func calories(_ v: Double) -> Double? { v >= 0 && v < 65_535 ? v : nil }

    /// Semicircles to degrees: x * 180 / 2^31.
    static let degreesPerSemicircle = 180.0 / 2_147_483_648.0

    private func record(_ m: FITMessage) throws {
        var p = SamplePoint()
        p.time = time(m[253]) ?? .nan
        p.latitude = m[0] * Self.degreesPerSemicircle
        p.longitude = m[1] * Self.degreesPerSemicircle
        // Enhanced altitude and speed (32-bit) are preferred; scale 5, offset 500.
        let altitude = m[78].isNaN ? m[2] : m[78]
        p.elevation = altitude / 5 - 500
        p.distance = m[5] / 100
        let speed = m[73].isNaN ? m[6] : m[73]
        p.speed = speed / 1000
        p.heartRate = m[3]
        // Cadence with its fractional part (1/128).
        p.cadence = m[53].isNaN ? m[4] : m[4] + m[53] / 128
        p.power = m[7]
        p.temperature = m[13]
        if timerStopped {
            timerStopped = false
            breakSegment()
        }
        let developer = m.developerCount > 0 && !developerChannels.isEmpty
        var kept = false
        if developer { kept = developerTargets(m, into: &p) }
        samples.append(p)
        extras(m, developer: kept)
        if samples.count > pointLimit { throw FITError.tooLarge(file: name, limit: pointLimit) }
    }

    /// What to do with the developer field at one position of a record:
    /// records of one definition repeat their fields, so this is worked out
    /// once per position, not looked up for every value.
    private struct DeveloperPlan {
        var key: UInt16
        var target: FITDeveloperChannel.Target?
        /// The description's scale and offset.
        var scale: Double
        var offset: Double
        /// The extra channel and the factor to its unit (fields without a target).
        var slot: Int?
        var factor: Double
        var applied = false
    }
    private var plans: [DeveloperPlan?] = []

    /// The plan for position `i` holding `key`, made when new.
    @inline(__always)
    private func plan(_ i: Int, _ key: UInt16) -> DeveloperPlan? {
        if i < plans.count, let p = plans[i], p.key == key { return p }
        return makePlan(i, key)
    }

    @inline(never)
    private func makePlan(_ i: Int, _ key: UInt16) -> DeveloperPlan? {
        guard let channel = developerChannels[key] else { return nil }
        let scale = channel.scale.isFinite && channel.scale > 0 ? channel.scale : 1
        var made = DeveloperPlan(
            key: key, target: channel.target, scale: scale, offset: channel.offset.isFinite ? channel.offset : 0,
            slot: nil, factor: 1)
        if channel.target == nil {
            if let known = developerSlots[key] {
                made.slot = known?.slot; made.factor = known?.factor ?? 1
            } else {
                let target = slot(for: channel, key)
                made.slot = target?.slot
                made.factor = target?.factor ?? 1
                developerSlots[key] = .some(target)
            }
        }
        made.applied = developerApplied.contains(key)
        while plans.count <= i { plans.append(nil) }
        plans[i] = made
        return made
    }

    /// The extra channel a developer field is kept in: `developer:NAME` (the
    /// name cut to `ExtraChannel.maximumKeyBytes`; another field whose name cuts
    /// to the same key gets its index and number added), nil past
    /// `ExtraChannel.maximumCount`.
    private func slot(for channel: FITDeveloperChannel, _ key: UInt16) -> (slot: Int, factor: Double)? {
        let kept = channel.kept(key)
        let label = channel.name ?? developerLabel(key)
        var channelKey = kept.key
        if let i = samples.extras.firstIndex(where: { $0.key == channelKey }), let owner = slotOwners[i], owner != key {
            // "developer:" (10 bytes) and " (255/255)" (10) around the cut name.
            channelKey = ExtraChannel.developer(
                ExtraChannel.truncated(label, bytes: ExtraChannel.maximumKeyBytes - 20) + " (\(key >> 8)/\(key & 0xFF))"
            )
        }
        guard let i = samples.extraIndex(channelKey, unit: kept.unit) else { return nil }
        if slotOwners[i] == nil { slotOwners[i] = key }
        if let dynamics = kept.dynamics, !developerDynamics.contains(where: { $0.channel == channelKey }) {
            developerDynamics.append((channelKey, dynamics))
        }
        if !keptNames.contains(label) { keptNames.append(label) }
        usedKeys.insert(key)
        return (i, kept.factor)
    }

    /// The developer fields of a record that stand for power, heart rate or
    /// cadence, into the point before it is appended: each fills its value
    /// where the record has no native one (native first). True when the record
    /// also holds fields kept as channels of their own (`extras`).
    private func developerTargets(_ m: FITMessage, into point: inout SamplePoint) -> Bool {
        var kept = false
        for i in 0..<m.developerCount {
            guard var p = plan(i, m.developerKeys[i]) else { continue }
            guard let target = p.target else {
                if p.slot != nil { kept = true }
                continue
            }
            if !p.applied {
                p.applied = true
                plans[i] = p
                developerApplied.insert(p.key)
                usedKeys.insert(p.key)
                let read = "\(developerLabel(p.key)) as \(target.rawValue)"
                if !readNames.contains(read) { readNames.append(read) }
            }
            let v = m.developerValues[i] / p.scale - p.offset
            switch target {
            case .power: if point.power.isNaN { point.power = v }
            case .heartRate: if point.heartRate.isNaN { point.heartRate = v }
            case .cadence: if point.cadence.isNaN { point.cadence = v }
            }
        }
        return kept
    }

    /// The record's running dynamics and the developer fields kept as channels
    /// of their own (after `samples.append`: the last point's values).
    private func extras(_ m: FITMessage, developer: Bool) {
        let last = samples.count - 1
        // Most records have no dynamics: five reads, no walk over the table.
        if !(m[41].isNaN && m[84].isNaN && m[39].isNaN && m[83].isNaN && m[85].isNaN) { dynamics(m, last) }
        guard developer else { return }
        for i in 0..<m.developerCount {
            // The plans were made (or found) by `developerTargets` for this record.
            guard i < plans.count, let p = plans[i], p.key == m.developerKeys[i], p.target == nil,
                let slot = p.slot
            else { continue }
            let value = p.factor * (m.developerValues[i] / p.scale - p.offset)
            // Beyond a Float32's comfortable range a value is a sensor's garbage.
            if value.isFinite, abs(value) <= ExtraChannel.maximumMagnitude {
                samples.extras[slot].values[last] = value
            }
        }
    }

    /// The record's running-dynamics fields into their channels.
    private func dynamics(_ m: FITMessage, _ last: Int) {
        for (k, d) in FITProfile.dynamics.enumerated() {
            let value = m[d.field] / d.scale
            guard d.range.contains(value) else { continue }
            if dynamicsSlots[k] == nil { dynamicsSlots[k] = samples.extraIndex(d.key, unit: d.unit) }
            if let slot = dynamicsSlots[k] { samples.extras[slot].values[last] = value }
        }
    }

    /// The session's totals with its pool swim: the session's pool length,
    /// active lengths and strokes, else what its lengths add up to; the active
    /// lengths' timer time.
    private func swim(_ s: Session, _ lengths: [Length]) -> Lap {
        var lap = s.lap
        let active = lengths.filter(\.active)
        lap.poolLengthMeters = s.poolLength
        lap.activeLengths = s.activeLengths ?? (active.isEmpty ? nil : Double(active.count))
        lap.activeLengthSeconds = active.isEmpty ? nil : active.reduce(0) { $0 + $1.seconds }
        let strokes = active.compactMap(\.strokes)
        lap.strokes = s.strokes ?? (strokes.isEmpty ? nil : strokes.reduce(0, +))
        return lap
    }

    /// True when at least two records have a time (a track to keep).
    private func hasTimedDistance(_ s: SampleSeries) -> Bool {
        s.time.lazy.filter { $0.isFinite }.prefix(2).count == 2
    }

    /// A pool swim's track from its lengths: a point where each swum length
    /// starts and one where it ends, the distance growing by the pool length;
    /// a rest (an idle length, or a gap) between is a pause. Nil without a swum length.
    static func points(_ lengths: [Length], pool: Double) -> (samples: SampleSeries, segmentStarts: [Int])? {
        let swum = lengths.filter { $0.active && $0.seconds > 0 }.sorted { $0.start < $1.start }
        guard !swum.isEmpty else { return nil }
        var s = SampleSeries()
        var starts: [Int] = []
        var distance = 0.0
        var lastEnd = -Double.infinity
        for l in swum {
            if l.start > lastEnd + 1 || starts.isEmpty {
                starts.append(s.count)
                var p = SamplePoint()
                p.time = max(l.start, lastEnd); p.distance = distance
                s.append(p)
            }
            distance += pool
            var end = SamplePoint()
            end.time = l.start + l.seconds; end.distance = distance
            s.append(end)
            lastEnd = end.time
        }
        return (s, starts)
    }

    /// The creator: the product name when the device wrote one, else the
    /// manufacturer and product number, with the software version.
    var creator: String? {
        let m = deviceCreator?.manufacturer ?? fileCreator?.manufacturer
        let product = deviceCreator?.product ?? fileCreator?.product
        let productName = deviceCreator?.name ?? fileCreator?.name
        var text: String
        if let productName {
            text = productName
            if let m, !productName.lowercased().hasPrefix(FITProfile.manufacturerName(m).lowercased()) {
                text = FITProfile.manufacturerName(m) + " " + productName
            }
        } else if let m {
            text = FITProfile.manufacturerName(m) + (product.map { " product \($0)" } ?? "")
        } else {
            return nil
        }
        if let software = deviceCreator?.software {
            text += " (software \(TextFormat.fixed(software, 2)))"
        }
        return text
    }

    /// Names of the developer fields the file defined and RaceKit does not read.
    var developerFieldNames: [String] {
        var seen = Set<String>()
        return developerKeys.sorted().filter { !usedKeys.contains($0) }.compactMap { key in
            let name = developerNames[key] ?? "developer \(key >> 8) field \(key & 0xFF)"
            return seen.insert(name).inserted ? name : nil
        }
    }

    /// A developer field's name, or its index and number when no description names it.
    func developerLabel(_ key: UInt16) -> String {
        developerNames[key] ?? "developer \(key >> 8) field \(key & 0xFF)"
    }

    /// Names of the developer fields of the records kept as channels of their own.
    var developerFieldsKept: [String] { keptNames }

    /// Names of the developer fields read into a channel, with the channel.
    var developerFieldsRead: [String] { readNames }

    /// Splits the records by session into activities (one per session that is
    /// not a transition); notes say what was skipped.
    func finish(into document: inout ParsedDocument) {
        // A developer field standing for a running-dynamics channel (Stryd's
        // Ground Time) is that channel when the file has no native values for
        // it; beside native values (a walking stretch Stryd times and the watch
        // does not) it stays a developer channel of its own.
        for (channel, dynamics) in developerDynamics where samples.extra(dynamics) == nil {
            if let i = samples.extras.firstIndex(where: { $0.key == channel }) { samples.extras[i].key = dynamics }
        }
        let creator = self.creator
        document.creator = creator
        let ordered = sessions.enumerated().sorted {
            ($0.element.start ?? 0, $0.offset) < ($1.element.start ?? 0, $1.offset)
        }
        .map(\.element)
        if ordered.count <= 1 {
            var raw = RawActivity()
            let s = ordered.first
            raw.sport = FITProfile.sportValue(
                sport: s?.sport ?? sportMessage?.sport, subSport: s?.subSport ?? sportMessage?.subSport)
            raw.creator = creator
            raw.declaredStart = s?.start
            raw.session = s.map { swim($0, lengths) }
            raw.laps = laps.map(\.lap)
            if raw.laps.isEmpty, let s, s.distance != nil || s.timer != nil {
                raw.laps = [s.lap]
            }
            if samples.isEmpty && raw.laps.isEmpty { return }
            if let pool = raw.session?.poolLengthMeters, !hasTimedDistance(samples),
                let built = Self.points(lengths, pool: pool)
            {
                // A pool swim whose records carry no time (or none at all): its lengths are the track.
                samples = built.samples
                segmentStarts = built.segmentStarts.filter { $0 > 0 }
                document.notes.append("the swim's track built from its \(lengths.filter(\.active).count) pool lengths")
            }
            swap(&raw.samples, &samples)
            raw.segmentStarts = [0] + segmentStarts
            document.activities.append(raw)
            return
        }
        // Several sessions (multisport): a record or lap belongs to the last
        // session that started at or before it.
        // Sorted (the sessions are ordered by start, unknown ones first): the
        // last start at or before `t` by binary search, never a scan per record
        // (20,000 sessions x 200,000 records took 37 s that way).
        let starts = ordered.map { $0.start ?? -.infinity }
        func session(of t: Double, current: Int) -> Int {
            guard t.isFinite else { return current }
            var low = 1, high = starts.count   // the first start after t is in low...high
            while low < high {
                let mid = (low + high) / 2
                if starts[mid] <= t { low = mid + 1 } else { high = mid }
            }
            return low - 1
        }
        var parts = [RawActivity](repeating: RawActivity(), count: ordered.count)
        var nextSegment = 0
        var current = 0
        for i in 0..<samples.count {
            let k = session(of: samples.time[i], current: current)
            let isBreak = nextSegment < segmentStarts.count && segmentStarts[nextSegment] == i
            if isBreak { nextSegment += 1 }
            if k != current || isBreak || parts[k].samples.isEmpty {
                if parts[k].segmentStarts.last != parts[k].samples.count {
                    parts[k].segmentStarts.append(parts[k].samples.count)
                }
            }
            current = k
            parts[k].samples.append(samples, point: i)
        }
        var lapCurrent = 0
        for entry in laps {
            lapCurrent = session(of: entry.time ?? .nan, current: lapCurrent)
            parts[lapCurrent].laps.append(entry.lap)
        }
        samples = SampleSeries()
        for (k, s) in ordered.enumerated() {
            let label = FITProfile.sportName(s.sport ?? 0)
            if s.sport == 3 {
                let seconds = s.elapsed.map { " \(TextFormat.fixed($0, 0)) s," } ?? ""
                document.notes.append(
                    "session \(k + 1) (transition,\(seconds) \(parts[k].samples.count) record\(parts[k].samples.count == 1 ? "" : "s")) skipped: a transition between sports"
                )
                continue
            }
            var raw = parts[k]
            raw.sport = FITProfile.sportValue(sport: s.sport, subSport: s.subSport)
            raw.name = "\(label) (session \(k + 1) of \(ordered.count))"
            raw.creator = creator
            raw.declaredStart = s.start
            raw.session = swim(s, lengths.filter { l in session(of: l.start, current: k) == k })
            if raw.laps.isEmpty, s.distance != nil || s.timer != nil {
                raw.laps = [s.lap]
            }
            document.activities.append(raw)
        }
    }
}

/// What a developer field's description says of it, and the channel it is read
/// into: the native record field it declares (`native_field_num` of a record:
/// power 7, heart rate 3, cadence 4), else a known name (Stryd's `Power`,
/// Garmin Running Power's `RP_Power`, which declares none).
struct FITDeveloperChannel {
    enum Target: String { case power, heartRate = "heart rate", cadence }

    let name: String?
    let units: String?
    let nativeMessage: Int?
    let nativeField: Int?
    let scale: Double
    let offset: Double
    /// The channel it fills (worked out once: records ask for every value).
    let target: Target?

    init(name: String?, units: String?, nativeMessage: Int?, nativeField: Int?, scale: Double, offset: Double) {
        self.name = name; self.units = units; self.nativeMessage = nativeMessage; self.nativeField = nativeField
        self.scale = scale; self.offset = offset
        target = Self.target(name: name, nativeMessage: nativeMessage, nativeField: nativeField)
    }

    /// Names read as power when the description declares no native field.
    static let powerNames: Set<String> = ["power", "rp_power", "rp power"]

    static func target(name: String?, nativeMessage: Int?, nativeField: Int?) -> Target? {
        if nativeMessage == nil || nativeMessage == Int(FITProfile.Message.record), let nativeField {
            switch nativeField {
            case 7: return .power
            case 3: return .heartRate
            case 4: return .cadence
            default: return nil
            }
        }
        guard nativeField == nil, let name else { return nil }
        return Self.powerNames.contains(name.lowercased()) ? .power : nil
    }

    /// The channel a developer field without a native channel of its own is
    /// kept in: `developer:NAME` with its units; one that declares a running-
    /// dynamics record field (Stryd's Ground Time 41, Vertical Oscillation 39),
    /// or is named like one, is converted to that channel's unit (from ms or s,
    /// mm, cm or m, %) and marked `dynamics`; with units RaceKit does not know, it
    /// keeps its own.
    func kept(_ key: UInt16) -> (key: String, unit: String?, factor: Double, dynamics: String?) {
        let label = name ?? "developer \(key >> 8) field \(key & 0xFF)"
        let channelKey = ExtraChannel.developer(label)
        let own = (
            channelKey, units.map { ExtraChannel.truncated($0, bytes: ExtraChannel.maximumKeyBytes) }, 1.0, String?.none
        )
        var field = nativeMessage == nil || nativeMessage == Int(FITProfile.Message.record) ? nativeField : nil
        if field == nil {
            switch label.lowercased() {
            case "ground time", "ground contact time": field = 41
            case "vertical oscillation": field = 39
            default: break
            }
        }
        guard let field, let d = FITProfile.dynamics.first(where: { Int($0.field) == field }),
            let factor = Self.factor(from: units, to: d.unit)
        else { return own }
        return (channelKey, d.unit, factor, d.key)
    }

    /// What a value in `units` is multiplied by to be in `unit` (ms, mm or %);
    /// nil for units RaceKit does not know.
    static func factor(from units: String?, to unit: String) -> Double? {
        let u = (units ?? "").trimmingBlanks().lowercased()
        switch unit {
        case "ms":
            switch u {
            case "ms", "millisecond", "milliseconds": return 1
            case "s", "second", "seconds": return 1000
            default: return nil
            }
        case "mm":
            switch u {
            case "mm", "millimeter", "millimeters", "millimetre", "millimetres": return 1
            case "cm", "centimeter", "centimeters", "centimetre", "centimetres": return 10
            case "m", "meter", "meters", "metre", "metres": return 1000
            default: return nil
            }
        default:
            return u == "%" || u == "percent" ? 1 : nil
        }
    }

    /// The raw value in the field's units (its own scale and offset, when given).
    func physical(_ raw: Double) -> Double {
        let s = scale.isFinite && scale > 0 ? scale : 1
        return raw / s - (offset.isFinite ? offset : 0)
    }
}
