import Foundation
import RaceKitTestSupport
import Testing

@testable import RaceKitFormats
@testable import RaceKitMetrics
@testable import RaceKitModel

/// The hand-written export beside these tests: both shapes of the file, Apple's
/// malformed iOS 16 DTD, a stray `\x0b`, a treadmill run, a ride, two hostile workouts.
private func fixtureExport() throws -> (AppleHealthExport, String) {
    let path = try fixture("apple-health/export.xml")
    return (try AppleHealthReader.read(path: path), path)
}

private func read(_ text: String, name: String = "export.xml") throws -> AppleHealthExport {
    try AppleHealthReader.read(MemoryByteStream(name: name, bytes: Array(text.utf8)))
}

private func repaired(_ outcome: HealthWorkoutOutcome) throws -> Activity {
    guard case .activity(let built) = outcome else {
        Issue.record("expected an activity, got \(outcome)")
        throw CancellationError()
    }
    guard case .activity(var activity) = TrackRepair.repair(built.raw, format: .health) else {
        Issue.record("the repair step refused the workout")
        throw CancellationError()
    }
    if let indoor = built.indoor { activity.isIndoor = indoor }
    return activity
}

private let noRoutes: HealthRouteResolver = { _ in nil }

@Suite struct AppleHealthReaderTests {
    @Test func readsEveryWorkoutAndTheRecordsDespiteTheMalformedDTDAndAVerticalTab() throws {
        let (export, _) = try fixtureExport()
        #expect(
            export.workouts.map(\.activityType) == ["Running", "Running", "Running", "Cycling", "Running", "Running"])
        // 41 + 1 + 30 + 1 + 5 good heart-rate records; 900 bpm and 29 February left out.
        #expect(export.heartRateCount == 78)
        #expect(export.issues.badValue == 1)
        #expect(export.issues.badDate == 1)
        #expect(export.issues.replacedBytes == 1)
        #expect(export.distanceCount == 6)
        #expect(export.workouts[0].metadata.contains(HealthMetadata(key: "HKWeatherHumidity", value: "6500 % ")))
    }

    @Test func theWorkoutsEnergyIsItsTotalOrItsActiveEnergyStatistic() throws {
        let (export, _) = try fixtureExport()
        // Before iOS 16: totalEnergyBurned; since: the ActiveEnergyBurned statistic.
        #expect(export.workouts[0].energyKcal == 400)
        #expect(export.workouts.contains { $0.energyKcal == 420 })
        let workout = { (energy: String) in
            """
            <HealthData><Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min" \
            \(energy) sourceName="W" startDate="2024-01-16 07:00:00 +0100" endDate="2024-01-16 07:30:00 +0100"/></HealthData>
            """
        }
        let kj = try read(workout("totalEnergyBurned=\"1046\" totalEnergyBurnedUnit=\"kJ\""))
        #expect(abs(try #require(kj.workouts[0].energyKcal) - 250) < 0.01)
        #expect(kj.workouts[0].problem == nil)
        // A unit RaceKit does not know loses the energy, not the workout.
        let odd = try read(workout("totalEnergyBurned=\"3\" totalEnergyBurnedUnit=\"furlongs\""))
        #expect(odd.workouts[0].energyKcal == nil && odd.workouts[0].problem == nil)
        #expect(odd.workouts[0].energyNote == "unknown totalEnergyBurned unit \"furlongs\" (left out)")
    }

    @Test func readsTheShapeBeforeIOS16MilesAndInlineLocations() throws {
        let (export, _) = try fixtureExport()
        let w = export.workouts[0]
        #expect(w.start == 1_561_957_200)
        #expect(w.end == Int64(1_561_959_000))
        #expect(w.durationSeconds == 1800)
        #expect(abs(w.distanceMeters! - 3.73 * 1609.344) < 0.001)
        #expect(w.indoor == false)
        #expect(w.locations.count == 31)
        #expect(w.sourceName == "Mia’s Apple Watch")

        let activity = try repaired(export.activity(of: 0, route: noRoutes))
        #expect(activity.sport == .running)
        #expect(activity.samples.count == 31)
        // The route's 30 steps of 200.15 m, spread over the workout's own 3.73 mi
        // (the device distance wins, issue 36).
        #expect(activity.distanceSource == .device)
        #expect(abs(activity.distanceMeters! - 3.73 * 1609.344) < 0.01)
        #expect(abs(activity.samples.distance[30] - 3.73 * 1609.344) < 0.01)
        #expect(activity.samples.latitude[30] == 48.154)
        #expect(activity.samples.elevation[0] == 520.5)
        #expect(activity.isIndoor == false)
    }

    @Test func attachesHeartRateOnlyFromRecordsInsideTheWorkoutsInterval() throws {
        let (export, _) = try fixtureExport()
        let activity = try repaired(export.activity(of: 0, route: noRoutes))
        let hr = activity.samples.heartRate
        #expect(hr[0] == 130)   // 07:00:00, not the 70 bpm record of 06:55
        #expect(hr[10] == 140)
        #expect(hr[29] == 159)
        // 07:30:00 is the end: the 99 bpm record at 07:30:04 lies outside the workout.
        #expect(hr[30].isNaN)
        #expect(!hr.contains(99) && !hr.contains(70))
    }

    @Test func readsTheIOS16ShapeStatisticsPausesAndTheRouteFile() throws {
        let (export, path) = try fixtureExport()
        let w = export.workouts[1]
        #expect(w.distanceMeters == 7000)
        #expect(w.routeFiles == ["/workout-routes/route_2023-03-04_8.00am.gpx"])
        #expect(w.events.map(\.type) == ["Pause", "Resume"])   // segments, laps and markers are not kept
        #expect(w.statistics.first { $0.type == "HeartRate" }?.average == 150)
        let pause: ClosedRange<Int64> = (1_677_913_200 + 1200)...(1_677_913_200 + 1500)
        #expect(export.pauses(w, end: w.end!) == [pause])

        let activity = try repaired(export.activity(of: 1, route: AppleHealthReader.folderRoutes(beside: path)))
        // 41 route points, the 4 strictly inside the pause dropped; a segment after it.
        #expect(activity.samples.count == 37)
        #expect(activity.segmentStarts == [0, 21])
        #expect(activity.samples.time[21] == Double(1_677_913_200 + 1500))
        // Distance within segments only (20 + 15 steps of 200.15 m, 7,005 m),
        // then the workout's own 7,000 m.
        #expect(abs(activity.distanceMeters! - 7000) < 0.01 && activity.distanceSource == .device)
        #expect(activity.samples.heartRate.allSatisfy { $0 == 150 })
        #expect(activity.laps.first?.distanceMeters == 7000)
        #expect(activity.laps.first?.totalTimeSeconds == 2100)
    }

    @Test func aMissingRouteFileIsANoteAndTheRecordsStillGiveTheRun() throws {
        let (export, _) = try fixtureExport()
        guard case .activity(let built) = export.activity(of: 1, route: noRoutes) else {
            Issue.record("expected an activity")
            return
        }
        #expect(built.notes.contains { $0.contains("route_2023-03-04_8.00am.gpx not found") })
        // The 41 heart-rate records but the 4 inside the pause, plus start and end
        // (at the times of the first and last record: merged by the repair step).
        #expect(built.raw.samples.count == 41 - 4 + 2)
        #expect(built.raw.segmentStarts == [0, 22])
    }

    @Test func treadmillDistanceComesFromTheWorkoutSourcesDistanceRecords() throws {
        let (export, _) = try fixtureExport()
        #expect(export.workouts[2].indoor == true)
        #expect(export.workouts[2].distanceMeters == 4050)
        let activity = try repaired(export.activity(of: 2, route: noRoutes))
        // The watch's 4 x 1.0 km, not the phone's 2 x 2.1 km, and never both.
        #expect(activity.distanceSource == .device)
        #expect(abs(activity.distanceMeters! - 4000) < 0.01)
        #expect(activity.isIndoor)
        #expect(!activity.samples.has(.latitude))
        #expect(activity.samples.heartRate.filter { !$0.isNaN } == [140, 140, 140, 140, 140])
        #expect(activity.samples.time.last! - activity.samples.time.first! == 1200)
    }

    @Test func aNonRunningWorkoutKeepsItsSportAndDeclaredDistance() throws {
        let (export, _) = try fixtureExport()
        #expect(export.workouts[3].sport == .cycling)
        let activity = try repaired(export.activity(of: 3, route: noRoutes))
        #expect(activity.sport == .cycling)
        #expect(activity.distanceSource == .laps)
        #expect(activity.distanceMeters == 25_000)
    }

    @Test func hostileWorkoutsAreSkippedWithTheirReason() throws {
        let (export, _) = try fixtureExport()
        guard case .skipped(let unit) = export.activity(of: 4, route: noRoutes),
            case .skipped(let date) = export.activity(of: 5, route: noRoutes)
        else {
            Issue.record("hostile workouts were not skipped")
            return
        }
        #expect(unit.contains("unknown totalDistance unit \"furlong\""))
        #expect(unit.contains("Running workout of 2023-03-07 07:00:00 +0100 (line"))
        #expect(date.contains("startDate \"2023-02-30 07:00:00 +0100\" is not a date"))
    }

    @Test func mapsApplesActivityTypesToSports() {
        #expect(AppleHealthSport.sport("Running") == .running)
        #expect(AppleHealthSport.sport("Hiking") == .hiking)
        #expect(AppleHealthSport.sport("DownhillSkiing") == .skiing)
        #expect(AppleHealthSport.sport("WheelchairRunPace") == .other)
        #expect(AppleHealthSport.sport("TraditionalStrengthTraining") == .other)
    }
}

/// Mutations of the fixture (bytes changed, cut short, lines repeated): the
/// reader and the workout builder either refuse the export with an error or
/// give workouts the repair step accepts; never a crash or a hang. Ninety
/// mutations, thirty of each kind, under every sanitizer; `make fuzz`'s `health`
/// target explores the same ground for as long as it is given.
@Suite struct AppleHealthMutationTests {
    static let rounds = 90

    @Test func mutatedExportsNeverCrash() throws {
        let original = Array(try Data(contentsOf: URL(fileURLWithPath: fixture("apple-health/export.xml"))))
        var rng = SplitMix64(seed: 0x4ea1_7401)
        var refused = 0, read = 0
        let alphabet = Array("<>/\"'=&;%[]! \n\u{0B}0123456789.-+:ENTITYDOCTYPE".utf8)
        for round in 0..<Self.rounds {
            var bytes = original
            switch round % 3 {
            case 0:
                for _ in 0..<8 {
                    bytes[Int.random(in: 0..<bytes.count, using: &rng)] = alphabet.randomElement(using: &rng)!
                }
            case 1:
                bytes.removeSubrange(Int.random(in: 0..<bytes.count, using: &rng)...)
            default:
                let from = Int.random(in: 0..<bytes.count - 200, using: &rng)
                bytes.insert(contentsOf: bytes[from..<from + 200], at: Int.random(in: 0..<bytes.count, using: &rng))
            }
            do {
                let export = try AppleHealthReader.read(MemoryByteStream(name: "m.xml", bytes: bytes))
                read += 1
                for index in export.workouts.indices {
                    if case .activity(let built) = export.activity(of: index, route: { _ in nil }) {
                        _ = TrackRepair.repair(built.raw, format: .health)
                    }
                }
            } catch is FormatError {
                refused += 1
            } catch is HealthExportError {
                refused += 1
            }
        }
        #expect(read + refused == Self.rounds)
        #expect(read > 0 && refused > 0)
    }
}

@Suite struct AppleHealthWorkoutActivityTests {
    /// iOS 16 and later can nest a workout's statistics, events and metadata in a
    /// `<WorkoutActivity>`; they count as the workout's. Duplicated pause events
    /// (workout and activity level) make one pause.
    @Test func readsWhatAWorkoutActivityHolds() throws {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_US">
             <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="25" durationUnit="min" sourceName="W" startDate="2024-05-01 07:00:00 +0200" endDate="2024-05-01 07:30:00 +0200">
              <WorkoutEvent type="HKWorkoutEventTypePause" date="2024-05-01 07:10:00 +0200"/>
              <WorkoutEvent type="HKWorkoutEventTypeResume" date="2024-05-01 07:15:00 +0200"/>
              <WorkoutActivity uuid="A" startDate="2024-05-01 07:00:00 +0200" endDate="2024-05-01 07:30:00 +0200" duration="25" durationUnit="min">
               <WorkoutEvent type="HKWorkoutEventTypePause" date="2024-05-01 07:10:00 +0200"/>
               <WorkoutEvent type="HKWorkoutEventTypeResume" date="2024-05-01 07:15:00 +0200"/>
               <WorkoutStatistics type="HKQuantityTypeIdentifierDistanceWalkingRunning" startDate="2024-05-01 07:00:00 +0200" endDate="2024-05-01 07:30:00 +0200" sum="3.1" unit="mi"/>
               <MetadataEntry key="HKIndoorWorkout" value="1"/>
              </WorkoutActivity>
             </Workout>
            </HealthData>

            """
        let export = try AppleHealthReader.read(MemoryByteStream(name: "export.xml", bytes: Array(text.utf8)))
        let w = try #require(export.workouts.first)
        #expect(abs(w.distanceMeters! - 3.1 * 1609.344) < 0.001)
        #expect(w.indoor == true)
        #expect(w.events.count == 4)
        let start = try #require(w.start)
        #expect(export.pauses(w, end: w.end!) == [(start + 600)...(start + 900)])
    }
}
