import GRDB
import Testing

@testable import RaceKitSQLite
@testable import RaceKitStore

/// SQLite's busy and locked (another process held the store past GRDB's 30 s
/// wait) are `StoreError.busy`, exit 75 as the docs say (they were "store
/// error", 74); other database errors stay `.database`, 74.
@Suite struct StoreBusyTests {
    @Test(arguments: [ResultCode.SQLITE_BUSY, .SQLITE_LOCKED, ResultCode(rawValue: 517)])   // 517: BUSY_SNAPSHOT
    func aStoreHeldByAnotherProcessIsBusy(_ code: ResultCode) throws {
        let error = SQLiteStore.converted(
            DatabaseError(resultCode: code, message: "database is locked"), path: "s.sqlite")
        let store = try #require(error as? StoreError)
        #expect(store.exitClass == .busy && store.exitClass.rawValue == 75)
        #expect(
            "\(store)" == "s.sqlite: the store is busy: another process held it for more than 30 s (database is locked)"
        )
    }

    @Test func otherDatabaseErrorsAreStoreErrors() throws {
        let error = SQLiteStore.converted(
            DatabaseError(resultCode: .SQLITE_IOERR, message: "disk I/O error"), path: "s")
        #expect((error as? StoreError)?.exitClass == .ioError)
        #expect("\(error)" == "store error: disk I/O error")
    }
}
