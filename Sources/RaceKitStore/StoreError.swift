import RaceKitCore

/// Why the store could not do what was asked.
public enum StoreError: RaceKitError {
    public var exitClass: ExitClass {
        switch self {
        case .cannotOpen, .database, .corruptSamples: return .ioError
        case .unknownAthlete: return .usage
        case .unknownRun: return .noInput
        case .athleteExists: return .dataError
        }
    }

    case cannotOpen(path: String, reason: String)
    case unknownAthlete(String)
    case unknownRun(String)
    case athleteExists(String)
    case database(String)
    case corruptSamples(runID: String, reason: String)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason): return "\(path): cannot open the store: \(reason)"
        case .unknownAthlete(let id): return "unknown athlete '\(id)' (create it with: racekit athlete add \(id))"
        case .athleteExists(let id):
            return "athlete '\(id)' already exists (change it with racekit athlete set \(id) ...)"
        case .unknownRun(let id): return "no run with id \(id) (see racekit runs list)"
        case .database(let message): return "store error: \(message)"
        case .corruptSamples(let id, let reason): return "run \(id): \(reason)"
        }
    }
}
