/// Where a store is: what `--store` or `RACEKIT_STORE` gives. Opening one is
/// `StoreLocation.open(access:)` in RaceKitStore, the one place that knows
/// every backend.
public enum StoreLocation: Sendable, Equatable {
    /// A SQLite file (RaceKitStore's `SQLiteStore`).
    case sqlite(path: String)
    /// A PostgreSQL database (RaceKitPostgres's `PGStore`): a libpq connection
    /// URL, `postgresql://user@host:port/db?sslmode=...`, with the `PG*`
    /// environment variables and `~/.pgpass` for what it leaves out.
    case postgres(url: String)

    /// URL schemes of PostgreSQL (libpq's).
    static let postgresSchemes = ["postgresql", "postgres"]

    /// The location `text` names: a `postgresql://` (or `postgres://`) URL is a
    /// PostgreSQL store, anything else the path of a SQLite file.
    public init(_ text: String) throws {
        if let colon = text.range(of: "://") {
            let scheme = text[..<colon.lowerBound].lowercased()
            if Self.postgresSchemes.contains(scheme) {
                // libpq knows the schemes in lower case only.
                self = .postgres(url: scheme + text[colon.lowerBound...])
                return
            }
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
