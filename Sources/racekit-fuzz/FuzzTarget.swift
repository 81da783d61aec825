import Foundation
import RaceKitCore
import RaceKitFormats

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

    static func run(_ bytes: UnsafeRawBufferPointer) {
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
