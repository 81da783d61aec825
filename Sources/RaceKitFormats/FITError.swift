import RaceKitModel

/// Why a FIT file could not be read. Every case names the file; the damaged
/// cases also give the byte offset and the number of the message where the
/// problem was found, so a runner can look at the bytes.
public enum FITError: RaceKitError, Equatable {
    public var exitClass: ExitClass { .dataError }

    /// The file holds no bytes at all.
    case empty(file: String)
    /// The first bytes are not a FIT header (wrong size byte or no ".FIT" signature).
    case notFIT(file: String, reason: String)
    /// The header's own CRC does not match its bytes.
    case headerCRC(file: String, stored: UInt16, computed: UInt16)
    /// The data are damaged (or cut off) before any usable record.
    case damaged(file: String, offset: Int, message: Int, reason: String)
    /// More records than one file may hold (`ActivityFileReader.maxPoints`).
    case tooLarge(file: String, limit: Int)
    /// More laps or sessions than `limit` (`what` names which).
    case tooManyParts(file: String, what: String, limit: Int)

    /// The file the error is about.
    public var file: String {
        switch self {
        case .empty(let f), .notFIT(let f, _), .headerCRC(let f, _, _), .damaged(let f, _, _, _), .tooLarge(let f, _),
            .tooManyParts(let f, _, _):
            return f
        }
    }

    /// The message without the file name.
    public var message: String {
        switch self {
        case .empty:
            return "zero-length file: a FIT file starts with a 12- or 14-byte header"
        case .notFIT(_, let reason):
            return "not a FIT file: \(reason)"
        case .headerCRC(_, let stored, let computed):
            return "byte 12: the header CRC is \(FITError.hex(stored)) but its bytes give \(FITError.hex(computed)) "
                + "(corrupt header)"
        case .damaged(_, let offset, let message, let reason):
            return "byte \(offset) (message \(message)): \(reason); no usable record before it"
        case .tooLarge(_, let limit):
            return "too large: more than \(limit) records; RaceKit keeps a run's points in memory, "
                + "so split the file or raise RACEKIT_MAX_POINTS"
        case .tooManyParts(_, let what, let limit):
            return
                "too large: more than \(limit) \(what) (a real activity file holds a few; each one is kept in memory)"
        }
    }

    public var description: String { "\(file): \(message)" }

    static func hex(_ v: UInt16) -> String {
        let digits = String(v, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
