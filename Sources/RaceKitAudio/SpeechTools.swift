import Foundation
import RaceKitModel
import RaceKitOutput

/// What `script render` speaks and encodes with: the eSpeak NG engine and the
/// Opus encoder in this process (libespeak-ng, libopusenc; opusfile to decode
/// the race as heard to WAV), loaded at first use; ffmpeg, a program, for M4A
/// only. All from Debian (`make deps` installs them).
public struct SpeechTools: Sendable {
    public var engine: any SpeechEngine
    public var encoder: any OpusEncoding
    /// Path of `ffmpeg` (M4A only).
    public var ffmpeg: String?

    public init(engine: any SpeechEngine, encoder: any OpusEncoding, ffmpeg: String? = nil) {
        self.engine = engine
        self.encoder = encoder
        self.ffmpeg = ffmpeg
    }

    /// The libraries (and ffmpeg from PATH when `format` needs it); a missing
    /// one is `AudioError.toolMissing` naming its Debian package.
    public static func find(
        format: AudioFormat = .opus, path: String? = ProcessInfo.processInfo.environment["PATH"]
    ) throws -> SpeechTools {
        guard let engine = ESpeakLibrary.shared else {
            throw AudioError.toolMissing(tool: "libespeak-ng", package: "libespeak-ng1")
        }
        guard let encoder = OpusLibrary.shared else {
            throw AudioError.toolMissing(tool: "libopusenc", package: "libopusenc0")
        }
        let ffmpeg = which("ffmpeg", path: path)
        if format == .m4a, ffmpeg == nil { throw AudioError.toolMissing(tool: "ffmpeg", package: "ffmpeg") }
        return SpeechTools(engine: engine, encoder: encoder, ffmpeg: ffmpeg)
    }

    /// The containers an Ogg Opus stream is converted to.
    public enum Conversion: Sendable { case m4a, wav }

    /// Writes an Ogg Opus stream as M4A (ffmpeg, AAC) or WAV (opusfile, 48 kHz
    /// 16-bit, decoded a block at a time) at `path`, atomically.
    public func convert(_ opus: [UInt8], to path: String, _ to: Conversion) throws {
        switch to {
        case .wav:
            guard let decoder = OpusLibrary.decoder else {
                throw AudioError.toolMissing(tool: "libopusfile", package: "libopusfile0")
            }
            try AtomicFile.stream(to: path) { sink in
                try decoder.decode(
                    opus,
                    header: { samples, channels in
                        let bytes = samples * channels * 2
                        guard bytes <= Int(UInt32.max) - 36 else {
                            throw ToolFailure(
                                tool: "opusfile", status: -1, stderr: "longer than a WAV file can hold",
                                inProcess: true)
                        }
                        try PCMAudio.wavHeader(rate: 48_000, channels: channels, dataBytes: bytes)
                            .withUnsafeBytes { try sink.write($0) }
                    }, { block in try sink.write(UnsafeRawBufferPointer(block)) })
            }
        case .m4a: try m4a(from: opus, extension: "opus", to: path, timeout: Self.timeoutSeconds * 10)
        }
    }

    /// True when the engine and the encoder load.
    public static var installed: Bool { (try? find()) != nil }   // try?: the error only says which is missing

    static func which(_ name: String, path: String?) -> String? {
        for dir in (path ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// The engine's version: `eSpeak NG text-to-speech: 1.51`.
    public func engineVersion() throws -> String {
        do { return try engine.version() } catch let f as ToolFailure { throw AudioError.failed([f]) }
    }

    /// What names a file's encoding: the encoder library and its settings, or ffmpeg's.
    public func encoderSettings(_ format: AudioFormat) -> String {
        format == .opus ? encoder.settings : format.encoderSettings
    }

    /// An unknown voice is a usage error naming the English ones. The voices
    /// are every language and voice file of the engine except MBROLA ones
    /// (they need the mbrola program and its voice packages), and the variants (`en-us+f3`).
    public func checkVoice(_ voice: String) throws {
        let (voices, variants): (Set<String>, Set<String>)
        do { (voices, variants) = try engine.voices() } catch let f as ToolFailure { throw AudioError.failed([f]) }
        let parts = voice.split(separator: "+", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        if voices.contains(parts[0]), parts.count == 1 || variants.contains(parts[1]) { return }
        let english = voices.filter { $0.hasPrefix("en") && !$0.contains("/") }.sorted()
        throw AudioError.unknownVoice(voice: voice, english: english)
    }

    /// Speaks a clip (or makes its silence), trims, normalises and pads it
    /// (`PCMAudio`), encodes it and writes `path` atomically; returns its
    /// seconds and the loudness of its speech. Ogg Opus: no temporary file.
    func render(_ clip: ScriptAudio.Clip, voice: String, format: AudioFormat, to path: String) throws -> RenderedClip {
        let (pcm, rendered) = try speak(clip, voice: voice)
        switch format {
        case .opus: try AtomicFile.write(try encoder.encode(pcm, serial: Self.serial(path)), to: path)
        case .m4a: try m4a(from: pcm.wav(), extension: "wav", to: path, timeout: Self.timeoutSeconds)
        }
        return rendered
    }

    /// A clip spoken (or its silence made), trimmed, normalised and padded, with
    /// its seconds and the loudness of its speech.
    func speak(_ clip: ScriptAudio.Clip, voice: String) throws -> (PCMAudio, RenderedClip) {
        var pcm: PCMAudio
        var loudness: Double?
        if clip.spoken.isEmpty {
            pcm = PCMAudio.silence(rate: 22_050, milliseconds: 0)
        } else {
            let spoken = try engine.speak(clip.spoken, voice: voice)
            guard !spoken.samples.isEmpty else {
                throw ToolFailure(tool: "espeak-ng", status: 0, stderr: "said nothing", inProcess: true)
            }
            let measured: Double
            (pcm, measured) = spoken.trimmed().normalizedMeasured()
            loudness = measured.isFinite ? measured : nil
        }
        pcm = pcm.padded(lead: clip.lead, trail: clip.trail)
        return (pcm, RenderedClip(seconds: pcm.seconds, loudness: loudness))
    }

    /// A stream serial from the file's name (its first 8 hex digits): the same clip, the same bytes.
    static func serial(_ path: String) -> Int32 {
        Int32(UInt32((path as NSString).lastPathComponent.prefix(8), radix: 16).map { $0 & 0x7fff_ffff } ?? 1)
    }

    /// Clips one ffmpeg encodes to M4A: a process a clip was most of an M4A render's time.
    static let m4aBatch = 24

    /// M4A clips (`jobs`: each clip and its file) on `workers` threads, a batch
    /// of `m4aBatch` at a time: each clip spoken in this process and written as
    /// a temporary WAV beside its file, then one ffmpeg for the batch. Results
    /// in the jobs' order; `progress` after each batch.
    func renderM4A(
        _ jobs: [(clip: ScriptAudio.Clip, path: String)], voice: String, workers: Int,
        progress: (@Sendable (Int, Int) -> Void)?
    ) -> [Result<RenderedClip, ToolFailure>] {
        let batches = stride(from: 0, to: jobs.count, by: Self.m4aBatch).map {
            Array(jobs[$0..<min($0 + Self.m4aBatch, jobs.count)])
        }
        let done = Locked(0)
        let results = Self.parallel(batches, workers: workers, progress: nil) { batch in
            let results = renderM4ABatch(batch, voice: voice)
            let n = done.withLock { n -> Int in
                n += batch.count
                return n
            }
            progress?(n, jobs.count)
            return results
        }
        return zip(batches, results).flatMap { batch, result -> [Result<RenderedClip, ToolFailure>] in
            switch result {
            case .success(let results): return results
            case .failure(let failure): return Array(repeating: .failure(failure), count: batch.count)
            }
        }
    }

    /// One batch of `renderM4A`. A batch ffmpeg fails on is encoded again clip
    /// by clip, so that a failure names its clip and the others are kept.
    func renderM4ABatch(
        _ batch: [(clip: ScriptAudio.Clip, path: String)], voice: String
    ) -> [Result<RenderedClip, ToolFailure>] {
        var results = [Result<RenderedClip, ToolFailure>?](repeating: nil, count: batch.count)
        var spoken: [(index: Int, wav: String, clip: RenderedClip)] = []
        defer { for s in spoken { unlink(s.wav) } }
        for (i, job) in batch.enumerated() {
            results[i] = Self.failure {
                let (pcm, clip) = try speak(job.clip, voice: voice)
                let wav = Self.temporary(beside: job.path, "wav")
                try AtomicFile.write(pcm.wav(), to: wav)
                spoken.append((i, wav, clip))
            }
        }
        let together = Self.failure {
            try m4a(files: spoken.map { ($0.wav, batch[$0.index].path) }, timeout: Self.timeoutSeconds)
        }
        for s in spoken {
            let alone =
                together == nil
                ? nil : Self.failure { try m4a(files: [(s.wav, batch[s.index].path)], timeout: Self.timeoutSeconds) }
            results[s.index] = alone ?? .success(s.clip)
        }
        return results.map { $0 ?? .failure(ToolFailure(tool: "render", status: -1, Data("not rendered".utf8))) }
    }

    /// What `body` threw, as a tool's failure (nil when it returned).
    static func failure(_ body: () throws -> Void) -> Result<RenderedClip, ToolFailure>? {
        do {
            try body()
            return nil
        } catch let f as ToolFailure {
            return .failure(f)
        } catch {
            return .failure(ToolFailure(tool: "render", status: -1, Data("\(error)".utf8)))
        }
    }

    /// Writes `input` (a WAV or an Ogg Opus stream, by `ext`) as AAC in MPEG-4 at
    /// `path` through ffmpeg, from a temporary file beside `path`.
    func m4a(from input: [UInt8], extension ext: String, to path: String, timeout: Double) throws {
        let source = Self.temporary(beside: path, ext)
        defer { unlink(source) }
        try AtomicFile.write(input, to: source)
        try m4a(files: [(source, path)], timeout: timeout)
    }

    /// Encodes each `source` (WAV or Ogg Opus) as AAC in MPEG-4 (bit-exact, one
    /// thread) at its `path`, in one ffmpeg run: each output to a temporary file
    /// beside its path, then written in place atomically.
    func m4a(files: [(source: String, path: String)], timeout: Double) throws {
        guard !files.isEmpty else { return }
        guard let ffmpeg else { throw AudioError.toolMissing(tool: "ffmpeg", package: "ffmpeg") }
        let encoded = files.map { Self.temporary(beside: $0.path, "m4a") }
        defer { for f in encoded { unlink(f) } }
        var args = ["-nostdin", "-hide_banner", "-loglevel", "error", "-y"]
        for f in files { args += ["-i", Self.arg(f.source)] }
        for (k, out) in encoded.enumerated() {
            args += ["-map", "\(k):a"] + AudioFormat.m4a.encoderArguments + ["-f", "mp4", Self.arg(out)]
        }
        let result = try Self.run(ffmpeg, args, capture: .stderr, timeout: timeout)
        guard result.status == 0 else { throw ToolFailure(tool: "ffmpeg", status: result.status, result.output) }
        for (f, out) in zip(files, encoded) {
            guard let bytes = InputFile.read(out) else {
                throw ToolFailure(tool: "ffmpeg", status: 0, Data("wrote no file".utf8))
            }
            try AtomicFile.write([UInt8](bytes), to: f.path)
        }
    }

    /// A path as a program's argument: never read as an option (`-aud/x.wav`: `./-aud/x.wav`).
    static func arg(_ path: String) -> String { path.hasPrefix("-") ? "./" + path : path }

    /// A temporary file's path in `path`'s folder: short, hidden, unique to this
    /// process and call, ending in `ext` (opusdec writes a WAV header only to a `.wav`).
    static func temporary(beside path: String, _ ext: String) -> String {
        let dir = (path as NSString).deletingLastPathComponent
        return ((dir.isEmpty ? "." : dir) as NSString)
            .appendingPathComponent(".racekit-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).\(ext)")
    }

    enum Stream { case stdout, stderr }

    /// Longest one ffmpeg run may take, on a clip or a batch of `m4aBatch` (it
    /// encodes a minute of speech in well under a second). `RACEKIT_TOOL_TIMEOUT`
    /// (seconds) changes it.
    static let timeoutSeconds: Double = {
        if let text = ProcessInfo.processInfo.environment["RACEKIT_TOOL_TIMEOUT"], let s = Double(text), s > 0,
            s <= 86_400
        {
            return s
        }
        return 60
    }()

    /// Most bytes of a tool's output kept (its messages; the rest is read and dropped).
    static let maxOutputBytes = 64 * 1024

    /// Where the kills of programs past their time are timed.
    static let watchdogs = DispatchQueue(label: "racekit.tool-timeout")

    /// Runs a program to its end, collecting one of its streams (the other goes to
    /// /dev/null, at most `maxOutputBytes` kept); killed after `timeout` seconds
    /// (status -1 and a message saying so).
    static func run(
        _ program: String, _ args: [String], capture: Stream, timeout: Double = timeoutSeconds
    ) throws -> (status: Int32, output: Data) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: program)
        p.arguments = args
        let pipe = Pipe()
        p.standardInput = FileHandle.nullDevice
        p.standardOutput = capture == .stdout ? pipe : FileHandle.nullDevice
        p.standardError = capture == .stderr ? pipe : FileHandle.nullDevice
        // Waited for through the termination handler: Foundation's waitUntilExit
        // polls its run loop every 50 ms, which was most of a short tool's time.
        let exited = DispatchSemaphore(value: 0), ended = Locked(false)
        p.terminationHandler = { _ in
            ended.withLock { $0 = true }
            exited.signal()
        }
        do { try p.run() } catch {
            throw ToolFailure(
                tool: (program as NSString).lastPathComponent, status: -1,
                Data("cannot start: \((error as NSError).localizedDescription)".utf8))
        }
        let timedOut = Locked(false)
        let pid = p.processIdentifier
        let watchdog = DispatchWorkItem {
            timedOut.withLock { $0 = true }
            kill(pid, SIGKILL)
        }
        // On a queue of its own: the global queue's few workers may all be busy
        // (renders, a test run's parallel tests), and a kill that waits for one
        // came 27 s late under AddressSanitizer. A serial queue of our own gets a thread.
        Self.watchdogs.asyncAfter(deadline: .now() + timeout, execute: watchdog)
        let output = Self.drain(pipe.fileHandleForReading.fileDescriptor) {
            ended.withLock { $0 } || Self.exitStatus(pid) != nil
        }
        // Foundation reports the exit once every copy of a descriptor it gave the
        // tool is closed, which a child of the tool's may hold for long after:
        // the exit is also seen here, without reaping the tool (Foundation does).
        var status: Int32?
        while status == nil {
            if exited.wait(timeout: .now() + 0.05) == .success {
                status = p.terminationStatus
            } else {
                status = Self.exitStatus(pid)
            }
        }
        watchdog.cancel()
        if timedOut.withLock({ $0 }) {
            return (-1, Data("killed after \(TextFormat.fixed(timeout, 0)) s (RACEKIT_TOOL_TIMEOUT)".utf8) + output)
        }
        return (status ?? -1, output)
    }

    /// The exit status of the child `pid` once it has exited (its code, or the
    /// signal that ended it, as `Process.terminationStatus` says), nil while it
    /// runs; the child is left to be reaped (`WNOWAIT`).
    static func exitStatus(_ pid: pid_t) -> Int32? {
        var info = siginfo_t()
        guard waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0,
            info._sifields._sigchld.si_pid == pid
        else { return nil }
        return info._sifields._sigchld.si_status
    }

    /// What a tool writes to the pipe `fd` (at most `maxOutputBytes` kept), up to
    /// its end, or until the tool has exited (`exited`) and nothing came for
    /// 100 ms: everything it wrote before exiting is in the pipe by then. A child
    /// of the tool's may hold the pipe open long after (a wrapper script's
    /// `sleep`, killed with its parent): the run does not wait for it (it waited
    /// 30 s after a kill at 0.2 s).
    static func drain(_ fd: Int32, exited: () -> Bool) -> Data {
        var output = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let n = poll(&ready, 1, 100)
            if n < 0, errno == EINTR { continue }
            if n < 0 { break }   // the descriptor itself is unusable: nothing more to read
            if n == 0 {
                if exited() { break }
                continue
            }
            let count = read(fd, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            if count <= 0 { break }
            if output.count < maxOutputBytes {
                output.append(contentsOf: buffer.prefix(min(count, maxOutputBytes - output.count)))
            }
        }
        return output
    }

    /// Runs `body` over `jobs` on `workers` threads; results in the jobs' order.
    static func parallel<Job: Sendable, Value: Sendable>(
        _ jobs: [Job], workers: Int, progress: (@Sendable (Int, Int) -> Void)?,
        _ body: @Sendable (Job) throws -> Value
    ) -> [Result<Value, ToolFailure>] {
        let state = Locked(
            (next: 0, done: 0, results: [Result<Value, ToolFailure>?](repeating: nil, count: jobs.count)))
        DispatchQueue.concurrentPerform(iterations: min(workers, jobs.count)) { _ in
            while true {
                let i = state.withLock { s -> Int? in
                    defer { s.next += 1 }
                    return s.next < jobs.count ? s.next : nil
                }
                guard let i else { return }
                let result: Result<Value, ToolFailure>
                do { result = .success(try body(jobs[i])) } catch let f as ToolFailure { result = .failure(f) } catch {
                    result = .failure(ToolFailure(tool: "render", status: -1, Data("\(error)".utf8)))
                }
                let done = state.withLock { s -> Int in
                    s.results[i] = result
                    s.done += 1
                    return s.done
                }
                progress?(done, jobs.count)
            }
        }
        return state.withLock { $0.results.map { $0! } }
    }
}
