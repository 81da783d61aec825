import RaceKitFormats
import RaceKitMetrics

extension FuzzTarget {
    /// `RACEKIT_FUZZ_TARGET=health`: an Apple Health `export.xml` through the byte
    /// filter (DTD check, control characters), the SAX2 reader, and every workout
    /// built (no route files) and repaired. `HealthExportError` and `FormatError`
    /// are the expected outcomes for most inputs.
    static func runHealth(_ bytes: UnsafeRawBufferPointer) {
        guard
            let export = try? AppleHealthReader.read(MemoryByteStream(name: "fuzz.xml", bytes: Array(bytes)))
        else { return }
        for index in export.workouts.indices {
            guard case .activity(let built) = export.activity(of: index, route: { _ in nil }),
                case .activity(let activity) = TrackRepair.repair(built.raw, format: .health)
            else { continue }
            _ = RunAnalyzer.analyse(activity, physiology: Physiology())
        }
    }
}
