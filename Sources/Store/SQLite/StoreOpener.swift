import Foundation
import GRDB
import RaceKitMetrics
import RaceKitStore

#if canImport(Glibc)
import Glibc
#endif

/// The store file and what this process may do with it.
struct StoreFile {
    let path: String
    var folder: String { URL(fileURLWithPath: path).deletingLastPathComponent().path }
    var exists: Bool { FileManager.default.fileExists(atPath: path) }
    var walExists: Bool { FileManager.default.fileExists(atPath: path + "-wal") }
    var lockPath: String { path + ".open-lock" }

    /// Why this process cannot write the store (SQLite also needs to create
    /// -wal and -shm beside it), nil when it can.
    var whyNotWritable: String? {
        if exists, access(path, W_OK) != 0 { return "the file is read-only for this user" }
        if access(folder, W_OK) != 0 { return "its folder \(folder) is not writable for this user" }
        return nil
    }

    /// A URI that opens the file read-only as immutable: SQLite then needs no
    /// -shm (it cannot create one in a folder the user cannot write).
    var immutableURI: String {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#%")
        let encoded = absolute.addingPercentEncoding(withAllowedCharacters: allowed) ?? absolute
        return "file:\(encoded)?mode=ro&immutable=1"
    }
}

/// The `.open-lock` file beside the store: writers hold it exclusively while
/// the store is created, switched to WAL and migrated (SQLite does not wait on
/// its busy handler for those steps); readers hold it shared while they look at
/// the schema, and never create it. It is never opened through a symbolic link,
/// and the writer removes it when it lets go, so nothing is left beside the
/// store: whoever then gets the lock of a removed file opens the path again.
final class OpenLock {
    private var fd: Int32 = -1
    private let path: String
    private let exclusive: Bool

    init(_ file: StoreFile, exclusive: Bool) throws {
        path = file.lockPath
        self.exclusive = exclusive
        for _ in 0..<100 {
            let f =
                exclusive
                ? open(path, O_CREAT | O_RDWR | O_CLOEXEC | O_NOFOLLOW, 0o644)
                : open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
            // A link in the lock's place is refused (it would create the lock where
            // it points, and lock nothing here); no lock file (a reader, nothing
            // being migrated) or one that cannot be opened: go on without it.
            if f < 0, errno == ELOOP {
                throw StoreError.cannotOpen(
                    path: file.path,
                    reason: "its lock file \(path) is a symbolic link (remove it; RaceKit creates its own)")
            }
            guard f >= 0 else { return }
            flock(f, exclusive ? LOCK_EX : LOCK_SH)
            // The file locked must still be the one at the path: a writer that held
            // it may have removed it meanwhile.
            var held = stat()
            var now = stat()
            if fstat(f, &held) == 0, lstat(path, &now) == 0, held.st_dev == now.st_dev, held.st_ino == now.st_ino {
                fd = f
                return
            }
            flock(f, LOCK_UN)
            close(f)
        }
    }

    func release() {
        guard fd >= 0 else { return }
        if exclusive { unlink(path) }
        flock(fd, LOCK_UN)
        close(fd)
        fd = -1
    }

    deinit { release() }
}

extension SQLiteStore {
    /// Whether a store file is at `path`.
    public static func exists(at path: String) -> Bool { StoreFile(path: path).exists }
}

/// Opens the store file for a `StoreAccess`.
enum StoreOpener {
    /// The open database and whether this call created the store file.
    static func open(path: String, access: StoreAccess, registry: MetricRegistry = .standard) throws -> (
        writer: any DatabaseWriter, created: Bool
    ) {
        let file = StoreFile(path: path)
        if access != .create, !file.exists { throw StoreError.missing(path: path) }
        do {
            switch access {
            case .read: return (try openForReading(file, registry: registry), false)
            case .write, .create: return try openForWriting(file, create: access == .create, registry: registry)
            }
        } catch let error as StoreError {
            throw error
        } catch let error as DatabaseError where error.resultCode.primaryResultCode == .SQLITE_READONLY {
            throw StoreError.readOnly(path: path, reason: SQLiteStore.describe(error))
        } catch let error as DatabaseError where SQLiteStore.isBusy(error) {
            throw StoreError.busy(path: path, reason: SQLiteStore.describe(error))
        } catch {
            throw StoreError.cannotOpen(path: path, reason: SQLiteStore.describe(error))
        }
    }

    /// Opens for reading; a store from an older RaceKit is migrated first when
    /// the user can write it.
    static func openForReading(_ file: StoreFile, registry: MetricRegistry) throws -> any DatabaseWriter {
        let lock = try OpenLock(file, exclusive: false)
        defer { lock.release() }
        let queue = try readQueue(file, writable: file.whyNotWritable == nil)
        switch try queue.read({ try Migrations.state($0, registry: registry) }) {
        case .current:
            return queue
        case .newer(let identifier):
            throw StoreError.newer(path: file.path, schema: identifier, known: Migrations.latest)
        case .unrecorded:
            throw StoreError.unrecordedSchema(path: file.path, ledger: "grdb_migrations")
        case .older(let applied):
            if let why = file.whyNotWritable {
                throw StoreError.readOnly(
                    path: file.path,
                    reason:
                        "\(why), and it must first be upgraded from schema \(applied ?? "none") to \(Migrations.latest)"
                )
            }
            try queue.close()
            lock.release()
            return try openForWriting(file, create: false, registry: registry).writer
        }
    }

    /// One connection to read with. When the user can write the store, a
    /// read-write connection: a read-only one leaves -wal and -shm behind when
    /// it closes (it cannot checkpoint and delete them), this one, the last to
    /// close, removes them; GRDB sets `PRAGMA query_only` for each `read`, and
    /// `SQLiteStore.write` refuses a store opened to read. Otherwise a read-only
    /// connection (`Configuration.readonly`): through -wal and -shm when a
    /// writer left or keeps them, else as an immutable file (SQLite would need
    /// to create -shm: "attempt to write a readonly database").
    static func readQueue(_ file: StoreFile, writable: Bool) throws -> DatabaseQueue {
        var config = Configuration()
        config.busyMode = .timeout(30)
        config.foreignKeysEnabled = true
        if writable {
            return try DatabaseQueue(path: file.path, configuration: config)
        }
        config.readonly = true
        return try DatabaseQueue(path: file.walExists ? file.path : file.immutableURI, configuration: config)
    }

    /// Opens for writing (WAL, busy timeout), creating the store when `create`,
    /// and migrates it; refuses a store from a newer RaceKit.
    static func openForWriting(_ file: StoreFile, create: Bool, registry: MetricRegistry) throws -> (
        writer: any DatabaseWriter, created: Bool
    ) {
        if create { try createFolder(file) }
        if let why = file.whyNotWritable { throw StoreError.readOnly(path: file.path, reason: why) }
        let lock = try OpenLock(file, exclusive: true)
        defer { lock.release() }
        let created = !file.exists
        var config = Configuration()
        config.busyMode = .timeout(30)
        config.foreignKeysEnabled = true
        let pool = try DatabasePool(path: file.path, configuration: config)
        switch try pool.read({ try Migrations.state($0, registry: registry) }) {
        case .current: break
        case .older: try Migrations.migrator(registry).migrate(pool)
        case .unrecorded: throw StoreError.unrecordedSchema(path: file.path, ledger: "grdb_migrations")
        case .newer(let identifier):
            throw StoreError.newer(path: file.path, schema: identifier, known: Migrations.latest)
        }
        return (pool, created)
    }

    static func createFolder(_ file: StoreFile) throws {
        var st = stat()
        if lstat(file.folder, &st) == 0, st.st_mode & S_IFMT == S_IFLNK, stat(file.folder, &st) != 0 {
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: file.folder)) ?? "?"
            throw StoreError.cannotCreate(
                path: file.path,
                reason: "its folder \(file.folder) is a symbolic link to \(target), which does not exist")
        }
        do {
            try FileManager.default.createDirectory(atPath: file.folder, withIntermediateDirectories: true)
        } catch {
            throw StoreError.cannotCreate(
                path: file.path, reason: "cannot create its folder \(file.folder): \(SQLiteStore.describe(error))")
        }
    }
}
