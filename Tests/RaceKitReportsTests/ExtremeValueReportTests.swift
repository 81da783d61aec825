import Foundation
import Testing

@testable import RaceKitMetrics
@testable import RaceKitModel
@testable import RaceKitOutput
@testable import RaceKitReports

/// Every weekly renderer (CSV, Markdown, SVG) over runs whose stored figures are
/// extreme or non-finite: clean text, never a trap (issue: numbers you can trust).
@Suite struct ExtremeValueReportTests {
    static let extremes: [Double] = [
        0, -1, 1e-300, 1e300, -1e300, .nan, .infinity, -.infinity,
        Double(Int.max), .greatestFiniteMagnitude, 4.9e-324
    ]

    @Test(arguments: extremes)
    func renderersTakeAnyStoredFigure(_ v: Double) {
        let day = w46.monday + 2
        let runs = [
            ReportRun(
                id: "A", startedAt: Double(day) * 86_400, day: day, label: "Race", mode: .race, distanceMeters: v,
                movingSeconds: v, elapsedSeconds: v, ascentMeters: v, avgHeartRate: v, heartRateCoveragePercent: v,
                load: v, zoneSeconds: ["1": v, "2": 60],
                bestEfforts: [BestEffort(distanceMeters: 5000, elapsedSeconds: v, startOffsetSeconds: v)]),
            reportRun(day: day + 1, km: 10, minutes: 50, load: 80),
            reportRun(day: day - 7, km: 8, minutes: 40, load: 60)
        ]
        let weeks = WeeklyAggregator.weeks(
            athleteID: "a", athleteName: "A", timeZone: "UTC", zoneNames: ["1", "2", "3", "4", "5"],
            runs: runs, through: w46, count: 4)
        let csv = WeeklyCSV.render(weeks)
        let markdown = WeeklyMarkdown.render(weeks, chartFile: "chart.svg")
        let svg = WeeklyChart.render(weeks)
        #expect(csv.split(separator: "\r\n").count == 5)
        #expect(!csv.contains("nan") && !csv.contains("inf"))
        #expect(markdown.contains("2026-W46"))
        #expect(!markdown.lowercased().contains("nan") && !markdown.contains("inf"))
        #expect(svg.hasPrefix("<svg") && svg.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix("</svg>"))
        #expect(!svg.contains("nan") && !svg.contains("inf"))
        #expect(WeeklyMarkdown.sparkline([1, v, 3]).count == 3)
    }

    @Test(arguments: extremes)
    func textFormatIsTotal(_ v: Double) {
        let unknown = TextFormat.unknown
        for digits in [0, 1, 3, 9] { #expect((TextFormat.fixed(v, digits) == unknown) == !v.isFinite) }
        #expect(v.isFinite || TextFormat.duration(v) == unknown)
        #expect(v.isFinite && v > 0 && v < 1e9 ? TextFormat.pace(v).contains(":") : TextFormat.pace(v) == unknown)
        #expect(abs(v) < 1e13 ? TimestampParser.format(v).hasSuffix("Z") : TimestampParser.format(v) == unknown)
        let out = try? JSONOutput.canonical([Null(wrappedValue: v)])
        #expect(v.isFinite ? out != "[null]" && out != nil : out == "[null]")
    }
}
