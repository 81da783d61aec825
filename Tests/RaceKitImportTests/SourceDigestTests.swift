import Foundation
import RaceKitTestSupport
import Testing

@testable import RaceKitFormats
@testable import RaceKitImport
@testable import RaceKitModel
@testable import RaceKitSQLite

/// coreutils' `sha256sum` of `bytes`: a reference sharing no code with RaceKit.
private func sha256sum(_ bytes: [UInt8]) throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rk-sum-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let file = dir.appendingPathComponent("bytes")
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
    return String(text.prefix(64))
}

/// A run's `source_sha256` is the SHA-256 of its document's decompressed bytes,
/// as it always was: files imported before and after the move to `ContentDigest`
/// keep matching as duplicates.
@Suite struct SourceDigestTests {
    /// Points of a ten-minute run, one a second.
    static func points(start: Double) -> [SamplePoint] {
        (0..<600).map { i in
            var p = SamplePoint()
            p.time = start + Double(i)
            p.latitude = 48.1 + Double(i) * 3 / 111_195
            p.longitude = 11.5
            p.distance = Double(i) * 3
            p.heartRate = Double(140 + i % 10)
            return p
        }
    }

    @Test func storedDigestsAreSHA256OfTheDecompressedDocument() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rk-digest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let fit = FITWriter.activity(Self.points(start: 1_772_348_400))
        let gpx = Array(
            """
            <?xml version="1.0"?><gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
            <trkpt lat="48.1" lon="11.5"><time>2026-03-02T07:00:00Z</time></trkpt>
            <trkpt lat="48.105" lon="11.5"><time>2026-03-02T07:02:30Z</time></trkpt>
            <trkpt lat="48.11" lon="11.5"><time>2026-03-02T07:05:00Z</time></trkpt>
            </trkseg></trk></gpx>

            """.utf8)
        try Data(Gzip.compress(fit)).write(to: dir.appendingPathComponent("a.fit.gz"))
        try Data(Gzip.compress(gpx)).write(to: dir.appendingPathComponent("b.gpx.gz"))
        let store = try RunStore()
        let files = InputCollector.collect([dir.path]).files
        let results = try Importer(store: store, options: ImportOptions()).run(files: files)
        #expect(results.map(\.status) == [.imported, .imported])
        let bySource = Dictionary(
            uniqueKeysWithValues: try store.runs().map { (($0.sourceFile as NSString).lastPathComponent, $0) })
        #expect(bySource["a.fit.gz"]?.sourceSHA256 == (try sha256sum(fit)))
        #expect(bySource["b.gpx.gz"]?.sourceSHA256 == (try sha256sum(gpx)))
    }
}
