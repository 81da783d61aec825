import Foundation

/// A GPX track north from 48.1°N at `speed` m/s, one point every 5 s; with
/// `padding`, that many spaces after each point (a large file of fewer points).
public func trackGPX(
    seconds: Int, speed: Double, type: String? = "running", start: String = "2026-03-10T07:00:00Z",
    heartRate: Double? = nil, elevation: (Int) -> String = { _ in "520" }, power: ((Int) -> Double)? = nil,
    padding: Int = 0
) -> String {
    let t0 = ISO8601DateFormatter().date(from: start)!
    let f = ISO8601DateFormatter()
    var points = ""
    let gap = String(repeating: " ", count: padding)
    for (k, i) in stride(from: 0, through: seconds, by: 5).enumerated() {
        let lat = 48.1 + Double(i) * speed / 111_195
        let hrValue = heartRate.map { "<ns3:TrackPointExtension><ns3:hr>\(Int($0))</ns3:hr></ns3:TrackPointExtension>" }
        let watts = power.map { "<power>\($0(i))</power>" }
        let hr = hrValue == nil && watts == nil ? "" : "<extensions>\(watts ?? "")\(hrValue ?? "")</extensions>"
        points +=
            "<trkpt lat=\"\(lat)\" lon=\"11.5\"><ele>\(elevation(k))</ele><time>\(f.string(from: t0.addingTimeInterval(Double(i))))</time>\(hr)</trkpt>\n\(gap)"
    }
    return """
        <?xml version="1.0"?><gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"
         xmlns:ns3="http://www.garmin.com/xmlschemas/TrackPointExtension/v1"><trk>\(type.map { "<type>\($0)</type>" } ?? "")<trkseg>
        \(points)</trkseg></trk></gpx>
        """
}

/// A GPX of about `megabytes` MB that gzip packs about 1,000 to 1: an empty
/// element and 1,020 spaces, repeated. A bomb past the ratio limit's 16 MB floor
/// whose unpacking costs the parser one element a kilobyte, not one every 4 bytes.
public func gzipBombGPX(megabytes: Int) -> [UInt8] {
    var big = Array("<?xml version=\"1.0\"?><gpx version=\"1.1\" creator=\"t\">".utf8)
    let unit = Array("<x/>".utf8) + [UInt8](repeating: 0x20, count: 1020)
    big.reserveCapacity(megabytes << 20 + 64)
    for _ in 0..<(megabytes << 10) { big += unit }
    big += Array("</gpx>".utf8)
    return big
}
