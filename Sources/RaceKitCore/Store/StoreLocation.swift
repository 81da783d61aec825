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

    /// `s` with any password replaced by `***` (URL user info,
    /// `password=` in the query or in key=value form).
    public static func redacted(_ s: String) -> String {
        var out = s
        // postgresql://user:secret@host -> postgresql://user:***@host
        if let scheme = out.range(of: "://") {
            let rest = out[scheme.upperBound...]
            let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
            if let at = rest[..<authorityEnd].lastIndex(of: "@"),
                let colon = rest[..<at].firstIndex(of: ":")
            {
                out.replaceSubrange(out.index(after: colon)..<at, with: "***")
            }
        }
        // password=secret in a query string or key=value pairs.
        var result = ""
        var i = out.startIndex
        while let r = out[i...].range(of: "password=", options: .caseInsensitive) {
            result += out[i..<r.upperBound] + "***"
            i = out[r.upperBound...].firstIndex(where: { $0 == "&" || $0 == " " }) ?? out.endIndex
        }
        return result + out[i...]
    }
}

extension StoreLocation: CustomStringConvertible {
    /// The store as messages name it: a file's path, a server's URL without its password.
    public var description: String {
        switch self {
        case .sqlite(let path): return path
        case .postgres(let url): return Self.redacted(url)
        }
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
