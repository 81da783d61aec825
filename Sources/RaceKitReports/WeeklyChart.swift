import Foundation
import RaceKitOutput

/// The SVG chart beside each Markdown report: weekly distance as bars (left
/// axis, km) with fitness and fatigue at each week's end as lines (right axis).
/// Plain SVG 1.1 (no scripts, no external fonts) so browsers and GitHub render it.
public enum WeeklyChart {
    public static func render(_ weeks: AthleteWeeks) -> String {
        let rows = weeks.rows
        let width = 760.0, height = 320.0
        let left = 56.0, right = 56.0, top = 40.0, bottom = 48.0
        let plotW = width - left - right, plotH = height - top - bottom
        // At least 4, so that an empty chart's gridlines are 0 1 2 3 4, not 0.3 and 0.8.
        let maxKm = niceCeiling(max(4, rows.map(\.distanceKm).max() ?? 4))
        let maxLoad = niceCeiling(max(4, rows.flatMap { [$0.fitnessEnd, $0.fatigueEnd] }.max() ?? 4))
        let slot = plotW / Double(max(1, rows.count))
        let f = { (v: Double) in TextFormat.fixed(v, 1) }
        var s = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" viewBox="0 0 \(Int(width)) \(Int(height))" font-family="Helvetica, Arial, sans-serif" font-size="11">
            <title>\(TextFormat.xmlEscape(weeks.athleteName)): weekly distance, fitness and fatigue, \(rows.first?.week.description ?? "") to \(rows.last?.week.description ?? "")</title>
            <rect x="0" y="0" width="\(Int(width))" height="\(Int(height))" fill="#ffffff"/>

            """
        // Grid and axes.
        for i in 0...4 {
            let y = top + plotH * Double(i) / 4
            s +=
                "<line x1=\"\(f(left))\" y1=\"\(f(y))\" x2=\"\(f(left + plotW))\" y2=\"\(f(y))\" stroke=\"#e5e5e5\"/>\n"
            s +=
                "<text x=\"\(f(left - 6))\" y=\"\(f(y + 4))\" text-anchor=\"end\" fill=\"#4c78a8\">\(tick(maxKm * Double(4 - i) / 4))</text>\n"
            s +=
                "<text x=\"\(f(left + plotW + 6))\" y=\"\(f(y + 4))\" fill=\"#555555\">\(tick(maxLoad * Double(4 - i) / 4))</text>\n"
        }
        s += "<text x=\"\(f(left - 6))\" y=\"\(f(top - 14))\" text-anchor=\"end\" fill=\"#4c78a8\">km</text>\n"
        s += "<text x=\"\(f(left + plotW + 6))\" y=\"\(f(top - 14))\" fill=\"#555555\">load/day</text>\n"
        // Bars.
        for (i, r) in rows.enumerated() {
            let h = plotH * r.distanceKm / maxKm
            let x = left + slot * Double(i) + slot * 0.15
            s +=
                "<rect x=\"\(f(x))\" y=\"\(f(top + plotH - h))\" width=\"\(f(slot * 0.7))\" height=\"\(f(h))\" fill=\"#4c78a8\" fill-opacity=\"0.75\"><title>\(r.week): \(TextFormat.fixed(r.distanceKm, 1)) km</title></rect>\n"
            let (_, number) = r.week.yearAndNumber
            s +=
                "<text x=\"\(f(left + slot * (Double(i) + 0.5)))\" y=\"\(f(top + plotH + 16))\" text-anchor=\"middle\" fill=\"#333333\">W\(TextFormat.two(number))</text>\n"
        }
        // Lines.
        for (name, color, value) in [
            ("fitness", "#f58518", { (r: WeekRow) in r.fitnessEnd }),
            ("fatigue", "#e45756", { (r: WeekRow) in r.fatigueEnd })
        ] {
            let points = rows.enumerated().map { i, r in
                "\(f(left + slot * (Double(i) + 0.5))),\(f(top + plotH - plotH * value(r) / maxLoad))"
            }.joined(separator: " ")
            s +=
                "<polyline points=\"\(points)\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"2.5\"><title>\(name)</title></polyline>\n"
        }
        // Legend.
        let ly = height - 12
        s +=
            "<rect x=\"\(f(left))\" y=\"\(f(ly - 9))\" width=\"12\" height=\"10\" fill=\"#4c78a8\" fill-opacity=\"0.75\"/><text x=\"\(f(left + 16))\" y=\"\(f(ly))\">distance (km)</text>\n"
        s +=
            "<line x1=\"\(f(left + 120))\" y1=\"\(f(ly - 4))\" x2=\"\(f(left + 140))\" y2=\"\(f(ly - 4))\" stroke=\"#f58518\" stroke-width=\"2.5\"/><text x=\"\(f(left + 144))\" y=\"\(f(ly))\">fitness (42-day)</text>\n"
        s +=
            "<line x1=\"\(f(left + 260))\" y1=\"\(f(ly - 4))\" x2=\"\(f(left + 280))\" y2=\"\(f(ly - 4))\" stroke=\"#e45756\" stroke-width=\"2.5\"/><text x=\"\(f(left + 284))\" y=\"\(f(ly))\">fatigue (7-day)</text>\n"
        s +=
            "<text x=\"\(f(left))\" y=\"18\" font-size=\"13\" font-weight=\"bold\">\(TextFormat.xmlEscape(weeks.athleteName)) · weekly distance, fitness and fatigue</text>\n"
        return s + "</svg>\n"
    }

    /// An axis label with as many decimals as the value needs (up to three):
    /// 12.5, 1.25, never a rounded 1.3.
    static func tick(_ v: Double) -> String {
        let digits =
            (0...3).first { d in
                let scale = pow(10.0, Double(d))
                return abs((v * scale).rounded() - v * scale) < 1e-6
            } ?? 3
        return TextFormat.fixed(v, digits)
    }

    /// 1, 2, 4 or 5 times a power of ten, at or above `v` (4: quarters stay whole).
    /// Not finite or not positive: 1 (an infinite value looped forever here).
    static func niceCeiling(_ v: Double) -> Double {
        guard v.isFinite, v > 0 else { return 1 }
        guard v < 1e300 else { return v }
        var p = 1.0
        while p * 10 <= v { p *= 10 }
        while p > v { p /= 10 }
        for m in [1.0, 2, 4, 5, 10] where m * p >= v { return m * p }
        return 10 * p
    }

}
