import RaceKitModel

extension TrackRepair {
    /// A step forward longer than this inside one activity is the device's clock
    /// jumping to another date (GPS time arriving, a reset), not a pause: no
    /// activity pauses a day. Backward, any step beyond `clockJumpBack`.
    public static let clockJumpForward = 86_400.0
    public static let clockJumpBack = 3_600.0

    /// Repairs clock jumps: the points between two jumps are a piece with one
    /// clock; the piece with the most points keeps its times and every other is
    /// moved (re-based) to continue from its neighbour, one typical step after
    /// it, with a segment break where it joins. Returns the new segment starts.
    static func rebaseClockJumps(_ s: inout SampleSeries, starts: [Int], report: inout RepairReport) -> [Int] {
        // Jumps between consecutive timed points.
        var cuts: [Int] = []
        var jumps: [Double] = []
        var previous: Int?
        var steps: [Double] = []
        for i in 0..<s.count where s.time[i].isFinite {
            if let p = previous {
                let dt = s.time[i] - s.time[p]
                if dt > clockJumpForward || dt < -clockJumpBack {
                    cuts.append(i)
                    jumps.append(dt)
                } else if dt > 0, dt <= 60, steps.count < 10_000 {
                    steps.append(dt)
                }
            }
            previous = i
        }
        guard !cuts.isEmpty, cuts.count <= 1000 else { return starts }
        steps.sort()
        let step = steps.isEmpty ? 1 : steps[steps.count / 2]
        let bounds = [0] + cuts + [s.count]
        let pieces = (0..<(bounds.count - 1)).map { bounds[$0]..<bounds[$0 + 1] }
        let anchor = pieces.indices.max { pieces[$0].count < pieces[$1].count } ?? 0
        var time = s.time
        defer { s.time = time }
        func firstTime(_ r: Range<Int>) -> Double? {
            for i in r where time[i].isFinite { return time[i] }
            return nil
        }
        func lastTime(_ r: Range<Int>) -> Double? {
            for i in r.reversed() where time[i].isFinite { return time[i] }
            return nil
        }
        func shift(_ r: Range<Int>, by d: Double) { for i in r where time[i].isFinite { time[i] += d } }
        // After the anchor: each piece starts one step after the one before.
        if anchor + 1 < pieces.count {
            for k in (anchor + 1)..<pieces.count {
                guard let end = lastTime(pieces[k - 1]), let first = firstTime(pieces[k]) else { continue }
                shift(pieces[k], by: end + step - first)
            }
        }
        // Before it: each piece ends one step before the one after.
        if anchor > 0 {
            for k in stride(from: anchor - 1, through: 0, by: -1) {
                guard let first = firstTime(pieces[k + 1]), let end = lastTime(pieces[k]) else { continue }
                shift(pieces[k], by: first - step - end)
            }
        }
        report.clockJumps = cuts.count
        report.clockJumpSeconds = jumps.map(abs).max() ?? 0
        report.rebasedPoints = pieces.enumerated().filter { $0.offset != anchor }.reduce(0) { $0 + $1.element.count }
        return Array(Set(starts + cuts)).sorted()
    }
}
