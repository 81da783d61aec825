import ArgumentParser
import Testing

@testable import racekit

@Suite struct CommandTreeTests {
    /// Every command of the tree, with the words that invoke it.
    static func commands(_ type: any ParsableCommand.Type = RaceKitCommand.self, path: [String] = []) -> [(
        path: [String], type: any ParsableCommand.Type
    )] {
        let name = type.configuration.commandName
        let here = path + [name ?? "?"]
        return [(here, type)] + type.configuration.subcommands.flatMap { commands($0, path: here) }
    }

    /// A command without a name of its own gets one from its type at run time
    /// (`String(describing:)`, a scan of every protocol conformance in the
    /// statically linked binary): every start paid ~3 ms for the whole tree.
    @Test func everyCommandNamesItself() {
        let all = Self.commands()
        #expect(all.count > 20)
        for (path, type) in all {
            #expect(
                type.configuration.commandName != nil, "\(type) (\(path.joined(separator: " "))) has no commandName")
        }
    }

    /// The names are the ones the type names gave (scripts call them).
    @Test func theNamesAreTheContractOnes() {
        let paths = Set(Self.commands().map { $0.path.dropFirst().joined(separator: " ") })
        for expected in [
            "import", "athlete add", "athlete set", "athlete show", "athlete list", "runs list",
            "runs show", "runs splits", "runs bests", "runs edit", "runs delete", "runs recompute",
            "race plan", "race new", "script validate", "script show", "script simulate",
            "report weekly", "store check", "predict"
        ] {
            #expect(paths.contains(expected), "missing command: racekit \(expected)")
        }
    }
}
