import Foundation
import RaceKitModel

/// Why `script render` could not make a script's audio.
public enum AudioError: RaceKitError, Equatable {
    /// A library or program is not installed.
    case toolMissing(tool: String, package: String)
    /// The engine has no such voice.
    case unknownVoice(voice: String, english: [String])
    /// A program failed for one or more texts.
    case failed([ToolFailure])

    /// A missing program is exit 74 (ioError): sysexits' "unavailable" (69) is
    /// not an exit class here, and like an output that cannot be written, the
    /// audio cannot be made on this machine until something is installed.
    public var exitClass: ExitClass {
        switch self {
        case .toolMissing, .failed: return .ioError
        case .unknownVoice: return .usage
        }
    }

    public var description: String {
        switch self {
        case .toolMissing(let tool, let package):
            return "\(tool) is not installed (make deps installs \(tool == package ? "it" : package))"
        case .unknownVoice(let voice, let english):
            return
                "unknown voice '\(voice)'; English voices: \(english.joined(separator: ", ")) (every language: espeak-ng --voices, from Debian's espeak-ng; add +VARIANT, e.g. en-us+f3)"
        case .failed(let failures): return failures.map(\.description).joined(separator: "\n")
        }
    }
}

/// One engine, encoder or program call that failed: for which text, the
/// error code or exit status and what it said.
public struct ToolFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The message whose text was being spoken (nil for a run about no message, e.g. `--version`).
    public var messageID: String?
    /// Which of the message's variants (nil: its main text).
    public var variant: Int?
    /// The program (and its arguments when they say what failed).
    public var tool: String
    /// Its exit status (-1: it could not be started).
    public var status: Int32
    /// Its stderr, trimmed (a library's message).
    public var stderr: String
    /// A library called in this process (its error code, not an exit status).
    public var inProcess: Bool

    public init(
        messageID: String? = nil, variant: Int? = nil, tool: String, status: Int32, stderr: String,
        inProcess: Bool = false
    ) {
        self.messageID = messageID
        self.variant = variant
        self.tool = tool
        self.status = status
        self.stderr = stderr
        self.inProcess = inProcess
    }

    init(tool: String, status: Int32, _ stderr: Data) {
        self.init(
            tool: tool, status: status,
            stderr: String(decoding: stderr, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    public var description: String {
        var subject = messageID ?? ""
        if let variant { subject += " (variant \(variant))" }
        let said = stderr.isEmpty ? "" : ": " + stderr.replacingOccurrences(of: "\n", with: " / ")
        return (subject.isEmpty ? "" : subject + ": ")
            + "\(tool) failed (\(inProcess ? "error" : "exit") \(status))\(said)"
    }
}
