import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Where output goes: results to stdout, diagnostics and progress to stderr.
enum Console {
    static func out(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// Bytes already ending in a newline (large JSON outputs).
    static func out(bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { FileHandle.standardOutput.write(Data(buffer: $0)) }
    }

    static func error(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// True when stderr is a terminal (progress lines are drawn only then).
    static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// Redraws the progress line on stderr.
    static func progress(_ line: String) {
        FileHandle.standardError.write(Data("\r\u{1B}[K\(line)".utf8))
    }

    static func clearProgress() {
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }

}
