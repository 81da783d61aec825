import ArgumentParser
import Foundation
import RaceKitCore
import RaceKitFormats
import RaceKitImport
import RaceKitRace
import RaceKitReports
import RaceKitStore

/// Options every command that touches the store takes.
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Path of the store (env RACEKIT_STORE).", valueName: "path"))
    var store: String?

    /// The store path: --store, then RACEKIT_STORE, then .racekit/racekit.sqlite.
    var path: String {
        if let store { return store }
        if let env = ProcessInfo.processInfo.environment["RACEKIT_STORE"], !env.isEmpty { return env }
        return ".racekit/racekit.sqlite"
    }

    /// Opens the store, or exits 74 (EX_IOERR) with a message on stderr.
    func open() throws -> RunStore { try Self.open(path: path) }

    static func open(path: String) throws -> RunStore {
        do { return try RunStore(path: path) } catch {
            Console.error("\(error)")
            throw ExitCode(Exit.ioError)
        }
    }
}

/// Output formats for listings.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case table, csv, json
}

/// sysexits codes used by racekit.
enum Exit {
    static let someFailed: Int32 = 1
    static let usage: Int32 = 64
    static let dataError: Int32 = 65
    static let noInput: Int32 = 66
    static let cannotCreate: Int32 = 73
    static let ioError: Int32 = 74
    static let busy: Int32 = 75
    static let software: Int32 = 70

    /// The sysexits code for an error no command mapped: bad data for format,
    /// setup, script and encoding errors, an I/O error for the store, 70 (internal
    /// software error) for anything else.
    /// Errors of RaceKit's libraries (and encoding), which `code(for:)` classifies.
    static func isLibraryError(_ error: any Error) -> Bool {
        code(for: error) != software
    }

    static func code(for error: any Error) -> Int32 {
        switch error {
        case is FormatError, is SetupError, is ScriptError, is CourseError, is PacePlanError, is ExpressionError,
             is EncodingError, is DecodingError, is SampleCodec.DecodeError:
            return dataError
        case is StoreError, is Importer.RecomputeError: return ioError
        case is ExportError, is ReportError: return cannotCreate
        default: return software
        }
    }
}
