import RaceKitOutput
import RaceKitPlan

/// The review's SVG chart: the running gap to the plan over the course (above
/// zero: behind), the course profile below it, the stations (one label per
/// place: A aid station, D drink, G gel, C caffeine, e.g. "A D G" where a gel
/// is taken at an aid station), the stops and where the plan broke. Distances
/// are in the review's unit (`--unit`). Plain SVG 1.1.
///
/// Labels never overlap and never leave the canvas, by the text-width estimate
/// of `textWidth`: station labels are stacked in up to `maxLabelRows` rows
/// above the plot (a label that fits in none is left out, its dashed line and
/// tooltip stay), and "broke at" is drawn left of its line when it would run
/// off the right edge.
public enum ReviewChart {
    static func f(_ v: Double) -> String { TextFormat.fixed(v, 1) }

    /// Canvas width, margins and font size, in SVG pixels.
    public static let width = 760.0
    static let left = 64.0, right = 24.0, fontSize = 11.0
    /// Baseline of the title line; station label rows below it.
    static let titleBaseline = 16.0
    static let rowHeight = 15.0
    /// At most this many rows of station labels.
    public static let maxLabelRows = 3
    /// Cues this close (metres) are one station, with one label.
    public static let stationToleranceMeters = 25.0
    /// Horizontal room kept free between two labels, pixels.
    static let labelPadding = 9.0

    /// A round axis limit at or above `v` (1, 2, 5 × 10^n).
    static func nice(_ v: Double) -> Double {
        guard v.isFinite, v > 0 else { return 1 }
        var p = 1.0
        while p * 10 <= v { p *= 10 }
        while p > v { p /= 10 }
        for m in [1.0, 2, 5, 10] where m * p >= v { return m * p }
        return 10 * p
    }

    /// The width of `text` at `fontSize`, estimated for Helvetica/Arial (and
    /// wider fallbacks such as DejaVu Sans) by character class, on the generous side.
    public static func textWidth(_ text: String, fontSize: Double) -> Double {
        var em = 0.0
        for c in text {
            switch c {
            case "i", "j", "l", "t", "f", "r", ".", ",", ":", ";", "'", "!", "|", " ", "(", ")", "-", "I":
                em += 0.36
            case "m", "w", "M", "W", "%", "@": em += 0.92
            case _ where c.isUppercase: em += 0.74
            default: em += 0.62
            }
        }
        return em * fontSize
    }

    /// Cues at one place of the course.
    struct Station {
        var meters: Double
        var cues: [ReviewCue]

        /// "A D G": one letter per kind present, in the legend's order.
        var text: String {
            ReviewChart.kinds.filter { k in cues.contains { $0.kind == k.kind } }.map(\.letter)
                .joined(separator: " ")
        }
    }

    static let kinds: [(kind: Cue.Kind, letter: String, name: String)] = [
        (.aid, "A", "aid station"), (.drink, "D", "drink"), (.gel, "G", "gel"), (.caffeine, "C", "caffeine")
    ]

    /// The cues grouped by place (within `stationToleranceMeters` of the group's first).
    static func stations(_ cues: [ReviewCue]) -> [Station] {
        var out: [Station] = []
        for c in cues.sorted(by: { $0.plannedMeters < $1.plannedMeters }) {
            if let last = out.last, c.plannedMeters - last.meters <= stationToleranceMeters {
                out[out.count - 1].cues.append(c)
            } else {
                out.append(Station(meters: c.plannedMeters, cues: [c]))
            }
        }
        return out
    }

    /// Each station's label row (nil: no room in any row) and centre x, the
    /// centre kept so that the label stays inside the canvas.
    static func placeLabels(_ stations: [Station], x: (Double) -> Double) -> [(row: Int?, center: Double)] {
        var rowEnds = [Double](repeating: -Double.infinity, count: maxLabelRows)
        return stations.map { s in
            let w = textWidth(s.text, fontSize: fontSize)
            let center = min(max(x(s.meters), w / 2 + 2), width - w / 2 - 2)
            guard let row = rowEnds.indices.first(where: { rowEnds[$0] + labelPadding <= center - w / 2 }) else {
                return (nil, center)
            }
            rowEnds[row] = center + w / 2
            return (row, center)
        }
    }

    public static func render(_ v: RaceReview) -> String {
        let unit = v.plan.unitMeters, unitName = PlanOutput.unitName(unit)
        let stations = stations(v.cues)
        let race = v.plan.setup.distanceMeters
        let plotW = width - left - right
        let x = { (m: Double) in left + plotW * min(max(0, m / race), 1) }
        let placed = placeLabels(stations, x: x)
        let rows = max(1, (placed.compactMap(\.row).max() ?? 0) + 1)
        // The rows sit between the title and the plot, clear of the top tick label.
        let top = titleBaseline + 13 + rowHeight * Double(rows)
        let gapH = 200.0, gapTop = top, profTop = top + gapH + 28, profH = 80.0
        let height = profTop + profH + 36
        let gaps = v.gapTrace.map(\.seconds).filter(\.isFinite)
        let hi = nice(max(1, gaps.max() ?? 0)), lo = -nice(max(1, -(gaps.min() ?? 0)))
        let yGap = { (s: Double) in gapTop + gapH * (hi - min(max(s, lo), hi)) / (hi - lo) }
        var s = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" viewBox="0 0 \(Int(width)) \(Int(height))" font-family="Helvetica, Arial, sans-serif" font-size="\(Int(fontSize))">
            <title>\(TextFormat.xmlEscape(v.plan.setup.name)): gap to the plan over the distance</title>
            <rect x="0" y="0" width="\(Int(width))" height="\(Int(height))" fill="#ffffff"/>
            <text x="\(f(left))" y="\(f(titleBaseline))" fill="#333333">seconds behind the plan (below 0: ahead)</text>

            """
        let legend = kinds.filter { k in v.cues.contains { $0.kind == k.kind } }.map { "\($0.letter) \($0.name)" }
        if !legend.isEmpty {
            s +=
                "<text x=\"\(f(width - right))\" y=\"\(f(titleBaseline))\" text-anchor=\"end\" fill=\"#4c78a8\">\(legend.joined(separator: ", "))</text>\n"
        }
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
        s += axis(race: race, unit: unit, unitName: unitName, x: x, baseline: profTop + profH + 16)
        for (station, place) in zip(stations, placed) {
            s += label(station, place, unit: unit, unitName: unitName, x: x, gapTop: gapTop, bottom: profTop + profH)
        }
        if let m = v.brokeAtMeters {
            // The line, and its dot on the gap curve, at the same x.
            s +=
                "<line x1=\"\(f(x(m)))\" y1=\"\(f(gapTop))\" x2=\"\(f(x(m)))\" y2=\"\(f(gapTop + gapH))\" stroke=\"#e45756\" stroke-width=\"1.5\"/>\n"
                + "<circle cx=\"\(f(x(m)))\" cy=\"\(f(yGap(gap(v, at: m))))\" r=\"4\" fill=\"none\" stroke=\"#e45756\" stroke-width=\"2\"><title>broke at \(TextFormat.fixed(m / unit, 2)) \(unitName)</title></circle>\n"
            let text = "broke at \(TextFormat.fixed(m / unit, 1)) \(unitName)"
            // Right of the line, or left of it when it would leave the canvas.
            let fits = x(m) + 4 + textWidth(text, fontSize: fontSize) <= width - 2
            s +=
                "<text x=\"\(f(fits ? x(m) + 4 : x(m) - 4))\" y=\"\(f(gapTop + 12))\"\(fits ? "" : " text-anchor=\"end\"") fill=\"#e45756\">\(text)</text>\n"
        }
        let line = v.gapTrace.filter { $0.seconds.isFinite }.map { "\(f(x($0.meters))),\(f(yGap($0.seconds)))" }
        s +=
            "<polyline points=\"\(line.joined(separator: " "))\" fill=\"none\" stroke=\"#f58518\" stroke-width=\"2\"/>\n"
        for stop in v.stops {
            s +=
                "<circle cx=\"\(f(x(stop.atMeters)))\" cy=\"\(f(yGap(gap(v, at: stop.atMeters))))\" r=\"4\" fill=\"#e45756\"><title>stopped \(TextFormat.fixed(stop.seconds, 0)) s at \(TextFormat.fixed(stop.atMeters / unit, 2)) \(unitName)</title></circle>\n"
        }
        s += profile(v, x: x, top: profTop, height: profH)
        return s + "</svg>\n"
    }

    /// The gap curve at `m`, interpolated between its points as the polyline draws it.
    static func gap(_ v: RaceReview, at m: Double) -> Double {
        let trace = v.gapTrace.filter { $0.seconds.isFinite }
        guard let k = trace.firstIndex(where: { $0.meters >= m }) else { return trace.last?.seconds ?? 0 }
        guard k > 0, trace[k].meters > trace[k - 1].meters else { return trace[k].seconds }
        let (a, b) = (trace[k - 1], trace[k])
        return a.seconds + (b.seconds - a.seconds) * (m - a.meters) / (b.meters - a.meters)
    }

    /// Distance ticks under the profile, in the review's unit, and the unit's name.
    static func axis(race: Double, unit: Double, unitName: String, x: (Double) -> Double, baseline: Double) -> String {
        let units = race / unit
        let step = (units > 30 ? 5.0 : (units > 8 ? 2 : 1)) * unit
        var s = ""
        for m in stride(from: 0.0, through: race, by: step) {
            s +=
                "<text x=\"\(f(x(m)))\" y=\"\(f(baseline))\" text-anchor=\"middle\" fill=\"#333333\">\(TextFormat.fixed(m / unit, 0))</text>\n"
        }
        return s
            + "<text x=\"\(f(width - right))\" y=\"\(f(baseline + 14))\" text-anchor=\"end\" fill=\"#333333\">\(unitName)</text>\n"
    }

    /// A station's dashed line across both plots and its label (with every cue in its tooltip).
    static func label(
        _ station: Station, _ place: (row: Int?, center: Double), unit: Double, unitName: String,
        x: (Double) -> Double, gapTop: Double, bottom: Double
    ) -> String {
        let at = x(station.meters)
        let names = station.cues.map { "\($0.kind.rawValue) \($0.number)" }.joined(separator: ", ")
        let tooltip = "\(names) at \(TextFormat.fixed(station.meters / unit, 2)) \(unitName)"
        var s =
            "<line x1=\"\(f(at))\" y1=\"\(f(gapTop))\" x2=\"\(f(at))\" y2=\"\(f(bottom))\" stroke=\"#9ecae9\" stroke-dasharray=\"3,3\"><title>\(tooltip)</title></line>\n"
        if let row = place.row {
            s +=
                "<text x=\"\(f(place.center))\" y=\"\(f(gapTop - 9 - rowHeight * Double(row)))\" text-anchor=\"middle\" fill=\"#4c78a8\">\(station.text)<title>\(tooltip)</title></text>\n"
        }
        return s
    }

    static func profile(_ v: RaceReview, x: (Double) -> Double, top: Double, height: Double) -> String {
        guard let minE = v.profile.map(\.elevation).min(), let maxE = v.profile.map(\.elevation).max() else {
            return "<text x=\"\(f(left))\" y=\"\(f(top + height / 2))\" fill=\"#888888\">no elevation</text>\n"
        }
        let span = max(10, maxE - minE)
        let y = { (e: Double) in top + height - height * (e - minE) / span }
        var points = v.profile.map { "\(f(x($0.meters))),\(f(y($0.elevation)))" }
        points.append("\(f(x(v.profile.last!.meters))),\(f(top + height))")
        points.append("\(f(x(v.profile[0].meters))),\(f(top + height))")
        return
            "<text x=\"\(f(left))\" y=\"\(f(top - 6))\" fill=\"#333333\">\(Self.profileName(v)), \(TextFormat.fixed(minE, 0))-\(TextFormat.fixed(maxE, 0)) m</text>\n"
            + "<polygon points=\"\(points.joined(separator: " "))\" fill=\"#c7c7c7\" stroke=\"#7f7f7f\"/>\n"
    }

    /// "course profile" when the setup's course has elevation, else "elevation
    /// as recorded" (the run's own, smoothed: not the course's).
    static func profileName(_ v: RaceReview) -> String {
        v.plan.course?.hasElevation == true ? "course profile" : "elevation as recorded"
    }
}
