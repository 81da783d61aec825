import RaceKitMetrics
import RaceKitOutput
import RaceKitScript

extension ScriptGenerator.Generation {
    /// The heat cue (docs/scripts.md, "Heat"): where the setup's forecast is
    /// above the optimum of Mantzios 2022 (WBGT 15 °C) during the race, one
    /// message at the clock time it first is (the air is warm at a time, wherever
    /// the runner is), saying what the forecast says and what to do: hold the
    /// effort, drink early. Nothing on a cool day or without `weather:`.
    mutating func heat() {
        guard let w = plan.setup.weather, let heat = plan.heat else { return }
        let start = plan.setup.startSecondsOfDay ?? 0
        let limit = Heat.mantziosOptimum.upperBound
        let finish = plan.plannedSeconds
        var clock = 0.0
        while clock < finish, w.wbgt(atSecondsOfDay: start + clock) <= limit { clock += 60 }
        // Not in the last tenth of the race: too late to change how one drinks.
        guard clock < finish * 0.9 else { return }
        let wbgt = TextFormat.fixed(w.wbgt(atSecondsOfDay: start + clock), 0)
        let opening = clock == 0 ? "It is warm today" : "It is getting warm"
        let plan =
            heat.adjust == .plan && heat.percent >= 0.05
            ? "the plan is already slowed for it, \(TextFormat.fixed(heat.percent, 1)) percent"
            : "the plan keeps its pace, so judge by effort"
        let text =
            "\(opening): the forecast gives a wet bulb globe temperature of \(wbgt) degrees. "
            + "\(plan.prefix(1).uppercased())\(plan.dropFirst()). Hold the effort, not the pace, and drink early."
        messages.append(
            ScriptMessage(
                id: id("heat"), trigger: Trigger(type: .time, atSeconds: max(clock, ScriptGenerator.heatCueEarliest)),
                text: text, priority: ScriptGenerator.Priority.branch))
    }
}

extension ScriptGenerator {
    /// The heat cue comes no sooner than this after the start (the start message first), seconds.
    static let heatCueEarliest = 120.0
}
