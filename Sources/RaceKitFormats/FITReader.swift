import RaceKitModel

/// Reads FIT activity files (`.fit`, `.fit.gz`) with a streaming decoder: one
/// message at a time from a `ByteStream`, never the whole file. A file that is
/// not an activity (settings, workouts, monitoring, courses) gives a document
/// without activities and a note saying what it is; a file cut off or with a
/// wrong CRC gives what was complete, with a note, unless nothing usable is left
/// (then a `FITError` naming the byte and the message).
public enum FITReader {
    /// Reads the document `stream` holds; its name is used in messages.
    public static func read(_ stream: ByteStream) throws -> ReadResult {
        try read(stream, pointLimit: ActivityFileReader.maxPoints)
    }

    /// `read(_:)` with another record limit (tests).
    static func read(_ stream: ByteStream, pointLimit: Int) throws -> ReadResult {
        let input = FITInput(stream)
        let builder = FITActivityBuilder(name: stream.name, pointLimit: pointLimit)
        var decoder = FITDecoder(input: input, sink: builder)
        do {
            try decoder.run()
        } catch let error as FITError {
            // The stream's own error (corrupt gzip) says more than "too short".
            if let readError = input.readError { throw readError }
            throw error
        }
        try input.drain()
        let report = decoder.report
        var document = ParsedDocument(format: .fit)
        let records = builder.samples.count
        var readerNotes = notes(report, builder: builder, records: records)
        if let readError = input.readError {
            if records == 0 { throw readError }
            readerNotes.insert(
                "the data stopped early (\((readError as? FormatError)?.message ?? "\(readError)"))", at: 0)
        }
        if let damage = report.damage, records == 0 {
            throw FITError.damaged(
                file: stream.name, offset: damage.offset, message: damage.message, reason: damage.reason)
        }
        builder.finish(into: &document)
        document.notes.insert(contentsOf: readerNotes, at: 0)
        if document.activities.isEmpty, builder.activityUnits == 0, let type = builder.otherTypes.first {
            document.notes = [
                "a FIT \(FITProfile.fileTypeName(type)) file, not an activity (file_id type \(type))"
            ]
        }
        return ReadResult(outcome: .document(document), sha256: input.digest(), byteCount: input.bytesRead)
    }

    /// What the decoder met that the user should know about.
    static func notes(_ report: FITDecodeReport, builder: FITActivityBuilder, records: Int) -> [String] {
        var notes: [String] = []
        let count = "\(grouped(records)) record\(records == 1 ? "" : "s")"
        if let d = report.damage {
            if d.truncated {
                notes.append(
                    "truncated at byte \(grouped(d.offset)) (message \(grouped(d.message))): the first \(count) imported"
                )
            } else {
                notes.append(
                    "damaged at byte \(grouped(d.offset)) (message \(grouped(d.message))): \(d.reason); the \(count) before it imported"
                )
            }
        }
        for m in report.crcMismatches {
            notes.append(
                "file CRC mismatch at byte \(grouped(m.offset)): stored \(FITError.hex(m.stored)), computed \(FITError.hex(m.computed)); \(count) imported, some values may be wrong"
            )
        }
        if report.unfinishedUnits > 0, report.damage == nil {
            notes.append(
                "the header gives a data size of 0 (the device did not finish the file): \(count) read to its end")
        }
        if report.trailingBytes > 0 {
            notes.append("\(grouped(report.trailingBytes)) bytes after the last FIT file ignored (not a FIT header)")
        }
        if report.units > 1 { notes.append("\(report.units) FIT files chained in one") }
        if report.oddFieldSizes > 0 {
            notes.append(
                "\(report.oddFieldSizes) field definitions whose size is not a multiple of their base type read as bytes (ignored)"
            )
        }
        if report.untimedCompressed > 0 {
            notes.append(
                "\(report.untimedCompressed) messages with a compressed timestamp before any full timestamp (left untimed)"
            )
        }
        let read = builder.developerFieldsRead
        if !read.isEmpty { notes.append("developer fields read: \(read.joined(separator: ", "))") }
        let kept = builder.developerFieldsKept
        if !kept.isEmpty {
            let shown = kept.prefix(8).joined(separator: ", ") + (kept.count > 8 ? ", ..." : "")
            notes.append("developer fields kept as channels: \(shown)")
        }
        if !report.unreadableDeveloperFields.isEmpty {
            let keys = report.unreadableDeveloperFields.sorted().prefix(8).map { builder.developerLabel($0) }
            notes.append(
                "\(report.unreadableDeveloperFields.count) developer field\(report.unreadableDeveloperFields.count == 1 ? "" : "s") whose description declares a base type that does not exist or does not fit the field (ignored): \(keys.joined(separator: ", "))"
            )
        }
        let developer = builder.developerFieldNames
        if !developer.isEmpty {
            let shown = developer.prefix(8).joined(separator: ", ") + (developer.count > 8 ? ", ..." : "")
            notes.append("developer fields not imported: \(shown)")
        }
        return notes
    }

    /// 12345 as "12,345".
    static func grouped(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return n < 0 ? "-" + out : out
    }

    /// True when the first bytes are a FIT header: size 12 or 14 and ".FIT" at bytes 8-11.
    public static func isFITHeader(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count >= 12, bytes[0] == 12 || bytes[0] == 14 else { return false }
        return bytes[8] == 0x2E && bytes[9] == 0x46 && bytes[10] == 0x49 && bytes[11] == 0x54
    }
}
