import Foundation
import RaceKitTestSupport
import Testing

@testable import RaceKitFormats
@testable import RaceKitMetrics
@testable import RaceKitModel

/// Path of a fixture shipped with these tests.
func fixture(_ name: String) throws -> String {
    let dir = try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
    return dir.appendingPathComponent(name).path
}

/// The real watch exports of `../shared/corpus/public` beside the repository, or nil
/// when that folder is absent (a user's clone has no `../shared`). Computed once.
let sharedCorpus: URL? = {
    var url = URL(fileURLWithPath: #filePath)
    // Up from Support.swift, RaceKitFormatsTests, Tests and the repository.
    for _ in 0..<4 { url.deleteLastPathComponent() }
    let dir = url.appendingPathComponent("shared/corpus/public", isDirectory: true)
    var isDirectory: ObjCBool = false
    let found = FileManager.default.fileExists(atPath: dir.path, isDirectory: &isDirectory) && isDirectory.boolValue
    return found ? dir : nil
}()

/// A fresh temporary directory for one test.
func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("racekit-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// `text` compressed with the system's gzip.
func gzip(_ text: String) throws -> [UInt8] {
    let dir = try temporaryDirectory()
    let plain = dir.appendingPathComponent("x")
    try Data(text.utf8).write(to: plain)
    let p = Process()
    p.currentDirectoryURL = WorkingFolder.url   // not a CLI run's
    p.executableURL = URL(fileURLWithPath: "/bin/gzip")
    p.arguments = ["-n", plain.path]
    try p.run(); p.waitUntilExit()
    return [UInt8](try Data(contentsOf: dir.appendingPathComponent("x.gz")))
}

/// Reads a file and returns its document, failing the test when it is empty.
func document(_ path: String) throws -> ParsedDocument {
    guard case .document(let d) = try ActivityFileReader.read(path: path).outcome else {
        Issue.record("\(path) read as empty")
        throw CancellationError()
    }
    return d
}

/// The single activity of a file, repaired.
func onlyActivity(_ path: String) throws -> Activity {
    let d = try document(path)
    try #require(d.activities.count == 1)
    guard
        case .activity(let a) = TrackRepair.repair(
            d.activities[0], format: d.format,
            documentHeartRate: d.documentHeartRate)
    else {
        Issue.record("not an activity"); throw CancellationError()
    }
    return a
}

let minimalGPX = """
    <?xml version="1.0" encoding="UTF-8"?>
    <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
    <trkpt lat="48.1" lon="11.5"><ele>500</ele><time>2026-03-01T07:00:00Z</time></trkpt>
    <trkpt lat="48.1001" lon="11.5001"><ele>501</ele><time>2026-03-01T07:00:05Z</time></trkpt>
    </trkseg></trk></gpx>

    """

/// The SHA-256 (hex) of `bytes` as coreutils' `sha256sum` computes it: a reference
/// that shares no code with `ContentDigest`.
func sha256sum(_ bytes: [UInt8]) throws -> String {
    let file = try temporaryDirectory().appendingPathComponent("bytes")
    try Data(bytes).write(to: file)
    let p = Process()
    p.currentDirectoryURL = WorkingFolder.url   // not a CLI run's
    p.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
    p.arguments = [file.path]
    let out = Pipe()
    p.standardOutput = out
    try p.run()
    let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    p.waitUntilExit()
    try #require(p.terminationStatus == 0)
    return String(text.prefix(64))
}
