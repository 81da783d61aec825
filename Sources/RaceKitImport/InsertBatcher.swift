import Foundation
import RaceKitModel
import RaceKitStore

/// Group commit for an import's workers: a worker hands a prepared file to
/// `submit` and goes on to its next file. Whoever finds no write under way
/// writes everything waiting, several files in one transaction, each in its own
/// savepoint (`RunRepository.insert(files:importedAt:)`), then tells each file's
/// result; a worker finding a write under way leaves its file to it. So the
/// parsers wait for the store only when `maxWaiting` files are queued.
///
/// What the user sees stays per file: a file's result is told only once the
/// transaction holding it has committed, and a file that fails stores nothing
/// of itself (its savepoint is rolled back; the others are kept). A killed
/// import loses only files it has not reported.
final class InsertBatcher: Sendable {
    struct Job: Sendable {
        var insert: FileInsert
        var store: any RunRepository
        /// Told the file's outcomes (or why it failed) after the commit.
        var finish: @Sendable (Result<[InsertOutcome], any Error>) -> Void
    }

    /// Files waiting beyond this make the submitting worker write (or wait for the write).
    static let maxWaiting = 32
    /// Bytes of packed samples waiting beyond this do the same.
    static let maxWaitingBytes = 64 << 20

    private let waiting = Locked<(jobs: [Job], bytes: Int)>(([], 0))
    /// Held by the one thread writing; locked and unlocked on that thread.
    private let writing = NSLock()

    func submit(_ job: Job) {
        let bytes = job.insert.runs.reduce(0) { $0 + $1.encodedSamples.count }
        let full = waiting.withLock { w in
            w.jobs.append(job)
            w.bytes += bytes
            return w.jobs.count >= Self.maxWaiting || w.bytes >= Self.maxWaitingBytes
        }
        if full {
            writing.lock()
        } else if !writing.try() {
            return   // the write under way takes this file next
        }
        drain()
    }

    /// Writes what is waiting (after the workers are done).
    func flush() {
        writing.lock()
        drain()
    }

    /// Writes batches while any file waits; called holding `writing`, which it
    /// releases. A file queued between the last batch and the release finds no
    /// writer: looked for again after releasing.
    private func drain() {
        while true {
            let batch = waiting.withLock { w in
                defer { w = ([], 0) }
                return w.jobs
            }
            if batch.isEmpty {
                writing.unlock()
                guard waiting.withLock({ !$0.jobs.isEmpty }), writing.try() else { return }
                continue
            }
            write(batch)
        }
    }

    func write(_ batch: [Job]) {
        let store = batch[0].store
        var results: [Result<[InsertOutcome], any Error>]
        do {
            results = try store.insert(files: batch.map(\.insert), importedAt: Date().timeIntervalSince1970)
        } catch {
            // The transaction failed as a whole (nothing of it is stored): each
            // file again in its own, so that a file fails for its own reason only.
            results = batch.map { job in
                Result { try store.insert(files: [job.insert], importedAt: Date().timeIntervalSince1970) }
                    .flatMap { $0.first ?? .failure(error) }
            }
        }
        for (job, result) in zip(batch, results) { job.finish(result) }
    }
}
