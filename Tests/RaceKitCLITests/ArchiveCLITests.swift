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

    @Test func aZipBombIsRefusedWithItsEntryAndKeepsWhatWasReadBeforeIt() throws {
        let cli = try CLI()
        let zip = try exportZip(cli, count: 3, bomb: true)
        let r = try cli.run(["import", zip])
        #expect(r.status == 1)
        #expect(
            r.stderr.contains("failed: \(zip): \(zip)!activities/zz.gpx unpacks to more than 200 times"), "\(r.stderr)")
        #expect(r.stderr.contains("the entries read before the limit are kept (3 new runs stored"), "\(r.stderr)")
        #expect(try runCount(cli) == 3)
        // Again (as after a killed import): the stored entries are reported as stored.
        let again = try cli.run(["import", zip])
        #expect(again.status == 1)
        #expect(again.stderr.contains("(3 runs already stored"), "\(again.stderr)")
        #expect(try runCount(cli) == 3)
    }

    /// Killed while reading an archive that ends in a bomb: what was stored stays,
    /// and importing again stores the rest, reports the stored entries as already
    /// imported, and refuses the bomb saying what was kept.
    @Test func aKilledArchiveImportResumesAndKeepsWhatItStored() throws {
        let cli = try CLI()
        try writeExport(cli, folder: "export", count: 150, points: 1200)
        let zip = cli.workdir.appendingPathComponent("big.zip").path
        let writer = try ZipWriter(path: zip)
        for i in 0..<150 {
            let name = String(format: "%04d.gpx", i)
            let bytes = try Data(contentsOf: cli.workdir.appendingPathComponent("export/\(name)"))
            try writer.add("activities/\(name)", [UInt8](bytes))
        }
        let spaces = [UInt8](repeating: 0x20, count: 1 << 20)
        try writer.add("activities/zz.gpx", size: 40 << 20) { write in for _ in 0..<40 { try write(spaces) } }
        try writer.close()
        let p = cli.process(["import", "--quiet", "--jobs", "1", zip])
        try p.run()
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, p.isRunning, (try? runCount(cli)) ?? 0 < 5 { usleep(20_000) }
        let killedMidway = p.isRunning
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        let committed = try runCount(cli)
        #expect(killedMidway, "the import finished before it could be killed; make the archive larger")
        #expect(committed >= 5 && committed < 150)

        let resume = try cli.run(["import", "--format", "json", zip])
        #expect(resume.status == 1)
        let results = try #require(try JSONSerialization.jsonObject(with: Data(resume.stdout.utf8)) as? [[String: Any]])
        let statuses = results.map { $0["status"] as? String ?? "?" }
        #expect(statuses.filter { $0 == "duplicate" }.count == committed)
        #expect(statuses.filter { $0 == "imported" }.count == 150 - committed)
        #expect(statuses.last == "failed")
        let reason = results.last?["reason"] as? String ?? ""
        #expect(reason.contains("\(150 - committed) new runs stored"), "\(reason)")
        #expect(reason.contains("\(committed) runs already stored"), "\(reason)")
        #expect(try runCount(cli) == 150)
        #expect(try cli.run(["store", "check"]).status == 0)
    }
}
