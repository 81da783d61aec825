import Foundation
import Testing

@testable import RaceKitOutput
@testable import RaceKitPlan
@testable import RaceKitReview

/// The review chart's text boxes, estimated from font size and characters
/// independently of the chart's own layout: no two overlap, none leaves the canvas.
struct TextBox: CustomStringConvertible {
    var text: String
    var x0, x1, y0, y1: Double

    var description: String { "'\(text)' [\(Int(x0))...\(Int(x1))] x [\(Int(y0))...\(Int(y1))]" }

    func overlaps(_ o: TextBox) -> Bool { x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1 }

    /// Helvetica-like widths, rounded up: narrow punctuation and i/l/t, wide m/w, capitals.
    static func width(_ text: String, fontSize: Double) -> Double {
        text.reduce(0.0) { sum, c in
            let narrow: Set<Character> = ["i", "j", "l", "t", "f", "r", ".", ",", ":", " ", "(", ")", "-"]
            let em =
                narrow.contains(c)
                ? 0.34 : ("mwMW%".contains(c) ? 0.9 : (c.isUppercase ? 0.72 : 0.6))
            return sum + em * fontSize
        }
    }

    /// Every `<text>` of an SVG (its tooltip left out), and the canvas size.
    static func boxes(_ svg: String) throws -> (boxes: [TextBox], width: Double, height: Double) {
        func attribute(_ name: String, _ tag: Substring) -> String? {
            guard let r = tag.range(of: " \(name)=\"") else { return nil }
            return String(tag[r.upperBound...].prefix { $0 != "\"" })
        }
        let root = try #require(svg.range(of: "<svg ").map { svg[$0.lowerBound...].prefix { $0 != ">" } })
        let canvasWidth = try #require(attribute("width", root).flatMap(Double.init))
        let canvasHeight = try #require(attribute("height", root).flatMap(Double.init))
        let defaultSize = attribute("font-size", root).flatMap(Double.init) ?? 16
        var out: [TextBox] = []
        var rest = Substring(svg)
        while let open = rest.range(of: "<text ") {
            let tagEnd = try #require(rest[open.upperBound...].firstIndex(of: ">"))
            let tag = rest[open.lowerBound..<tagEnd]
            let close = try #require(rest[tagEnd...].range(of: "</text>"))
            var text = String(rest[rest.index(after: tagEnd)..<close.lowerBound])
            if let t = text.range(of: "<title>") { text = String(text[..<t.lowerBound]) }
            text = text.replacingOccurrences(of: "&amp;", with: "&").replacingOccurrences(of: "&lt;", with: "<")
            let size = attribute("font-size", tag).flatMap(Double.init) ?? defaultSize
            let x = try #require(attribute("x", tag).flatMap(Double.init))
            let y = try #require(attribute("y", tag).flatMap(Double.init))
            let w = Self.width(text, fontSize: size)
            let x0 =
                switch attribute("text-anchor", tag) {
                case "middle": x - w / 2
                case "end": x - w
                default: x
                }
            out.append(TextBox(text: text, x0: x0, x1: x0 + w, y0: y - 0.8 * size, y1: y + 0.25 * size))
            rest = rest[close.upperBound...]
        }
        return (out, canvasWidth, canvasHeight)
    }

    /// The problems of a chart: overlapping boxes and boxes off the canvas.
    static func problems(_ svg: String) throws -> [String] {
        let (boxes, width, height) = try Self.boxes(svg)
        var out: [String] = []
        for b in boxes where b.x0 < 0 || b.x1 > width || b.y0 < 0 || b.y1 > height {
            out.append("off the canvas (\(Int(width)) x \(Int(height))): \(b)")
        }
        for i in boxes.indices {
            for j in boxes.indices where j > i && boxes[i].overlaps(boxes[j]) {
                out.append("overlap: \(boxes[i]) and \(boxes[j])")
            }
        }
        return out
    }
}

/// A half marathon like the demo's: aid stations (with drinks) at 5, 10, 15
/// and 20 km, 40 g/h of carbs in 25 g gels from 0:30.
func demoLikePlan(unitMeters: Double = 1000, aidEvery: Double = 5000, gelCarbs: Double = 25, carbs: Double = 40)
    throws -> RacePlan
{
    var setup = RaceSetup(
        file: "Races/demo.yaml", name: "Demo Half", distanceText: "half", distanceMeters: 21_097.5,
        targetSeconds: 95 * 60)
    var hydration = HydrationSettings(mlPerHour: 400, sodiumMgPerHour: 300)
    hydration.aidStationsMeters = stride(from: aidEvery, to: 21_097.5, by: aidEvery).map { $0 }
    setup.hydration = hydration
    setup.fueling = FuelingSettings(carbsPerHourGrams: carbs, gelCarbsGrams: gelCarbs, startAfterSeconds: 1800)
    var warnings: [String] = []
    return try RacePlanner.plan(setup, course: nil, unitMeters: unitMeters, warnings: &warnings)
}

@Suite struct ReviewChartTests {
    /// The station labels of a chart (the blue texts but the legend), in order.
    static func stationLabels(_ svg: String) throws -> [String] {
        try TextBox.boxes(svg).boxes.map(\.text).filter { $0.allSatisfy { "ADGC ".contains($0) } }
    }

    @Test func theCommittedDemoReviewChartIsLegible() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Reports/reviews/munich-half-2026-review.svg")
        let svg = try String(contentsOf: url, encoding: .utf8)
        #expect(try TextBox.problems(svg) == [])
        // One label per station: the gels taken at the 5, 10 and 15 km aid stations share their labels.
        #expect(try Self.stationLabels(svg) == ["A D G", "A D G", "A D G", "A D"])
        // The Munich setup has no course: the profile is the run's own elevation, and says so.
        #expect(svg.contains(">elevation as recorded, ") && !svg.contains("course profile"))
    }

    @Test(arguments: [1000.0, 1609.344])
    func aBreakNearTheFinishStaysOnTheCanvas(unitMeters: Double) throws {
        let plan = try demoLikePlan(unitMeters: unitMeters)
        let r = try review(plan, plannedRun(plan, extra: { x in max(0, x - 19_000) / 1000 * 15 }))
        // At the first split boundary from 19 km: 19 km, or 12 mi (19.31 km).
        let at = try #require(r.brokeAtMeters)
        #expect(abs(at - (unitMeters == 1000 ? 19_000 : 12 * unitMeters)) < 0.01)
        let svg = ReviewChart.render(r)
        #expect(try TextBox.problems(svg) == [])
        let unit = unitMeters == 1000 ? "km" : "mi"
        let text = "broke at \(TextFormat.fixed(at / unitMeters, 1)) \(unit)"
        let broke = try #require(try TextBox.boxes(svg).boxes.first { $0.text == text })
        // Drawn left of its line, at 19 (or 19.31) km of 21.1 on a 672 px plot from x = 64.
        let line = 64 + 672 * at / 21_097.5
        #expect(broke.x1 <= line && broke.x1 > line - 10, "\(broke)")
        // Stations and ticks in the review's unit.
        #expect(
            svg.contains("<title>aid 1, drink 1, gel 1 at \(TextFormat.fixed(5000 / unitMeters, 2)) \(unit)</title>"))
        #expect(try TextBox.boxes(svg).boxes.contains { $0.text == unit })
    }

    @Test func oneLabelPerStationWhateverItHolds() throws {
        let plan = try demoLikePlan()
        let r = try review(plan, plannedRun(plan))
        let stations = Set(plan.cues.cues.map { ($0.distanceMeters * 10).rounded() / 10 })
        let labels = try Self.stationLabels(ReviewChart.render(r))
        #expect(labels.count == stations.count)
        #expect(labels.contains("A D G"))
    }

    /// Aid stations every 250 m and a 10 g gel every few minutes on a half:
    /// labels stack in rows, none overlaps, and one left without room keeps its line.
    @Test(arguments: [1000.0, 1609.344])
    func aCrowdedChartStacksItsLabelsWithoutOverlap(unitMeters: Double) throws {
        let plan = try demoLikePlan(unitMeters: unitMeters, aidEvery: 250, gelCarbs: 10, carbs: 90)
        let r = try review(plan, plannedRun(plan, extra: { x in max(0, x - 20_500) / 1000 * 40 }))
        let svg = ReviewChart.render(r)
        #expect(try TextBox.problems(svg) == [])
        let stations = ReviewChart.stations(r.cues)
        #expect(stations.count > 80)
        let labels = try Self.stationLabels(svg)
        let rows = Set(try TextBox.boxes(svg).boxes.filter { labels.contains($0.text) }.map(\.y1))
        #expect(rows.count == ReviewChart.maxLabelRows)
        #expect(labels.count > stations.count / 2)
        // Every station keeps its dashed line with every cue in its tooltip.
        #expect(svg.components(separatedBy: "stroke-dasharray=\"3,3\"").count - 1 == stations.count)
    }

    /// The demo's race as the tour saw it: a stop at the 15 km station, then
    /// 12 s/km slower to the finish. In miles the break was "14.5 km" at 9.0 mi
    /// (a mile split's start) with the stop's dot at 9.32 mi.
    static func stopThenSlower(unitMeters: Double) throws -> RaceReview {
        let plan = try demoLikePlan(unitMeters: unitMeters)
        return try review(
            plan, plannedRun(plan, extra: { x in max(0, x - 15_000) / 1000 * 12 }, stop: (15_000, 13)))
    }

    @Test(arguments: [1000.0, 1609.344])
    func theBreakIsWhereTheLossBeganInEitherUnitWithItsLineAndDotTogether(unitMeters: Double) throws {
        let r = try Self.stopThenSlower(unitMeters: unitMeters)
        let at = try #require(r.brokeAtMeters)
        #expect(abs(at - 15_000) <= 10, "\(at)")
        let svg = ReviewChart.render(r)
        #expect(try TextBox.problems(svg) == [])
        let line = try #require(svg.firstMatch(of: #/<line x1="([\d.]+)"[^>]*stroke="#e45756"/#))
        let dot = try #require(
            svg.firstMatch(of: #/<circle cx="([\d.]+)" cy="([\d.]+)"[^>]*stroke="#e45756"[^>]*><title>broke at/#))
        #expect(line.output.1 == dot.output.1, "line at \(line.output.1), dot at \(dot.output.1)")
        // The stop (at the same place) has its dot at the same x too, on the curve.
        let stop = try #require(
            svg.firstMatch(of: #/<circle cx="([\d.]+)" cy="([\d.]+)" r="4" fill="#e45756"><title>stopped/#))
        #expect(abs(Double(stop.output.1)! - Double(dot.output.1)!) < 2)
        let unit = unitMeters == 1000 ? "km" : "mi"
        #expect(svg.contains(">broke at \(TextFormat.fixed(at / unitMeters, 1)) \(unit)<"))
    }

    /// `race review --unit mi` said the break, the stops, the cues' places and
    /// the race script's conditions in kilometres.
    @Test func aReviewInMilesSaysEveryDistanceInMiles() throws {
        let r = try Self.stopThenSlower(unitMeters: 1609.344)
        let text = ReviewOutput.text(r) { h, rows, _ in
            ([h] + rows).map { $0.joined(separator: " ") }.joined(separator: "\n")
        }
        let markdown = ReviewOutput.markdown(r, chart: "c.svg")
        for out in [text, markdown] + r.verdict {
            #expect(!out.contains("km"), "\(out)")
        }
        #expect(text.contains("Where it broke: 9.3 mi"), "\(text)")
        #expect(text.contains("Stops: 13 s at 9.32 mi"), "\(text)")
        #expect(text.contains("mi on the watch, aligned on the course's 13.109 mi"), "\(text)")
        #expect(text.contains("cue mi planned reached late mi at planned clock seen"), "\(text)")
        #expect(r.verdict.contains { $0.hasPrefix("The plan broke at 9.3 mi: from there to the finish ") })
        #expect(r.verdict.contains("Stopped once, for 13 s at 9.3 mi."))
        // In kilometres, the same run says kilometres.
        let km = try Self.stopThenSlower(unitMeters: 1000)
        #expect(km.verdict.contains("Stopped once, for 13 s at 15.0 km."))
        #expect(km.verdict.contains { $0.hasPrefix("The plan broke at 15.0 km: ") })
    }

    @Test func textWidthsGrowWithTheText() {
        #expect(ReviewChart.textWidth("A D G", fontSize: 11) > ReviewChart.textWidth("A D", fontSize: 11))
        #expect(ReviewChart.textWidth("mmm", fontSize: 11) > ReviewChart.textWidth("iii", fontSize: 11))
        // Never below a narrow font's width: 0.5 em a character.
        #expect(ReviewChart.textWidth("broke at 19.0 km", fontSize: 11) >= 16 * 0.5 * 11)
    }
}
