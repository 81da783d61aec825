import ArgumentParser
import Foundation
import RaceKitCore
import RaceKitFormats
import RaceKitImport
import RaceKitRace
import RaceKitStore

/// `--store`: every command takes it (before or after the subcommand, see
/// `RaceKitCommand.main`), also those that do not open the store, so a script
/// can pass it to any command.
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Path of the store (env RACEKIT_STORE).", valueName: "path"))
    var store: String?

    /// The store path: --store, then RACEKIT_STORE, then .racekit/racekit.sqlite.
    var path: String {
        if let store { return store }
        if let env = ProcessInfo.processInfo.environment["RACEKIT_STORE"], !env.isEmpty { return env }
        return ".racekit/racekit.sqlite"
    }

    /// Opens the store to read it: it must exist (66), nothing is created or
    /// written on disk, and a store the user cannot write can still be read.
    func read() throws -> RunStore { try RunStore(path: path, access: .read) }

    /// Opens an existing store to change it: missing is 66, read-only 73.
    func write() throws -> RunStore { try RunStore(path: path, access: .write) }

    /// Opens an existing store to change it, or only to read it when the user
    /// cannot write it (`RunStore.access` is then `.read`): for a command whose
    /// write is not its main output (`race review` saves its race link).
    func writeIfPossible() throws -> RunStore {
        do { return try write() } catch StoreError.readOnly { return try read() }
    }

    /// Opens the store to change it, creating it when missing (and saying so on
    /// stderr unless `quiet`).
    func create(quiet: Bool = false) throws -> RunStore {
        let store = try RunStore(path: path, access: .create)
        if store.created && !quiet { Self.announceCreated(path) }
        return store
    }

    /// The store to read when its file exists (commands that use it when there
    /// is one, never creating it).
    func readIfExists() throws -> RunStore? {
        FileManager.default.fileExists(atPath: path) ? try read() : nil
    }

    static func announceCreated(_ path: String) { Console.error("created store \(path)") }
}

/// Output formats for listings.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case table, csv, json
}

/// The one place an error becomes a message and a sysexits code.
enum Exit {
    /// The exit class of any error: a RaceKit library error says its own,
    /// encoding and decoding are bad data, anything else is a bug (70).
    /// ArgumentParser's own errors (usage, help, `ExitCode`) never get here.
    static func exitClass(of error: any Error) -> ExitClass {
        switch error {
        case let e as any RaceKitError: return e.exitClass
        case is EncodingError, is DecodingError: return .dataError
        default: return .software
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
