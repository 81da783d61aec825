import Foundation

/// A fresh folder under the temporary directory, removed with everything in it
/// when the value is released, so a suite leaves nothing behind.
public final class ScratchFolder: Sendable {
    public let url: URL
    public var path: String { url.path }

    public init(_ prefix: String = "rk-scratch") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The path of `name` inside the folder.
    public func at(_ name: String) -> String { url.appendingPathComponent(name).path }

    deinit { try? FileManager.default.removeItem(at: url) }
}
