import Foundation
import RaceKitFormats
import RaceKitMetrics
import RaceKitModel
import RaceKitOutput
import RaceKitPlan
import RaceKitScript

/// One fuzz input through the whole import pipeline: read (libxml2 streaming
/// reader, gzip), repair, analyse, and a sample-blob round trip. Any crash, hang
/// or sanitizer report is a bug; a thrown `FormatError` is the expected outcome
/// for most inputs.
enum FuzzTarget {
    /// Where inputs are written (the reader's real path goes through a file).
    static let path: String = {
        let dir = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        return "\(dir)/racekit-fuzz-\(getpid()).xml"
    }()

    /// `RACEKIT_FUZZ_TARGET`: `reader` (default), `fit`, `setup`, `setup-numbers`, `formatters`, `expression`,
    /// `health`, `csv`.
    static let target = ProcessInfo.processInfo.environment["RACEKIT_FUZZ_TARGET"] ?? "reader"

    static func run(_ bytes: UnsafeRawBufferPointer) {
        switch target {
        case "setup": runSetup(bytes)
        case "setup-numbers": runSetupNumbers(bytes)
        case "formatters": runFormatters(bytes)
        case "expression": runExpression(bytes)
        case "health": runHealth(bytes)   // HealthFuzzTarget.swift
        case "fit": runFIT(bytes)
        case "csv": runCSV(bytes)
        default: runReader(bytes)
        }
    }

    /// The streaming CSV reader (Strava's activities.csv) with small limits: it
    /// ends, refuses past them, and every record it gives holds at most the bytes
    /// read.
    static func runCSV(_ bytes: UnsafeRawBufferPointer) {
        var records = CSVRecords(
            MemoryByteStream(name: "activities.csv", bytes: Array(bytes)), maxRecordBytes: 4096, maxFileBytes: 1 << 16,
            maxRecords: 1000)
        var total = 0
        while let row = try? records.next() {
            total += row.reduce(0) { $0 + $1.utf8.count }
            if total > bytes.count * 3 + 16 { fatalError("more text than the input could hold") }
        }
    }

    /// The race-setup loader (Yams, strict validation) and, when a setup loads,
    /// the planner and every renderer over it. A `SetupError` is the expected outcome.
    static func runSetup(_ bytes: UnsafeRawBufferPointer) {
        guard var setup = try? SetupLoader.parse(yaml: String(decoding: bytes, as: UTF8.self), file: "fuzz.yaml") else {
            return
        }
        setup.coursePath = nil
        guard let plan = try? RacePlanner.plan(setup) else { return }
        guard plan.splits.last?.split.cumulativeSeconds == Int(plan.plannedSeconds.rounded()) else {
            fatalError("the plan does not end on the target")
        }
        do { _ = try JSONOutput.string(PlanOutput.json(plan)) } catch {
            fatalError("a valid plan did not encode: \(error)")
        }
        _ = PlanOutput.markdown(plan)
        _ = PlanOutput.splitsCSV(plan) + PlanOutput.cuesCSV(plan)
        _ = PaceBand.svg(plan, unitName: "km")
    }

    /// The input as doubles: every 8 bytes a bit pattern (NaN, infinities,
    /// subnormals and huge values included).
    static func doubles(_ bytes: UnsafeRawBufferPointer) -> [Double] {
        stride(from: 0, to: bytes.count - 7, by: 8).map { i in
            var bits: UInt64 = 0
            for k in 0..<8 { bits |= UInt64(bytes[i + k]) << (8 * UInt64(k)) }
            return Double(bitPattern: bits)
        }
    }

    /// The setup loader's numeric keys with values from the input: a valid setup
    /// whose numbers are anything. It loads and plans, or throws a SetupError.
    static func runSetupNumbers(_ bytes: UnsafeRawBufferPointer) {
        let v = doubles(bytes).map { "\($0)" } + Array(repeating: "1", count: 12)
        let yaml = """
            name: Fuzz
            date: 2026-06-01
            distance: \(v[0]) m
            target_time: "\(v[1])"
            pacing: {strategy: negative_split, split_percent: \(v[2]), smoothing_m: \(v[3])}
            checkpoints: [\(v[4])]
            fueling: {carbs_per_hour_g: \(v[5]), gel_carbs_g: \(v[6])}
            hydration: {ml_per_hour: \(v[7]), sodium_mg_per_hour: \(v[8]), aid_stations_km: [\(v[9]), \(v[10])]}
            """
        guard var setup = try? SetupLoader.parse(yaml: yaml, file: "fuzz.yaml") else { return }
        setup.coursePath = nil
        guard let plan = try? RacePlanner.plan(setup) else { return }
        do { _ = try JSONOutput.string(PlanOutput.json(plan)) } catch {
            fatalError("a valid plan did not encode: \(error)")
        }
        _ = PlanOutput.markdown(plan)
    }

    /// Every shared formatter and a summary check over any double.
    static func runFormatters(_ bytes: UnsafeRawBufferPointer) {
        for v in doubles(bytes) {
            for digits in [0, 1, 2, 9] { _ = TextFormat.fixed(v, digits) }
            _ = TextFormat.duration(v)
            _ = TextFormat.pace(v)
            _ = TimestampParser.format(v)
            do { _ = try JSONOutput.string([Null(wrappedValue: v)]) } catch {
                fatalError("a number did not encode: \(error)")
            }
            var s = RunSummary(startedAt: 0, endedAt: 1, elapsedSeconds: 1, pointCount: 2)
            s.distanceMeters = v; s.avgHeartRate = v; s.ascentMeters = v; s.movingSeconds = v
            let clean = s.sanitised()
            for x in [clean.distanceMeters, clean.avgHeartRate, clean.ascentMeters, clean.movingSeconds] {
                if let x, !x.isFinite { fatalError("a sanitised summary holds \(x)") }
            }
        }
    }

    /// The script expression parser and evaluator, and the placeholder filler:
    /// an input parses or throws an `ExpressionError` whose caret lies on the input,
    /// and evaluation over known, unknown and extreme values never traps.
    static func runExpression(_ bytes: UnsafeRawBufferPointer) {
        let text = String(decoding: bytes, as: UTF8.self)
        _ = Placeholders.fill(
            text, metrics: Metrics(),
            plan: ScriptPlan(distanceMeters: 10_000, targetSeconds: 3000, stepMeters: 1000, clockSeconds: []))
        do {
            let e = try Expression(text)
            var m = Metrics()
            _ = e.holds(m)
            m.distance = 5000; m.duration = 1500; m.hr = 150; m.hrZone = 3; m.cadence = 170; m.avgPace = 300
            m.currentPace = 290; m.targetPace = 300; m.pace3minRatio = 1; m.timeOfDayHour = 9
            _ = e.holds(m)
            m.distance = .greatestFiniteMagnitude; m.duration = 0; m.hr = -0.0; m.avgPace = .infinity
            _ = e.holds(m)
        } catch let error as ExpressionError {
            guard error.column >= 1, error.column <= text.count + 1, error.length >= 1 else {
                fatalError("caret outside the expression: column \(error.column), length \(error.length)")
            }
            _ = error.description
        } catch {
            fatalError("unexpected error \(error)")
        }
    }

    /// A read as text: the digest and document, or the error.
    static func describeRead(
        _ mode: ActivityFileReader.ReadAhead, _ parsing: ActivityFileReader.Parsing = .pushOnly
    ) -> String {
        do {
            let r = try ActivityFileReader.read(path: path, readAhead: mode, parsing: parsing)
            return "\(r.sha256) \(r.byteCount) \(r.outcome)"
        } catch {
            return "error: \(error)"
        }
    }

    static func runReader(_ bytes: UnsafeRawBufferPointer) {
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { return }
        // Differential: the read-ahead thread must give exactly what one thread gives.
        let plain = describeRead(.never), ahead = describeRead(.always)
        guard plain == ahead else {
            fatalError("read-ahead differs from a plain read:\n\(plain.prefix(400))\n\(ahead.prefix(400))")
        }
        // And the pull parser (a small file is parsed whole) must read the push
        // parser's document, or refuse what it refuses (the two word some errors
        // differently).
        let whole = describeRead(.never, .bySize)
        guard plain.hasPrefix("error: ") ? whole.hasPrefix("error: ") : whole == plain else {
            fatalError("the pull parser differs from the push parser:\n\(plain.prefix(400))\n\(whole.prefix(400))")
        }
        guard let result = try? ActivityFileReader.read(path: path), case .document(let document) = result.outcome
        else { return }
        analyse(document)
    }

    /// The FIT reader over the input from memory: a document or a `FITError`
    /// (anything else is a bug), every byte counted and hashed; then the
    /// document through repair, analysis and the sample codec.
    static func runFIT(_ bytes: UnsafeRawBufferPointer) {
        let input = Array(bytes)
        let result: ReadResult
        do {
            result = try FITReader.read(MemoryByteStream(name: "fuzz.fit", bytes: input))
        } catch let error as FITError {
            guard error.description.hasPrefix("fuzz.fit: ") else {
                fatalError("a FIT error without its file: \(error)")
            }
            return
        } catch {
            fatalError("FITReader threw something else than a FITError: \(error)")
        }
        guard result.byteCount == input.count else {
            fatalError("read \(result.byteCount) of \(input.count) bytes")
        }
        guard case .document(let document) = result.outcome else { return }
        analyse(document)
    }

    /// Repair, analysis, splits and a sample-blob round trip of every activity.
    static func analyse(_ document: ParsedDocument) {
        for raw in document.activities {
            guard
                case .activity(let activity) = TrackRepair.repair(
                    raw, format: document.format,
                    documentHeartRate: document.documentHeartRate)
            else { continue }
            let analysis = RunAnalyzer.analyse(
                activity,
                physiology: Physiology(
                    maxHeartRate: 190, restingHeartRate: 50,
                    thresholdHeartRate: 170, thresholdPaceSecondsPerKm: 300))
            _ = analysis.splits(.km)
            let blob = SampleCodec.encode(activity.samples)
            guard let back = try? SampleCodec.decode(blob), back.count == activity.samples.count else {
                fatalError("sample blob round trip lost points")
            }
        }
    }
}
