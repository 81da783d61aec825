import Foundation

/// A value shared between threads, guarded by a pthread mutex (an `NSLock`).
///
/// Used instead of Synchronization's `Mutex`: on this toolchain ThreadSanitizer
/// does not see `Mutex`'s lock (its futex code is compiled without the
/// sanitizer), so it either reports what `Mutex` guards as races or, worse,
/// checks nothing. A pthread mutex it sees, so `make test-tsan` checks these
/// accesses for real.
///
/// `Value` must be `Sendable`: what `withLock` hands out (or what its body keeps)
/// may cross to another thread, so a class with unguarded state of its own
/// cannot hide behind the lock.
public final class Locked<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `value` is only touched while `lock` is held, and is Sendable.
    private var value: Value
    private let lock = NSLock()

    public init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, holding the lock.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
