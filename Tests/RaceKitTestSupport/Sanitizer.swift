import Foundation

/// The sanitizer the tests run under: `make test-asan` and `make test-tsan` set
/// RACEKIT_SANITIZER to "address" or "thread"; nil under `make test`. Every test
/// runs under both; a sanitizer only widens a test's time bounds.
public enum Sanitizer {
    public static let name = ProcessInfo.processInfo.environment["RACEKIT_SANITIZER"]
}
