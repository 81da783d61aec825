import Foundation
import RaceKitCore
import RaceKitImport
import RaceKitStore

/// A fresh temporary folder.
func workFolder() throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rk-flows-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir
}

/// A GPX running track due north at `speed` m/s, a point every 5 s, with heart
/// rate when given (then the run has a load).
func trackGPX(seconds: Int, speed: Double, start: String, heartRate: Double? = nil) -> String {
    let t0 = ISO8601DateFormatter().date(from: start)!
    let f = ISO8601DateFormatter()
    var points = ""
    for i in stride(from: 0, through: seconds, by: 5) {
        let lat = 48.1 + Double(i) * speed / 111_195
        let hr =
            heartRate.map {
                "<extensions><ns3:TrackPointExtension><ns3:hr>\(Int($0))</ns3:hr></ns3:TrackPointExtension></extensions>"
            } ?? ""
        points +=
            "<trkpt lat=\"\(lat)\" lon=\"11.5\"><ele>520</ele><time>\(f.string(from: t0.addingTimeInterval(Double(i))))</time>\(hr)</trkpt>\n"
    }
    return """
        <?xml version="1.0"?><gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"
         xmlns:ns3="http://www.garmin.com/xmlschemas/TrackPointExtension/v1"><trk><type>running</type><trkseg>
        \(points)</trkseg></trk></gpx>
        """
}

/// An in-memory store with the tracks imported (file name: GPX text); the
/// stored runs, oldest first.
func storeWith(_ tracks: [String: String]) throws -> (RunStore, [RunRecord]) {
    let dir = try workFolder()
    var files: [String] = []
    for (name, text) in tracks.sorted(by: { $0.key < $1.key }) {
        let url = dir.appendingPathComponent(name)
        try text.write(to: url, atomically: false, encoding: .utf8)
        files.append(url.path)
    }
    let store = try RunStore()
    let results = try Importer(store: store, options: ImportOptions()).run(files: files)
    let failed = results.filter { $0.status != .imported }
    guard failed.isEmpty else { throw Failure(.dataError, "test import failed: \(failed.map(\.file))") }
    return (store, try store.runs())
}
