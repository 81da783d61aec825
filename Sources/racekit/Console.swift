import Foundation
import RaceKitCore

#if canImport(Glibc)
import Glibc
#endif

/// Where output goes: results to stdout, diagnostics and progress to stderr.
/// Text goes out through `DisplayText`: a control character from a file (a
/// name, an entry name, a message quoting input) is shown escaped, never sent
/// to the terminal raw. JSON and CSV are written as their formats have them.
enum Console {
    /// Text of one or more lines; a newline is added.
    static func out(_ text: String) { write(Data((DisplayText.escaped(text) + "\n").utf8)) }

    /// Bytes already ending in a newline (large JSON outputs).
    static func out(bytes: [UInt8]) { write(Data(bytes)) }

    /// A JSON document (its encoder escapes control characters); a newline is added.
    static func json(_ text: String) { write(Data((text + "\n").utf8)) }

    /// A CSV document from `CSV`, written as it is (its records end with CRLF).
    static func csv(_ text: String) { write(Data(text.utf8)) }

    /// A message of one or more lines on stderr; a newline is added.
    static func error(_ text: String) { write(Data((DisplayText.escaped(text) + "\n").utf8), error: true) }

    /// A prompt on stderr, no newline added.
    static func prompt(_ text: String) { write(Data(DisplayText.line(text).utf8), error: true) }

    /// True when stderr is a terminal (progress lines are drawn only then).
    static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// Redraws the progress line on stderr: the line's own text is escaped, the
    /// carriage return and erase-line (ESC [K) before it are the program's.
    static func progress(_ line: String) {
        write(Data("\r\u{1B}[K\(DisplayText.line(line))".utf8), error: true)
    }

    static func clearProgress() { write(Data("\r\u{1B}[K".utf8), error: true) }

    /// Writes `data`; output that cannot be written (a full disk, a closed
    /// pipe: unless SIGPIPE ends it first) ends the command with exit 74 and a line on stderr, never a trap.
    static func write(_ data: Data, error toStderr: Bool = false) {
        do { try (toStderr ? FileHandle.standardError : .standardOutput).write(contentsOf: data) } catch {
            let line = "racekit: cannot write the output: \(error.localizedDescription)\n"
            if !toStderr { try? FileHandle.standardError.write(contentsOf: Data(line.utf8)) }
            exit(ExitClass.ioError.rawValue)
        }
    }
}
