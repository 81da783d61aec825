import ArgumentParser
import RaceKitModel
import RaceKitWorkflows

extension RaceKitCommand {
    struct RunsCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "runs",
            abstract: "Look at, edit and analyse the stored runs.",
            subcommands: [List.self, Show.self, Splits.self, Bests.self, Edit.self, Delete.self, Recompute.self]
        )
    }
}

/// `--unit km|mi` for human output.
extension DistanceUnit: ExpressibleByArgument {}

extension Sport: ExpressibleByArgument {}
extension RunMode: ExpressibleByArgument {}
extension RunType: ExpressibleByArgument {}

/// The run's JSON keys (`RunJSON`, in RaceKitWorkflows), under the name the
/// command's tests use.
typealias RunJSON = RaceKitWorkflows.RunJSON
