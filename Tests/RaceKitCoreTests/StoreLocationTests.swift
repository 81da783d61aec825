import Testing

@testable import RaceKitCore

@Suite struct StoreLocationTests {
    @Test(arguments: [".racekit/racekit.sqlite", "/tmp/a b.sqlite", "file.sqlite", "dir://x/s.sqlite", ""])
    func aPathIsASQLiteFile(_ text: String) throws {
        #expect(try StoreLocation(text) == .sqlite(path: text))
    }

    @Test(arguments: ["postgresql://anna:secret@db/racekit", "postgres://db/racekit", "PostgreSQL://db"])
    func aPostgresURLIsRefusedWithoutEchoingIt(_ text: String) {
        let error = #expect(throws: StoreError.self) { try StoreLocation(text) }
        guard case .unsupported(let what)? = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(what == "PostgreSQL" && error?.exitClass == .usage)
        #expect(error?.description.contains("secret") == false && error?.description.contains("db") == false)
    }
}
