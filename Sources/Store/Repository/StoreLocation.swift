import RaceKitModel

/// Where a store is: what `--store` or `RACEKIT_STORE` gives. Opening one is
/// `StoreLocation.open(access:)` in RaceKitStoreOpener, the one place that knows
/// every backend.
public enum StoreLocation: Sendable, Equatable {
    /// A SQLite file (RaceKitSQLite's `SQLiteStore`).
    case sqlite(path: String)
    /// A PostgreSQL database (RaceKitPostgres's `PGStore`): a libpq connection
    /// URL, `postgresql://user@host:port/db?sslmode=...`, with the `PG*`
    /// environment variables and `~/.pgpass` for what it leaves out.
    case postgres(url: String)

    /// URL schemes of PostgreSQL (libpq's).
    static let postgresSchemes = ["postgresql", "postgres"]

    /// The location `text` names: a `postgresql://` (or `postgres://`) URL is a
    /// PostgreSQL store, anything else the path of a SQLite file. Text that
    /// looks like a URL but is not a valid PostgreSQL one (another or mistyped
    /// scheme, white space around it, a password with an unencoded `/`, a bad
    /// `%` escape or port) is refused (64) before anything is created, and the
    /// message never shows its password: a typo must not become a SQLite file
    /// and a folder tree named after the password.
    public init(_ text: String, argument: String = "--store") throws {
        // Plain Swift, not Foundation's trimming and case-insensitive search: this
        // runs for every command, and those load Foundation's string machinery
        // (most of a millisecond at start).
        let trimmed = String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        if Self.isConnectionString(trimmed) {
            // libpq's key=value form: never a file name (it would be named after
            // the password); only URLs name a server here.
            throw Failure(
                .usage,
                "\(argument) \(ConnectionURL.redacted(trimmed)): a key=value connection string is not a store location:"
                    + " give a postgresql:// URL (the PG* variables and ~/.pgpass fill what it leaves out) or a file path"
            )
        }
        guard Self.looksLikeURL(trimmed) else {
            self = .sqlite(path: text)
            return
        }
        func refuse(_ why: String) -> Failure {
            Failure(
                .usage,
                "\(argument) \(ConnectionURL.redacted(trimmed)): not a PostgreSQL URL: \(why)"
                    + " (a PostgreSQL store is postgresql://user:password@host:port/database; a SQLite store is a file path)"
            )
        }
        if trimmed != text { throw refuse("it has white space before or after it") }
        let scheme = text.prefix(while: { $0.isASCII && ($0.isLetter || $0.isNumber || "+.-".contains($0)) })
            .lowercased()
        guard Self.postgresSchemes.contains(scheme) else {
            throw refuse("its scheme '\(scheme.prefix(24))' is not postgresql or postgres")
        }
        guard text.dropFirst(scheme.count).hasPrefix("://") else {
            throw refuse("'\(scheme)' is not followed by '://'")
        }
        // libpq knows the schemes in lower case only.
        let url = scheme + text.dropFirst(scheme.count)
        if case .failure(let problem) = ConnectionURL.parse(url) { throw refuse(problem.reason) }
        self = .postgres(url: url)
    }

    /// Whether `text` is meant as a URL: it holds `://`, or starts with a
    /// scheme and `:/`, or with something like `postgres` and holds `:` or `@`
    /// (`postgresql:rk@db`, `postgresql//rk:secret@db`).
    static func looksLikeURL(_ text: String) -> Bool {
        if holds(text, "://") { return true }
        // `posgresql//rk:pw@db`, `postgresql;//rk:pw@db`: user info with a password after `//`.
        if holds(text, "//"), let sep = text.range(of: "//") {
            let rest = text[sep.upperBound...]
            if let at = rest.lastIndex(of: "@"), rest[..<at].contains(":") { return true }
        }
        let scheme = text.prefix(while: { $0.isASCII && ($0.isLetter || $0.isNumber || "+.-".contains($0)) })
        guard let first = scheme.first, first.isLetter, scheme.count >= 2 else { return false }
        let after = text.dropFirst(scheme.count)
        if after.hasPrefix(":/") { return true }
        let lower = scheme.lowercased()
        let postgresLike = lower.hasPrefix("postgr") || lower.hasPrefix("postgre") || lower == "pg" || lower == "psql"
        return postgresLike && (after.hasPrefix(":") || after.contains("@"))
    }

    /// Whether `text` holds `part` (bytes compared, no Foundation).
    static func holds(_ text: String, _ part: String) -> Bool {
        let t = Array(text.utf8), p = Array(part.utf8)
        guard !p.isEmpty, t.count >= p.count else { return p.isEmpty }
        return (0...(t.count - p.count)).contains { i in t[i..<i + p.count].elementsEqual(p) }
    }

    /// libpq's connection keywords: text holding `KEYWORD=` for one of them as a
    /// word (`host=db password=x`) is a key=value connection string.
    static let connectionKeywords: Set<String> = [
        "host", "hostaddr", "port", "dbname", "user", "password", "passfile", "sslmode", "sslcert", "sslkey",
        "sslrootcert", "service", "connect_timeout", "application_name", "options", "target_session_attrs",
        "channel_binding", "gssencmode", "krbsrvname", "requiressl", "sslpassword"
    ]

    /// Whether `text` is a key=value connection string: a word `KEYWORD=` of
    /// libpq's, or a `password=` anywhere (never a file name).
    static func isConnectionString(_ text: String) -> Bool {
        if Self.holds(text.lowercased(), "password="), !Self.holds(text, "://") { return true }
        let words = text.split(whereSeparator: \.isWhitespace)
        return words.count > 1
            && words.contains { word in
                guard let eq = word.firstIndex(of: "=") else { return false }
                return connectionKeywords.contains(word[..<eq].lowercased())
            }
    }

    /// `s` with any password replaced by `***` (URL user info, `password=` in
    /// the query or in key=value form): `ConnectionURL.redacted`.
    public static func redacted(_ s: String) -> String { ConnectionURL.redacted(s) }
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
