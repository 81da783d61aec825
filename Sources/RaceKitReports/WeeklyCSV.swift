import RaceKitOutput

/// The weekly CSV (`CSV`: RFC 4180, CRLF line ends), snake_case headers with
/// units, empty for unknown, one row per athlete and week.
public enum WeeklyCSV {
    public static func header(zoneNames: [String]) -> [String] {
        [
            "athlete", "iso_week", "week_start", "runs", "distance_km", "moving_time_s", "elapsed_time_s",
            "elev_gain_m",
            "longest_run_km", "avg_pace_s_per_km", "avg_hr_bpm", "hr_coverage_pct", "load", "runs_without_load",
            "power_stress", "runs_with_power_stress"
        ]
            + zoneNames.map { "hr_zone_\($0)_s" }
            + [
                "fitness_end", "fatigue_end", "form_end", "ramp_7d", "monotony", "strain", "distance_change_pct",
                "load_change_pct", "acwr", "fitness_warmup"
            ] + WeeklyWellness.csvHeader
    }

    /// The athlete's weeks as CSV (`CSV`: RFC 4180, CRLF records).
    public static func render(_ weeks: AthleteWeeks) -> String {
        func f(_ v: Double?, _ digits: Int) -> CSV.Cell { .number(v, digits: digits) }
        return CSV.document(
            header: header(zoneNames: weeks.zoneNames),
            rows: weeks.rows.map { r in
                [
                    .text(r.athlete), .text(r.week.description), .text(ISOWeek.dateString(r.week.monday)),
                    .integer(r.runs), f(r.distanceKm, 3), f(r.movingSeconds, 0), f(r.elapsedSeconds, 0),
                    f(r.elevationGainMeters, 1), f(r.longestRunKm, 3), f(r.avgPaceSecondsPerKm, 1),
                    f(r.avgHeartRate, 1), f(r.heartRateCoveragePercent, 1), f(r.load, 1), .integer(r.runsWithoutLoad),
                    f(r.powerStress, 1), .integer(r.runsWithPowerStress)
                ]
                    + r.zoneSeconds.map { f($0, 0) }
                    + [
                        f(r.fitnessEnd, 2), f(r.fatigueEnd, 2), f(r.formEnd, 2), f(r.ramp7d, 2), f(r.monotony, 3),
                        f(r.strain, 1), f(r.distanceChangePercent, 1), f(r.loadChangePercent, 1), f(r.acwr, 3),
                        .bool(r.fitnessWarmup)
                    ] + WeeklyWellness.csvCells(r.wellness)
            })
    }
}
