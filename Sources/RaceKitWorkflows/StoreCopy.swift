import Foundation
import RaceKitModel
import RaceKitStore
import RaceKitStoreOpener

/// `racekit store copy SRC DST`: every athlete, run (samples byte for byte,
/// every column), zone, best effort and race link of one store into a new or
/// empty one, ids unchanged, in one transaction of the destination; then the
/// content digests of both (`StoreDigest`), which must be equal.
public enum StoreCopy {
    /// What a copy did.
    public struct Result: Sendable {
        /// The destination was created by the copy (a new SQLite file, or
        /// RaceKit's tables in an empty PostgreSQL database).
        public var created: Bool
        /// The destination as messages name it (a server's URL without its password).
        public var destination: String
        public var runs: Int
        public var source: StoreDigest
        public var copy: StoreDigest
        /// What the command prints: the copy and both digests.
        public var lines: [String]
    }

    /// `store copy SOURCE DESTINATION`: the two locations as given (a message
    /// about either names it as its argument, never as `--store`).
    public static func run(source: String, destination: String) throws -> Result {
        try run(
            from: StoreLocation(source, argument: "SOURCE"), to: StoreLocation(destination, argument: "DESTINATION"))
    }

    /// Copies `source` into `destination` (created when missing) and checks
    /// the copy's digest against the source's. A destination holding data is
    /// refused (`StoreError.notEmpty`, exit 73) before anything is written; a
    /// failed copy leaves it as it was (the transaction is rolled back).
    public static func run(
        from source: StoreLocation, to destination: StoreLocation, pageSize: Int = StoreDigest.pageSize
    ) throws -> Result {
        if same(source, destination) { throw StoreCopyError.sameStore(source.description) }
        let from: any Store
        do { from = try source.open(access: .read) } catch StoreError.missing {
            throw StoreCopyError.noSource(source.description)
        }
        let to = try destination.open(access: .create)
        guard try to.isEmpty() else { throw StoreError.notEmpty(path: destination.description) }
        let runs = try to.importContents(of: from, pageSize: pageSize)
        let sourceDigest = try StoreDigest.of(from, pageSize: pageSize)
        let copyDigest = try StoreDigest.of(to, pageSize: pageSize)
        guard sourceDigest == copyDigest else {
            throw StoreCopyError.digestsDiffer(
                source: source.description, sourceDigest: sourceDigest, copy: destination.description,
                copyDigest: copyDigest)
        }
        return Result(
            created: to.created, destination: destination.description, runs: runs, source: sourceDigest,
            copy: copyDigest,
            lines: [
                "copied \(runs) run\(runs == 1 ? "" : "s") from \(source) to \(destination)",
                "source digest: \(sourceDigest)", "copy digest:   \(copyDigest)"
            ])
    }

    /// Whether two locations name the same store (a file by its resolved path).
    static func same(_ a: StoreLocation, _ b: StoreLocation) -> Bool {
        switch (a, b) {
        case (.sqlite(let x), .sqlite(let y)):
            func resolved(_ p: String) -> String {
                URL(fileURLWithPath: p).standardizedFileURL.resolvingSymlinksInPath().path
            }
            return resolved(x) == resolved(y)
        default: return a == b
        }
    }
}

/// Why `store copy` failed, beyond the stores' own errors.
public enum StoreCopyError: RaceKitError, Equatable {
    /// The source and the destination are one store.
    case sameStore(String)
    /// There is no store to copy there.
    case noSource(String)
    /// The copy's content digest is not the source's (a source written to
    /// during the copy, or a bug): the destination holds the copy as written.
    case digestsDiffer(source: String, sourceDigest: StoreDigest, copy: String, copyDigest: StoreDigest)

    public var exitClass: ExitClass {
        switch self {
        case .sameStore: return .usage
        case .noSource: return .noInput
        case .digestsDiffer: return .software
        }
    }

    public var description: String {
        switch self {
        case .sameStore(let name): return "\(name): the source and the destination are the same store"
        case .noSource(let name): return "\(name): no store there to copy"
        case .digestsDiffer(let source, let a, let copy, let b):
            return """
                the copy differs from its source: \(source) has digest \(a), \(copy) has \(b); \
                was the source written to during the copy? remove \(copy) before copying again
                """
        }
    }
}
