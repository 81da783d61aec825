import Foundation
import Testing

@testable import RaceKitFormats
@testable import RaceKitMetrics
@testable import RaceKitOutput

/// Grade-adjusted pace on the hilliest run of the shared corpus (a road race
/// in Atenas, 7.9 km, two climbs): the numbers docs/numbers.md compares with
/// Strava's published model.
@Suite struct GradeAdjustedPaceCorpusTests {
    static let file = "hillpace__2015-08-16_CarreraAtenasPlaya.tcx"

    @Test(.enabled(if: sharedCorpus != nil, "needs ../shared/corpus/public beside the repository"))
    func theHillyCorpusRaceGetsAFasterFlatPaceOnItsClimbs() throws {
        let a = try onlyActivity(try #require(sharedCorpus).appendingPathComponent(Self.file).path)
        let analysis = RunAnalyzer.analyse(a, physiology: Physiology())
        let minetti = try #require(GradeProfile(a.samples, model: .minetti))
        let road = try #require(GradeProfile(a.samples))
        var lines = ["km  pace  grade  GAP road  GAP minetti"]
        for s in analysis.splits(.km) {
            let pace = try #require(s.paceSecondsPerKm)
            let gap = try #require(s.gradeAdjustedPaceSecondsPerKm)
            let grade = try #require(road.gradePercent(from: s.startMeters, to: s.endMeters))
            let full = try #require(minetti.adjusted(pace, from: s.startMeters, to: s.endMeters))
            // Climbing makes the flat pace faster, descending slower; Minetti's
            // whole downhill saving makes it slower still.
            if grade > 0.3 { #expect(gap < pace) }
            if grade < -0.3 { #expect(full >= gap - 0.5) }
            lines.append(
                "\(s.index)  \(TextFormat.pace(pace))  \(TextFormat.fixed(grade, 1))%  \(TextFormat.pace(gap))  \(TextFormat.pace(full))"
            )
        }
        let pace = try #require(analysis.summary.movingSeconds) / (try #require(a.distanceMeters) / 1000)
        let whole = try #require(analysis.summary.gradeAdjustedPaceSecondsPerKm)
        let wholeMinetti = try #require(minetti.adjusted(pace, from: 0, to: minetti.length))
        lines.append(
            "run  \(TextFormat.pace(pace))  GAP road \(TextFormat.pace(whole))  minetti \(TextFormat.pace(wholeMinetti))"
        )
        // Over a course that ends where it started, climbs cost more than the
        // descents give back: the flat pace of equal effort is faster.
        #expect(whole < pace)
        #expect(whole <= wholeMinetti)
        print(lines.joined(separator: "\n"))
    }
}
