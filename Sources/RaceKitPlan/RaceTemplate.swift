import RaceKitOutput

/// The commented setup `racekit race new` writes: every key, with what it means
/// and its default, and fueling/hydration suited to the expected race time.
public enum RaceTemplate {
    public static func yaml(
        name: String, distance: String, distanceMeters: Double, targetSeconds: Double,
        athlete: String?, course: String?, date: String?, suggestion: String?
    ) -> String {
        func quote(_ s: String) -> String {
            "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        let long = targetSeconds >= 75 * 60
        // Every 5 km; a distance past the planner's range (which the loader then
        // refuses) must not make a list of billions of stations.
        let lastStationKm = min(distanceMeters, PacePlan.distanceRange.upperBound) / 1000 - 0.5
        let stations = stride(from: 5.0, through: lastStationKm, by: 5).map { TextFormat.fixed($0, 0) }
        var y = """
            # Race setup for racekit (see docs/race-plans.md in its repository). Plan it with:
            #   racekit race plan THIS_FILE [--unit km|mi] [--format table|md|csv|json] [--export band,tcx,gpx]
            # Every key is checked: a misspelt key or a wrong value is an error naming its line.

            name: \(quote(name))

            """
        y += date.map { "date: \($0)                 # YYYY-MM-DD\n" } ?? "# date: 2026-09-27           # YYYY-MM-DD\n"
        y += "# start_time: \"09:15\"         # local start; exported course times start here\n"
        y +=
            athlete.map { "athlete: \($0)\n" }
            ?? "# athlete: anna               # an athlete of the store (racekit athlete list)\n"
        y += "distance: \(quote(distance))        # 5k, 10k, half, marathon, \"42.195 km\", \"26.2 mi\" or metres\n"
        y += "target_time: \"\(TextFormat.duration(targetSeconds))\""
        y += suggestion.map { "   # \($0)\n" } ?? "     # h:mm:ss or mm:ss\n"
        y += """

            pacing:
              strategy: even              # even | negative | positive | custom
              # split_percent: 2          # negative/positive: second half this % faster/slower in clock time
              # segments:                 # custom: cover the whole race, each with a pace or an effort multiplier
              #   - {until: 10k, pace: "4:40/km"}
              #   - {until: 30k, effort: 1.0}
              #   - {until: finish, effort: 0.98}
              # grade_model: road         # road (default) | minetti | flat: how climbs and descents change pace
              # smoothing_m: 200          # elevation smoothing window over distance, metres

            """
        y +=
            course.map { "course: \(quote($0))     # GPX route or track, or TCX course; relative to this file\n" }
            ?? "# course: courses/my-race.gpx  # GPX route or track, or TCX course; relative to this file\n"
        y += "# checkpoints: [5k, 10k, half, 30k]   # split rows at these points instead of every km/mile\n\n"
        let fueling = """
            fueling:
              carbs_per_hour_g: 60        # guidance: 30-60 g/h for 1-2.5 h, up to 90 g/h beyond
              gel_carbs_g: 25
              start_after: "0:30:00"
              # stop_before_finish: "0:15:00"
              # snap_tolerance: "0:10:00"  # move a gel to an aid station this close in time (the default)
              # caffeine: {mg: 100, after: "1:30:00", every: "1:00:00"}

            """
        let hydration = """
            hydration:
              ml_per_hour: 500            # guidance: 400-800 ml/h, by thirst and sweat rate
              sodium_mg_per_hour: 400
              aid_stations_km: [\(stations.isEmpty ? TextFormat.fixed(distanceMeters / 2000, 1) : stations.joined(separator: ", "))]
              # every: "0:20:00"          # instead of aid stations: drink every N minutes

            """
        if long {
            y += fueling + hydration
        } else {
            y += "# Under 75 minutes no fuel is needed; uncomment to plan some anyway.\n"
            y +=
                (fueling + hydration).split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.isEmpty ? "" : "# " + $0 }.joined(separator: "\n") + "\n"
        }
        y += """
            script:
              personality: calm_coach     # calm_coach | roast_coach | drill_sergeant

            # notes: "Cobblestones at km 41"

            """
        return y
    }
}
