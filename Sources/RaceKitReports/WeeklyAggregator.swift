import Foundation

/// Turns an athlete's runs into weekly rows.
///
/// Columns (docs/weekly-reports.md): sums over the week's runs; average pace
/// = moving time / distance over runs with both; average HR weighted by moving
/// time (elapsed when unknown) over runs with HR; HR coverage = HR-covered time /
/// elapsed time; load = sum of run loads (runs without one are counted apart);
/// fitness, fatigue and form at the week's Sunday; ramp = fitness change over the
/// week; monotony (Foster 1998) = mean / standard deviation of the 7 daily loads;
/// strain = weekly load × monotony; week-over-week changes in percent; ACWR =
/// mean daily load of the last 7 days / of the last 28 days.
public enum WeeklyAggregator {
    /// `earlierBest`: the fastest effort per distance of runs older than those
    /// that carry their efforts (the store's one row a distance), merged into the
    /// records before the report week.
    public static func weeks(
        athleteID: String, athleteName: String, timeZone: String, zoneNames: [String],
        runs: [ReportRun], through last: ISOWeek, count: Int, earlierBest: [Double: Double] = [:]
    ) -> AthleteWeeks {
        let first = last.adding(weeks: -(count - 1))
        var loads: [Int: Double] = [:]
        var byWeek: [ISOWeek: [ReportRun]] = [:]
        for run in runs {
            if let l = run.load { loads[run.day, default: 0] += l }
            let w = ISOWeek(containing: run.day)
            // One week more than shown: the first row's week-over-week change.
            if w >= first.adding(weeks: -1), w <= last { byWeek[w, default: []].append(run) }
        }
        let historyStart = runs.map(\.day).min() ?? first.monday
        let dayFrom = min(historyStart, first.adding(weeks: -5).monday)
        let series = LoadModel.days(loads: loads, first: dayFrom, last: last.sunday)
        var days: [Int: LoadDay] = [:]
        for (i, d) in series.enumerated() { days[dayFrom + i] = d }

        var rows: [WeekRow] = []
        var previous = row(
            athleteID: athleteID, week: first.adding(weeks: -1), runs: byWeek[first.adding(weeks: -1)] ?? [],
            zoneNames: zoneNames, days: days, historyStart: historyStart, previous: nil)
        for k in 0..<count {
            let week = first.adding(weeks: k)
            let r = row(
                athleteID: athleteID, week: week, runs: byWeek[week] ?? [], zoneNames: zoneNames, days: days,
                historyStart: historyStart, previous: previous)
            rows.append(r)
            previous = r
        }
        // Best efforts before the report week, per distance (to spot records).
        var priorBest = earlierBest
        for run in runs where run.day < last.monday {
            for e in run.bestEfforts {
                priorBest[e.distanceMeters] = min(priorBest[e.distanceMeters] ?? .infinity, e.elapsedSeconds)
            }
        }
        return AthleteWeeks(
            athleteID: athleteID, athleteName: athleteName, timeZone: timeZone, zoneNames: zoneNames,
            rows: rows, runsByWeek: byWeek, priorBest: priorBest, days: days)
    }

    static func row(
        athleteID: String, week: ISOWeek, runs: [ReportRun], zoneNames: [String], days: [Int: LoadDay],
        historyStart: Int, previous: WeekRow?
    ) -> WeekRow {
        var distance = 0.0, moving = 0.0, elapsed = 0.0, gain = 0.0, longest = 0.0, longestTraining = 0.0, load = 0.0
        var paceTime = 0.0, paceDistance = 0.0, hrSum = 0.0, hrWeight = 0.0, hrCovered = 0.0
        var withoutLoad = 0
        var powerStress: Double?, withPowerStress = 0
        var zones = [Double](repeating: 0, count: zoneNames.count)
        for r in runs {
            let d = r.distanceMeters ?? 0
            distance += d
            moving += r.movingSeconds ?? r.elapsedSeconds
            elapsed += r.elapsedSeconds
            gain += r.ascentMeters ?? 0
            longest = max(longest, d)
            if r.mode != .race { longestTraining = max(longestTraining, d) }
            if let l = r.load { load += l } else { withoutLoad += 1 }
            if let p = r.powerStress {
                powerStress = (powerStress ?? 0) + p
                withPowerStress += 1
            }
            if let m = r.movingSeconds, d > 0 { paceTime += m; paceDistance += d }
            if let hr = r.avgHeartRate {
                let w = r.movingSeconds ?? r.elapsedSeconds
                hrSum += hr * w; hrWeight += w
                hrCovered += r.elapsedSeconds * (r.heartRateCoveragePercent ?? 100) / 100
            }
            for (i, name) in zoneNames.enumerated() { zones[i] += r.zoneSeconds[name] ?? 0 }
        }
        let end = days[week.sunday] ?? LoadDay(load: 0, fitness: 0, fatigue: 0, form: 0)
        let weekAgo = days[week.sunday - 7]
        let dailyLoads = (0..<7).map { days[week.monday + $0]?.load ?? 0 }
        let mean = dailyLoads.reduce(0, +) / 7
        let sd = (dailyLoads.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / 7).squareRoot()
        let monotony: Double? = sd > 0 ? mean / sd : nil
        let acute = (0..<7).reduce(0.0) { $0 + (days[week.sunday - $1]?.load ?? 0) } / 7
        let chronic = (0..<28).reduce(0.0) { $0 + (days[week.sunday - $1]?.load ?? 0) } / 28
        let historyDays = week.sunday - historyStart + 1
        func change(_ now: Double, _ before: Double?) -> Double? {
            guard let before, before > 0 else { return nil }
            return (now - before) / before * 100
        }
        var row = WeekRow(
            athlete: athleteID, week: week, runs: runs.count, distanceKm: distance / 1000, movingSeconds: moving,
            elapsedSeconds: elapsed, elevationGainMeters: gain, longestRunKm: longest / 1000,
            longestTrainingRunKm: longestTraining / 1000,
            avgPaceSecondsPerKm: paceDistance > 0 ? paceTime / (paceDistance / 1000) : nil,
            avgHeartRate: hrWeight > 0 ? hrSum / hrWeight : nil,
            heartRateCoveragePercent: elapsed > 0 && hrWeight > 0 ? min(100, hrCovered / elapsed * 100) : nil,
            load: load, runsWithoutLoad: withoutLoad, zoneSeconds: zones,
            fitnessEnd: end.fitness, fatigueEnd: end.fatigue, formEnd: end.form,
            ramp7d: end.fitness - (weekAgo?.fitness ?? 0), monotony: monotony, strain: monotony.map { load * $0 },
            distanceChangePercent: change(distance / 1000, previous?.distanceKm),
            loadChangePercent: change(load, previous?.load),
            acwr: chronic > 0 && historyDays >= LoadModel.chronicDays ? acute / chronic : nil,
            fitnessWarmup: historyDays < LoadModel.warmupDays, historyDays: historyDays)
        row.powerStress = powerStress
        row.runsWithPowerStress = withPowerStress
        return row
    }
}
