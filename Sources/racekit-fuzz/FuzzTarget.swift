import Foundation
import RaceKitCore
import RaceKitFormats
import RaceKitRace

/// One fuzz input through the whole import pipeline: read (libxml2 streaming
/// reader, gzip), repair, analyse, and a sample-blob round trip. Any crash, hang
/// or sanitizer report is a bug; a thrown `FormatError` is the expected outcome
/// for most inputs.
enum FuzzTarget {
    /// Where inputs are written (the reader's real path goes through a file).
    static let path: String = {
        let dir = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        return "\(dir)/racekit-fuzz-\(getpid()).xml"
    }()

    /// `RACEKIT_FUZZ_TARGET`: `reader` (default), `setup`.
    static let target = ProcessInfo.processInfo.environment["RACEKIT_FUZZ_TARGET"] ?? "reader"

    static func run(_ bytes: UnsafeRawBufferPointer) {
        switch target {
        case "setup": runSetup(bytes)
        default: runReader(bytes)
        }
    }

    /// The race-setup loader (Yams, strict validation) and, when a setup loads,
    /// the planner and every renderer over it. A `SetupError` is the expected outcome.
    static func runSetup(_ bytes: UnsafeRawBufferPointer) {
        guard var setup = try? SetupLoader.parse(yaml: String(decoding: bytes, as: UTF8.self), file: "fuzz.yaml") else { return }
        setup.coursePath = nil
        guard let plan = try? RacePlanner.plan(setup) else { return }
        guard plan.splits.last?.split.cumulativeSeconds == Int(setup.targetSeconds.rounded()) else {
            fatalError("the plan does not end on the target")
        }
        _ = JSONWriter.write(PlanOutput.json(plan))
        _ = PlanOutput.markdown(plan)
        _ = PlanOutput.splitsCSV(plan) + PlanOutput.cuesCSV(plan)
        _ = PaceBand.svg(plan, unitName: "km")
    }

    static func runReader(_ bytes: UnsafeRawBufferPointer) {
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { return }
        guard let result = try? ActivityFileReader.read(path: path), case .document(let document) = result.outcome else { return }
        for raw in document.activities {
            guard case .activity(let activity) = TrackRepair.repair(raw, format: document.format,
                                                                    documentHeartRate: document.documentHeartRate) else { continue }
            let analysis = RunAnalyzer.analyse(activity, physiology: Physiology(maxHeartRate: 190, restingHeartRate: 50,
                                                                               thresholdHeartRate: 170, thresholdPaceSecondsPerKm: 300))
            _ = analysis.splits(.km)
            let blob = SampleCodec.encode(activity.samples)
            guard let back = try? SampleCodec.decode(blob), back.count == activity.samples.count else {
                fatalError("sample blob round trip lost points")
            }
        }
    }
}
