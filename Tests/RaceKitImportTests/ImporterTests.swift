import Foundation
import RaceKitTestSupport
import Testing

@testable import RaceKitFormats
@testable import RaceKitImport
@testable import RaceKitMetrics
@testable import RaceKitModel
@testable import RaceKitSQLite
@testable import RaceKitStore

/// A folder of small exports: two good GPX, one TCX, a route, a broken file, a .gz.
func makeExport() throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rk-import-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir.appendingPathComponent("sub"), withIntermediateDirectories: true)
    func gpx(_ day: Int, _ hr: Int) -> String {
        """
        <?xml version="1.0"?><gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1"
          xmlns:g="http://www.garmin.com/xmlschemas/TrackPointExtension/v1"><trk><type>running</type><trkseg>
        <trkpt lat="48.1" lon="11.5"><time>2026-03-\(day)T07:00:00Z</time><extensions><g:TrackPointExtension><g:hr>\(hr)</g:hr></g:TrackPointExtension></extensions></trkpt>
        <trkpt lat="48.11" lon="11.5"><time>2026-03-\(day)T07:05:00Z</time><extensions><g:TrackPointExtension><g:hr>\(hr + 10)</g:hr></g:TrackPointExtension></extensions></trkpt>
        </trkseg></trk></gpx>
        """
    }
    let tcx = """
        <?xml version="1.0"?><TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2">
        <Activities><Activity Sport="Running"><Id>2026-03-03T07:00:00Z</Id><Lap StartTime="2026-03-03T07:00:00Z"><Track>
        <Trackpoint><Time>2026-03-03T07:00:00Z</Time><DistanceMeters>0</DistanceMeters></Trackpoint>
        <Trackpoint><Time>2026-03-03T07:05:00Z</Time><DistanceMeters>1000</DistanceMeters></Trackpoint>
        </Track></Lap></Activity></Activities></TrainingCenterDatabase>
        """
    try gpx(10, 120).write(to: dir.appendingPathComponent("a.gpx"), atomically: false, encoding: .utf8)
    try gpx(11, 130).write(to: dir.appendingPathComponent("sub/b.GPX"), atomically: false, encoding: .utf8)
    try tcx.write(to: dir.appendingPathComponent("c.tcx"), atomically: false, encoding: .utf8)
    try "<?xml version=\"1.0\"?><gpx version=\"1.1\" creator=\"t\"><rte><rtept lat=\"1\" lon=\"1\"/></rte></gpx>"
        .write(to: dir.appendingPathComponent("route.gpx"), atomically: false, encoding: .utf8)
    try String(gpx(12, 140).prefix(150)).write(
        to: dir.appendingPathComponent("broken.gpx"), atomically: false, encoding: .utf8)
    try "ignored".write(to: dir.appendingPathComponent("notes.txt"), atomically: false, encoding: .utf8)
    let gz = Process()
    gz.currentDirectoryURL = WorkingFolder.url   // not a CLI run's
    gz.executableURL = URL(fileURLWithPath: "/bin/sh")
    gz.arguments = [
        "-c", "printf '%s' \"$0\" | gzip -n > \"$1\"", gpx(13, 150), dir.appendingPathComponent("d.gpx.gz").path
    ]
    try gz.run(); gz.waitUntilExit()
    return dir
}

@Suite struct ImporterTests {
    /// A copy with its clock shifted is reported as a duplicate with the shift (issue 36).
    @Test func aShiftedCopyIsSaidWithItsShift() throws {
        let r = Importer.result(
            "b.gpx", [.duplicate(existingRunID: "R1", sameBytes: false, clockShiftSeconds: 7200)], notes: [])
        #expect(r.status == .duplicate && r.runIds == ["R1"])
        #expect(
            try #require(r.reason).contains("R1, this copy's clock 2:00:00 later (whole hours"), "\(r.reason ?? "")")
        let plain = Importer.result("b.gpx", [.duplicate(existingRunID: "R1", sameBytes: false)], notes: [])
        #expect(try #require(plain.reason).contains("start within 60 s"))
    }

    @Test func collectsActivityFilesRecursivelyInOrder() throws {
        let dir = try makeExport()
        let (files, missing) = InputCollector.collect([dir.path, "/nonexistent/x.gpx"])
        #expect(
            files.map { ($0 as NSString).lastPathComponent } == [
                "a.gpx", "broken.gpx", "c.tcx", "d.gpx.gz", "route.gpx", "b.GPX"
            ])
        #expect(missing == ["/nonexistent/x.gpx"])
    }

    @Test func importsGoodFilesAndReportsTheRest() throws {
        let dir = try makeExport()
        let store = try RunStore()
        let files = InputCollector.collect([dir.path]).files
        let results = try Importer(store: store, options: ImportOptions()).run(files: files)
        let byName = Dictionary(uniqueKeysWithValues: results.map { (($0.file as NSString).lastPathComponent, $0) })
        #expect(byName["a.gpx"]?.status == .imported && byName["a.gpx"]?.runIds.count == 1)
        #expect(byName["d.gpx.gz"]?.status == .imported)
        #expect(byName["c.tcx"]?.status == .imported)
        #expect(byName["route.gpx"]?.status == .skipped)
        #expect(byName["route.gpx"]?.reason?.contains("route") == true)
        let broken = try #require(byName["broken.gpx"])
        #expect(broken.status == .failed)
        #expect(broken.reason?.contains("broken.gpx:") == true)
        #expect(try store.runCount() == 4)
    }

    /// The store opens on another thread while files are read: a slow open
    /// gives the same results; a failed one is what `run` throws, and nothing
    /// read meanwhile is kept anywhere.
    @Test func readsWhileTheStoreOpens() throws {
        let dir = try makeExport()
        let files = InputCollector.collect([dir.path]).files
        let store = try RunStore()
        let slow = PendingStore {
            Thread.sleep(forTimeInterval: 0.2)
            return store
        }
        let results = try Importer(opening: slow, options: ImportOptions()).run(files: files)
        #expect(results.map(\.status) == [.imported, .failed, .imported, .imported, .skipped, .imported])
        #expect(try store.runCount() == 4)

        struct CannotOpen: Error {}
        let failing = PendingStore { throw CannotOpen() }
        #expect(throws: CannotOpen.self) { try Importer(opening: failing, options: ImportOptions()).run(files: files) }
        #expect(throws: CannotOpen.self) { try Importer(opening: failing, options: ImportOptions()).run(files: []) }
        let one = Importer(opening: failing, options: ImportOptions()).importFile(files[0])
        #expect(one.status == .failed && one.runIds.isEmpty)
    }

    /// A store that cannot be used (unknown athlete, cannot open) stops the
    /// workers after the file each has in hand, instead of parsing every file.
    @Test func anUnusableStoreStopsTheWorkers() throws {
        let files = Array(repeating: InputCollector.collect([try makeExport().path]).files[0], count: 200)
        struct CannotOpen: Error {}
        let failing = PendingStore { throw CannotOpen() }
        var options = ImportOptions()
        options.jobs = 2
        let handled = Locked(0)
        #expect(throws: CannotOpen.self) {
            try Importer(opening: failing, options: options).run(
                files: files, progress: { _ in handled.withLock { $0 += 1 } })
        }
        #expect(handled.withLock { $0 } <= 2)
    }

    @Test func reimportingChangesNothing() throws {
        let dir = try makeExport()
        let store = try RunStore()
        let files = InputCollector.collect([dir.path]).files
        let importer = Importer(store: store, options: ImportOptions())
        let first = try importer.run(files: files)
        let second = try importer.run(files: files)
        #expect(try store.runCount() == 4)
        for (a, b) in zip(first, second) where a.status == .imported {
            #expect(b.status == .duplicate)
            #expect(b.runIds == a.runIds)
        }
    }

    /// TCX `<Notes>` were not imported; they are the run's notes (Strava's
    /// description wins when an export's index gives one).
    /// A run past `SideBySide.minimumPoints` has its best efforts worked out on
    /// a thread of their own, beside the rest of its analysis: what is stored is
    /// what one analysis on one thread gives.
    @Test func aLongRunAnalysedSideBySideIsStoredAsOneAnalysisGivesIt() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rk-long-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let points = SideBySide.minimumPoints + 5000
        var text = """
            <?xml version="1.0"?><gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1">
            <trk><type>running</type><trkseg>

            """
        var lat = 48.0
        for i in 0..<points {
            lat += (2.6 + 0.8 * sin(Double(i) / 700)) / 111_195
            let time = Date(timeIntervalSince1970: 1_772_348_400 + Double(i)).formatted(.iso8601)
            text += "<trkpt lat=\"\(lat)\" lon=\"11.5\"><ele>\(500 + i % 7)</ele><time>\(time)</time></trkpt>\n"
        }
        text += "</trkseg></trk></gpx>\n"
        let path = dir.appendingPathComponent("long.gpx").path
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        let store = try RunStore()
        #expect(try Importer(store: store, options: ImportOptions()).run(files: [path]).map(\.status) == [.imported])
        let run = try #require(try store.runs().first)
        let stored = try store.bestEfforts(runID: run.id)
        // The importer's steps, on one thread.
        guard case .document(let document) = try ActivityFileReader.read(path: path).outcome,
            case .activity(var activity) = TrackRepair.repair(document.activities[0], format: document.format)
        else {
            Issue.record("no activity")
            return
        }
        SampleCodec.quantize(&activity.samples)
        #expect(activity.samples.count == points)
        let one = RunAnalyzer.analyse(activity, physiology: Physiology())
        #expect(stored == one.bestEfforts)
        #expect(stored.count >= 5, "\(stored)")
        #expect(run.distanceMeters == one.summary.distanceMeters && run.movingSeconds == one.summary.movingSeconds)
    }

    @Test func tcxNotesBecomeTheRunsNotes() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rk-notes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let tcx = """
            <?xml version="1.0"?><TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2">
            <Activities><Activity Sport="Running"><Id>2026-03-03T07:00:00Z</Id><Lap StartTime="2026-03-03T07:00:00Z">
            <Notes>lap notes are not the run's</Notes><Track>
            <Trackpoint><Time>2026-03-03T07:00:00Z</Time><DistanceMeters>0</DistanceMeters></Trackpoint>
            <Trackpoint><Time>2026-03-03T07:05:00Z</Time><DistanceMeters>1000</DistanceMeters></Trackpoint>
            </Track></Lap><Notes>  Felt strong; 3x1k &amp; easy home  </Notes></Activity></Activities></TrainingCenterDatabase>
            """
        let path = dir.appendingPathComponent("notes.tcx").path
        try tcx.write(toFile: path, atomically: false, encoding: .utf8)
        let store = try RunStore()
        let results = try Importer(store: store, options: ImportOptions()).run(files: [path])
        #expect(results.map(\.status) == [.imported])
        let run = try #require(try store.runs(matching: RunStore.RunFilter()).first)
        #expect(run.notes == "Felt strong; 3x1k & easy home")
    }

    @Test func parallelAndSerialImportsAgree() throws {
        let dir = try makeExport()
        let files = InputCollector.collect([dir.path]).files
        var serial = ImportOptions(); serial.jobs = 1
        var parallel = ImportOptions(); parallel.jobs = 4
        let a = try Importer(store: try RunStore(), options: serial).run(files: files)
        let b = try Importer(store: try RunStore(), options: parallel).run(files: files)
        #expect(a.map(\.status) == b.map(\.status))
        #expect(a.map(\.reason) == b.map(\.reason))
    }

    @Test func importsEachActivityOfAMultiActivityFile() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rk-multi-\(UUID().uuidString).tcx")
        let text = """
            <?xml version="1.0"?><TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2"><Activities>
            <Activity Sport="Running"><Id>2026-03-18T07:00:00Z</Id><Lap><Track>
              <Trackpoint><Time>2026-03-18T07:00:00Z</Time><DistanceMeters>0</DistanceMeters></Trackpoint>
              <Trackpoint><Time>2026-03-18T07:01:00Z</Time><DistanceMeters>200</DistanceMeters></Trackpoint></Track></Lap></Activity>
            <Activity Sport="Biking"><Id>2026-03-17T07:00:00Z</Id><Lap><Track>
              <Trackpoint><Time>2026-03-17T07:00:00Z</Time><DistanceMeters>0</DistanceMeters></Trackpoint>
              <Trackpoint><Time>2026-03-17T07:01:00Z</Time><DistanceMeters>600</DistanceMeters></Trackpoint></Track></Lap></Activity>
            </Activities></TrainingCenterDatabase>
            """
        try text.write(to: dir, atomically: false, encoding: .utf8)
        let store = try RunStore()
        let result = Importer(store: store, options: ImportOptions()).importFile(dir.path)
        #expect(result.status == .imported && result.runIds.count == 2)
        #expect(Set(try store.runs().map(\.sport)) == [.running, .cycling])
    }
}

/// The workers hand their files to the store in batches (`InsertBatcher`):
/// every file still gets its own result, in order, once it is stored; a copy
/// imported beside its original is a duplicate of it; a broken file fails alone.
@Suite struct BatchedImportTests {
    static func folder() throws -> (URL, [String]) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rk-batch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        var names: [String] = []
        for i in 0..<60 {
            let points = (0..<40).map { k in
                "<trkpt lat=\"48.\(1000 + k)\" lon=\"11.5\"><time>2026-01-\(String(format: "%02d", i % 28 + 1))T\(String(format: "%02d", i / 28 + 6)):\(String(format: "%02d", k)):00Z</time></trkpt>"
            }
            let text =
                "<?xml version=\"1.0\"?><gpx version=\"1.1\" creator=\"t\" xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><type>running</type><trkseg>"
                + points.joined() + "</trkseg></trk></gpx>"
            let name = String(format: "run-%02d.gpx", i)
            try text.write(to: dir.appendingPathComponent(name), atomically: false, encoding: .utf8)
            names.append(name)
        }
        try FileManager.default.copyItem(
            at: dir.appendingPathComponent("run-07.gpx"), to: dir.appendingPathComponent("run-07-copy.gpx"))
        try "<gpx><trk>".write(to: dir.appendingPathComponent("run-30-broken.gpx"), atomically: false, encoding: .utf8)
        return (dir, InputCollector.collect([dir.path]).files)
    }

    @Test func everyFileIsToldInOrderOnceStoredWithBothWorkers() throws {
        let (dir, files) = try Self.folder()
        var statuses: [[FileStatus]] = []
        for jobs in [1, 2] {
            let store = try RunStore(path: dir.appendingPathComponent("s\(jobs).sqlite").path)
            var options = ImportOptions()
            options.jobs = jobs
            let told = Locked(0)
            let results = try Importer(store: store, options: options).run(files: files) { _ in
                told.withLock { $0 += 1 }
            }
            #expect(results.map(\.file) == files)
            #expect(told.withLock { $0 } == files.count)
            let stored = Set(try store.runs().map(\.id))
            let imported = results.filter { $0.status == .imported }
            #expect(imported.count == 60 && stored.count == 60)
            #expect(Set(imported.flatMap(\.runIds)) == stored)
            let copy = try #require(results.first { $0.file.hasSuffix("run-07-copy.gpx") })
            let original = try #require(results.first { $0.file.hasSuffix("run-07.gpx") })
            #expect(Set([copy.status, original.status]) == [.imported, .duplicate])
            #expect(copy.runIds == original.runIds)
            #expect(results.first { $0.file.hasSuffix("broken.gpx") }?.status == .failed)
            statuses.append(results.map(\.status))
        }
        #expect(statuses[0].filter { $0 == .failed }.count == 1)
        // One worker and two tell the same statuses (which of the copy and its
        // original is the duplicate may differ, so compared as a multiset).
        #expect(statuses[0].map(\.rawValue).sorted() == statuses[1].map(\.rawValue).sorted())
    }
}

/// A file whose error rolls the whole transaction back (a full disk, I/O, a
/// trigger's RAISE(ROLLBACK)) must not fail the other files of its batch: the
/// batch is stored again one file per transaction, and only that file fails,
/// with its own reason.
@Suite struct BatchFallbackTests {
    @Test func aFileThatAbortsTheTransactionFailsAloneWithItsReason() throws {
        let store = try RunStore()
        try store.writer.write { db in
            try db.execute(
                sql: """
                    CREATE TRIGGER abort_b BEFORE INSERT ON run WHEN NEW.source_file = 'b.tcx'
                    BEGIN SELECT RAISE(ROLLBACK, 'refused by the test'); END
                    """)
        }
        func run(_ day: Double) -> NewRun {
            var raw = RawActivity()
            raw.sport = "running"
            for i in 0..<3 {
                var p = SamplePoint()
                p.time = 1_772_348_400 + day * 86_400 + Double(i) * 10
                p.distance = Double(i) * 40
                raw.samples.append(p)
            }
            raw.segmentStarts = [0]
            guard case .activity(let a) = TrackRepair.repair(raw, format: .tcx) else { fatalError("repairs") }
            return NewRun(activity: a, analysis: RunAnalyzer.analyse(a, physiology: Physiology()), activityIndex: 0)
        }
        let files = ["a.tcx", "b.tcx", "c.tcx"].enumerated().map { i, name in
            FileInsert(
                runs: [run(Double(i))], athleteID: "default", sourceFile: name, format: .tcx, sha256: name,
                allowDuplicates: false)
        }
        // The store alone: the batch's transaction fails as a whole.
        #expect(throws: (any Error).self) { try store.insert(files: files, importedAt: 1) }
        #expect(try store.runCount() == 0)
        // Through the batcher: only b fails, with the trigger's message.
        let told = Locked<[String: Result<[InsertOutcome], any Error>]>([:])
        InsertBatcher().write(
            files.map { f in
                InsertBatcher.Job(insert: f, store: store) { r in told.withLock { $0[f.sourceFile] = r } }
            })
        let results = told.withLock { $0 }
        #expect(results.count == 3)
        #expect((try? results["a.tcx"]?.get()) != nil && (try? results["c.tcx"]?.get()) != nil)
        if case .failure(let error)? = results["b.tcx"] {
            #expect("\(error)".contains("refused by the test"), "\(error)")
        } else {
            Issue.record("b.tcx was not refused")
        }
        #expect(try store.runs().map(\.sourceFile).sorted() == ["a.tcx", "c.tcx"])
    }
}

/// An import killed after its last file was stored but before the recompute
/// leaves zones and loads of a provisional profile; `pending` says so, and the
/// next import, even of nothing new, finishes it: every run then has the load of
/// a clean import.
@Suite struct InterruptedRecomputeTests {
    static func files(_ dir: URL) throws -> [String] {
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        // Maximum heart rate rising run by run: each run raises the estimate the
        // earlier runs' zones and loads were computed with.
        return try (0..<6).map { i in
            let path = dir.appendingPathComponent("r\(i).gpx").path
            let gpx = trackGPXFile(day: 10 + i, heartRate: 150 + 6 * i)
            try gpx.write(toFile: path, atomically: false, encoding: .utf8)
            return path
        }
    }

    static func trackGPXFile(day: Int, heartRate: Int) -> String {
        var points = ""
        for s in stride(from: 0, through: 1800, by: 10) {
            let lat = 48.1 + Double(s) * 3 / 111_195
            let t = String(format: "2026-03-%02dT07:%02d:%02dZ", day, s / 60, s % 60)
            points +=
                "<trkpt lat=\"\(lat)\" lon=\"11.5\"><time>\(t)</time><extensions><g:TrackPointExtension><g:hr>\(heartRate + s / 300)</g:hr></g:TrackPointExtension></extensions></trkpt>\n"
        }
        return """
            <?xml version="1.0"?><gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1"
              xmlns:g="http://www.garmin.com/xmlschemas/TrackPointExtension/v1"><trk><type>running</type><trkseg>
            \(points)</trkseg></trk></gpx>
            """
    }

    static func loads(_ store: RunStore) throws -> [String: Double?] {
        Dictionary(
            uniqueKeysWithValues: try store.runs(matching: RunStore.RunFilter()).map { ("\($0.startedAt)", $0.load) })
    }

    @Test func theNextImportFinishesARecomputeAKillLeftUndone() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rk-recompute-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let files = try Self.files(dir)
        let clean = try RunStore()
        _ = try Importer(store: clean, options: ImportOptions()).run(files: files)
        #expect(try Recompute(store: clean).pending().isEmpty)

        // File by file with no recompute after: what a kill at that moment leaves.
        let killed = try RunStore()
        let importer = Importer(store: killed, options: ImportOptions())
        for f in files { #expect(importer.importFile(f).status == .imported) }
        let pending = try Recompute(store: killed).pending()
        #expect(pending.count == 1 && pending[0].provisional >= 3 && pending[0].olderVersion == 0, "\(pending)")
        #expect(try Self.loads(killed) != Self.loads(clean))

        // The rerun stores nothing new, and repairs every load.
        let rerun = try Importer(store: killed, options: ImportOptions()).run(files: files)
        #expect(rerun.allSatisfy { $0.status == .duplicate })
        #expect(try Recompute(store: killed).pending().isEmpty)
        #expect(try Self.loads(killed) == Self.loads(clean))
    }
}
