import RaceKitModel

/// Why the store could not do what was asked: every backend throws these. The
/// messages say what is wrong, never which command to run about it; the CLI
/// adds that (`Exit.message(of:)` in `racekit`).
public enum StoreError: RaceKitError {
    public var exitClass: ExitClass {
        switch self {
        case .cannotOpen, .database, .corruptSamples: return .ioError
        case .missing: return .noInput
        case .newer, .unrecordedSchema: return .dataError
        case .readOnly, .cannotCreate, .notEmpty: return .cannotCreate
        case .unknownAthlete, .unsupported: return .usage
        case .unknownRun: return .noInput
        case .athleteExists: return .dataError
        case .busy: return .busy
        }
    }

    case cannotOpen(path: String, reason: String)
    /// A store location of a kind this build cannot open (`what` names the kind,
    /// never the location itself, which may hold a password).
    case unsupported(what: String)
    /// No store at the path, for a command that does not create one.
    case missing(path: String)
    /// The store was written by a newer RaceKit: a migration (`schema`) this
    /// build does not know, whose last migration is `known`.
    case newer(path: String, schema: String, known: String)
    /// RaceKit's tables are there, but the ledger of applied migrations records
    /// none (emptied or dropped): which schema the store has is unknown, so it
    /// is neither read nor migrated.
    case unrecordedSchema(path: String, ledger: String)
    /// The command writes, and the store cannot be written (`reason` says why).
    case readOnly(path: String, reason: String)
    /// The store (or its folder) cannot be created.
    case cannotCreate(path: String, reason: String)
    /// A copy's destination holds data already (`Store.importContents`).
    case notEmpty(path: String)
    case unknownAthlete(String)
    case unknownRun(String)
    case athleteExists(String)
    case database(String)
    /// Another process held the store past the wait (`reason`: the database's
    /// words): worth trying again later, as a busy server is.
    case busy(path: String, reason: String)
    case corruptSamples(runID: String, reason: String)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason): return "\(path): cannot open the store: \(reason)"
        case .missing(let path):
            return "\(path): no store there"
        case .newer(let path, let schema, let known):
            return
                "\(path) was written by a newer RaceKit (schema \(schema); this racekit knows up to \(known)): upgrade racekit"
        case .unrecordedSchema(let path, let ledger):
            return
                "\(path) holds RaceKit's tables but its ledger of applied migrations (\(ledger)) records none: which schema it has is unknown, so it is neither read nor upgraded (restore the ledger, or the whole store, from a backup)"
        case .readOnly(let path, let reason):
            return "\(path): the store is read-only (\(reason)); this command writes to it"
        case .cannotCreate(let path, let reason): return "\(path): cannot create the store: \(reason)"
        case .unsupported(let what): return "\(what) stores are not supported yet: give the path of a SQLite file"
        case .notEmpty(let path):
            return
                "\(path): the store is not empty (it holds runs, race links, wellness data or athletes besides 'default')"
        case .unknownAthlete(let id): return "unknown athlete '\(id)'"
        case .athleteExists(let id): return "athlete '\(id)' already exists"
        case .unknownRun(let id): return "no run with id \(id)"
        case .database(let message): return "store error: \(message)"
        case .busy(let path, let reason):
            return "\(path): the store is busy: another process held it for more than 30 s (\(reason))"
        case .corruptSamples(let id, let reason): return "run \(id): \(reason)"
        }
    }
}

/// An error after which no further write to the store can succeed in this
/// command (a lost connection to the server, a privilege the role lacks, a
/// store that became read-only): an import stops at the first such failure,
/// saying why once, instead of failing every remaining file the same way.
public protocol StoreUnusableError: RaceKitError {
    var leavesStoreUnusable: Bool { get }
}

extension StoreError: StoreUnusableError {
    public var leavesStoreUnusable: Bool {
        if case .readOnly = self { return true }
        return false
    }
}
