import Foundation
import RaceKitTestSupport
import RaceKitWorkflows

@testable import racekit

extension CLI {
    /// Runs a command line in this process (`RaceKitCommand.execute`), its
    /// output captured (`Console.capturing`): for tests of what a command says
    /// and does, where the process (its launch, signals, locks, the installed
    /// binary) is not what is tested. With `folder`, the command runs with it as
    /// the working folder (`WorkingFolder`: one such command at a time), so
    /// relative paths mean what they mean to a launched binary; without, `args`
    /// name every file by its absolute path (`at`) and the store with `--store`
    /// (`store`), and commands run side by side. The environment is this
    /// process's. A command still running after `seconds` is reported as killed
    /// (`CLI.killedStatus`; its thread is left to finish), as `runBounded`
    /// reports a process it killed; one holding the working folder stops the
    /// test run instead (every later `run` would wait for it). The time starts
    /// once the command has the working folder.
    func runHere(_ args: [String], in folder: URL? = nil, seconds: Double = 30) -> Result {
        let box = ResultBox()
        let entered = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        let thread = Thread {
            let run = {
                entered.signal()   // the clock starts once the working folder is this command's
                return Console.capturing { RaceKitCommand.execute(args) }
            }
            guard let (status, output) = try? (folder.map { try WorkingFolder.within($0.path, run) } ?? run()) else {
                box.result = Result(
                    status: 70, stdout: "", stderr: "cannot enter the work folder \(folder?.path ?? "")")
                entered.signal()
                done.signal()
                return
            }
            box.result = Result(
                status: status, stdout: String(decoding: output.stdout, as: UTF8.self),
                stderr: String(decoding: output.stderr, as: UTF8.self))
            done.signal()
        }
        thread.stackSize = 8 << 20   // a main thread's, as the binary has
        thread.start()
        entered.wait()
        guard done.wait(timeout: .now() + seconds) == .success, let result = box.result else {
            // A thread cannot be killed: one holding the working folder would keep
            // every later CLI test waiting, so the run stops here, saying why.
            if folder != nil {
                fatalError(
                    "racekit \(args.joined(separator: " ")) still running after \(seconds) s in the test process")
            }
            return Result(status: CLI.killedStatus, stdout: "", stderr: "still running after \(seconds) s")
        }
        return result
    }

    /// The absolute path of `name` in the work folder.
    func at(_ name: String) -> String { workdir.appendingPathComponent(name).path }

    /// `--store` and the work folder's store, for `runHere`.
    var store: [String] { ["--store", at("s.sqlite")] }
}

/// A command's result, set once by its thread before it signals.
private final class ResultBox: @unchecked Sendable { var result: CLI.Result? }
