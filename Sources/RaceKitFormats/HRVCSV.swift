import RaceKitMetrics
import RaceKitModel

/// The CSV exports of the morning-HRV apps (HRV4Training, Elite HRV, and any
/// CSV with the same columns): a reading a row, its RMSSD and heart rate.
/// Columns are found by their names, any case, spaces and punctuation ignored
/// (docs/import.md, "HRV app exports").
public enum HRVCSV {
    /// One morning reading.
    public struct Reading: Sendable, Equatable {
        /// Seconds since the epoch.
        public var time: Double
        public var rmssdMs: Double?
        public var heartRate: Double?
    }

    /// What a file held: its readings, the app they came from, and the rows left out.
    public struct Contents: Sendable {
        public var readings: [Reading]
        /// `HRV4Training`, `Elite HRV`, or the file's name.
        public var source: String
        /// Rows left out, with the first few reasons (`line 12: rMSSD "-3" is not 1-300 ms`).
        public var leftOut: Int
        public var problems: [String]
    }

    static let dateNames: Set<String> = ["date", "datetimestart", "datetime", "timestamp", "measurementdate", "day"]
    static let timeNames: Set<String> = ["time", "timeofday", "starttime"]
    static let rmssdNames: Set<String> = ["rmssd", "rmssdms"]
    static let heartRateNames: Set<String> = [
        "hr", "heartrate", "heartratebpm", "restinghr", "restingheartrate", "avghr"
    ]
    /// Rows read at most (fifty years of a reading a day, with room).
    public static let maxRows = 100_000

    static func key(_ header: String) -> String {
        String(header.lowercased().unicodeScalars.filter { ("a"..."z").contains($0) || ("0"..."9").contains($0) })
    }

    /// True when `header` (a CSV's first record) is an HRV export's: a date and an RMSSD column.
    public static func isHeader(_ header: [String]) -> Bool {
        let keys = header.map(key)
        return keys.contains(where: dateNames.contains) && keys.contains(where: rmssdNames.contains)
    }

    /// Reads an export; times without a zone are local to `timeZone`. Nil when
    /// the first record is not an HRV export's header; throws `CSVError` (a
    /// broken CSV, a limit crossed).
    public static func read(_ stream: any ByteStream, timeZone: String, fileName: String) throws -> Contents? {
        var records = CSVRecords(stream, maxRecordBytes: 64 * 1024, maxFileBytes: 64 << 20, maxRecords: maxRows + 1)
        guard let header = try records.next(), isHeader(header) else { return nil }
        let keys = header.map(key)
        let date = keys.firstIndex(where: dateNames.contains)!
        let time = keys.firstIndex(where: timeNames.contains)
        let rmssd = keys.firstIndex(where: rmssdNames.contains)!
        let hr = keys.firstIndex(where: heartRateNames.contains)
        let source: String
        if keys.contains(where: { $0.hasPrefix("hrv4t") }) {
            source = "HRV4Training"
        } else if keys.contains("readingtype") || keys.contains("morningreadiness") {
            source = "Elite HRV"
        } else {
            source = String(fileName.prefix(64))
        }
        let calendar = LocalCalendar(identifier: timeZone)
        var out = Contents(readings: [], source: source, leftOut: 0, problems: [])
        var line = records.line
        func leave(_ why: String) {
            out.leftOut += 1
            if out.problems.count < 3 { out.problems.append("line \(line): \(why)") }
        }
        while true {
            line = records.line
            guard let row = try records.next() else { break }
            if row.allSatisfy({ $0.trimmingBlanks().isEmpty }) { continue }
            func cell(_ k: Int?) -> String { k.map { $0 < row.count ? row[$0].trimmingBlanks() : "" } ?? "" }
            guard let at = instant(cell(date), cell(time), calendar) else {
                leave("\"\(cell(date).prefix(40))\" is not a date and time")
                continue
            }
            let v = Double(cell(rmssd))
            guard let v, DailyKind.hrvRange.contains(v) else {
                leave("rMSSD \"\(cell(rmssd).prefix(20))\" is not 0.01 to 300 ms")
                continue
            }
            var reading = Reading(time: at, rmssdMs: v)
            if let b = Double(cell(hr)), DailyKind.named("resting_hr")!.range.contains(b) { reading.heartRate = b }
            out.readings.append(reading)
        }
        return out
    }

    /// `2024-01-15`, `2024-01-15 07:12[:33]`, `2024-01-15T07:12:33Z` (a zone is
    /// kept), or a date and a separate time; local to `calendar` without a zone.
    static func instant(_ date: String, _ time: String, _ calendar: LocalCalendar) -> Double? {
        var text = date.replacingSlashes()
        if !time.isEmpty, !text.contains(" "), !text.contains("T") { text += " " + time }
        let parts = text.split(separator: " ", maxSplits: 1).map(String.init)
        guard let first = parts.first else { return nil }
        if first.count == 10, let day = LocalCalendar.day(parsing: first) {
            guard parts.count == 2 else { return calendar.instant(day: day, seconds: 7 * 3600) }
            let hms = parts[1].split(separator: ":")
            guard (2...3).contains(hms.count), let h = Int(hms[0]), let m = Int(hms[1]),
                let s = hms.count == 3 ? Double(hms[2]) : 0, (0..<24).contains(h), (0..<60).contains(m),
                s >= 0, s < 61
            else { return nil }
            return calendar.instant(day: day, seconds: Double(h * 3600 + m * 60) + s)
        }
        guard let t = TimestampParser.parse(text) else { return nil }
        if t.hadNoZone {
            let utcDay = Int((t.secondsSinceEpoch / 86_400).rounded(.down))
            return calendar.instant(day: utcDay, seconds: t.secondsSinceEpoch - Double(utcDay) * 86_400)
        }
        return t.secondsSinceEpoch
    }
}

extension String {
    /// `2024/01/15` as `2024-01-15`.
    fileprivate func replacingSlashes() -> String { String(map { $0 == "/" ? "-" : $0 }) }
}
