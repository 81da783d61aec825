import Testing

@testable import RaceKitModel
@testable import RaceKitStore

@Suite struct StoreLocationTests {
    @Test(arguments: [".racekit/racekit.sqlite", "/tmp/a b.sqlite", "file.sqlite", "postgres.sqlite", "pg/data:1", ""])
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

    /// Text meant as a URL that is no valid PostgreSQL URL is refused (64), never
    /// a SQLite path (which would create a folder tree named after the password),
    /// and the message holds no piece of the password.
    @Test(arguments: [
        " postgresql://rk:TypoSecret3@db/club", "postgresql://rk:TypoSecret3@db/club\n",
        "postgresql:/rk:TypoSecret3@db/club", "postgresql:rk:TypoSecret3@db/club",
        "postgresql//rk:TypoSecret3@db/club", "postgresq://rk:TypoSecret3@db/club",
        "mysql://rk:TypoSecret3@db/club", "postgresql://rk:Typo/Secret3@db/club",
        "postgresql://rk:Typo?Secret3@db/club", "postgresql://rk:Typo@Secret3@db/club",
        "postgresql://rk:Typo#Secret3@db/club", "postgresql://rk:TypoSecret3%@db/club",
        "postgresql://rk:TypoSecret3%4@db/club", "postgresql://rk:TypoSecret3@db:5x432/club",
        "postgresql://rk:TypoSecret3@db:99999/club", "postgresql://db/club?password=TypoSecret3%zz",
        "postgresql://db/club?pass%77ord=TypoSecret3%", "postgresql://db/club?sslmode",
        "postgresql://rk:TypoSecret3@[::1/club", "posgresql//rk:TypoSecret3@db/club",
        "postgresql;//rk:TypoSecret3@db/club", "postgresql://db/club?password%3DTypoSecret3",
        "host=db port=1 user=rk password=TypoSecret3 dbname=club", "password=TypoSecret3"
    ])
    func aMistypedURLIsRefusedWithoutItsPassword(_ text: String) {
        #expect {
            _ = try StoreLocation(text)
        } throws: { error in
            let message = "\(error)"
            return ExitClass(of: error) == .usage
                && (message.contains("not a PostgreSQL URL") || message.contains("key=value connection string"))
                && !["Typo", "Secret3", "TypoSecret", "cret3"].contains(where: message.contains)
        }
    }

    @Test func redactionHidesPasswordsInEveryForm() {
        let cases = [
            ("postgresql://rk:Se/cret@db/club", "postgresql://rk:***@db/club"),
            ("postgresql://rk:p@ss@db/club?sslmode=require", "postgresql://rk:***@db/club?sslmode=require"),
            ("postgresql://db/club?pass%77ord=abc&user=rk", "postgresql://db/club?pass%77ord=***&user=rk"),
            ("postgresql:/rk:secret@db", "postgresql:/rk:***@db"),
            ("host=db password='a b\\' c' user=rk", "host=db password=*** user=rk"),
            ("host=db password = abc user=rk", "host=db password = *** user=rk"),
            ("postgresql://rk@db/club", "postgresql://rk@db/club")
        ]
        for (given, shown) in cases { #expect(StoreLocation.redacted(given) == shown, "\(given)") }
    }

    @Test func aValidURLKeepsItsSecretsForScrubbing() throws {
        let url = try ConnectionURL.parse("postgresql://rk:Se%2Fcret@db:5432,db2/club?password=x%41y").get()
        #expect(url.secrets == ["Se%2Fcret", "Se/cret", "x%41y", "xAy"])
        #expect(url.scrubbed("no: Se/cret and xAy") == "no: *** and ***")
    }
}
