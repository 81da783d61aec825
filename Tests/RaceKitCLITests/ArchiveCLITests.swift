import Foundation
import RaceKitFormats
import Testing

@Suite struct ArchiveCLITests {
    /// `export/0000.gpx ...` zipped as `export.zip` (under `activities/`), plus a zip bomb entry when asked.
    private func exportZip(_ cli: CLI, count: Int, bomb: Bool = false) throws -> String {
        try writeExport(cli, folder: "export", count: count, points: 300)
        let path = cli.workdir.appendingPathComponent(bomb ? "bomb.zip" : "export.zip").path
        let writer = try ZipWriter(path: path)
        for i in 0..<count {
            let name = String(format: "%04d.gpx", i)
            let bytes = try Data(contentsOf: cli.workdir.appendingPathComponent("export/\(name)"))
            try writer.add("activities/\(name)", [UInt8](bytes))
        }
        if bomb {
            let zeros = [UInt8](repeating: 0x20, count: 1 << 20)
            try writer.add("activities/zz.gpx", size: 40 << 20) { write in for _ in 0..<40 { try write(zeros) } }
        }
        try writer.close()
        return path
    }

    @Test func anArchiveImportsWithEntriesNamedInside() throws {
        let cli = try CLI()
        let zip = try exportZip(cli, count: 3)
        let r = try cli.run(["import", "--format", "json", zip])
        #expect(r.status == 0, "\(r.stderr)")
        let results = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
        #expect(
            results.map { $0["file"] as? String } == (0..<3).map { String(format: "\(zip)!activities/%04d.gpx", $0) })
        #expect(results.allSatisfy { $0["status"] as? String == "imported" })
        #expect(try runCount(cli) == 3)
        // The same files unpacked are already stored.
        let again = try cli.run(["import", cli.workdir.appendingPathComponent("export").path])
        #expect(again.status == 0)
        #expect(again.stdout.contains("3 duplicate") || again.stdout.contains("already imported"), "\(again.stdout)")
        #expect(try runCount(cli) == 3)
    }

    @Test func aZipBombIsRefusedWithItsEntryAndLeavesNothing() throws {
        let cli = try CLI()
        let zip = try exportZip(cli, count: 3, bomb: true)
        let r = try cli.run(["import", zip])
        #expect(r.status == 1)
        #expect(
            r.stderr.contains("failed: \(zip): \(zip)!activities/zz.gpx unpacks to more than 200 times"), "\(r.stderr)")
        #expect(r.stderr.contains("no new run from it was kept"))
        #expect(try runCount(cli) == 0)
    }
}
