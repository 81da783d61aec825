import Foundation
import RaceKitCore

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
    /// seconds and the loudness of its speech. No temporary file but M4A's.
    func render(_ clip: ScriptAudio.Clip, voice: String, format: AudioFormat, to path: String) throws -> RenderedClip {
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
        switch format {
        case .opus: try AtomicFile.write(try encoder.encode(pcm, serial: Self.serial(path)), to: path)
        case .m4a: try encodeM4A(pcm, to: path)
        }
        return RenderedClip(seconds: pcm.seconds, loudness: loudness)
    }

    /// A stream serial from the file's name (its first 8 hex digits): the same clip, the same bytes.
    static func serial(_ path: String) -> Int32 {
        Int32(UInt32((path as NSString).lastPathComponent.prefix(8), radix: 16).map { $0 & 0x7fff_ffff } ?? 1)
    }

    /// AAC in MPEG-4 through ffmpeg (bit-exact, one thread), from a temporary WAV beside `path`.
    func encodeM4A(_ pcm: PCMAudio, to path: String) throws {
        try m4a(from: pcm.wav(), extension: "wav", to: path, timeout: Self.timeoutSeconds)
    }

    /// Writes `input` (a WAV or an Ogg Opus stream, by `ext`) as AAC in MPEG-4 at
    /// `path` through ffmpeg: both through temporary files beside `path`, the result atomically.
    func m4a(from input: [UInt8], extension ext: String, to path: String, timeout: Double) throws {
        guard let ffmpeg else { throw AudioError.toolMissing(tool: "ffmpeg", package: "ffmpeg") }
        let (source, encoded) = (Self.temporary(beside: path, ext), Self.temporary(beside: path, "m4a"))
        defer { for f in [source, encoded] { unlink(f) } }
        try AtomicFile.write(input, to: source)
        let result = try Self.run(
            ffmpeg,
            ["-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-i", Self.arg(source)]
                + AudioFormat.m4a.encoderArguments + ["-f", "mp4", Self.arg(encoded)], capture: .stderr,
            timeout: timeout)
        guard result.status == 0 else { throw ToolFailure(tool: "ffmpeg", status: result.status, result.output) }
        guard let bytes = InputFile.read(encoded) else {
            throw ToolFailure(tool: "ffmpeg", status: 0, Data("wrote no file".utf8))
        }
        try AtomicFile.write([UInt8](bytes), to: path)
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

    /// Longest ffmpeg may run on one clip (it encodes a minute of speech in well
    /// under a second). `RACEKIT_TOOL_TIMEOUT` (seconds) changes it.
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
        let exited = DispatchSemaphore(value: 0)
        p.terminationHandler = { _ in exited.signal() }
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
        var output = Data()
        let reader = pipe.fileHandleForReading
        while true {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            if output.count < maxOutputBytes { output.append(chunk.prefix(maxOutputBytes - output.count)) }
        }
        exited.wait()
        watchdog.cancel()
        if timedOut.withLock({ $0 }) {
            return (-1, Data("killed after \(TextFormat.fixed(timeout, 0)) s (RACEKIT_TOOL_TIMEOUT)".utf8) + output)
        }
        return (p.terminationStatus, output)
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
