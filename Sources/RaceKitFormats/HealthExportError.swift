import RaceKitModel

/// Why an Apple Health `export.xml` was refused as a whole. Every case names the
/// file and, where there is one, the line; nothing of a refused export is stored.
/// (Problems of single workouts are not errors: the workout is skipped with its reason.)
public enum HealthExportError: RaceKitError, Equatable {
    /// The internal DTD subset declares an entity (general or parameter).
    case entityDeclared(file: String, line: Int)
    /// The document type declaration names an external subset (`SYSTEM` or `PUBLIC`).
    case externalSubset(file: String, line: Int)
    /// The document type declaration cannot be delimited.
    case malformedDoctype(file: String, line: Int, message: String)
    /// The root element is not `<HealthData>`.
    case notAnExport(file: String, root: String)
    /// More of something than RaceKit keeps in memory.
    case tooLarge(file: String, limit: String)

    public var exitClass: ExitClass { .dataError }

    public var file: String {
        switch self {
        case .entityDeclared(let f, _), .externalSubset(let f, _), .malformedDoctype(let f, _, _),
            .notAnExport(let f, _), .tooLarge(let f, _):
            return f
        }
    }

    /// The line the problem was found on, when there is one.
    public var line: Int? {
        switch self {
        case .entityDeclared(_, let l), .externalSubset(_, let l), .malformedDoctype(_, let l, _): return l
        case .notAnExport, .tooLarge: return nil
        }
    }

    /// The message without the file and line prefix.
    public var message: String {
        switch self {
        case .entityDeclared:
            return
                "the export's DTD declares an entity: refused (Apple's declares elements and attributes only; entities are how entity-expansion attacks work)"
        case .externalSubset:
            return
                "the export's document type names an external DTD (SYSTEM or PUBLIC): refused (nothing named in a document is ever loaded)"
        case .malformedDoctype(_, _, let message): return "document type declaration: \(message)"
        case .notAnExport(_, let root):
            return "not an Apple Health export: the root element is <\(root)>, expected <HealthData>"
        case .tooLarge(_, let limit): return "too large: \(limit)"
        }
    }

    public var description: String {
        if let line { return "\(file):\(line): \(message)" }
        return "\(file): \(message)"
    }
}
