import Dispatch
import Foundation
import RaceKitModel

/// What the element handlers read of the current node: the live libxml2 reader
/// (`XMLStream`), or the same nodes read ahead on another thread
/// (`ReadAheadStream`). The handlers and the node loop are generic over it, so
/// each is compiled for both without a dynamic call per node.
protocol NodeStream: AnyObject {
    var path: String { get }
    /// Advances to the next node; false at the end of the document.
    func next() throws -> Bool
    var nodeType: Int32 { get }
    /// The current element's interned local name.
    var localName: UnsafeRawPointer? { get }
    /// The current element's namespace. Only asked for elements for which
    /// `Local.namespaceMatters(under:)` holds (the read-ahead thread resolves
    /// exactly those).
    var namespace: Namespace { get }
    /// Line of the current end tag of a point, or DOCTYPE (where errors are reported).
    var currentLine: Int? { get }
    /// A capacity guess for the sample arrays.
    var expectedPoints: Int { get }
    /// True once the whole input was read without a read error.
    var reachedEnd: Bool { get }
    /// The current text node's bytes.
    func withValue<T>(_ body: (UnsafeRawBufferPointer) -> T) -> T
    /// Each attribute of the current element: interned local name and value bytes.
    func forEachAttribute(_ body: (UnsafeRawPointer, UnsafeRawBufferPointer) -> Void)
}

extension Local {
    /// Whether the handlers read this element's namespace when it opens inside
    /// `parent`: extension values decide by it; `ele` and `time` directly inside
    /// a GPX point are GPX's own and need no check.
    func namespaceMatters(under parent: Local) -> Bool {
        switch self {
        case .ele, .time:
            return parent != .trkpt && parent != .rtept
        case .hr, .heartrate, .heartRate, .cad, .cadence, .speed, .power, .powerInWatts,
            .atemp, .temp, .temperature, .distance, .runCadence, .speedTCX, .watts:
            return true
        default:
            return false
        }
    }
}

/// One node read ahead: what the handlers can ask of it.
struct BufferedNode {
    var type: Int32 = 0
    /// Resolved where `Local.namespaceMatters(under:)` holds (see `NodeStream.namespace`).
    var hasNamespace = false
    var namespace = Namespace.other
    /// Raw parser line of a point's end tag or a DOCTYPE (where the node loop
    /// reports errors), 0 otherwise.
    var line: Int32 = 0
    var localName: UnsafeRawPointer?
    /// Text bytes (text nodes) in the batch's byte arena.
    var valueStart: Int32 = 0
    var valueCount: Int32 = 0
    /// Attributes in the batch's attribute list.
    var attributeStart: Int32 = 0
    var attributeCount: Int32 = 0
}

struct BufferedAttribute {
    var name: UnsafeRawPointer
    var valueStart: Int32
    var valueCount: Int32
}

/// A run of nodes handed from the reading thread to the handler's thread, in
/// buffers of its own (not arrays): the handler side reads them through plain
/// pointers, with no reference counting per node.
final class NodeBatch: @unchecked Sendable {
    // @unchecked: a batch is owned by one thread at a time; the hand-over goes
    // through `NodePipe`'s lock, which orders the writes before the reads.
    static let nodeCapacity = 4096
    static let attributeCapacity = 4096
    static let byteCapacity = 128 * 1024
    /// A batch handed between two threads is four times as big: a hand-over
    /// costs a lock and at times a wake-up, and a 55 MB file read ahead took
    /// 2.5% less time with 16,384 nodes a batch (4 times fewer took 15% more,
    /// 4 times more 3% more: the batches no longer fit the cores' caches). A
    /// batch of one thread stays small: allocated for every file, the big one
    /// cost a folder of gzip files 4%.
    static let handOverScale = 4

    /// Capacities (`isFull` from these on).
    private let nodeLimit: Int, attributeLimit: Int, byteLimit: Int

    /// Grows past `nodeLimit` only when one parsed chunk holds more nodes.
    private(set) var nodes: UnsafeMutablePointer<BufferedNode>
    private var nodeSpace: Int
    private(set) var nodeCount = 0
    /// Grows past `attributeLimit` only for an element with that many attributes.
    private(set) var attributes: UnsafeMutablePointer<BufferedAttribute>
    private var attributeSpace: Int
    private(set) var attributeCount = 0
    /// Text and attribute values; grows past `byteLimit` only for one long value.
    private(set) var bytes: UnsafeMutableRawPointer
    private var byteSpace: Int
    private(set) var byteCount = 0

    /// `handedOver`: a batch of `NodePipe`, `handOverScale` times as big.
    init(handedOver: Bool = false) {
        let scale = handedOver ? Self.handOverScale : 1
        nodeLimit = Self.nodeCapacity * scale
        attributeLimit = Self.attributeCapacity * scale
        byteLimit = Self.byteCapacity * scale
        nodes = .allocate(capacity: nodeLimit)
        nodeSpace = nodeLimit
        attributes = .allocate(capacity: attributeLimit)
        attributeSpace = attributeLimit
        bytes = .allocate(byteCount: byteLimit, alignment: 8)
        byteSpace = byteLimit
    }
    /// Set on the last batch: the end of the document, or the error that stopped it.
    var end: Result<Void, FormatError>?

    deinit {
        nodes.deallocate()
        attributes.deallocate()
        bytes.deallocate()
    }

    /// Batches a whole document was parsed into, kept for the next one: its
    /// buffers grow to the document's nodes (a few MB), which allocated anew
    /// for every file came from mmap and cost a tenth of a folder import in
    /// page faults.
    private static let spares = Locked<[NodeBatch]>([])
    private static let maxSpares = 8
    /// Largest batch kept (in buffer bytes): one grown by a pathological file is freed.
    private static let maxSpareBytes = 16 << 20

    /// A spare batch, or a new one, with room for the nodes of a document of
    /// `documentBytes` (one node per 10 bytes, values a quarter of them:
    /// denser than real files) so that it does not grow by doubling and copying.
    static func lend(documentBytes: Int) -> NodeBatch {
        let batch = spares.withLock { $0.popLast() } ?? NodeBatch()
        batch.reserveEmpty(nodes: documentBytes / 10, attributes: documentBytes / 40, bytes: documentBytes / 4)
        return batch
    }

    /// Room for this much in an empty batch (its buffers replaced, not copied).
    private func reserveEmpty(nodes n: Int, attributes a: Int, bytes b: Int) {
        precondition(nodeCount == 0 && attributeCount == 0 && byteCount == 0, "reserveEmpty on a batch in use")
        if nodeSpace < n {
            nodes.deallocate()
            nodes = .allocate(capacity: n)
            nodeSpace = n
        }
        if attributeSpace < a {
            attributes.deallocate()
            attributes = .allocate(capacity: a)
            attributeSpace = a
        }
        if byteSpace < b {
            bytes.deallocate()
            bytes = .allocate(byteCount: b, alignment: 8)
            byteSpace = b
        }
    }

    /// Keeps `batch` for `lend` (emptied), unless there are enough or it is too big.
    static func giveBack(_ batch: NodeBatch) {
        let size =
            batch.nodeSpace * MemoryLayout<BufferedNode>.stride
            + batch.attributeSpace * MemoryLayout<BufferedAttribute>.stride + batch.byteSpace
        guard size <= maxSpareBytes else { return }
        batch.reset()
        spares.withLock { if $0.count < maxSpares { $0.append(batch) } }
    }

    /// Time to hand the batch over (the buffers still grow for one huge node).
    var isFull: Bool {
        nodeCount >= nodeLimit || attributeCount > attributeLimit * 7 / 8 || byteCount >= byteLimit
    }

    func reset() {
        nodeCount = 0
        attributeCount = 0
        byteCount = 0
        end = nil
    }

    @inline(__always)
    func append(_ node: BufferedNode) {
        if nodeCount == nodeSpace { growNodes() }
        nodes[nodeCount] = node
        nodeCount += 1
    }

    private func growNodes() {
        let bigger = UnsafeMutablePointer<BufferedNode>.allocate(capacity: nodeSpace * 2)
        bigger.moveInitialize(from: nodes, count: nodeCount)
        nodes.deallocate()
        nodes = bigger
        nodeSpace *= 2
    }

    /// Adds `value` to the last node, a text node whose bytes are the last in
    /// the arena (the parser gives one text in several pieces).
    @inline(__always)
    func extendLastText(_ value: UnsafeRawBufferPointer) {
        let (_, count) = store(value)
        nodes[nodeCount - 1].valueCount += count
    }

    /// Adds an attribute of the node being captured.
    @inline(__always)
    func appendAttribute(name: UnsafeRawPointer, value: UnsafeRawBufferPointer) {
        if attributeCount == attributeSpace {
            let bigger = UnsafeMutablePointer<BufferedAttribute>.allocate(capacity: attributeSpace * 2)
            bigger.moveInitialize(from: attributes, count: attributeCount)
            attributes.deallocate()
            attributes = bigger
            attributeSpace *= 2
        }
        let (start, count) = store(value)
        attributes[attributeCount] = BufferedAttribute(name: name, valueStart: start, valueCount: count)
        attributeCount += 1
    }

    /// Copies `value` into the arena; returns where it went.
    @inline(__always)
    func store(_ value: UnsafeRawBufferPointer) -> (Int32, Int32) {
        if byteCount + value.count > byteSpace { grow(byteCount + value.count) }
        let start = byteCount
        if let base = value.baseAddress { (bytes + start).copyMemory(from: base, byteCount: value.count) }
        byteCount += value.count
        return (Int32(start), Int32(value.count))
    }

    private func grow(_ needed: Int) {
        let space = max(needed, byteSpace * 2)
        let bigger = UnsafeMutableRawPointer.allocate(byteCount: space, alignment: 8)
        bigger.copyMemory(from: bytes, byteCount: byteCount)
        bytes.deallocate()
        bytes = bigger
        byteSpace = space
    }

    @inline(__always)
    func value(_ start: Int32, _ count: Int32) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: bytes + Int(start), count: Int(count))
    }
}

/// A bounded hand-over of batches between the reading thread and the handler's
/// thread: at most `depth` batches exist, so memory stays bounded whatever the
/// file size, and the reader waits when the handler falls behind.
///
/// One lock and one condition: a side sleeps only when it has nothing to do,
/// and is signalled only when it sleeps, so a hand-over between two busy
/// threads makes no system call. (libdispatch's semaphores on Linux made one
/// for every empty poll while the handler hashed, a timed wait that had
/// already expired, and one more for the signal that followed.)
final class NodePipe: @unchecked Sendable {
    // @unchecked: every field is only touched under `condition`'s lock. An
    // NSCondition (a pthread mutex and condition) rather than Synchronization's
    // Mutex, whose futexes ThreadSanitizer does not see, so that `make test-tsan`
    // checks this hand-over for real.
    private var ready: [NodeBatch] = []
    private var spare: [NodeBatch] = []
    private var created = 0
    private var cancelled = false
    private var readerDone = false
    private var sleepers = 0
    private let depth: Int
    private let condition = NSCondition()

    init(depth: Int = 4) {
        self.depth = depth
        ready.reserveCapacity(depth)
        spare.reserveCapacity(depth)
    }

    @inline(__always)
    private func locked<T>(_ body: () -> T) -> T {
        condition.lock()
        defer { condition.unlock() }
        return body()
    }

    /// Sleeps until `done` holds (called with the lock held).
    private func sleep(until done: () -> Bool) {
        while !done() {
            sleepers += 1
            condition.wait()
            sleepers -= 1
        }
    }

    /// Wakes whoever sleeps (called with the lock held).
    private func wake() {
        if sleepers > 0 { condition.broadcast() }
    }

    /// Reading side: an empty batch, nil once the handler side stopped.
    func emptyBatch() -> NodeBatch? {
        locked {
            sleep { cancelled || !spare.isEmpty || created < depth }
            if cancelled { return nil }
            if let b = spare.popLast() { b.reset(); return b }
            created += 1
            return NodeBatch(handedOver: true)
        }
    }

    /// Reading side: hands a filled batch over.
    func send(_ batch: NodeBatch) {
        locked {
            ready.insert(batch, at: 0)
            wake()
        }
    }

    /// Reading side: called once, when the reading thread no longer touches the reader.
    func finish() {
        locked {
            readerDone = true
            wake()
        }
    }

    /// Handler side: the next filled batch. While none is ready, `idle` is called
    /// (until it returns false), then the call sleeps until one is sent. (It does
    /// not spin: when the two threads share one core, or a virtual machine's
    /// two cores share one core's time, a spinning handler slows the reader:
    /// measured on one core, 2 ms of spinning made a 20 MB import 250 ms instead
    /// of 183.)
    func receive(idle: () -> Bool) -> NodeBatch {
        while true {
            if let b = locked({ ready.popLast() }) { return b }
            if !idle() { break }
        }
        return locked {
            sleep { !ready.isEmpty }
            return ready.popLast()!
        }
    }

    /// Handler side: gives a consumed batch back for reuse.
    func recycle(_ batch: NodeBatch) {
        locked {
            spare.append(batch)
            wake()
        }
    }

    /// Handler side: stops the reading thread (if still running) and waits until it
    /// has let go of the reader.
    func stopAndWait() {
        locked {
            cancelled = true
            wake()
            sleep { readerDone }
        }
    }
}

/// The nodes of an `XMLStream`, read by a dedicated thread while the handler
/// works on the previous ones: on a large file the libxml2 reader and the
/// handler (numbers, timestamps, samples) run on two cores instead of one.
/// Used when a core would otherwise sit idle (see `ActivityFileReader`).
final class ReadAheadStream: NodeStream {
    private let live: XMLStream
    private let pipe: NodePipe
    /// Work for the moments the handler waits for nodes (hashing the file).
    private let idle: () -> Bool
    private var batch: NodeBatch?
    private var index = -1
    private var stopped = false

    var path: String { live.path }
    var expectedPoints: Int { live.expectedPoints }
    /// Read only once the reading thread has stopped (after the last batch).
    var reachedEnd: Bool { live.reachedEnd }

    /// Starts reading from `live`'s current node (which is delivered first);
    /// `idle` is called while no node is ready, as long as it returns true.
    init(_ live: XMLStream, idle: @escaping () -> Bool = { false }) {
        self.live = live
        self.idle = idle
        let pipe = NodePipe()
        self.pipe = pipe
        // The nodes the stream parsed already, from the current one, come first.
        let (first, at) = live.takeRemaining()
        batch = first
        arena = first
        index = max(0, at)
        current = first.nodes + index
        if first.end == nil {
            let job = ReadJob(live: live, pipe: pipe)
            let thread = Thread { job.run() }
            thread.name = "racekit-read-ahead"
            thread.start()
        } else {
            pipe.finish()
        }
    }

    deinit { stop() }

    /// Stops the reading thread and waits for it; safe to call more than once.
    func stop() {
        guard !stopped else { return }
        stopped = true
        if let batch { pipe.recycle(batch); self.batch = nil }
        pipe.stopAndWait()
    }

    func next() throws -> Bool {
        while true {
            if let b = batch {
                if index + 1 < b.nodeCount { index += 1; current = b.nodes + index; return true }
                if let end = b.end {
                    try end.get()
                    return false
                }
                pipe.recycle(b)
                batch = nil
            }
            let b = pipe.receive(idle: idle)
            batch = b
            arena = b
            index = -1
        }
    }

    /// The current node and its batch, as plain pointers (valid while `batch` is held).
    private var current: UnsafeMutablePointer<BufferedNode>
    private unowned(unsafe) var arena: NodeBatch

    var nodeType: Int32 { current.pointee.type }
    var localName: UnsafeRawPointer? { current.pointee.localName }
    var namespace: Namespace {
        assert(current.pointee.hasNamespace, "namespace asked of an element the read-ahead thread did not resolve")
        return current.pointee.namespace
    }
    var currentLine: Int? { live.adjustedLine(Int(current.pointee.line)) }

    func withValue<T>(_ body: (UnsafeRawBufferPointer) -> T) -> T {
        body(arena.value(current.pointee.valueStart, current.pointee.valueCount))
    }

    func forEachAttribute(_ body: (UnsafeRawPointer, UnsafeRawBufferPointer) -> Void) {
        let n = current.pointee
        for k in Int(n.attributeStart)..<Int(n.attributeStart + n.attributeCount) {
            let a = arena.attributes[k]
            body(a.name, arena.value(a.valueStart, a.valueCount))
        }
    }
}

/// The reading thread's work: copies every node the handlers may look at into
/// batches until the document ends, fails, or the handler side stops.
private final class ReadJob: @unchecked Sendable {
    // @unchecked: the XMLStream is used by this thread only between the handler
    // thread's last live call (before the thread starts) and `pipe.finish()`,
    // which the handler thread waits for before touching the stream again.
    let live: XMLStream
    let pipe: NodePipe

    init(live: XMLStream, pipe: NodePipe) {
        self.live = live
        self.pipe = pipe
    }

    func run() {
        defer { pipe.finish() }
        while let batch = pipe.emptyBatch() {
            live.fill(batch)
            let last = batch.end != nil
            pipe.send(batch)
            if last { return }
        }
    }
}
