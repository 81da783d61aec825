import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The process's working folder, which the in-process CLI runs change: a command
/// names its files relative to its work folder, as a launched binary would, and
/// the threads it starts (readers, the store's queue) see the same folder. One
/// command at a time holds it (`within`); a test that reads the working folder
/// does so under the same lock (`reading`), so it never sees a command's.
public enum WorkingFolder {
    private static let lock = NSLock()
    private static let home: String = FileManager.default.currentDirectoryPath

    /// The folder the tests started in: a process a test launches is started
    /// there (`currentDirectoryURL`), never in a command's folder of the moment.
    public static let url = URL(fileURLWithPath: home, isDirectory: true)

    /// Runs `body` with `folder` as the working folder, then restores it.
    public static func within<T>(_ folder: String, _ body: () throws -> T) throws -> T {
        try lock.withLock {
            let home = home   // read before the first change
            guard chdir(folder) == 0 else {
                throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: folder])
            }
            defer { _ = chdir(home) }
            return try body()
        }
    }

    /// Runs `body` while no command has changed the working folder.
    public static func reading<T>(_ body: () throws -> T) rethrows -> T { try lock.withLock { try body() } }
}
