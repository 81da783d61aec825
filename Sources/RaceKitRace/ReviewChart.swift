import RaceKitCore

/// The review's SVG chart: the running gap to the plan over the course (above
/// zero: behind), the course profile below it, the cues (G gel, C caffeine,
/// D drink, A aid station), the stops and where the plan broke. Plain SVG 1.1.
public enum ReviewChart {
    static func f(_ v: Double) -> String { TextFormat.fixed(v, 1) }

    /// A round axis limit at or above `v` (1, 2, 5 × 10^n).
    static func nice(_ v: Double) -> Double {
        guard v.isFinite, v > 0 else { return 1 }
        var p = 1.0
        while p * 10 <= v { p *= 10 }
        while p > v { p /= 10 }
        for m in [1.0, 2, 5, 10] where m * p >= v { return m * p }
        return 10 * p
    }

    public static func render(_ v: RaceReview) -> String {
        let width = 760.0, left = 64.0, right = 24.0, top = 36.0
        let gapH = 200.0, gapTop = top, profTop = top + gapH + 28, profH = 80.0
        let height = profTop + profH + 36
        let plotW = width - left - right
        let race = v.plan.setup.distanceMeters
        let x = { (m: Double) in left + plotW * min(max(0, m / race), 1) }
        let gaps = v.gapTrace.map(\.seconds).filter(\.isFinite)
        let hi = nice(max(1, gaps.max() ?? 0)), lo = -nice(max(1, -(gaps.min() ?? 0)))
        let yGap = { (s: Double) in gapTop + gapH * (hi - min(max(s, lo), hi)) / (hi - lo) }
        var s = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" viewBox="0 0 \(Int(width)) \(Int(height))" font-family="Helvetica, Arial, sans-serif" font-size="11">
            <title>\(TextFormat.xmlEscape(v.plan.setup.name)): gap to the plan over the distance</title>
            <rect x="0" y="0" width="\(Int(width))" height="\(Int(height))" fill="#ffffff"/>
            <text x="\(f(left))" y="\(f(top - 16))" fill="#333333">seconds behind the plan (below 0: ahead)</text>

            """
        let tickStep = nice((hi - lo) / 5)
        for value in stride(from: (lo / tickStep).rounded(.up) * tickStep, through: hi + 1e-9, by: tickStep) {
            let y = yGap(value)
            s +=
                "<line x1=\"\(f(left))\" y1=\"\(f(y))\" x2=\"\(f(left + plotW))\" y2=\"\(f(y))\" stroke=\"#e5e5e5\"/>\n"
            s +=
                "<text x=\"\(f(left - 6))\" y=\"\(f(y + 4))\" text-anchor=\"end\" fill=\"#555555\">\(TextFormat.fixed(value, 0))</text>\n"
        }
        s +=
            "<line x1=\"\(f(left))\" y1=\"\(f(yGap(0)))\" x2=\"\(f(left + plotW))\" y2=\"\(f(yGap(0)))\" stroke=\"#888888\"/>\n"
        // Kilometre ticks under the profile.
        let step = race > 30_000 ? 5000.0 : (race > 8000 ? 2000 : 1000)
        for m in stride(from: 0.0, through: race, by: step) {
            s +=
                "<text x=\"\(f(x(m)))\" y=\"\(f(profTop + profH + 16))\" text-anchor=\"middle\" fill=\"#333333\">\(TextFormat.fixed(m / 1000, 0))</text>\n"
        }
        s +=
            "<text x=\"\(f(left + plotW))\" y=\"\(f(profTop + profH + 30))\" text-anchor=\"end\" fill=\"#333333\">km</text>\n"
        // Cues across both plots.
        for c in v.cues {
            let letter = ["gel": "G", "caffeine": "C", "drink": "D", "aid": "A"][c.kind.rawValue] ?? "?"
            s +=
                "<line x1=\"\(f(x(c.plannedMeters)))\" y1=\"\(f(gapTop))\" x2=\"\(f(x(c.plannedMeters)))\" y2=\"\(f(profTop + profH))\" stroke=\"#9ecae9\" stroke-dasharray=\"3,3\"/>\n"
            s +=
                "<text x=\"\(f(x(c.plannedMeters)))\" y=\"\(f(gapTop - 3))\" text-anchor=\"middle\" fill=\"#4c78a8\">\(letter)<title>\(c.kind.rawValue) \(c.number) at \(TextFormat.fixed(c.plannedMeters / 1000, 2)) km</title></text>\n"
        }
        if let m = v.brokeAtMeters {
            s +=
                "<line x1=\"\(f(x(m)))\" y1=\"\(f(gapTop))\" x2=\"\(f(x(m)))\" y2=\"\(f(gapTop + gapH))\" stroke=\"#e45756\" stroke-width=\"1.5\"/>\n"
            s +=
                "<text x=\"\(f(x(m) + 4))\" y=\"\(f(gapTop + 12))\" fill=\"#e45756\">broke at \(TextFormat.fixed(m / 1000, 1)) km</text>\n"
        }
        let line = v.gapTrace.filter { $0.seconds.isFinite }.map { "\(f(x($0.meters))),\(f(yGap($0.seconds)))" }
        s +=
            "<polyline points=\"\(line.joined(separator: " "))\" fill=\"none\" stroke=\"#f58518\" stroke-width=\"2\"/>\n"
        for stop in v.stops {
            let gap = v.gapTrace.last { $0.meters <= stop.atMeters }?.seconds ?? 0
            s +=
                "<circle cx=\"\(f(x(stop.atMeters)))\" cy=\"\(f(yGap(gap)))\" r=\"4\" fill=\"#e45756\"><title>stopped \(TextFormat.fixed(stop.seconds, 0)) s at \(TextFormat.fixed(stop.atMeters / 1000, 2)) km</title></circle>\n"
        }
        s += profile(v, x: x, top: profTop, height: profH, left: left)
        return s + "</svg>\n"
    }

    static func profile(_ v: RaceReview, x: (Double) -> Double, top: Double, height: Double, left: Double) -> String {
        guard let minE = v.profile.map(\.elevation).min(), let maxE = v.profile.map(\.elevation).max() else {
            return "<text x=\"\(f(left))\" y=\"\(f(top + height / 2))\" fill=\"#888888\">no elevation</text>\n"
        }
        let span = max(10, maxE - minE)
        let y = { (e: Double) in top + height - height * (e - minE) / span }
        var points = v.profile.map { "\(f(x($0.meters))),\(f(y($0.elevation)))" }
        points.append("\(f(x(v.profile.last!.meters))),\(f(top + height))")
        points.append("\(f(x(v.profile[0].meters))),\(f(top + height))")
        return
            "<text x=\"\(f(left))\" y=\"\(f(top - 6))\" fill=\"#333333\">course profile, \(TextFormat.fixed(minE, 0))-\(TextFormat.fixed(maxE, 0)) m</text>\n"
            + "<polygon points=\"\(points.joined(separator: " "))\" fill=\"#c7c7c7\" stroke=\"#7f7f7f\"/>\n"
    }
}
