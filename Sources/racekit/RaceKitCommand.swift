import ArgumentParser

@main
struct RaceKitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "racekit",
        abstract: "Race-day planning and running analytics from your watch exports.",
        discussion: """
        Import GPX and TCX files (plain or .gz) into an embedded store, then list them.
        The store is .racekit/racekit.sqlite in the current folder unless --store or
        RACEKIT_STORE says otherwise.

        Exit codes: 0 success, 1 some inputs failed, 64 usage error, 65 bad input data,
        66 input missing, 73/74 cannot create/write output, 75 busy.
        """,
        version: "0.1.0",
        subcommands: [Import.self, Runs.self, AthleteCommand.self]
    )
}
