import Foundation

/// The sanitizer the tests run under: `make test-asan` and `make test-tsan` set
/// RACEKIT_SANITIZER to "address" or "thread"; nil under `make test`.
public enum Sanitizer {
    public static let name = ProcessInfo.processInfo.environment["RACEKIT_SANITIZER"]

    /// False under ThreadSanitizer. A test of heavy single-threaded work that
    /// cannot be made smaller (a gzip bomb must unpack past the 16 MB floor of the
    /// ratio limit, through the parser) gives TSan no threads to watch and costs
    /// minutes of CI there (TSan slows it about tenfold); it runs in `make test`
    /// and under AddressSanitizer, and is skipped under TSan with
    /// `singleThreadedReason`. Three tests are: the two gzip bombs and the Apple
    /// Health export's 300 mutations.
    public static let threadsToWatch = name != "thread"
    public static let singleThreadedReason =
        "single-threaded work: skipped under ThreadSanitizer (RACEKIT_SANITIZER=thread); make test and make test-asan run it"
}
