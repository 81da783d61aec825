/// A channel beyond the fixed ones, kept only by the runs that record it:
/// running dynamics (`ExtraChannel.Key`) and any developer field a FIT file
/// defines (`developer:NAME`), with its unit. One value per point (NaN where a
/// point has none), stored with the samples.
public struct ExtraChannel: Sendable, Equatable {
    public var key: String
    /// The unit as the source names it (`ms`, `mm`, `%`, `Watts`), nil when none.
    public var unit: String?
    public var values: ContiguousArray<Double>

    public init(key: String, unit: String?, values: ContiguousArray<Double>) {
        self.key = key; self.unit = unit; self.values = values
    }

    /// The running-dynamics channels (FIT record fields, Stryd's developer fields).
    public enum Key {
        /// Ground contact time per step, ms (FIT `stance_time`).
        public static let groundContact = "groundContactMs"
        /// The left foot's share of ground contact time, % (FIT `stance_time_balance`).
        public static let groundContactBalance = "groundContactBalancePercent"
        /// Vertical oscillation, mm.
        public static let verticalOscillation = "verticalOscillationMm"
        /// Vertical oscillation over step length, %.
        public static let verticalRatio = "verticalRatioPercent"
        /// Step length (one foot's contact to the other's), mm.
        public static let stepLength = "stepLengthMm"
    }

    /// The key of a developer field kept as a channel (at most `maximumKeyBytes`).
    public static func developer(_ name: String) -> String {
        truncated("developer:" + name, bytes: maximumKeyBytes)
    }

    /// Most extra channels a run keeps (a file may define hundreds of developer fields).
    public static let maximumCount = 32
    /// Longest key and unit kept, in UTF-8 bytes.
    public static let maximumKeyBytes = 64
    /// Largest magnitude a developer value may have (beyond it: a sensor's garbage).
    public static let maximumMagnitude = 1e9

    /// `text` cut to at most `bytes` UTF-8 bytes at a character boundary.
    public static func truncated(_ text: String, bytes: Int) -> String {
        guard text.utf8.count > bytes else { return text }
        var out = "", used = 0
        for c in text {
            let n = c.utf8.count
            if used + n > bytes { break }
            out.append(c); used += n
        }
        return out
    }

    /// True for the running-dynamics channels (their averages leave out zeros).
    public var isDynamics: Bool { !key.hasPrefix("developer:") }
}

extension SampleSeries {
    /// The values of extra channel `key`, nil when the run has none.
    public func extra(_ key: String) -> ContiguousArray<Double>? {
        extras.first { $0.key == key }?.values
    }

    /// The index of extra channel `key`, added (NaN at every point) when new;
    /// nil when the run already keeps `ExtraChannel.maximumCount`.
    public mutating func extraIndex(_ key: String, unit: String?) -> Int? {
        let key = ExtraChannel.truncated(key, bytes: ExtraChannel.maximumKeyBytes)
        if let i = extras.firstIndex(where: { $0.key == key }) { return i }
        guard extras.count < ExtraChannel.maximumCount else { return nil }
        extras.append(
            ExtraChannel(
                key: key,
                unit: unit.map { ExtraChannel.truncated($0, bytes: ExtraChannel.maximumKeyBytes) },
                values: ContiguousArray(repeating: .nan, count: count)))
        return extras.count - 1
    }

    /// Appends point `i` of `other`, its extra channels included.
    public mutating func append(_ other: SampleSeries, point i: Int) {
        append(other[point: i])
        for e in other.extras where !e.values[i].isNaN {
            if let k = extraIndex(e.key, unit: e.unit) { extras[k].values[count - 1] = e.values[i] }
        }
    }

    /// Point `r` moved to `w` (compaction), its extra channels included.
    public mutating func move(point r: Int, to w: Int) {
        self[point: w] = self[point: r]
        for k in extras.indices { extras[k].values[w] = extras[k].values[r] }
    }

    /// Point `w` takes what it lacks from point `r` (two points at one time).
    public mutating func fillMissing(point w: Int, from r: Int) {
        var merged = self[point: w]
        merged.fillMissing(from: self[point: r])
        self[point: w] = merged
        for k in extras.indices where extras[k].values[w].isNaN { extras[k].values[w] = extras[k].values[r] }
    }

    /// Drops the last `n` points of every channel.
    public mutating func removeLast(_ n: Int) {
        for channel in Channel.allCases { self[channel].removeLast(n) }
        for k in extras.indices { extras[k].values.removeLast(n) }
    }
}
