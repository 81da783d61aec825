import Foundation
import RaceKitTestSupport
import Testing

@testable import RaceKitFormats
@testable import RaceKitMetrics
@testable import RaceKitModel

/// Reads FIT bytes from memory; the document and the result.
func readFIT(_ bytes: [UInt8], name: String = "test.fit") throws -> (document: ParsedDocument, result: ReadResult) {
    let result = try FITReader.read(MemoryByteStream(name: name, bytes: bytes))
    guard case .document(let document) = result.outcome else { throw Failure(.software, "no document") }
    return (document, result)
}

/// Points of a short run: 1 Hz from 2026-03-01T07:00:00Z, 3 m/s, heart rate rising.
func fitPoints(_ count: Int, start: Double = 1_772_348_400) -> [SamplePoint] {
    (0..<count).map { i in
        var p = SamplePoint()
        p.time = start + Double(i)
        p.latitude = 48.1 + Double(i) * 0.00002
        p.longitude = 11.5 + Double(i) * 0.00001
        p.elevation = 520.4 + Double(i % 10) * 0.2
        p.distance = Double(i) * 3
        p.speed = 3
        p.heartRate = Double(120 + i % 40)
        p.cadence = 85.5
        p.power = 250
        p.temperature = 18
        return p
    }
}

/// The FIT timestamp of 2026-03-01T07:00:00Z.
let fitStart = FITWriter.timestamp(1_772_348_400)

@Suite struct FITReaderTests {
    @Test func readsRecordsWithScaleOffsetSemicirclesAndFractionalCadence() throws {
        var w = FITWriter()
        w.define(
            local: 0, global: 20,
            fields: [
                .init(253, .uint32), .init(0, .sint32), .init(1, .sint32), .init(2, .uint16), .init(5, .uint32),
                .init(6, .uint16), .init(3, .uint8), .init(4, .uint8), .init(53, .uint8), .init(13, .sint8)
            ])
        // 2^30 semicircles = 90 degrees; altitude 2600 / 5 - 500 = 20 m; distance 123456 / 100.
        w.write(
            local: 0,
            [
                .int(fitStart), .int(1 << 30), .int(-(1 << 29)), .int(2600), .int(123_456), .int(3250), .int(150),
                .int(86), .int(64), .int(-5)
            ])
        let (doc, _) = try readFIT(w.file())
        let s = try #require(doc.activities.first).samples
        #expect(s.count == 1)
        #expect(s.time[0] == 1_772_348_400)
        #expect(s.latitude[0] == 90)
        #expect(s.longitude[0] == -45)
        #expect(s.elevation[0] == 20)
        #expect(s.distance[0] == 1234.56)
        #expect(s.speed[0] == 3.25)
        #expect(s.heartRate[0] == 150)
        #expect(s.cadence[0] == 86.5)
        #expect(s.temperature[0] == -5)
        #expect(doc.format == .fit)
    }

    @Test func bigEndianDefinitionsReadLikeLittleEndian() throws {
        let points = fitPoints(30)
        var info = FITWriter.ActivityInfo()
        let little = try readFIT(FITWriter.activity(points, info: info)).document
        info.bigEndian = true
        let big = try readFIT(FITWriter.activity(points, info: info)).document
        let a = try #require(little.activities.first), b = try #require(big.activities.first)
        #expect(a.samples == b.samples)
        #expect(a.samples.count == 30)
        #expect(b.samples.heartRate[29] == 149)
        #expect(abs(b.samples.latitude[29] - 48.10058) < 1e-6)
        #expect(b.sport == "running")
        #expect(b.laps.first?.distanceMeters == 87)
    }

    @Test func compressedTimestampsRollOver() throws {
        var w = FITWriter()
        w.define(local: 0, global: 20, fields: [.init(253, .uint32), .init(3, .uint8)])
        w.define(local: 1, global: 20, fields: [.init(3, .uint8)])
        // A full timestamp whose low 5 bits are 30, then offsets 31, 1 (rollover) and 1 again.
        let base = (fitStart & ~31) + 30
        w.write(local: 0, [.int(base), .int(100)])
        w.writeCompressed(local: 1, timeOffset: 31, [.int(101)])
        w.writeCompressed(local: 1, timeOffset: 1, [.int(102)])
        w.writeCompressed(local: 1, timeOffset: 1, [.int(103)])
        w.writeCompressed(local: 1, timeOffset: 5, [.int(104)])
        let s = try #require(readFIT(w.file()).document.activities.first).samples
        let t0 = Double(base) + FITProfile.epochOffset
        #expect(Array(s.time) == [t0, t0 + 1, t0 + 3, t0 + 3, t0 + 7])
        #expect(Array(s.heartRate) == [100, 101, 102, 103, 104])
    }

    @Test func developerFieldsAreSkippedBySizeAndNamedFromLaterDescriptions() throws {
        var w = FITWriter()
        // No developer_data_id message (Wahoo), and the description after the definition (Karoo).
        w.define(
            local: 0, global: 20, fields: [.init(253, .uint32), .init(3, .uint8)],
            developer: [.init(0, size: 3), .init(1, size: 2, developerIndex: 1)])
        w.write(local: 0, [.int(fitStart), .int(140)], developer: [[1, 2, 3], [4, 5]])
        w.define(local: 1, global: 206, fields: [.init(0, .uint8), .init(1, .uint8), .init(3, .string, size: 12)])
        w.write(local: 1, [.int(0), .int(0), .string("Form Power")])
        w.write(local: 0, [.int(fitStart + 1), .int(141)], developer: [[1, 2, 3], [4, 5]])
        let doc = try readFIT(w.file()).document
        let s = try #require(doc.activities.first).samples
        #expect(Array(s.heartRate) == [140, 141])
        #expect(doc.notes.contains("developer fields not imported: Form Power, developer 1 field 1"))
    }

    /// A field description (global 206): index, number, base type, name, units,
    /// and the native record field it stands for (nil: none declared).
    private func describe(
        _ w: inout FITWriter, local: UInt8, index: Int64, number: Int64, type: Int64, name: String,
        nativeField: Int64? = nil, scale: Int64? = nil, units: String = "Watts"
    ) {
        w.define(
            local: local, global: 206,
            fields: [
                .init(0, .uint8), .init(1, .uint8), .init(2, .uint8), .init(3, .string, size: 96),
                .init(8, .string, size: 8), .init(14, .uint16), .init(15, .uint8), .init(6, .uint8)
            ])
        w.write(
            local: local,
            [
                .int(index), .int(number), .int(type), .string(name), .string(units),
                nativeField == nil ? .invalid : .int(20), nativeField.map { .int($0) } ?? .invalid,
                scale.map { .int($0) } ?? .invalid
            ])
    }

    @Test func developerPowerIsReadByItsNativeFieldThenByNameAndNativePowerWins() throws {
        var w = FITWriter()
        // Stryd: "Power" declaring native field 7; Garmin Running Power: "RP_Power" at developer
        // index 1 with no native field; "Form Power" is not power; a uint16 with scale 10.
        describe(&w, local: 1, index: 0, number: 0, type: 0x84, name: "Power", nativeField: 7)
        describe(&w, local: 1, index: 1, number: 5, type: 0x84, name: "RP_Power")
        describe(&w, local: 1, index: 0, number: 8, type: 0x84, name: "Form Power")
        describe(&w, local: 1, index: 0, number: 9, type: 0x84, name: "Heart", nativeField: 3, scale: 10)
        w.define(
            local: 0, global: 20, fields: [.init(253, .uint32)],
            developer: [.init(0, size: 2), .init(5, size: 2, developerIndex: 1), .init(8, size: 2), .init(9, size: 2)])
        // 250, 300, 70 and 1500 / 10.
        w.write(local: 0, [.int(fitStart)], developer: [[0xFA, 0], [0x2C, 1], [70, 0], [0xDC, 5]])
        w.write(local: 0, [.int(fitStart + 1)], developer: [[0xFF, 0xFF], [0x2C, 1], [70, 0], [0xFF, 0xFF]])
        w.define(
            local: 2, global: 20, fields: [.init(253, .uint32), .init(7, .uint16)],
            developer: [.init(0, size: 2)])
        w.write(local: 2, [.int(fitStart + 2), .int(222)], developer: [[0xFA, 0]])
        let doc = try readFIT(w.file()).document
        let s = try #require(doc.activities.first).samples
        // Record 1: Stryd's Power (first); record 2: Stryd's invalid, RP_Power's 300; record 3: native 222.
        #expect(Array(s.power) == [250, 300, 222])
        #expect(s.heartRate[0] == 150 && s.heartRate[1].isNaN)
        #expect(doc.notes.contains("developer fields read: Power as power, RP_Power as power, Heart as heart rate"))
        #expect(doc.notes.contains("developer fields kept as channels: Form Power"))
    }

    @Test func runningDynamicsAndOtherDeveloperFieldsAreKeptAsChannels() throws {
        var w = FITWriter()
        // Stryd: Ground Time in ms, Vertical Oscillation in cm, Leg Spring Stiffness (no native field).
        describe(&w, local: 1, index: 0, number: 1, type: 0x84, name: "Ground Time", units: "ms")
        describe(&w, local: 1, index: 0, number: 2, type: 0x84, name: "Vertical Oscillation", scale: 10, units: "cm")
        describe(&w, local: 1, index: 0, number: 3, type: 0x84, name: "Leg Spring Stiffness", scale: 10, units: "kN/m")
        w.define(
            local: 0, global: 20,
            fields: [.init(253, .uint32), .init(41, .uint16), .init(84, .uint16), .init(85, .uint16)],
            developer: [.init(1, size: 2), .init(2, size: 2), .init(3, size: 2)])
        // Native stance time 2,480 / 10 ms, balance 5,020 / 100 %, step length 10,500 / 10 mm.
        w.write(
            local: 0, [.int(fitStart), .int(2480), .int(5020), .int(10500)],
            developer: [[0xF0, 0], [0x5A, 0], [0x8F, 0]])   // 240 ms, 9.0 cm, 14.3
        w.write(
            local: 0, [.int(fitStart + 1), .invalid, .invalid, .invalid], developer: [[0xFA, 0], [0x5F, 0], [0x8F, 0]])
        let doc = try readFIT(w.file()).document
        let s = try #require(doc.activities.first).samples
        // The watch's own ground contact is the channel; Stryd's beside it stays a developer
        // channel (two measures are not mixed); Stryd's vertical oscillation, the only one, is the channel.
        let gct = try #require(s.extra(ExtraChannel.Key.groundContact))
        #expect(gct[0] == 248 && gct[1].isNaN)
        #expect(s.extra("developer:Ground Time").map(Array.init) == [240, 250])
        #expect(s.extra(ExtraChannel.Key.groundContactBalance)?[0] == 50.2)
        #expect(s.extra(ExtraChannel.Key.stepLength)?[0] == 1050)
        #expect(s.extra(ExtraChannel.Key.verticalOscillation).map(Array.init) == [90, 95])
        let stiffness = try #require(
            s.extras.first { $0.key == "developer:Leg Spring Stiffness" }, "\(doc.notes) \(s.extras.map(\.key))")
        #expect(stiffness.unit == "kN/m" && abs(stiffness.values[0] - 14.3) < 1e-9)
        #expect(
            doc.notes.contains(
                "developer fields kept as channels: Ground Time, Vertical Oscillation, Leg Spring Stiffness"))
    }

    @Test func eachDescriptionNamesItsOwnValuesAcrossChainedFilesAndRedescriptions() throws {
        func unit(_ name: String, units: String, value: UInt8, at t: Int64) -> [UInt8] {
            var w = FITWriter()
            describe(&w, local: 1, index: 0, number: 0, type: 0x02, name: name, units: units)
            w.define(local: 0, global: 20, fields: [.init(253, .uint32)], developer: [.init(0, size: 1)])
            w.write(local: 0, [.int(fitStart + t)], developer: [[value]])
            w.write(local: 0, [.int(fitStart + t + 1)], developer: [[value]])
            return w.file()
        }
        // Field 0/0 is Form Power in the first file, Core Temp in the chained second.
        let doc = try readFIT(
            unit("Form Power", units: "Watts", value: 60, at: 0) + unit("Core Temp", units: "C", value: 38, at: 2)
        )
        .document
        let s = try #require(doc.activities.first).samples
        let power = try #require(s.extras.first { $0.key == "developer:Form Power" })
        let temp = try #require(s.extras.first { $0.key == "developer:Core Temp" })
        #expect(power.unit == "Watts" && Array(power.values.prefix(2)) == [60, 60] && power.values[2].isNaN)
        #expect(temp.unit == "C" && temp.values[0].isNaN && Array(temp.values.suffix(2)) == [38, 38])
        #expect(doc.notes.contains("developer fields kept as channels: Form Power, Core Temp"))
    }

    @Test func longNamesHugeValuesAndInvalidDynamicsAreNotMixedUp() throws {
        var w = FITWriter()
        let stem = String(repeating: "é", count: 40)   // 80 bytes: cut at 64, on a character
        describe(&w, local: 1, index: 0, number: 0, type: 0x88, name: stem + " one")
        describe(&w, local: 1, index: 0, number: 1, type: 0x88, name: stem + " two")
        w.define(
            local: 0, global: 20, fields: [.init(253, .uint32), .init(41, .uint16)],
            developer: [.init(0, size: 4), .init(1, size: 4)])
        let one = withUnsafeBytes(of: Float(5).bitPattern.littleEndian, Array.init)
        let huge = withUnsafeBytes(of: Float(1e30).bitPattern.littleEndian, Array.init)
        w.write(local: 0, [.int(fitStart), .int(65534)], developer: [one, huge])
        w.write(local: 0, [.int(fitStart + 1), .int(2500)], developer: [one, one])
        let s = try #require(readFIT(w.file()).document.activities.first).samples
        let developer = s.extras.filter { $0.key.hasPrefix("developer:") }
        #expect(developer.count == 2)
        #expect(Set(developer.map(\.key)).count == 2)
        #expect(
            developer.allSatisfy { $0.key.utf8.count <= ExtraChannel.maximumKeyBytes && !$0.key.contains("\u{FFFD}") })
        #expect(developer[1].values[0].isNaN && developer[1].values[1] == 5)   // 1e30 is no value
        // 65,534 / 10 ms of ground contact is the invalid marker, not a value.
        let gct = try #require(s.extra(ExtraChannel.Key.groundContact))
        #expect(gct[0].isNaN && gct[1] == 250)
    }

    @Test func aDeveloperDescriptionWithABogusBaseTypeOrSizeIsNotedNotRead() throws {
        for (type, size) in [(Int64(0x1F), 2), (0x07, 2), (0x86, 2), (0x84, 3), (0xFF, 2)] {
            var w = FITWriter()
            describe(&w, local: 1, index: 0, number: 0, type: type, name: "Power", nativeField: 7)
            w.define(
                local: 0, global: 20, fields: [.init(253, .uint32), .init(3, .uint8)], developer: [.init(0, size: size)]
            )
            w.write(local: 0, [.int(fitStart), .int(140)], developer: [[UInt8](repeating: 0x10, count: size)])
            let doc = try readFIT(w.file()).document
            let s = try #require(doc.activities.first).samples
            #expect(s.power[0].isNaN, "base type \(type), size \(size)")
            #expect(s.heartRate[0] == 140)
            #expect(
                doc.notes.contains(
                    "1 developer field whose description declares a base type that does not exist or does not fit the field (ignored): Power"
                ), "\(doc.notes)")
            #expect(!doc.notes.contains { $0.hasPrefix("developer fields read") }, "\(doc.notes)")
        }
    }

    @Test func chainedFilesAreReadAsOneWithFreshDefinitions() throws {
        var a = FITWriter()
        a.define(local: 0, global: 20, fields: [.init(253, .uint32), .init(3, .uint8)])
        a.write(local: 0, [.int(fitStart), .int(120)])
        var b = FITWriter()
        // Local type 0 means another message in the second file.
        b.define(local: 0, global: 20, fields: [.init(3, .uint8), .init(253, .uint32)], bigEndian: true)
        b.write(local: 0, [.int(121), .int(fitStart + 10)])
        let doc = try readFIT(a.file(headerSize: 12) + b.file()).document
        let s = try #require(doc.activities.first).samples
        #expect(Array(s.heartRate) == [120, 121])
        #expect(s.time[1] - s.time[0] == 10)
        #expect(doc.notes.contains("2 FIT files chained in one"))
    }

    @Test func invalidValuesAreMissingPerBaseType() throws {
        var w = FITWriter()
        w.define(
            local: 0, global: 20,
            fields: [
                .init(253, .uint32), .init(0, .sint32), .init(1, .sint32), .init(3, .uint8), .init(5, .uint32),
                .init(13, .sint8), .init(7, .uint16)
            ])
        w.write(
            local: 0, [.int(fitStart), .int(0x7FFF_FFFF), .int(0x7FFF_FFFF), .int(255), .invalid, .int(0x7F), .invalid])
        let s = try #require(readFIT(w.file()).document.activities.first).samples
        #expect(s.latitude[0].isNaN && s.longitude[0].isNaN)
        #expect(s.heartRate[0].isNaN)
        #expect(s.distance[0].isNaN)
        #expect(s.temperature[0].isNaN)
        #expect(s.power[0].isNaN)
        #expect(s.time[0] == 1_772_348_400)
    }

    @Test func enhancedSpeedAndAltitudeArePreferred() throws {
        var w = FITWriter()
        w.define(
            local: 0, global: 20,
            fields: [.init(253, .uint32), .init(2, .uint16), .init(78, .uint32), .init(6, .uint16), .init(73, .uint32)])
        w.write(local: 0, [.int(fitStart), .int(3000), .int(2600), .int(1000), .int(4500)])
        // Only the 16-bit fields: they are used.
        w.write(local: 0, [.int(fitStart + 1), .int(3000), .invalid, .int(1000), .invalid])
        let s = try #require(readFIT(w.file()).document.activities.first).samples
        #expect(Array(s.elevation) == [20, 100])
        #expect(Array(s.speed) == [4.5, 1])
    }

    @Test func timerStopAndStartMakeAPause() throws {
        var info = FITWriter.ActivityInfo()
        info.resumeAt = [10]
        var points = fitPoints(20)
        for i in 10..<20 { points[i].time += 300 }
        let raw = try #require(readFIT(FITWriter.activity(points, info: info)).document.activities.first)
        #expect(raw.segmentStarts == [0, 10])
        guard case .activity(let activity) = TrackRepair.repair(raw, format: .fit) else {
            Issue.record("not an activity")
            return
        }
        #expect(activity.segmentStarts == [0, 10])
    }

    @Test func aPauseAcrossChainedFilesIsOneSegmentBreak() throws {
        func unit(_ from: Int64, stopAtEnd: Bool) -> [UInt8] {
            var w = FITWriter()
            w.define(local: 0, global: 20, fields: [.init(253, .uint32), .init(3, .uint8)])
            w.define(
                local: 1, global: 21, fields: [.init(253, .uint32), .init(0, .enumeration), .init(1, .enumeration)])
            for t in from..<(from + 5) { w.write(local: 0, [.int(fitStart + t), .int(130)]) }
            if stopAtEnd { w.write(local: 1, [.int(fitStart + from + 4), .int(0), .int(4)]) }
            return w.file()
        }
        let doc = try readFIT(unit(0, stopAtEnd: true) + unit(100, stopAtEnd: true) + unit(200, stopAtEnd: false))
            .document
        let raw = try #require(doc.activities.first)
        #expect(raw.segmentStarts == [0, 5, 10])
        guard case .activity(let activity) = TrackRepair.repair(raw, format: .fit) else {
            Issue.record("not an activity")
            return
        }
        #expect(activity.segmentStarts == [0, 5, 10])
    }

    @Test func hostileTypesForTimestampsAndEnumsAreMissingNotTraps() throws {
        var w = FITWriter()
        // timestamp as float64 1e300, sport as sint32 -5, a developer index of -1.
        w.define(local: 0, global: 20, fields: [.init(253, .float64), .init(3, .uint8)])
        w.write(local: 0, [.double(1e300), .int(120)])
        w.writeCompressed(local: 0, timeOffset: 3, [.double(-1), .int(121)])
        w.define(local: 1, global: 18, fields: [.init(5, .sint32), .init(7, .float64)])
        w.write(local: 1, [.int(-5), .double(-1e300)])
        w.define(local: 2, global: 206, fields: [.init(0, .sint8), .init(1, .uint8), .init(3, .string, size: 4)])
        w.write(local: 2, [.int(-1), .int(0), .string("x")])
        let doc = try readFIT(w.file()).document
        let raw = try #require(doc.activities.first)
        #expect(raw.samples.time.allSatisfy { $0.isNaN })
        #expect(Array(raw.samples.heartRate) == [120, 121])
        #expect(raw.sport == "other")
    }

    @Test func multisportSessionsBecomeActivitiesAndTransitionsAreSkipped() throws {
        var w = FITWriter()
        w.define(local: 0, global: 0, fields: [.init(0, .enumeration)])
        w.write(local: 0, [.int(4)])
        w.define(local: 1, global: 20, fields: [.init(253, .uint32), .init(5, .uint32)])
        for t in 0..<30 { w.write(local: 1, [.int(fitStart + Int64(t)), .int(Int64(t) * 100)]) }
        w.define(
            local: 2, global: 18,
            fields: [
                .init(253, .uint32), .init(2, .uint32), .init(5, .enumeration), .init(6, .enumeration),
                .init(7, .uint32)
            ])
        // Swim 0-9 s, transition 10-14 s, run 15-29 s.
        w.write(local: 2, [.int(fitStart + 9), .int(fitStart), .int(5), .int(18), .int(9000)])
        w.write(local: 2, [.int(fitStart + 14), .int(fitStart + 10), .int(3), .int(0), .int(4000)])
        w.write(local: 2, [.int(fitStart + 29), .int(fitStart + 15), .int(1), .int(3), .int(14000)])
        let doc = try readFIT(w.file()).document
        #expect(doc.activities.map(\.sport) == ["swimming", "trail_running"])
        #expect(doc.activities.map(\.samples.count) == [10, 15])
        #expect(doc.activities[1].samples.time[0] == 1_772_348_415)
        #expect(doc.notes.contains { $0.hasPrefix("session 2 (transition, 4 s, 5 records) skipped") })
    }

    @Test func aFileThatIsNotAnActivityIsSkippedWithItsType() throws {
        var w = FITWriter()
        w.define(local: 0, global: 0, fields: [.init(0, .enumeration), .init(1, .uint16)])
        w.write(local: 0, [.int(5), .int(1)])
        let doc = try readFIT(w.file()).document
        #expect(doc.activities.isEmpty)
        #expect(doc.notes == ["a FIT workout file, not an activity (file_id type 5)"])
    }

    @Test func aTruncatedFileKeepsItsCompleteRecordsWithANote() throws {
        let bytes = FITWriter.activity(fitPoints(100))
        // Cut inside the 61st record: 14-byte header, file_id, device_info, event, record definitions.
        let recordSize = 1 + 4 * 3 + 4 + 1 + 1 + 1 + 4 + 4 + 2 + 1
        let cut = 14 + (6 + 12 + 1 + 9) + (6 + 18 + 1 + 31) + (6 + 9 + 1 + 6) + (6 + 33) + 60 * recordSize + 7
        let (doc, result) = try readFIT(Array(bytes.prefix(cut)))
        #expect(doc.activities.first?.samples.count == 60)
        #expect(
            doc.notes.first
                == "truncated at byte \(FITReader.grouped(cut - 7)) (message 68): the first 60 records imported")
        #expect(result.byteCount == cut)
    }

    @Test func aFileCutBeforeAnyRecordFailsNamingTheByte() throws {
        let bytes = Array(FITWriter.activity(fitPoints(5)).prefix(30))
        #expect {
            try readFIT(bytes, name: "cut.fit")
        } throws: { error in
            guard let e = error as? FITError, case .damaged(let file, let offset, let message, _) = e else {
                return false
            }
            return file == "cut.fit" && offset == 14 && message == 1 && e.exitClass == .dataError
                && e.description.hasPrefix("cut.fit: byte 14 (message 1): the file ends")
        }
    }

    @Test func aWrongFileCRCImportsWithANote() throws {
        var w = FITWriter()
        w.define(local: 0, global: 20, fields: [.init(253, .uint32), .init(3, .uint8)])
        w.write(local: 0, [.int(fitStart), .int(130)])
        w.write(local: 0, [.int(fitStart + 1), .int(131)])
        let good = w.file()
        let stored = UInt16(good[good.count - 2]) | UInt16(good[good.count - 1]) << 8
        let doc = try readFIT(w.file(crc: stored ^ 0x5A5A)).document
        #expect(doc.activities.first?.samples.count == 2)
        #expect(
            doc.notes == [
                "file CRC mismatch at byte 38: stored \(FITError.hex(stored ^ 0x5A5A)), computed \(FITError.hex(stored)); 2 records imported, some values may be wrong"
            ])
        // The true CRC gives no note.
        #expect(try readFIT(good).document.notes.isEmpty)
    }

    @Test func aCorruptHeaderFails() throws {
        var bytes = FITWriter.activity(fitPoints(3))
        bytes[4] ^= 0xFF   // the data size, covered by the header CRC
        #expect(
            throws: FITError.headerCRC(
                file: "test.fit", stored: FITCRC.checksum(Array(FITWriter.activity(fitPoints(3)).prefix(12))),
                computed: FITCRC.checksum(Array(bytes.prefix(12))))
        ) {
            try readFIT(bytes)
        }
    }

    @Test func zeroLengthAndWrongMagicFailClearly() throws {
        #expect(throws: FITError.empty(file: "empty.fit")) { try readFIT([], name: "empty.fit") }
        var bytes = FITWriter.activity(fitPoints(3))
        bytes[8] = UInt8(ascii: "X")
        #expect(throws: FITError.notFIT(file: "x.fit", reason: "bytes 8-11 are \"XFIT\", not \".FIT\"")) {
            try readFIT(bytes, name: "x.fit")
        }
        bytes = FITWriter.activity(fitPoints(3))
        bytes[0] = 13
        #expect(throws: FITError.notFIT(file: "x.fit", reason: "the header size byte is 13, expected 12 or 14")) {
            try readFIT(bytes, name: "x.fit")
        }
    }

    @Test func aDataMessageOfAnUndefinedLocalTypeStopsThere() throws {
        var w = FITWriter()
        w.define(local: 0, global: 20, fields: [.init(253, .uint32), .init(3, .uint8)])
        w.write(local: 0, [.int(fitStart), .int(130)])
        w.append(raw: [0x05, 1, 2, 3])   // local type 5: never defined
        let doc = try readFIT(w.file()).document
        #expect(doc.activities.first?.samples.count == 1)
        #expect(
            doc.notes.first
                == "damaged at byte 32 (message 3): a data message of local type 5, which no definition message defined; the 1 record before it imported"
        )
        var only = FITWriter()
        only.append(raw: [0x03, 0, 0])
        #expect(
            throws: FITError.damaged(
                file: "test.fit", offset: 14, message: 1,
                reason: "a data message of local type 3, which no definition message defined")
        ) {
            try readFIT(only.file())
        }
    }

    @Test func fieldSizesNotAMultipleOfTheBaseTypeAreIgnored() throws {
        var w = FITWriter()
        w.define(local: 0, global: 20, fields: [.init(253, .uint32), .init(7, .uint16, size: 3), .init(3, .uint8)])
        w.write(local: 0, [.int(fitStart), .bytes([1, 2, 3]), .int(150)])
        let doc = try readFIT(w.file()).document
        let s = try #require(doc.activities.first).samples
        #expect(s.power[0].isNaN)
        #expect(s.heartRate[0] == 150)
        #expect(doc.notes.contains { $0.hasPrefix("1 field definitions whose size is not a multiple") })
    }

    @Test func creatorComesFromDeviceInfoAndStringsNeedNoTerminator() throws {
        var info = FITWriter.ActivityInfo()
        info.productName = String(repeating: "x", count: 15) + "Edge5"   // exactly 20 bytes, no NUL
        info.manufacturer = 32
        let doc = try readFIT(FITWriter.activity(fitPoints(3), info: info)).document
        #expect(doc.creator == "Wahoo Fitness xxxxxxxxxxxxxxxEdge5 (software 12.34)")
        info.productName = nil
        info.manufacturer = 1
        info.product = 3113
        let plain = try readFIT(FITWriter.activity(fitPoints(3), info: info)).document
        #expect(plain.activities.first?.creator == "Garmin product 3113 (software 12.34)")
    }

    @Test func hashesAndCountsTheDocumentBytes() throws {
        let bytes = FITWriter.activity(fitPoints(50))
        let result = try readFIT(bytes).result
        #expect(result.byteCount == bytes.count)
        #expect(result.sha256 == (try sha256sum(bytes)))
    }

    @Test func activityFileReaderSniffsFITByNameAndByHeader() throws {
        let dir = try temporaryDirectory()
        let bytes = FITWriter.activity(fitPoints(10))
        let upper = dir.appendingPathComponent("RUN.FIT"), odd = dir.appendingPathComponent("run.bin")
        try Data(bytes).write(to: upper)
        try Data(bytes).write(to: odd)
        let zipped = dir.appendingPathComponent("run.fit.gz")
        let p = Process()
        p.currentDirectoryURL = WorkingFolder.url   // not a CLI run's
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        let unnamed = dir.appendingPathComponent("run.dat.gz")
        p.arguments = ["-c", "gzip -n -c \"$0\" > \"$1\"; cp \"$1\" \"$2\"", odd.path, zipped.path, unnamed.path]
        try p.run(); p.waitUntilExit()
        for url in [upper, odd, zipped, unnamed] {
            let result = try ActivityFileReader.read(path: url.path)
            guard case .document(let doc) = result.outcome else { Issue.record("no document"); continue }
            #expect(doc.format == .fit)
            #expect(doc.activities.first?.samples.count == 10)
            #expect(result.byteCount == bytes.count)
        }
        let empty = dir.appendingPathComponent("empty.fit")
        try Data().write(to: empty)
        // An empty .fit is an empty file, skipped like an empty .gpx (FITReader itself
        // still calls zero bytes FITError.empty).
        guard case .empty = try ActivityFileReader.read(path: empty.path).outcome else {
            Issue.record("an empty .fit must read as empty")
            return
        }
    }

    @Test func aCutOffGzipFileKeepsWhatDecompressed() throws {
        let dir = try temporaryDirectory()
        let plain = dir.appendingPathComponent("run.bin"), zipped = dir.appendingPathComponent("run.fit.gz")
        try Data(FITWriter.activity(fitPoints(3000))).write(to: plain)
        let p = Process()
        p.currentDirectoryURL = WorkingFolder.url   // not a CLI run's
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", "gzip -n -c \"$0\" | head -c 20000 > \"$1\"", plain.path, zipped.path]
        try p.run(); p.waitUntilExit()
        let result = try ActivityFileReader.read(path: zipped.path)
        guard case .document(let doc) = result.outcome else { Issue.record("no document"); return }
        let count = try #require(doc.activities.first).samples.count
        #expect(count > 100 && count < 3000)
        #expect(doc.notes.first?.hasPrefix("the data stopped early (corrupt gzip data: ") == true)
        #expect(doc.notes.dropFirst().first?.hasPrefix("truncated at byte ") == true)
        // Cut inside the header: the gzip error itself.
        let stub = dir.appendingPathComponent("stub.fit.gz")
        try Data(try Data(contentsOf: zipped).prefix(12)).write(to: stub)
        #expect(throws: FormatError.self) { try ActivityFileReader.read(path: stub.path) }
    }

    @Test func tooManyRecordsFail() throws {
        #expect(throws: FITError.tooLarge(file: "test.fit", limit: 5)) {
            try FITReader.read(
                MemoryByteStream(name: "test.fit", bytes: FITWriter.activity(fitPoints(10))), pointLimit: 5)
        }
    }
}

@Suite struct FITCRCTests {
    @Test func matchesTheCRC16ARCCheckValueAtEveryLength() {
        // CRC-16/ARC of "123456789" is 0xBB3D (the catalogue's check value).
        #expect(FITCRC.checksum(Array("123456789".utf8)) == 0xBB3D)
        // Sixteen bytes at a time agree with one byte at a time, over any split.
        let bytes = (0..<77).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        var bytewise: UInt16 = 0
        for b in bytes { bytewise = [b].withUnsafeBytes { FITCRC.update(bytewise, $0) } }
        #expect(FITCRC.checksum(bytes) == bytewise)
        let split = bytes.withUnsafeBytes { all in
            FITCRC.update(
                FITCRC.update(0, UnsafeRawBufferPointer(rebasing: all[..<13])),
                UnsafeRawBufferPointer(rebasing: all[13...]))
        }
        #expect(split == bytewise)
    }
}
