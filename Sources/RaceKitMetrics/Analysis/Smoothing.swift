/// The elevation smoothing shared by race plans (`CourseProfile` in RaceKitPlan) and
/// grade-adjusted pace, so that both see the same hills.
public enum Smoothing {
    /// Centered moving average of ±half samples, the window shrinking at the ends.
    public static func movingAverage(_ v: [Double], half: Int) -> [Double] {
        guard half > 0, v.count > 2 else { return v }
        var prefix = [Double](repeating: 0, count: v.count + 1)
        for i in 0..<v.count { prefix[i + 1] = prefix[i] + v[i] }
        var out = v
        for i in 0..<v.count {
            let lo = max(0, i - half), hi = min(v.count - 1, i + half)
            out[i] = (prefix[hi + 1] - prefix[lo]) / Double(hi - lo + 1)
        }
        return out
    }
}
