import RaceKitMetrics
import RaceKitPostgres
import RaceKitSQLite
import RaceKitStore

extension StoreLocation {
    /// Opens the store at this location as `access` allows: the one place that
    /// knows every backend (a new backend is a case of `StoreLocation` and a
    /// branch here).
    public func open(access: StoreAccess, registry: MetricRegistry = .standard) throws -> any Store {
        switch self {
        case .sqlite(let path): return try SQLiteStore(path: path, access: access, registry: registry)
        case .postgres(let url): return try PGStore(conninfo: url, access: access, registry: registry)
        }
    }

    /// Whether a store is there (commands that read one when there is one, and
    /// never create it).
    public var exists: Bool {
        switch self {
        case .sqlite(let path): return SQLiteStore.exists(at: path)
        // A server's store is there for the server to say: opening it to read
        // reports a database without RaceKit's tables as missing (exit 66).
        case .postgres: return true
        }
    }
}
