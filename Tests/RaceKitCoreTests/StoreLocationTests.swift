import Testing

@testable import RaceKitCore

@Suite struct StoreLocationTests {
    @Test(arguments: [".racekit/racekit.sqlite", "/tmp/a b.sqlite", "file.sqlite", "dir://x/s.sqlite", ""])
    func aPathIsASQLiteFile(_ text: String) throws {
        #expect(try StoreLocation(text) == .sqlite(path: text))
    }

    @Test func aPostgresURLIsAServer() throws {
        #expect(
            try StoreLocation("postgresql://anna:secret@db/racekit")
                == .postgres(url: "postgresql://anna:secret@db/racekit"))
        #expect(try StoreLocation("postgres://db/racekit") == .postgres(url: "postgres://db/racekit"))
        // libpq knows the scheme in lower case only.
        #expect(try StoreLocation("PostgreSQL://db") == .postgres(url: "postgresql://db"))
    }
}
