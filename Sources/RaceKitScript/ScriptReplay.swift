import Foundation
import RaceKitMetrics
import RaceKitModel
import RaceKitOutput

/// Replaying a race script: the metrics of a run that follows the plan
/// exactly, or of a recorded run, through the trigger engine; and the result as
/// `script simulate` reports it (docs/contracts/json.md, "Script simulations").
public enum ScriptReplay {
    /// A run exactly on the script's plan.
    public static func onPlan(_ script: RaceScript) -> [Metrics] {
        LiveMetrics.series(
            distances: LiveMetrics.onPlan(script.plan), hr: [], cadence: [], startEpoch: 0, plan: script.plan,
            zonesLowBpm: nil, timeZone: TimeZone(identifier: "UTC")!,
            paceSmoothingSeconds: script.engine.paceSmoothingSeconds)
    }

    /// A recorded distance within this share of the race's is the race, its
    /// watch distance scaled to the course (as `race review` aligns a run).
    public static let alignmentTolerance = 0.10

    /// The samples with the watch's distance scaled to the course when the
    /// recording is within `alignmentTolerance` of the race distance: the
    /// finish is where the recording's distance ends, so a replay and a review
    /// of one run finish at the same time.
    public static func alignedToCourse(_ samples: SampleSeries, raceMeters: Double) -> SampleSeries {
        guard !samples.distance.isEmpty, raceMeters > 0,
            let recorded = samples.distance.lazy.filter({ $0.isFinite }).max(), recorded > 0,
            abs(recorded / raceMeters - 1) <= alignmentTolerance
        else { return samples }
        var s = samples
        let scale = raceMeters / recorded
        s.modify(.distance) { d in for i in d.indices { d[i] = d[i] == recorded ? raceMeters : d[i] * scale } }
        return s
    }

    /// A recorded run, aligned to the course (`alignedToCourse`). `hr_zone` is
    /// 1-5 of max HR (docs/contracts/script.md, "Expressions"), from the athlete's physiology (values
    /// estimated from their history where not set, as the analysis does); the
    /// time of day is the athlete's.
    public static func recorded(
        _ samples: SampleSeries, startEpoch: Double, script: RaceScript, physiology: Physiology?,
        timeZone: TimeZone
    ) -> [Metrics] {
        let zones = physiology.flatMap { HeartRateZones.zones(.hrmax5, physiology: $0) }?.map(\.lowBpm)
        return LiveMetrics.series(
            alignedToCourse(samples, raceMeters: script.plan.distanceMeters), startEpoch: startEpoch,
            plan: script.plan, zonesLowBpm: zones, timeZone: timeZone,
            paceSmoothingSeconds: script.engine.paceSmoothingSeconds)
    }

    /// The replay's result with the count of messages not played per reason.
    public struct Report: Encodable, Sendable {
        public struct Played: Encodable, Sendable {
            public var elapsedSeconds: Int
            public var distanceMeters: Double
            public var messageId: String
            public var triggerType: String
            @Null public var branchKey: String?
            public var priority: Int
            public var text: String
        }

        public struct NotPlayed: Encodable, Sendable {
            public var messageId: String
            public var reason: String
        }

        /// Counts of messages (`played` + `notPlayed` = `messages`); `plays` counts
        /// every time a message was said (a repeatable one may play more than once).
        public struct Summary: Encodable, Sendable {
            public var messages: Int
            public var played: Int
            public var plays: Int
            public var notPlayed: Int
            public var droppedStale: Int
            public var seconds: Int
            /// Every reason, zero included.
            public var reasons: [String: Int]
        }

        public var played: [Played]
        public var notPlayed: [NotPlayed]
        public var summary: Summary

        public init(_ result: SimulationResult) {
            played = result.played.map { p in
                Played(
                    elapsedSeconds: p.elapsedSeconds, distanceMeters: TextFormat.rounded(p.distanceMeters, 1),
                    messageId: p.messageId,
                    triggerType: p.triggerType.rawValue, branchKey: p.branchKey, priority: p.priority, text: p.text)
            }
            notPlayed = result.notPlayed.map { NotPlayed(messageId: $0.messageId, reason: $0.reason.rawValue) }
            var reasons = Dictionary(uniqueKeysWithValues: NotPlayedReason.allCases.map { ($0.rawValue, 0) })
            for n in result.notPlayed { reasons[n.reason.rawValue, default: 0] += 1 }
            summary = Summary(
                messages: result.messages, played: Set(result.played.map(\.messageId)).count,
                plays: result.played.count, notPlayed: result.notPlayed.count,
                droppedStale: result.droppedStale, seconds: result.seconds, reasons: reasons)
        }

        /// "12 of 40 messages played (13 plays); 3 window, 25 branch_not_taken":
        /// reasons in their declared order, those that occurred.
        public var summaryLine: String {
            "\(summary.played) of \(summary.messages) messages played (\(summary.plays) plays); "
                + NotPlayedReason.allCases.compactMap { r in
                    summary.reasons[r.rawValue].flatMap { $0 > 0 ? "\($0) \(r.rawValue)" : nil }
                }.joined(separator: ", ")
        }
    }
}
