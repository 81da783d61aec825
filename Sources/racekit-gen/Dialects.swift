import Foundation
import RaceKitMetrics
import RaceKitModel

/// Writers that imitate each vendor's export dialect, quirks included (these are
/// test inputs, so they are built as text on purpose: a clean XML writer would
/// iron out the very quirks the importer must survive).
enum Dialect: String, CaseIterable {
    case garminGPX, stravaGPX, appleHealthGPX, polarGPX, suuntoGPX, corosGPX, garminTCX, fitbitTCX, treadmillTCX

    var fileExtension: String { rawValue.hasSuffix("TCX") ? "tcx" : "gpx" }

    func render(_ p: [SimPoint], name: String, sport: String = "running") -> String {
        switch self {
        case .garminGPX: return gpx(p, creator: "Garmin Connect", name: name, type: sport, ext: .garminNS3)
        case .stravaGPX:
            return gpx(p, creator: "StravaGPX", name: name, type: sport == "running" ? "9" : "1", ext: .stravaTPX)
        case .appleHealthGPX: return gpx(p, creator: "Apple Health Export", name: name, type: nil, ext: .apple)
        case .polarGPX: return "\n  \n" + gpx10(p, name: name)
        case .suuntoGPX:
            return gpx(p, creator: "Movescount - http://www.movescount.com", name: name, type: nil, ext: .gpxdata)
        case .corosGPX: return gpx(p, creator: "COROS Wearables", name: name, type: sport, ext: .tpxV2Default)
        case .garminTCX: return tcx(p, creator: "Forerunner 965", sport: "Running", offset: nil, positions: true)
        case .fitbitTCX: return tcx(p, creator: "Fitbit Charge 6", sport: "Running", offset: 3600, positions: true)
        case .treadmillTCX: return tcx(p, creator: "Forerunner 255", sport: "Running", offset: nil, positions: false)
        }
    }

    enum Extension { case garminNS3, stravaTPX, apple, gpxdata, tpxV2Default }

    static func time(_ t: Double, offset: Double? = nil, millis: Bool = false) -> String {
        guard let offset else {
            let s = TimestampParser.format(t.rounded(), fractional: false)
            return millis ? s.replacingOccurrences(of: "Z", with: ".000Z") : s
        }
        let local = TimestampParser.format((t + offset).rounded(), fractional: false).dropLast()
        let h = Int(offset) / 3600, m = Int(offset) % 3600 / 60
        return local + ".000" + String(format: "%@%02d:%02d", offset >= 0 ? "+" : "-", abs(h), abs(m))
    }

    static func f(_ v: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", v) }

    func gpx(_ pts: [SimPoint], creator: String, name: String, type: String?, ext: Extension) -> String {
        var s = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        switch ext {
        case .garminNS3:
            s +=
                "<gpx creator=\"\(creator)\" version=\"1.1\" xmlns=\"http://www.topografix.com/GPX/1/1\" xmlns:ns3=\"http://www.garmin.com/xmlschemas/TrackPointExtension/v1\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">\n"
        case .stravaTPX:
            s +=
                "<gpx creator=\"\(creator)\" version=\"1.1\" xmlns=\"http://www.topografix.com/GPX/1/1\" xmlns:gpxtpx=\"http://www.garmin.com/xmlschemas/TrackPointExtension/v1\">\n"
        case .gpxdata:
            s +=
                "<gpx version=\"1.1\" creator=\"\(creator)\" xmlns=\"http://www.topografix.com/GPX/1/1\" xmlns:gpxdata=\"http://www.cluetrust.com/XML/GPXDATA/1/0\">\n"
        case .apple, .tpxV2Default:
            s += "<gpx version=\"1.1\" creator=\"\(creator)\" xmlns=\"http://www.topografix.com/GPX/1/1\">\n"
        }
        s += " <metadata>\n  <time>\(Self.time(pts[0].time))</time>\n </metadata>\n <trk>\n  <name>\(name)</name>\n"
        if let type { s += "  <type>\(type)</type>\n" }
        s += "  <trkseg>\n"
        var last = pts[0].time
        for p in pts {
            // Garmin: new segment after a pause.
            if p.time - last > 30, ext == .garminNS3 { s += "  </trkseg>\n  <trkseg>\n" }
            last = p.time
            s +=
                "   <trkpt lat=\"\(Self.f(p.lat, 7))\" lon=\"\(Self.f(p.lon, 7))\"><ele>\(Self.f(p.ele, 1))</ele><time>\(Self.time(p.time, millis: ext == .garminNS3))</time>"
            switch ext {
            case .garminNS3:
                s +=
                    "<extensions><ns3:TrackPointExtension><ns3:hr>\(Int(p.hr))</ns3:hr><ns3:cad>\(Int(p.cadence / 2))</ns3:cad></ns3:TrackPointExtension></extensions>"
            case .stravaTPX:
                s +=
                    "<extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>\(Int(p.hr))</gpxtpx:hr><gpxtpx:cad>\(Int(p.cadence / 2))</gpxtpx:cad></gpxtpx:TrackPointExtension></extensions>"
            case .apple:
                s +=
                    "<extensions><speed>\(Self.f(p.speed, 2))</speed><course>0.0</course><hAcc>3.5</hAcc><vAcc>2.8</vAcc></extensions>"
            case .gpxdata:
                s +=
                    "<extensions><gpxdata:hr>\(Int(p.hr))</gpxdata:hr><gpxdata:cadence>\(Int(p.cadence / 2))</gpxdata:cadence><gpxdata:distance>\(Self.f(p.distance, 1))</gpxdata:distance></extensions>"
            case .tpxV2Default:
                s +=
                    "<extensions><TrackPointExtension xmlns=\"http://www.garmin.com/xmlschemas/TrackPointExtension/v2\"><hr>\(Int(p.hr))</hr><cad>\(Int(p.cadence / 2))</cad><speed>\(Self.f(p.speed, 2))</speed></TrackPointExtension></extensions>"
            }
            s += "</trkpt>\n"
        }
        return s + "  </trkseg>\n </trk>\n</gpx>\n"
    }

    func gpx10(_ pts: [SimPoint], name: String) -> String {
        var s =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.0\" creator=\"Polar Flow\" xmlns=\"http://www.topografix.com/GPX/1/0\">\n"
        s += "<time>\(Self.time(pts[0].time, millis: true))</time>\n<trk>\n<name>\(name)</name>\n<trkseg>\n"
        for p in pts {
            s +=
                "<trkpt lat=\"\(Self.f(p.lat, 6))\" lon=\"\(Self.f(p.lon, 6))\"><ele>\(Self.f(p.ele, 1))</ele><time>\(Self.time(p.time, millis: true))</time><speed>\(Self.f(p.speed, 2))</speed></trkpt>\n"
        }
        return s + "</trkseg>\n</trk>\n</gpx>\n"
    }

    func tcx(_ pts: [SimPoint], creator: String, sport: String, offset: Double?, positions: Bool) -> String {
        var s =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<TrainingCenterDatabase xmlns=\"http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2\" xmlns:ns3=\"http://www.garmin.com/xmlschemas/ActivityExtension/v2\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">\n"
        s +=
            "  <Activities>\n    <Activity Sport=\"\(sport)\">\n      <Id>\(Self.time(pts[0].time, offset: offset, millis: true))</Id>\n"
        // One lap per km, like a watch with auto-lap.
        var lapStart = 0
        var k = 0
        while lapStart < pts.count {
            var end = lapStart
            while end + 1 < pts.count, pts[end + 1].distance - pts[lapStart].distance <= 1000 { end += 1 }
            end = max(end, min(lapStart + 1, pts.count - 1))
            let lap = pts[lapStart...end]
            s += "      <Lap StartTime=\"\(Self.time(lap.first!.time, offset: offset, millis: true))\">\n"
            s += "        <TotalTimeSeconds>\(Self.f(lap.last!.time - lap.first!.time, 1))</TotalTimeSeconds>\n"
            s += "        <DistanceMeters>\(Self.f(lap.last!.distance - lap.first!.distance, 2))</DistanceMeters>\n"
            s +=
                "        <Calories>\(Int((lap.last!.distance - lap.first!.distance) / 16))</Calories>\n        <Intensity>Active</Intensity>\n        <TriggerMethod>Distance</TriggerMethod>\n        <Track>\n"
            for p in lap {
                s +=
                    "          <Trackpoint>\n            <Time>\(Self.time(p.time, offset: offset, millis: true))</Time>\n"
                if positions {
                    s +=
                        "            <Position>\n              <LatitudeDegrees>\(Self.f(p.lat, 7))</LatitudeDegrees>\n              <LongitudeDegrees>\(Self.f(p.lon, 7))</LongitudeDegrees>\n            </Position>\n"
                    s += "            <AltitudeMeters>\(Self.f(p.ele, 1))</AltitudeMeters>\n"
                }
                s += "            <DistanceMeters>\(Self.f(p.distance, 2))</DistanceMeters>\n"
                s +=
                    "            <HeartRateBpm>\n              <Value>\(Int(p.hr))</Value>\n            </HeartRateBpm>\n"
                s +=
                    "            <Extensions>\n              <ns3:TPX>\n                <ns3:Speed>\(Self.f(p.speed, 3))</ns3:Speed>\n                <ns3:RunCadence>\(Int(p.cadence / 2))</ns3:RunCadence>\n              </ns3:TPX>\n            </Extensions>\n"
                s += "          </Trackpoint>\n"
            }
            s += "        </Track>\n      </Lap>\n"
            lapStart = end + 1
            k += 1
        }
        s +=
            "      <Creator xsi:type=\"Device_t\">\n        <Name>\(creator)</Name>\n        <UnitId>3999999999</UnitId>\n        <ProductID>4315</ProductID>\n        <Version>\n          <VersionMajor>19</VersionMajor>\n          <VersionMinor>20</VersionMinor>\n        </Version>\n      </Creator>\n    </Activity>\n  </Activities>\n</TrainingCenterDatabase>\n"
        return s
    }
}
