/// Where a store is: what `--store` or `RACEKIT_STORE` gives. Opening one is
/// `StoreLocation.open(access:)` in RaceKitStore, the one place that knows
/// every backend.
public enum StoreLocation: Sendable, Equatable {
    /// A SQLite file (RaceKitStore's `SQLiteStore`).
    case sqlite(path: String)

    /// URL schemes of database servers this build cannot open yet: refused
    /// instead of being taken for a file name.
    static let serverSchemes = ["postgresql", "postgres"]

    /// The location `text` names: a file path is a SQLite store; a
    /// `postgresql://` URL is refused (`StoreError.unsupported`, exit 64).
    public init(_ text: String) throws {
        if let colon = text.range(of: "://") {
            let scheme = text[..<colon.lowerBound].lowercased()
            if Self.serverSchemes.contains(scheme) { throw StoreError.unsupported(what: "PostgreSQL") }
        }
        self = .sqlite(path: text)
    }
}

/// What a command may do to the store, and so how it is opened.
public enum StoreAccess: Sendable, Equatable {
    /// Reads only. The store must exist (`StoreError.missing`, exit 66); nothing
    /// is created on disk (no folder, lock file, -wal or -shm), and a store the
    /// user cannot write (mode 444, a folder of someone else's) can be read.
    case read
    /// Reads and writes a store that exists (`StoreError.missing` otherwise).
    case write
    /// Reads and writes, creating the store and its folder when missing.
    case create
}
