import Foundation
import RaceKitTestSupport
import Testing

@testable import RaceKitFormats
@testable import RaceKitImport
@testable import RaceKitMetrics
@testable import RaceKitModel
@testable import RaceKitSQLite
@testable import RaceKitStore

/// A short run as GPX on `day` of March 2026 (1.1 km in 5 minutes).
private func runGPX(_ day: Int, sport: String = "running") -> [UInt8] {
    Array(
        """
        <?xml version="1.0"?><gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1"><trk><type>\(sport)</type><trkseg>
        <trkpt lat="48.1" lon="11.5"><time>2026-03-\(day)T07:00:00Z</time></trkpt>
        <trkpt lat="48.105" lon="11.5"><time>2026-03-\(day)T07:02:30Z</time></trkpt>
        <trkpt lat="48.11" lon="11.5"><time>2026-03-\(day)T07:05:00Z</time></trkpt>
        </trkseg></trk></gpx>
        """.utf8)
}

private func gzip(_ bytes: [UInt8]) throws -> [UInt8] {
    let packed = Gzip.compress(bytes)
    #expect(!packed.isEmpty)
    return packed
}

private func tempPath(_ name: String) throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rk-zip-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir.appendingPathComponent(name).path
}

/// Writes a zip of `entries` and returns its path.
private func zip(_ name: String, _ entries: [(String, [UInt8])]) throws -> String {
    let path = try tempPath(name)
    let writer = try ZipWriter(path: path)
    for (entry, bytes) in entries { try writer.add(entry, bytes) }
    try writer.close()
    return path
}

private func importing(
    _ paths: [String], limits: ArchiveLimits = ArchiveLimits(), store: RunStore? = nil, jobs: Int = 2
) throws -> (results: [FileResult], store: RunStore) {
    let store = try store ?? RunStore()
    var options = ImportOptions()
    options.jobs = jobs
    let run = try Importer(store: store, options: options).importAll(files: paths, archiveLimits: limits)
    return (run.results, store)
}

/// The store holds exactly the runs the results say were stored, and the
/// refusal (the last result) counts them.
private func expectKeptExactly(_ results: [FileResult], _ store: RunStore) throws {
    let stored = results.filter { $0.status == .imported }.flatMap(\.runIds)
    #expect(Set(try store.runs(matching: RunStore.RunFilter()).map(\.id)) == Set(stored))
    let reason = try #require(results.last?.reason)
    #expect(reason.contains(stored.count == 1 ? "(1 new run stored" : "(\(stored.count) new runs stored"), "\(reason)")
}

@Suite struct ArchiveImportTests {
    @Test func importsEveryEntryNamedInsideTheArchive() throws {
        let inner = try zip("part1.zip", [("1_ACTIVITY.gpx", runGPX(12))])
        let path = try zip(
            "export.zip",
            [
                ("activities/10.gpx", runGPX(10)),
                ("activities/11.gpx.gz", try gzip(runGPX(11))),
                ("DI_CONNECT/UploadedFiles_Part1.zip", [UInt8](try Data(contentsOf: URL(fileURLWithPath: inner)))),
                ("__MACOSX/activities/._10.gpx", [0, 5, 22, 7]),
                ("activities/readme.txt", Array("not an activity".utf8)),
                ("activities/broken.gpx", Array(runGPX(13).prefix(120)))
            ])
        let (results, store) = try importing([path])
        let byName = Dictionary(uniqueKeysWithValues: results.map { ($0.file, $0) })
        #expect(
            results.map(\.file) == [
                "\(path)!activities/10.gpx", "\(path)!activities/11.gpx.gz",
                "\(path)!DI_CONNECT/UploadedFiles_Part1.zip!1_ACTIVITY.gpx", "\(path)!activities/broken.gpx"
            ])
        #expect(byName["\(path)!activities/10.gpx"]?.status == .imported)
        #expect(byName["\(path)!activities/11.gpx.gz"]?.status == .imported)
        #expect(byName["\(path)!DI_CONNECT/UploadedFiles_Part1.zip!1_ACTIVITY.gpx"]?.status == .imported)
        let broken = try #require(byName["\(path)!activities/broken.gpx"])
        #expect(broken.status == .failed)
        #expect(broken.reason?.hasPrefix("\(path)!activities/broken.gpx:") == true)
        let runs = try store.runs(matching: RunStore.RunFilter())
        #expect(runs.count == 3)
        #expect(Set(runs.map(\.sourceFile)) == ["10.gpx", "11.gpx.gz", "1_ACTIVITY.gpx"])
    }

    @Test func theSameFilesUnpackedAreTheSameRuns() throws {
        let path = try zip("export.zip", [("a/10.gpx", runGPX(10)), ("a/11.gpx.gz", try gzip(runGPX(11)))])
        let (first, store) = try importing([path])
        #expect(first.allSatisfy { $0.status == .imported })
        let folder = try tempPath("unpacked")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(runGPX(10)).write(to: URL(fileURLWithPath: folder + "/10.gpx"))
        try Data(try gzip(runGPX(11))).write(to: URL(fileURLWithPath: folder + "/11.gpx.gz"))
        let again = try importing(InputCollector.collect([folder]).files, store: store).results
        #expect(again.map(\.status) == [.duplicate, .duplicate])
        #expect(again.allSatisfy { $0.reason?.hasPrefix("already imported as") == true })
    }

    @Test func stravasIndexGivesNamesSportsAndDescriptions() throws {
        let csv = """
            Activity ID,Activity Date,Activity Name,Activity Type,Activity Description,Elapsed Time,Distance,Filename,Elapsed Time,Distance
            10,"Mar 10, 2026, 7:00:00 AM",Morning loop,Run,"Easy, with ""strides""
            and a hill",300,1.1,activities/10.gpx,300,1100
            11,"Mar 11, 2026, 7:00:00 AM",Commute,Ride,,300,1.1,activities/11.gpx.gz,300,1100

            """
        let path = try zip(
            "strava.zip",
            [
                ("activities/10.gpx", runGPX(10)), ("activities/11.gpx.gz", try gzip(runGPX(11))),
                ("activities.csv", Array(csv.utf8))
            ])
        let (results, store) = try importing([path])
        #expect(results.map(\.status) == [.imported, .imported])
        let runs = try store.runs(matching: RunStore.RunFilter()).sorted { $0.startedAt < $1.startedAt }
        #expect(runs.map(\.label) == ["Morning loop", "Commute"])
        #expect(runs.map(\.sport) == [.running, .cycling])
        #expect(runs[0].notes == "Easy, with \"strides\"\nand a hill")
        #expect(runs[1].notes == nil)

        // The same export unpacked: the same labels, sports and notes.
        let folder = try tempPath("export")
        try FileManager.default.createDirectory(atPath: folder + "/activities", withIntermediateDirectories: true)
        try Data(runGPX(10)).write(to: URL(fileURLWithPath: folder + "/activities/10.gpx"))
        try Data(try gzip(runGPX(11))).write(to: URL(fileURLWithPath: folder + "/activities/11.gpx.gz"))
        try Data(csv.utf8).write(to: URL(fileURLWithPath: folder + "/activities.csv"))
        let (unpacked, folderStore) = try importing(InputCollector.collect([folder]).files)
        #expect(unpacked.map(\.status) == [.imported, .imported])
        let same = try folderStore.runs(matching: RunStore.RunFilter()).sorted { $0.startedAt < $1.startedAt }
        #expect(same.map(\.label) == runs.map(\.label))
        #expect(same.map(\.sport) == runs.map(\.sport))
        #expect(same.map(\.notes) == runs.map(\.notes))
        #expect(same.map(\.distanceMeters) == runs.map(\.distanceMeters))
    }

    /// One 60-million-comma line took 1.2 GB, a symlink to /dev/zero grew without
    /// end: the index is read as a stream with limits that do not grow with it.
    @Test func activitiesCSVIsStreamedWithinItsLimits() throws {
        let header = "Activity ID,Activity Name,Filename\n"
        let longLine = header + "1," + String(repeating: ",", count: StravaActivities.maxRecordBytes) + "\n"
        #expect(
            throws: StravaActivities.ParseError.tooLarge(file: "a.csv", line: 2, what: "a record longer than 1.0 MB")
        ) {
            try StravaActivities(csv: Array(longLine.utf8), name: "a.csv")
        }
        // Many records in 64 KB reads, quoted newlines across read boundaries.
        var text = header
        for i in 0..<5000 { text += "\(i),\"Run \(i)\nsecond line, \"\"quoted\"\"\",activities/\(i).gpx\r\n" }
        let index = try StravaActivities(csv: Array(text.utf8), name: "a.csv")
        #expect(index.byFile.count == 5000)
        #expect(index.metadata(forEntry: "activities/4999.gpx")?.name == "Run 4999\nsecond line, \"quoted\"")
        // A link to a device is not read at all (the folder path): the activities import with their own names.
        let dir = try tempPath("strava")
        try FileManager.default.createDirectory(atPath: dir + "/activities", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dir + "/activities.csv", withDestinationPath: "/dev/zero")
        try Data(runGPX(10)).write(to: URL(fileURLWithPath: dir + "/activities/10.gpx"))
        let (results, store) = try importing([dir + "/activities/10.gpx"])
        #expect(results.map(\.status) == [.imported])
        #expect(results[0].reason?.contains("a symbolic link to a character device, not a regular file") == true)
        #expect(try store.runCount() == 1)
    }

    @Test func csvRecordsFollowRFC4180() throws {
        let rows = try StravaActivities.rows(Array("\u{FEFF}a,b\r\n\"x,1\",\"y\"\"z\"\r\n,\n".utf8), name: "t.csv")
        #expect(rows == [["a", "b"], ["x,1", "y\"z"], ["", ""]])
        #expect(throws: StravaActivities.ParseError.unterminatedQuote(file: "t.csv", line: 2)) {
            try StravaActivities.rows(Array("a\n\"open,b\nc".utf8), name: "t.csv")
        }
        #expect(throws: StravaActivities.ParseError.missingColumn(file: "t.csv", column: "Filename")) {
            try StravaActivities(csv: Array("Activity Name\nx\n".utf8), name: "t.csv")
        }
    }

    /// A zip with good entries before a bomb (20 MB of zeros deflate about 1,000 to 1).
    private func bombZip(days: [Int]) throws -> String {
        let path = try tempPath("bomb.zip")
        let writer = try ZipWriter(path: path)
        for day in days { try writer.add("a/\(day).gpx", runGPX(day)) }
        let chunk = [UInt8](repeating: 0, count: 1 << 20)
        try writer.add("a/zeros.gpx", size: 20 << 20) { write in for _ in 0..<20 { try write(chunk) } }
        try writer.close()
        return path
    }

    @Test func aZipBombIsRefusedAndWhatWasReadBeforeItIsKept() throws {
        let path = try bombZip(days: [10, 11])
        let (results, store) = try importing([path])
        #expect(results.map(\.status) == [.imported, .imported, .failed])
        #expect(results.prefix(2).map(\.file) == ["\(path)!a/10.gpx", "\(path)!a/11.gpx"])
        #expect(results[2].file == path)
        let reason = try #require(results[2].reason)
        #expect(reason.contains("\(path)!a/zeros.gpx unpacks to more than 200 times its packed size"))
        #expect(reason.contains("the entries read before the limit are kept (2 new runs stored"), "\(reason)")
        let stored = try store.runs(matching: RunStore.RunFilter())
        #expect(Set(stored.map(\.id)) == Set(results.prefix(2).flatMap(\.runIds)))
        #expect(stored.count == 2)
    }

    @Test func aBombWithNothingBeforeItStoresNothingAndSaysSo() throws {
        let path = try bombZip(days: [])
        let (results, store) = try importing([path])
        #expect(results.map(\.status) == [.failed])
        #expect(results[0].reason?.contains("not read further, and nothing from it was stored") == true)
        #expect(try store.runCount() == 0)
    }

    /// The data loss the hostile pass found: a copy of an archive's run, matched
    /// against it in the same import, lost its run when the archive was refused.
    @Test func aRefusedArchiveNeverTakesARunAnotherInputWasMatchedTo() throws {
        let zipPath = try bombZip(days: [10, 11])
        let copy = try tempPath("x_copy.gpx")
        try Data(runGPX(10)).write(to: URL(fileURLWithPath: copy))
        for jobs in [1, 2] {
            let (results, store) = try importing([zipPath, copy], jobs: jobs)
            let last = try #require(results.last)
            #expect(last.file == copy)
            #expect(last.status == .duplicate, "\(last)")
            let kept = try #require(last.runIds.first)
            #expect(try store.runs(matching: RunStore.RunFilter()).map(\.id).contains(kept))
            #expect(try store.runCount() == 2)
        }
    }

    /// Two imports of one store at once (two processes in real life; the store's
    /// transactions are what they share): the file matched against the archive's
    /// run keeps it, whichever finished first.
    @Test func concurrentImportsOfAnArchiveAndACopyKeepTheRun() throws {
        let dir = try tempPath("store")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let storePath = dir + "/racekit.sqlite"
        let zipPath = try bombZip(days: [10, 11])
        let copy = try tempPath("x.gpx")
        try Data(runGPX(11)).write(to: URL(fileURLWithPath: copy))
        let first = try RunStore(path: storePath), second = try RunStore(path: storePath)
        let outcome = Locked<[FileResult]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { i in
            let results = try? importing(i == 0 ? [zipPath] : [copy], store: i == 0 ? first : second).results
            outcome.withLock { $0 += results ?? [] }
        }
        let copyResult = try #require(outcome.withLock { $0 }.first { $0.file == copy })
        #expect(copyResult.status == .imported || copyResult.status == .duplicate)
        let ids = try RunStore(path: storePath).runs(matching: RunStore.RunFilter()).map(\.id)
        #expect(ids.count == 2)
        #expect(copyResult.runIds.allSatisfy(ids.contains))
    }

    @Test
    func aGzipEntryCountsAgainstTheLimitsToo() throws {
        // 20 MB of one empty element and spaces repeated in a GPX, gzipped to about 20 KB,
        // stored (not deflated) in the zip: the zip layer's ratio is 1, the gzip layer's about 1,000.
        let packed = try gzip(gzipBombGPX(megabytes: 20))
        let path = try tempPath("gz.zip")
        let writer = try ZipWriter(path: path)
        try writer.add("a/10.gpx", runGPX(10))
        try writer.add("a/blank.gpx.gz", packed, stored: true)
        try writer.close()
        let (results, store) = try importing([path], jobs: 1)
        #expect(results.map(\.status) == [.imported, .failed])
        #expect(results[1].reason?.contains("\(path)!a/blank.gpx.gz (gzip) unpacks to more than 200 times") == true)
        try expectKeptExactly(results, store)
    }

    /// The gzip layer's ratio was unpacked bytes over 1 (its packed count never
    /// grew): any .gz entry past 16 MB was refused as a bomb. A real one imports.
    @Test func aLargeGzipEntryThatCompressesLikeARealFileImports() throws {
        var text = "<?xml version=\"1.0\"?><gpx version=\"1.1\" creator=\"t\"><trk><type>running</type><trkseg>\n"
        var lat = 48.0
        for i in 0..<200_000 {
            lat += 0.0000271 + Double(i % 7) * 0.0000001
            text +=
                "<trkpt lat=\"\(lat)\" lon=\"11.\(100_000 + (i * 7919) % 899_999)\"><time>2026-03-0\(1 + i / 86_400)T\(String(format: "%02d:%02d:%02d", (i / 3600) % 24, (i / 60) % 60, i % 60))Z</time></trkpt>\n"
        }
        text += "</trkseg></trk></gpx>"
        let big = Array(text.utf8)
        try #require(big.count > 16 << 20)
        let packed = try gzip(big)
        try #require(big.count / packed.count < 200)
        let path = try tempPath("big.zip")
        let writer = try ZipWriter(path: path)
        try writer.add("a/big.gpx.gz", packed, stored: true)
        try writer.close()
        let (results, store) = try importing([path], jobs: 1)
        #expect(results.map(\.status) == [.imported], "\(results)")
        #expect(try store.runCount() == 1)
    }

    @Test func sizeEntryAndDepthLimitsRefuseTheWholeArchive() throws {
        let path = try zip("three.zip", [("a/10.gpx", runGPX(10)), ("a/11.gpx", runGPX(11)), ("a/12.gpx", runGPX(12))])
        let size = try importing([path], limits: ArchiveLimits(maxTotalBytes: 1000), jobs: 1)
        #expect(size.results.map(\.status) == [.imported, .imported, .failed])
        #expect(size.results.last?.reason?.contains("unpacks to more than 1000 bytes") == true)
        try expectKeptExactly(size.results, size.store)

        let count = try importing([path], limits: ArchiveLimits(maxEntries: 2))
        #expect(count.results.map(\.status) == [.imported, .imported, .failed])
        #expect(count.results.last?.reason?.contains("more than 2 entries (at \(path)!a/12.gpx)") == true)
        try expectKeptExactly(count.results, count.store)

        // 3.zip holds 2.zip holds 1.zip holds 0.zip holds the run: four levels.
        var levels = [try zip("0.zip", [("10.gpx", runGPX(10))])]
        for level in 1...3 {
            let inner = [UInt8](try Data(contentsOf: URL(fileURLWithPath: levels[level - 1])))
            levels.append(try zip("\(level).zip", [("\(level - 1).zip", inner)]))
        }
        let deep = try importing([levels[3]])
        #expect(deep.results.map(\.status) == [.failed])
        #expect(
            deep.results[0].reason?.contains("archives nested more than 3 deep (at \(levels[3])!2.zip!1.zip!0.zip)")
                == true)
        #expect(try deep.store.runs(matching: RunStore.RunFilter()).isEmpty)
        // Three levels are fine.
        let ok = try importing([levels[2]])
        #expect(ok.results.map(\.file) == ["\(levels[2])!1.zip!0.zip!10.gpx"])
        #expect(ok.results.map(\.status) == [.imported])
    }

    @Test func unsafeNamesAndBrokenArchivesAreReportedNotFollowed() throws {
        let path = try zip(
            "evil.zip", [("../x.gpx", runGPX(10)), ("/etc/y.gpx", runGPX(11)), ("ok/12.gpx", runGPX(12))])
        let (results, store) = try importing([path])
        #expect(results.map(\.status) == [.failed, .failed, .imported])
        #expect(results[0].reason?.contains("\(path)!../x.gpx: unsafe entry name") == true)
        #expect(try store.runs(matching: RunStore.RunFilter()).count == 1)

        // A name outside ASCII (in the "C" locale libarchive gave none at all).
        let accents = try importing([try zip("ä.zip", [("läufe/ä ü 10.gpx", runGPX(10))])]).results
        #expect(accents.map(\.file) == ["\(try tempPathParent(accents))!läufe/ä ü 10.gpx"])
        #expect(accents.map(\.status) == [.imported])

        let nothing = try importing([try zip("photos.zip", [("a/readme.txt", Array("hello".utf8))])]).results
        #expect(nothing.map(\.status) == [.skipped])
        #expect(nothing[0].reason?.hasPrefix("no activity file inside") == true)

        let notZip = try tempPath("fake.zip")
        try Data("just text".utf8).write(to: URL(fileURLWithPath: notZip))
        let fake = try importing([notZip]).results
        #expect(fake.map(\.status) == [.failed])
        #expect(fake[0].reason?.hasPrefix("\(notZip): not a zip or tar archive") == true)

        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let cut = try tempPath("cut.zip")
        try Data(bytes.prefix(bytes.count / 2)).write(to: URL(fileURLWithPath: cut))
        let truncated = try importing([cut]).results
        #expect(!truncated.isEmpty)
        #expect(truncated.contains { $0.status == .failed && $0.reason?.contains(cut) == true })
    }
}

@Suite struct ArchiveFormatsTests {
    @Test func fitEntriesAreToldByTheirHeaderPlainOrGzip() throws {
        // Ten minutes at 3 m/s, one point a second, due north from 48 N.
        let points = (0...600).map { s -> SamplePoint in
            var p = SamplePoint()
            p.time = 1_767_250_800 + Double(s)
            p.latitude = 48 + Double(s) * 3 / 111_195
            p.longitude = 11
            p.distance = Double(s) * 3
            return p
        }
        let fit = FITWriter.activity(points)
        let path = try zip(
            "garmin.zip", [("DI/1_ACTIVITY.fit", fit), ("strava/2.fit.gz", try gzip(fit)), ("x/3.gpx", runGPX(10))])
        let (results, store) = try importing([path], jobs: 1)
        #expect(results.map(\.status) == [.imported, .duplicate, .imported])
        // The gzip copy is the same bytes once decompressed: the same file.
        #expect(results[1].reason?.hasPrefix("already imported as") == true)
        let runs = try store.runs(matching: RunStore.RunFilter()).sorted { $0.startedAt < $1.startedAt }
        #expect(runs.map(\.sourceFormat) == [.fit, .gpx])
        #expect(runs[0].sourceFile == "1_ACTIVITY.fit")
        #expect(abs((runs[0].distanceMeters ?? 0) - 1800) < 20)
    }
}

@Suite struct HealthArchiveTests {
    private var fixture: URL {
        var source = URL(fileURLWithPath: #filePath)
        source.deleteLastPathComponent()
        source.deleteLastPathComponent()
        return source.appendingPathComponent("RaceKitFormatsTests/Fixtures/apple-health")
    }

    @Test func anAppleHealthZipGivesTheRunsOfTheUnpackedExport() throws {
        let export = [UInt8](try Data(contentsOf: fixture.appendingPathComponent("export.xml")))
        let routes = try FileManager.default.contentsOfDirectory(atPath: fixture.path + "/workout-routes").sorted()
        #expect(!routes.isEmpty)
        // Routes first, then the export: the order inside the zip must not matter.
        var entries: [(String, [UInt8])] = try routes.map {
            (
                "apple_health_export/workout-routes/\($0)",
                [UInt8](try Data(contentsOf: fixture.appendingPathComponent("workout-routes/\($0)")))
            )
        }
        entries.append(("apple_health_export/export.xml", export))
        let path = try zip("export.zip", entries)
        let (zipped, zipStore) = try importing([path])
        let folder = try tempPath("apple_health_export")
        try FileManager.default.copyItem(atPath: fixture.path, toPath: folder)
        let (unpacked, folderStore) = try importing(InputCollector.collect([folder]).files)
        #expect(zipped.count == unpacked.count)
        #expect(zipped.allSatisfy { $0.file.hasPrefix("\(path)!apple_health_export/export.xml#") })
        // Workouts with a route are queued as their route is found: compare by line.
        func byLine(_ results: [FileResult]) -> [String: FileStatus] {
            Dictionary(
                uniqueKeysWithValues: results.map { (String($0.file.split(separator: "#").last ?? ""), $0.status) })
        }
        #expect(byLine(zipped) == byLine(unpacked))
        let a = try zipStore.runs(matching: RunStore.RunFilter()).sorted { $0.startedAt < $1.startedAt }
        let b = try folderStore.runs(matching: RunStore.RunFilter()).sorted { $0.startedAt < $1.startedAt }
        #expect(!a.isEmpty)
        #expect(a.map(\.distanceMeters) == b.map(\.distanceMeters))
        #expect(a.map(\.avgHeartRate) == b.map(\.avgHeartRate))
        #expect(a.map(\.pointCount) == b.map(\.pointCount))
        // The route files were read as routes, not imported on their own.
        #expect(!zipped.contains { $0.file.contains("workout-routes") })
    }
}

/// The archive path of the first result (`ARCHIVE!entry`).
private func tempPathParent(_ results: [FileResult]) throws -> String {
    String(try #require(results.first?.file.split(separator: "!").first))
}
