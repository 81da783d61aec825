import Foundation
import RaceKitOutput

/// A printable pace band: an SVG strip sized in millimetres (cut it out and tape it
/// round the wrist), one row per split with the split time, the clock time to
/// see on the watch, the grade when there is a course, and the cues due in it.
public enum PaceBand {
    public static func svg(_ plan: RacePlan, unitName: String) -> String {
        let hasGrade = plan.splits.contains { $0.gradePercent != nil }
        // A power plan's watts after the clock; the grade and cues move right and the band widens.
        let hasPower = plan.power != nil
        let rowHeight = 6.0, header = 16.0, width = hasPower ? 79.0 : 70.0
        let rows = plan.splits
        let height = header + rowHeight * Double(rows.count) + 8
        var s = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(fmt(width))mm" height="\(fmt(height))mm" viewBox="0 0 \(fmt(width)) \(fmt(height))" font-family="DejaVu Sans, Arial, sans-serif">

            """
        s +=
            "<rect x=\"0.5\" y=\"0.5\" width=\"\(fmt(width - 1))\" height=\"\(fmt(height - 1))\" fill=\"white\" stroke=\"black\" stroke-width=\"0.3\" stroke-dasharray=\"1.5,1\"/>\n"
        s += text(3, 5.5, TextFormat.xmlEscape(String(plan.setup.name.prefix(34))), size: 3.6, weight: "bold")
        let strategy = describe(plan.setup.strategy)
        s += text(
            3, 10,
            TextFormat.xmlEscape(
                "\(TextFormat.fixed(plan.setup.distanceMeters / 1000, 3)) km in \(TextFormat.duration(plan.plannedSeconds)) · \(strategy)"
            ), size: 2.6)
        let shift = hasPower ? 9.0 : 0
        let gradeX = 48 + shift, cuesX = (hasGrade ? 50 : 39) + shift
        let columns: [(String, Double, String)] =
            [(unitName, 3, "start"), ("split", 20, "end"), ("clock", 36, "end")] + (hasPower ? [("W", 44, "end")] : [])
            + (hasGrade ? [("grade", gradeX, "end")] : []) + [("cues", cuesX, "start")]
        for (title, x, anchor) in columns { s += text(x, 14.5, title, size: 2.4, anchor: anchor, fill: "#555") }
        let cues = plan.cues.cues.filter { $0.kind != .aid }
        for (i, row) in rows.enumerated() {
            let y = header + Double(i) * rowHeight
            if i % 2 == 0 {
                s +=
                    "<rect x=\"1\" y=\"\(fmt(y))\" width=\"\(fmt(width - 2))\" height=\"\(fmt(rowHeight))\" fill=\"#eef2f7\"/>\n"
            }
            let base = y + rowHeight - 1.6
            let sp = row.split
            let label =
                sp.partial || (plan.setup.checkpointsMeters == nil && i == rows.count - 1)
                ? TextFormat.fixed(sp.endMeters / plan.unitMeters, 2)
                : (plan.setup.checkpointsMeters != nil
                    ? TextFormat.fixed(sp.endMeters / plan.unitMeters, 1) : String(sp.index))
            s += text(3, base, label, size: 3, weight: "bold")
            s += text(20, base, TextFormat.duration(Double(sp.splitSeconds)), size: 3, anchor: "end")
            s += text(
                36, base, TextFormat.duration(Double(sp.cumulativeSeconds)), size: 3.2, anchor: "end", weight: "bold")
            if hasPower, let w = row.powerWatts {
                // Four digits (a cyclist's 1,000 W) in a smaller size, clear of the clock.
                s += text(44, base, TextFormat.fixed(w, 0), size: w >= 999.5 ? 2.4 : 3, anchor: "end", weight: "bold")
            }
            if hasGrade, let g = row.gradePercent {
                let color = g > 1 ? "#b03a2e" : (g < -1 ? "#1e8449" : "#333")
                s += text(
                    gradeX, base, (g >= 0.05 ? "+" : "") + TextFormat.fixed(g, 1) + "%", size: 2.6, anchor: "end",
                    fill: color)
            }
            let due = cues.filter {
                $0.distanceMeters > sp.startMeters + 1e-6 && $0.distanceMeters <= sp.endMeters + 1e-6
            }
            let labels = due.map { c -> String in
                switch c.kind {
                case .gel: return "G\(c.number)"
                case .caffeine: return "G\(c.number)+C"
                case .drink: return "D"
                case .aid: return ""
                }
            }
            if !labels.isEmpty {
                s += text(cuesX, base, labels.joined(separator: " "), size: 2.6, fill: "#7d3c98")
            }
        }
        let foot = header + rowHeight * Double(rows.count) + 5
        s += text(3, foot, "G gel · C caffeine · D drink · clock = time on the watch", size: 2.2, fill: "#555")
        s += "</svg>\n"
        return s
    }

    static func describe(_ s: PacingStrategy) -> String {
        switch s {
        case .even: return "even"
        case .negative(let p): return "negative \(TextFormat.fixed(p, 1))%"
        case .positive(let p): return "positive \(TextFormat.fixed(p, 1))%"
        case .custom(let segments): return "custom (\(segments.count) segments)"
        case .power(let p): return p.targetWatts.map { "power \(TextFormat.fixed($0, 0)) W" } ?? "power"
        }
    }

    static func fmt(_ v: Double) -> String { TextFormat.fixed(v, 1) }

    static func text(
        _ x: Double, _ y: Double, _ content: String, size: Double, anchor: String = "start",
        weight: String = "normal", fill: String = "black"
    ) -> String {
        "<text x=\"\(fmt(x))\" y=\"\(fmt(y))\" font-size=\"\(fmt(size))\" text-anchor=\"\(anchor)\" font-weight=\"\(weight)\" fill=\"\(fill)\">\(content)</text>\n"
    }

}
