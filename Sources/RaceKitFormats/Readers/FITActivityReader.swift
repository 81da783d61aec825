import RaceKitModel

/// Garmin's FIT protocol (`FITReader`): told by its header, since a name may say
/// nothing (Garmin's `_ACTIVITY` files).
struct FITActivityReader: ByteActivityReader {
    var format: SourceFormat { .fit }
    var name: String { "FIT" }
    var fileExtensions: [String] { [".fit"] }
    var headerLength: Int { 12 }

    func isHeader(_ bytes: UnsafeRawBufferPointer) -> Bool { FITReader.isFITHeader(bytes) }

    func read(_ stream: any ByteStream, limits: ReadLimits) throws -> ReadResult {
        try FITReader.read(stream, pointLimit: limits.points)
    }
}
