import Foundation
import RaceKitModel
import RaceKitPlan
import Testing

@testable import RaceKitFormats

/// The hand-over between the reading thread and the handler: bounded, in order,
/// and stoppable while the reader waits for room.
@Suite struct NodePipeTests {
    /// Waits (up to 10 s) until `condition` holds.
    func eventually(_ condition: () -> Bool) -> Bool {
        for _ in 0..<10_000 {
            if condition() { return true }
            usleep(1000)
        }
        return condition()
    }

    /// A reading thread that sends numbered batches until the pipe stops it.
    final class Reader: Sendable {
        let pipe: NodePipe
        let sent = Locked(0)
        let limit: Int
        init(_ pipe: NodePipe, limit: Int) {
            self.pipe = pipe
            self.limit = limit
            Thread { [self] in
                defer { pipe.finish() }
                for k in 0..<limit {
                    guard let batch = pipe.emptyBatch() else { return }
                    batch.append(BufferedNode(type: Int32(k)))
                    if k == limit - 1 { batch.end = .success(()) }
                    pipe.send(batch)
                    sent.withLock { $0 += 1 }
                }
            }.start()
        }
        var count: Int { sent.withLock { $0 } }
    }

    @Test func theReaderGetsNoMoreThanDepthBatchesAhead() {
        let pipe = NodePipe(depth: 3)
        let reader = Reader(pipe, limit: 10)
        #expect(eventually { reader.count == 3 })
        usleep(50_000)
        #expect(reader.count == 3, "the reader went past the depth")
        let first = pipe.receive(idle: { false })
        #expect(first.nodes[0].type == 0)
        usleep(50_000)
        #expect(reader.count == 3, "a batch held by the handler is not free yet")
        pipe.recycle(first)
        #expect(eventually { reader.count == 4 })
        pipe.stopAndWait()
    }

    @Test func batchesArriveInOrderAndIdleWorkRunsWhileWaiting() {
        let pipe = NodePipe(depth: 2)
        var idleCalls = 0
        let reader = Reader(pipe, limit: 50)
        var seen: [Int32] = []
        while true {
            let b = pipe.receive(idle: {
                idleCalls += 1; return idleCalls < 5
            })
            seen.append(b.nodes[0].type)
            let last = b.end != nil
            pipe.recycle(b)
            if last { break }
        }
        #expect(seen == (0..<50).map(Int32.init))
        #expect(eventually { reader.count == 50 })   // counted just after each send
        pipe.stopAndWait()
    }

    /// Stopping while the reader sleeps for room wakes it and waits for it.
    @Test func stoppingWakesAReaderWaitingForRoom() {
        for _ in 0..<20 {
            let pipe = NodePipe(depth: 1)
            let reader = Reader(pipe, limit: 1000)
            #expect(eventually { reader.count == 1 })
            pipe.stopAndWait()
            #expect(reader.count == 1)
        }
    }
}
