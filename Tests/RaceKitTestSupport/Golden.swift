import Foundation

/// Golden files: a renderer's output compared byte for byte with a file
/// committed beside its tests (each test target's `Golden/` folder, found by
/// `#filePath` so that recording writes where the diff is reviewed).
///
/// `RACEKIT_UPDATE_GOLDEN=1 swift test` records: the text is written and the
/// check fails, as swift-argument-parser's snapshot helper does, so a golden
/// never changes in a passing run. A missing golden is recorded and fails the
/// same way: a new test cannot pass before its golden is reviewed.
public enum Golden {
    /// `RACEKIT_UPDATE_GOLDEN=1` in the environment.
    public static let recording = ProcessInfo.processInfo.environment["RACEKIT_UPDATE_GOLDEN"] == "1"

    /// Why a check failed; thrown, so the test fails with the message.
    public struct Mismatch: Error, CustomStringConvertible {
        public var description: String
    }

    /// The `Golden` folder beside the file `filePath` (pass `#filePath`).
    public static func folder(besides filePath: String) -> URL {
        URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent("Golden")
    }

    /// Compares `text` with `folder/name` exactly. When recording, or when the
    /// file is missing, writes `text` there and throws; a different byte throws
    /// with the first line that differs.
    public static func check(_ text: String, _ name: String, in folder: URL, recording: Bool = recording) throws {
        let url = folder.appendingPathComponent(name)
        let expected = try? Data(contentsOf: url)
        if recording || expected == nil {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url, options: .atomic)
            throw Mismatch(
                description: expected == nil
                    ? "Golden/\(name) was missing: recorded it; review it, then run again"
                    : "Recorded a new golden Golden/\(name): review the diff, run again without RACEKIT_UPDATE_GOLDEN")
        }
        guard let expected, Data(text.utf8) != expected else { return }
        throw Mismatch(
            description:
                "\(name) differs from its golden file (RACEKIT_UPDATE_GOLDEN=1 records it): \(firstDifference(String(decoding: expected, as: UTF8.self), text))"
        )
    }

    /// The first line where `expected` and `actual` differ, both quoted.
    static func firstDifference(_ expected: String, _ actual: String) -> String {
        // Lines by any newline ("\r\n" is one Character in Swift, not a "\n").
        let a = expected.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        let b = actual.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        for i in 0..<max(a.count, b.count) {
            let x = i < a.count ? String(a[i]) : "(end)", y = i < b.count ? String(b[i]) : "(end)"
            if x != y { return "line \(i + 1): golden \(x.debugDescription), now \(y.debugDescription)" }
        }
        return "the same lines, different bytes (line endings?)"
    }
}
