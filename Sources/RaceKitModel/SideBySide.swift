import Foundation

/// Two pieces of a long run's work side by side: one on a thread of its own, the
/// other on the caller's. Not libdispatch's `concurrentPerform`: while a worker
/// of its pool waits (an import's idle worker, blocked on the store), the pool
/// took tens of milliseconds to lend a thread, so a 55 MB file's two halves ran
/// one after the other. A thread costs tens of microseconds, so only work of
/// milliseconds gets one (`minimumPoints`).
public enum SideBySide {
    /// Points from which a run's pieces of work each get a thread.
    public static let minimumPoints = 20_000

    /// `a` here and `b` on a thread of its own when `threaded`, returning once
    /// both are done; one after the other otherwise.
    public static func run(threaded: Bool, _ a: () -> Void, _ b: @escaping @Sendable () -> Void) {
        guard threaded else {
            a()
            b()
            return
        }
        let join = Join()
        let thread = Thread {
            b()
            join.finish()
        }
        thread.name = "racekit-side-by-side"
        thread.start()
        a()
        join.wait()
    }

    /// Waits for the thread's work. An NSCondition (a pthread mutex and
    /// condition), which ThreadSanitizer sees, so that what `b` wrote is seen
    /// as written before `run` returns.
    private final class Join: @unchecked Sendable {
        // @unchecked: `done` is only touched under `condition`'s lock.
        private let condition = NSCondition()
        private var done = false

        func finish() {
            condition.lock()
            done = true
            condition.signal()
            condition.unlock()
        }

        func wait() {
            condition.lock()
            while !done { condition.wait() }
            condition.unlock()
        }
    }
}
