/// How a failure ends a command: the sysexits class that `racekit`'s `main()`
/// turns into the exit code, once, for every error.
public enum ExitClass: Int32, Sendable {
    /// Some inputs failed, the rest were processed.
    case someFailed = 1
    /// The command was used wrongly: an argument, an unknown athlete or run.
    case usage = 64
    /// The input data is wrong: a file, a setup, a script, a stored value.
    case dataError = 65
    /// An input file does not exist or cannot be read.
    case noInput = 66
    /// A bug: an error nobody classified.
    case software = 70
    /// Something this needs is not installed (a library, a program).
    case unavailable = 69
    /// An output file or folder cannot be created.
    case cannotCreate = 73
    /// Reading or writing failed: the store, an output file.
    case ioError = 74
    /// Another process holds what is needed (a lock), or a server is unreachable
    /// or overloaded; try again later.
    case busy = 75
    /// Access refused: a store server rejected the user or password.
    case noPermission = 77
}

extension ExitClass {
    /// The exit class of any error: a RaceKit library error says its own,
    /// encoding and decoding are bad data, anything else is a bug (70). (The
    /// CLI's argument parser handles its own errors, usage and help, before.)
    public init(of error: any Error) {
        switch error {
        case let e as any RaceKitError: self = e.exitClass
        case is EncodingError, is DecodingError: self = .dataError
        default: self = .software
        }
    }
}

/// An error thrown by RaceKit's libraries: the message names the file (and the
/// line or key) and what is wrong; `exitClass` says how the command ends.
public protocol RaceKitError: Error, CustomStringConvertible, Sendable {
    var exitClass: ExitClass { get }
}

/// A failure a command reports that no library error describes: a message and
/// its exit class.
public struct Failure: RaceKitError, Equatable {
    public var message: String
    public var exitClass: ExitClass

    public init(_ exitClass: ExitClass, _ message: String) {
        self.exitClass = exitClass
        self.message = message
    }

    /// Several problems of one input, one per line.
    public init(_ exitClass: ExitClass, problems: [String]) {
        self.init(exitClass, problems.joined(separator: "\n"))
    }

    public var description: String { message }
}
