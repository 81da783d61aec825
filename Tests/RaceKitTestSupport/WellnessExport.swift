import Foundation

/// A made-up Apple Health export of `nights` nights with their truth, for the
/// wellness tests: the watch's sleep stages with awake spells, nights told in the
/// old plain "Asleep" value, an overlapping sleep app, nights told by the app
/// alone (the watch not worn), the phone's in-bed span, a DST change, daytime
/// HRV readings under load, a second resting-HR source, and an illness week
/// (HRV down, resting HR up).
public struct WellnessExport: Sendable {
    public struct Night: Sendable {
        /// The wake-up day, `YYYY-MM-DD` in `timeZone`.
        public var date: String
        public var sleepSeconds: Double
        /// The mean of the watch's readings during the night; nil when not worn.
        public var hrvMs: Double?
        /// The watch's resting heart rate of the day.
        public var restingHeartRate: Double
        public var ill: Bool
    }

    public let timeZone = "Europe/Berlin"
    public private(set) var xml = ""
    public private(set) var nights: [Night] = []
    /// The nights of the illness week (indices into `nights`).
    public let illness: Range<Int>

    /// `first`: the first wake-up day (`YYYY-MM-DD`); `person`: whose devices
    /// the sources are ("Ben's Apple Watch" by default).
    public init(
        nights count: Int = 100, illness: Range<Int> = 70..<77, seed: UInt64 = 39,
        first firstDay: String = "2026-01-06",
        person: String = "Ben"
    ) {
        self.illness = illness
        var rng = SplitMix64(seed: seed)
        func u(_ a: Double, _ b: Double) -> Double { a + (b - a) * Double(rng.next() >> 11) / Double(1 << 53) }
        func normal() -> Double {
            let x = max(u(0, 1), 1e-12), y = u(0, 1)
            return (-2 * log(x)).squareRoot() * cos(2 * .pi * y)
        }
        let zone = TimeZone(identifier: timeZone)!
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let stamp = DateFormatter()
        stamp.locale = Locale(identifier: "en_US_POSIX")
        stamp.timeZone = zone
        stamp.dateFormat = "yyyy-MM-dd HH:mm:ss Z"
        let dayName = DateFormatter()
        dayName.locale = Locale(identifier: "en_US_POSIX")
        dayName.timeZone = zone
        dayName.dateFormat = "yyyy-MM-dd"
        func t(_ seconds: Double) -> String { stamp.string(from: Date(timeIntervalSince1970: seconds)) }

        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_DE\">\n"
        func sleep(_ source: String, _ value: String, _ a: Double, _ b: Double) {
            out +=
                " <Record type=\"HKCategoryTypeIdentifierSleepAnalysis\" sourceName=\"\(source)\" sourceVersion=\"9.1\" "
                + "creationDate=\"\(t(b))\" startDate=\"\(t(a))\" endDate=\"\(t(b))\" value=\"HKCategoryValueSleepAnalysis\(value)\"/>\n"
        }
        func quantity(_ type: String, _ source: String, _ unit: String, _ a: Double, _ b: Double, _ v: Double) {
            out +=
                " <Record type=\"HKQuantityTypeIdentifier\(type)\" sourceName=\"\(source)\" unit=\"\(unit)\" "
                + "creationDate=\"\(t(b))\" startDate=\"\(t(a))\" endDate=\"\(t(b))\" value=\"\(String(format: "%.3f", v))\"/>\n"
        }

        // 2026-01-06, the first wake-up day by default: the nights cross the spring DST change (March 29).
        let first = dayName.date(from: firstDay).map(calendar.startOfDay) ?? Date(timeIntervalSince1970: 0)
        var lnNoise = 0.0, hrNoise = 0.0
        for n in 0..<count {
            let wakeDay = calendar.date(byAdding: .day, value: n, to: first)!
            let evening = calendar.date(byAdding: .day, value: -1, to: wakeDay)!
            let ill = illness.contains(n)
            lnNoise = 0.4 * lnNoise + 0.12 * normal()
            hrNoise = 0.4 * hrNoise + 1.6 * normal()
            let sdnn = exp(log(55) + lnNoise) * (ill ? 0.62 : 1)
            let rhr = (50 + hrNoise + (ill ? 8 : 0)).rounded()

            let onset =
                calendar.date(bySettingHour: 22, minute: 45, second: 0, of: evening)!.timeIntervalSince1970
                + u(-40, 40) * 60
            let length = u(6.3, 8.4) * 3600
            let wake = onset + length
            sleep("\(person)'s iPhone", "InBed", onset - u(10, 30) * 60, wake + u(5, 20) * 60)

            let worn = n % 10 != 7
            let oldValue = n % 10 == 3
            var slept = 0.0
            var during: [Double] = []
            if worn {
                // Awake spells, then the stages between them.
                let spells = [u(0.25, 0.45), u(0.6, 0.8)].map { onset + $0 * length }
                var edges: [(Double, Double)] = []
                var at = onset
                for s in spells {
                    let awake = u(4, 14) * 60
                    edges.append((at, s))
                    if oldValue {
                        at = s + awake   // the old value writes no awake spans: the gap is the spell
                    } else {
                        sleep("\(person)'s Apple Watch", "Awake", s, s + awake)
                        at = s + awake
                    }
                }
                edges.append((at, wake))
                let cycle = ["AsleepCore", "AsleepDeep", "AsleepCore", "AsleepREM"]
                var k = 0
                for (a, b) in edges {
                    slept += b - a
                    if oldValue {
                        sleep("\(person)'s Apple Watch", "Asleep", a, b)
                        continue
                    }
                    var x = a
                    while x < b {
                        let y = min(b, x + u(15, 45) * 60)
                        sleep("\(person)'s Apple Watch", cycle[k % 4], x, y)
                        k += 1
                        x = y
                    }
                }
                for j in 0..<4 {
                    let at = onset + (0.15 + 0.22 * Double(j)) * length
                    let v = sdnn * exp(0.08 * normal())
                    during.append(v)
                    quantity("HeartRateVariabilitySDNN", "\(person)'s Apple Watch", "ms", at, at + 60, v)
                }
            }
            if !worn || n % 4 == 1 {
                // The sleep app: the whole night when the watch was off, an overlapping copy otherwise.
                let a = onset - u(5, 15) * 60, b = wake + u(0, 10) * 60
                sleep("AutoSleep", "Asleep", a, b)
                if !worn { slept = b - a }
            }
            for hour in [10, 14, 18] {
                let at = calendar.date(bySettingHour: hour, minute: 5, second: 0, of: wakeDay)!.timeIntervalSince1970
                quantity("HeartRateVariabilitySDNN", "\(person)'s Apple Watch", "ms", at, at + 60, sdnn * u(0.45, 0.8))
            }
            let midnight = wakeDay.timeIntervalSince1970
            quantity("RestingHeartRate", "\(person)'s Apple Watch", "count/min", midnight + 60, midnight + 86_000, rhr)
            if n % 3 == 0 {
                quantity("RestingHeartRate", "Oura", "count/min", midnight + 25_000, midnight + 25_000, rhr - 4)
            }
            nights.append(
                Night(
                    date: dayName.string(from: wakeDay), sleepSeconds: slept,
                    hrvMs: during.isEmpty ? nil : during.reduce(0, +) / Double(during.count), restingHeartRate: rhr,
                    ill: ill))
        }
        out += "</HealthData>\n"
        xml = out
    }
}
