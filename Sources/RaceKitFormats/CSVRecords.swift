import RaceKitModel

/// What is wrong with a CSV file (`CSVRecords`).
public enum CSVError: RaceKitError, Equatable {
    case unterminatedQuote(file: String, line: Int)
    /// A limit was crossed (`what` names it and its value).
    case tooLarge(file: String, line: Int, what: String)
    public var exitClass: ExitClass { .dataError }
    public var description: String {
        switch self {
        case .unterminatedQuote(let file, let line): return "\(file):\(line): a quoted field is never closed"
        case .tooLarge(let file, let line, let what): return "\(file):\(line): too large: \(what)"
        }
    }
}

/// The records of a CSV stream (RFC 4180: CRLF or LF line ends, quoted fields
/// with commas, newlines and doubled quotes), read in 64 KB chunks: a record is
/// in memory, never the file. Refuses a record over `maxRecordBytes`, a file over
/// `maxFileBytes` and more than `maxRecords` records.
public struct CSVRecords {
    private let stream: ByteStream
    private var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    private var at = 0, end = 0
    private var bytesRead: Int64 = 0
    private var started = false, finished = false
    private var records = 0
    /// The line the next record starts on (1-based).
    public private(set) var line = 1

    private let maxRecordBytes: Int, maxFileBytes: Int64, maxRecords: Int

    /// Records of `stream` (its name is used in messages), within these limits.
    public init(_ stream: ByteStream, maxRecordBytes: Int, maxFileBytes: Int64, maxRecords: Int) {
        self.stream = stream
        self.maxRecordBytes = maxRecordBytes; self.maxFileBytes = maxFileBytes; self.maxRecords = maxRecords
    }

    private var name: String { stream.name }

    /// The next byte, nil at the end of the stream.
    private mutating func byte() throws -> UInt8? {
        if at == end {
            if finished { return nil }
            let n = try chunk.withUnsafeMutableBytes { try stream.read(into: $0.baseAddress!, count: $0.count) }
            if n <= 0 { finished = true; return nil }
            at = 0; end = n
            bytesRead += Int64(n)
            if bytesRead > maxFileBytes {
                throw CSVError.tooLarge(
                    file: name, line: line, what: "more than \(ByteCount.text(maxFileBytes))")
            }
        }
        defer { at += 1 }
        return chunk[at]
    }

    /// Looks at the next byte without taking it.
    private mutating func peek() throws -> UInt8? {
        guard let b = try byte() else { return nil }
        at -= 1
        return b
    }

    /// The next non-blank record, nil at the end.
    public mutating func next() throws -> [String]? {
        if !started {
            started = true
            if try peek() == 0xEF {
                var bom: [UInt8] = []
                for _ in 0..<3 { if let b = try byte() { bom.append(b) } }
                if bom != [0xEF, 0xBB, 0xBF] { at -= bom.count }   // within one chunk: the file's start
            }
        }
        while true {
            guard let row = try record() else { return nil }
            if row.count == 1 && row[0].isEmpty { continue }
            records += 1
            if records > maxRecords {
                throw CSVError.tooLarge(file: name, line: line, what: "more than \(maxRecords) records")
            }
            return row
        }
    }

    /// One record as it is (a blank line is one empty field), nil at the end.
    private mutating func record() throws -> [String]? {
        guard try peek() != nil else { return nil }
        var row: [String] = []
        var field: [UInt8] = []
        var size = 0
        var quoted = false, wasQuoted = false
        let quoteLine = line
        func endField() {
            row.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
            wasQuoted = false
        }
        while let b = try byte() {
            size += 1
            if size > maxRecordBytes {
                throw CSVError.tooLarge(
                    file: name, line: line, what: "a record longer than \(ByteCount.text(Int64(maxRecordBytes)))")
            }
            if quoted {
                if b == UInt8(ascii: "\"") {
                    if try peek() == UInt8(ascii: "\"") {
                        _ = try byte()
                        field.append(b)
                    } else {
                        quoted = false
                    }
                } else {
                    if b == 10 { line += 1 }
                    field.append(b)
                }
            } else if b == UInt8(ascii: "\"") && field.isEmpty && !wasQuoted {
                quoted = true
                wasQuoted = true
            } else if b == UInt8(ascii: ",") {
                endField()
            } else if b == 10 || b == 13 {
                if b == 13, try peek() == 10 { _ = try byte() }
                line += 1
                endField()
                return row
            } else {
                field.append(b)
            }
        }
        if quoted { throw CSVError.unterminatedQuote(file: name, line: quoteLine) }
        endField()
        return row
    }
}
