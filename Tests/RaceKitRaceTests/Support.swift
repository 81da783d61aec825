import Foundation

@testable import RaceKitModel

/// A straight course heading north with elevation from `elevation(x)` and optional noise.
func syntheticCourse(
    length: Double, spacing: Double = 10, noise: Double = 0, seed: UInt64 = 7,
    elevation: (Double) -> Double
) -> SampleSeries {
    var rng = Xorshift(seed: seed)
    var s = SampleSeries()
    var x = 0.0
    while x <= length + 1e-9 {
        var p = SamplePoint()
        p.latitude = 47.0 + x / 111_195
        p.longitude = 8.0
        p.elevation = elevation(x) + (noise > 0 ? rng.gaussian() * noise : 0)
        s.append(p)
        x += spacing
    }
    return s
}

struct Xorshift {
    var state: UInt64
    init(seed: UInt64) { state = seed == 0 ? 0x9E37_79B9 : seed }
    mutating func next() -> Double {
        state ^= state << 13; state ^= state >> 7; state ^= state << 17
        return Double(state >> 11) / Double(1 << 53)
    }
    mutating func gaussian() -> Double {
        let u = max(next(), 1e-12), v = next()
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
    }
}

/// Writes text to a fresh temporary folder and returns the file's path.
func temporaryFile(_ name: String, _ text: String) throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rk-race-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let url = dir.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try text.write(to: url, atomically: false, encoding: .utf8)
    return url.path
}

/// A GPX course track of the given samples.
func gpxCourse(_ s: SampleSeries) -> String {
    var out =
        "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" creator=\"test\" xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><trkseg>\n"
    for i in 0..<s.count {
        out += "<trkpt lat=\"\(s.latitude[i])\" lon=\"\(s.longitude[i])\"><ele>\(s.elevation[i])</ele></trkpt>\n"
    }
    return out + "</trkseg></trk></gpx>\n"
}

/// The shared schemas folder (../shared/schemas beside the repository), or nil when
/// it is absent (a user's clone has no `../shared`). Computed once.
let schemasFolder: String? = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    let dir = url.deletingLastPathComponent().appendingPathComponent("shared/schemas").path
    return FileManager.default.fileExists(atPath: dir + "/gpx.xsd") ? dir : nil
}()
