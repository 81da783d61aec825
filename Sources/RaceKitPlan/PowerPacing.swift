import RaceKitMetrics
import RaceKitOutput

/// A power plan (`pacing: strategy: power`, docs/race-plans.md "Power plans"):
/// a constant running power, turned into pace by the athlete's watts per m/s of
/// flat running. Running power tracks the cost of running, so a constant power
/// over a course is its even-effort pace: on a climb the pace slows by the
/// grade's cost, and the time follows from the watts.
public struct PowerPacing: Sendable, Equatable {
    /// `pacing.watts` accepted: 50 to 1,500 W.
    public static let wattsRange: ClosedRange<Double> = 50...1500
    /// `pacing.cp_percent` accepted: 50% to 130% of critical power.
    public static let cpPercentRange: ClosedRange<Double> = 50...130
    /// `pacing.watts_per_mps` accepted: 20 to 300 W per m/s (about 1 J/kg/m for 20-300 kg).
    public static let wattsPerMpsRange: ClosedRange<Double> = 20...300

    public var target: PacingStrategy.PowerTarget
    /// The watts held.
    public var watts: Double
    public var wattsPerMps: Double
    /// The finish those watts give on this course (before any heat adjustment).
    public var seconds: Double
    /// The setup's `target_time`, which the plan's summary compares with `seconds`.
    public var targetTimeSeconds: Double

    /// The plan of `setup`'s power strategy over `cost`; a `SetupError` naming
    /// the key when the watts or their pace cannot be told.
    static func resolve(_ setup: RaceSetup, _ target: PacingStrategy.PowerTarget, cost: CostProfile) throws
        -> PowerPacing
    {
        func fail(_ key: String, _ message: String) -> SetupError {
            SetupError(kind: .invalid, file: setup.file, line: setup.pacingLine, key: key, message: message)
        }
        // Everything missing at once: the watts per m/s, and the critical power of a cp_percent.
        var missing: [String] = []
        if target.wattsPerMps == nil { missing.append("watts_per_mps (the athlete's watts per m/s of flat running)") }
        if target.targetWatts == nil { missing.append("critical_power_w (for cp_percent)") }
        guard let k = target.wattsPerMps, let watts = target.targetWatts else {
            throw fail(
                target.wattsPerMps == nil ? "pacing.watts_per_mps" : "pacing.critical_power_w",
                "a power plan needs \(missing.joined(separator: " and ")): give \(missing.count == 1 ? "it" : "them") "
                    + "in the setup; race plan, race script and race review take them from a store that holds the "
                    + "athlete's runs with power (and a critical power set or fitted); script simulate reads no store")
        }
        // Flat-equivalent metres over the flat speed the watts give.
        let seconds = cost.integrals(cost.length).f * k / watts
        return PowerPacing(
            target: target, watts: watts, wattsPerMps: k, seconds: seconds, targetTimeSeconds: setup.targetSeconds)
    }

    /// The watts of a stretch of `plan` from `a` to `b` metres: the flat speed
    /// its time gives over the stretch's flat-equivalent metres, times watts per m/s.
    static func watts(_ plan: PacePlan, cost: CostProfile, from a: Double, to b: Double, wattsPerMps k: Double)
        -> Double?
    {
        let t = plan.clockSeconds(at: b) - plan.clockSeconds(at: a)
        guard t > 0 else { return nil }
        return (cost.integrals(b).f - cost.integrals(a).f) / t * k
    }

    /// "262 W (92% of critical power 285 W from the setup; 77.3 W per m/s of flat running from ...)".
    public var description: String {
        var text = "\(TextFormat.fixed(watts, 0)) W"
        var parts: [String] = []
        if let p = target.cpPercent, let cp = target.criticalPowerWatts {
            parts.append(
                "\(TextFormat.plain(p))% of critical power \(TextFormat.fixed(cp, 0)) W"
                    + (target.criticalPowerSource.map { " from \($0)" } ?? ""))
        }
        parts.append(
            "\(TextFormat.fixed(wattsPerMps, 1)) W per m/s of flat running"
                + (target.wattsPerMpsSource.map { " from \($0)" } ?? ""))
        text += " (" + parts.joined(separator: "; ") + ")"
        return text
    }

    /// The plan's summary line: "Power: 262 W (...) gives 3:24:10 over this
    /// course, 5:50 faster than the target 3:30:00."
    static func line(_ p: PowerPacing, targetSeconds: Double, course: Bool, heat: Bool = false) -> String {
        let t = p.seconds.rounded()
        let diff = t - targetSeconds.rounded()
        let compared =
            diff == 0
            ? "the target exactly"
            : "\(TextFormat.duration(abs(diff))) \(diff < 0 ? "faster" : "slower") than the target \(TextFormat.duration(targetSeconds))"
        let cool = heat ? " on a cool day" : ""
        return
            "Power: \(p.description) gives \(TextFormat.duration(t))\(cool) \(course ? "over this course" : "on the flat"), \(compared)."
    }
}
