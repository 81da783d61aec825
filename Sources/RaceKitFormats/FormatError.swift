import RaceKitModel

/// Why a file could not be read. Every case names the file; the message is for runners.
public enum FormatError: RaceKitError, Equatable {
    public var exitClass: ExitClass {
        if case .cannotOpen = self { return .noInput }
        if case .changedWhileRead = self { return .busy }
        return .dataError
    }

    case cannotOpen(file: String, reason: String)
    case corruptGzip(file: String, message: String)
    case malformedXML(file: String, line: Int?, message: String)
    case notAnActivityFile(file: String, root: String)
    case doctypeRefused(file: String, line: Int?)
    case tooLarge(file: String, limit: String)
    /// The file was written while it was read (`FileIdentity`): nothing of it is stored.
    case changedWhileRead(file: String)

    public var file: String {
        switch self {
        case .cannotOpen(let f, _), .corruptGzip(let f, _), .malformedXML(let f, _, _),
            .notAnActivityFile(let f, _), .doctypeRefused(let f, _), .tooLarge(let f, _), .changedWhileRead(let f):
            return f
        }
    }

    /// The line the problem was found on, when known.
    public var line: Int? {
        switch self {
        case .malformedXML(_, let line, _), .doctypeRefused(_, let line): return line
        default: return nil
        }
    }

    /// The message without the file and line prefix.
    public var message: String {
        switch self {
        case .cannotOpen(_, let reason): return "cannot open: \(reason)"
        case .corruptGzip(_, let message): return "corrupt gzip data: \(message)"
        case .malformedXML(_, _, let message): return message
        case .notAnActivityFile(_, let root):
            let xml = ActivityReaders.standard.xmlReaders
            let names = ActivityReaders.listed(xml.map(\.name), last: "or")
            let roots = ActivityReaders.listed(xml.map { "<\($0.rootElement.spelling)>" }, last: "or")
            return "not a \(names) file: the root element is <\(root)>, expected \(roots)"
        case .doctypeRefused:
            return
                "document type declarations (DTD) are refused: activity files never need one, and they are how entity-expansion and external-entity attacks work"
        case .tooLarge(_, let limit): return "too large: \(limit)"
        case .changedWhileRead:
            return
                "the file changed while it was read (is something still writing it?): nothing of it was stored; import it again once it is settled"
        }
    }

    public var description: String {
        if let line { return "\(file):\(line): \(message)" }
        return "\(file): \(message)"
    }
}
