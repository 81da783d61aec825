import ArgumentParser
import Foundation
import RaceKitModel
import RaceKitStore
import RaceKitStoreOpener
import RaceKitWorkflows

/// `--store`: every command takes it (before or after the subcommand, see
/// `RaceKitCommand.main`), also those that do not open the store, so a script
/// can pass it to any command.
struct StoreOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Path of the store file, or a postgresql:// URL (env RACEKIT_STORE).", valueName: "path-or-url"))
    var store: String?

    /// The store path: --store, then RACEKIT_STORE, then .racekit/racekit.sqlite.
    var path: String {
        if let store { return store }
        if let env = ProcessInfo.processInfo.environment["RACEKIT_STORE"], !env.isEmpty { return env }
        return ".racekit/racekit.sqlite"
    }

    /// The store as messages name it (a server's URL without its password).
    var name: String { (try? location().description) ?? StoreLocation.redacted(path) }

    /// Where the store is (`path` read as a `StoreLocation`); every command
    /// opens its store through it.
    func location() throws -> StoreLocation { try StoreLocation(path) }

    /// Opens the store to read it: it must exist (66), nothing is created or
    /// written on disk, and a store the user cannot write can still be read.
    func read() throws -> any Store { try location().open(access: .read) }

    /// Opens an existing store to change it: missing is 66, read-only 73.
    func write() throws -> any Store { try location().open(access: .write) }

    /// Opens an existing store to change it, or only to read it when the user
    /// cannot write it (`Store.access` is then `.read`): for a command whose
    /// write is not its main output (`race review` saves its race link).
    func writeIfPossible() throws -> any Store {
        do { return try write() } catch StoreError.readOnly { return try read() }
    }

    /// Opens the store to change it, creating it when missing (and saying so on
    /// stderr unless `quiet`).
    func create(quiet: Bool = false) throws -> any Store {
        let store = try location().open(access: .create)
        if store.created && !quiet { Self.announceCreated(name) }
        return store
    }

    /// The store to read when there is one (commands that use it when there
    /// is one, never creating it).
    func readIfExists() throws -> (any Store)? {
        let location = try location()
        return location.exists ? try location.open(access: .read) : nil
    }

    static func announceCreated(_ path: String) { Console.error("created store \(path)") }
}

/// Output formats for listings.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case table, csv, json
}
enum SummaryFormat: String, ExpressibleByArgument, CaseIterable { case table, json }

/// The one place an error becomes a message and a sysexits code.
enum Exit {
    /// The message of any error, with what to do about it where the CLI knows
    /// (the libraries' messages say what is wrong, not which command fixes it).
    static func message(of error: any Error) -> String {
        guard let error = error as? StoreError else { return "\(error)" }
        switch error {
        case .missing:
            return
                "\(error) (give another with --store PATH or RACEKIT_STORE=PATH; racekit import and racekit athlete add create one)"
        case .unknownAthlete(let id): return "\(error) (create it with: racekit athlete add \(id))"
        case .athleteExists(let id): return "\(error) (change it with racekit athlete set \(id) ...)"
        case .unknownRun: return "\(error) (see racekit runs list)"
        default: return "\(error)"
        }
    }

    /// Errors ArgumentParser handles itself (`exit(withError:)`): help requests
    /// (some of its types are internal), usage errors, exit codes.
    static func isArgumentParsers(_ error: any Error) -> Bool {
        error is ValidationError || error is ExitCode || error is CleanExit
            || String(reflecting: type(of: error)).hasPrefix("ArgumentParser.")
    }

    /// An `ExitCode` for a class, for commands that end after printing their own results.
    static func code(_ c: ExitClass) -> ExitCode { ExitCode(c.rawValue) }
}
