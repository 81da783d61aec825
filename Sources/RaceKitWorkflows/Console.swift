import Foundation
import RaceKitModel
import RaceKitOutput

#if canImport(Glibc)
import Glibc
#endif

/// Where a command's output goes: results to stdout, diagnostics and progress
/// to stderr. Text goes out through `DisplayText`: a control character from a
/// file (a name, an entry name, a message quoting input) is shown escaped,
/// never sent to the terminal raw. JSON and CSV are written as their formats
/// have them.
///
/// A caller that runs commands in its own process (the CLI tests) collects a
/// thread's output with `capturing`; output written from other threads goes to
/// the process's stdout and stderr as always.
public enum Console {
    /// Text of one or more lines; a newline is added.
    public static func out(_ text: String) { write(Data((DisplayText.escaped(text) + "\n").utf8)) }

    /// Bytes already ending in a newline (large JSON outputs).
    public static func out(bytes: [UInt8]) { write(Data(bytes)) }

    /// A JSON document (its encoder escapes control characters); a newline is added.
    public static func json(_ text: String) { write(Data((text + "\n").utf8)) }

    /// A CSV document from `CSV`, written as it is (its records end with CRLF).
    public static func csv(_ text: String) { write(Data(text.utf8)) }

    /// A message of one or more lines on stderr; a newline is added.
    public static func error(_ text: String) { write(Data((DisplayText.escaped(text) + "\n").utf8), error: true) }

    /// A prompt on stderr, no newline added.
    public static func prompt(_ text: String) { write(Data(DisplayText.line(text).utf8), error: true) }

    /// True when stderr is a terminal (progress lines are drawn only then);
    /// never while output is captured.
    public static var stderrIsTerminal: Bool { capture == nil && isatty(STDERR_FILENO) == 1 }

    /// True when stdin is a terminal (a question may be asked); never while
    /// output is captured.
    public static var stdinIsTerminal: Bool { capture == nil && isatty(STDIN_FILENO) == 1 }

    /// Redraws the progress line on stderr: the line's own text is escaped, the
    /// carriage return and erase-line (ESC [K) before it are the program's.
    public static func progress(_ line: String) {
        write(Data("\r\u{1B}[K\(DisplayText.line(line))".utf8), error: true)
    }

    public static func clearProgress() { write(Data("\r\u{1B}[K".utf8), error: true) }

    /// A thread's output, collected by `capturing`.
    public final class Capture: @unchecked Sendable {
        public internal(set) var stdout = Data(), stderr = Data()
    }

    private static let key = "racekit.console.capture"
    private static var capture: Capture? { Thread.current.threadDictionary[key] as? Capture }

    /// Runs `body` with this thread's output collected instead of written.
    public static func capturing<T>(_ body: () throws -> T) rethrows -> (result: T, output: Capture) {
        let capture = Capture(), earlier = Thread.current.threadDictionary[key]
        Thread.current.threadDictionary[key] = capture
        defer { Thread.current.threadDictionary[key] = earlier }
        return (try body(), capture)
    }

    /// Set by the first write that fails; `execute` ends the command with exit 74.
    private static let failed = Locked(false)

    /// True once output could not be written (cleared by the call).
    public static func takeWriteFailure() -> Bool {
        failed.withLock { f in
            defer { f = false }; return f
        }
    }

    /// Writes `data`. Output that cannot be written (a full disk, a closed
    /// pipe: unless SIGPIPE ends it first) is said once on stderr and the
    /// command then ends with exit 74 (`takeWriteFailure`), never a trap; the
    /// process is not ended here, so what the command holds is released.
    static func write(_ data: Data, error toStderr: Bool = false) {
        if let capture {
            if toStderr { capture.stderr.append(data) } else { capture.stdout.append(data) }
            return
        }
        do { try (toStderr ? FileHandle.standardError : .standardOutput).write(contentsOf: data) } catch {
            let first = failed.withLock { f in
                defer { f = true }; return !f
            }
            guard first, !toStderr else { return }
            try? FileHandle.standardError.write(
                contentsOf: Data("racekit: cannot write the output: \(error.localizedDescription)\n".utf8))
        }
    }
}
