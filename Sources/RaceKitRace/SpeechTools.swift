import Foundation
import RaceKitCore

/// The programs `script render` runs: the espeak-ng speech engine, opusenc
/// (opus-tools) and, for M4A, ffmpeg; all from Debian (`make deps` installs them).
public struct SpeechTools: Sendable, Equatable {
    /// Path of `espeak-ng`.
    public var espeak: String
    /// Path of `opusenc`.
    public var opusenc: String
    /// Path of `ffmpeg` (M4A only).
    public var ffmpeg: String?
    /// Path of `opusdec` (opus-tools; a WAV of the race as heard only).
    public var opusdec: String?

    public init(espeak: String, opusenc: String, ffmpeg: String? = nil, opusdec: String? = nil) {
        self.espeak = espeak
        self.opusenc = opusenc
        self.ffmpeg = ffmpeg
        self.opusdec = opusdec
    }

    /// The programs from PATH; a missing one is `AudioError.toolMissing`
    /// (ffmpeg only when `format` needs it).
    public static func find(
        format: AudioFormat = .opus, path: String? = ProcessInfo.processInfo.environment["PATH"]
    ) throws -> SpeechTools {
        guard let espeak = which("espeak-ng", path: path) else {
            throw AudioError.toolMissing(tool: "espeak-ng", package: "espeak-ng")
        }
        guard let opusenc = which("opusenc", path: path) else {
            throw AudioError.toolMissing(tool: "opusenc", package: "opus-tools")
        }
        let ffmpeg = which("ffmpeg", path: path)
        if format == .m4a, ffmpeg == nil { throw AudioError.toolMissing(tool: "ffmpeg", package: "ffmpeg") }
        return SpeechTools(espeak: espeak, opusenc: opusenc, ffmpeg: ffmpeg)
    }

    /// `opusdec` from PATH (opus-tools, like opusenc).
    public static func opusdec(path: String? = ProcessInfo.processInfo.environment["PATH"]) throws -> String {
        guard let found = which("opusdec", path: path) else {
            throw AudioError.toolMissing(tool: "opusdec", package: "opus-tools")
        }
        return found
    }

    /// The containers an Ogg Opus stream is converted to.
    public enum Conversion: Sendable { case m4a, wav }

    /// Writes an Ogg Opus stream as M4A (ffmpeg, AAC) or WAV (opusdec) at
    /// `path`, through a temporary file beside it, atomically.
    public func convert(_ opus: [UInt8], to path: String, _ to: Conversion) throws {
        let input = Self.temporary(beside: path, "opus")
        let output = Self.temporary(beside: path, to == .m4a ? "m4a" : "wav")
        defer { for f in [input, output] { unlink(f) } }
        try AtomicFile.write(opus, to: input)
        let run: (status: Int32, output: Data)
        switch to {
        case .m4a:
            guard let ffmpeg else { throw AudioError.toolMissing(tool: "ffmpeg", package: "ffmpeg") }
            run = try Self.run(
                ffmpeg,
                ["-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-i", Self.arg(input)]
                    + AudioFormat.m4a.encoderArguments + ["-f", "mp4", Self.arg(output)], capture: .stderr,
                timeout: Self.timeoutSeconds * 10)
        case .wav:
            guard let opusdec else { throw AudioError.toolMissing(tool: "opusdec", package: "opus-tools") }
            run = try Self.run(
                opusdec, ["--quiet", Self.arg(input), Self.arg(output)], capture: .stderr,
                timeout: Self.timeoutSeconds * 10)
        }
        guard run.status == 0, let bytes = InputFile.read(output) else {
            throw ToolFailure(tool: to == .m4a ? "ffmpeg" : "opusdec", status: run.status, run.output)
        }
        try AtomicFile.write([UInt8](bytes), to: path)
    }

    /// True when both programs are on PATH.
    public static var installed: Bool { (try? find()) != nil }   // try?: the error only says which is missing

    static func which(_ name: String, path: String?) -> String? {
        for dir in (path ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// The engine's version line without its data path: `eSpeak NG text-to-speech: 1.51`.
    public func engineVersion() throws -> String {
        let run = try Self.run(espeak, ["--version"], capture: .stdout)
        let line = String(decoding: run.output, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
        guard run.status == 0, !line.isEmpty else {
            throw AudioError.failed([ToolFailure(tool: "espeak-ng --version", status: run.status, stderr: line)])
        }
        let version = line.components(separatedBy: "Data at:")[0]
        return version.trimmingCharacters(in: .whitespaces)
    }

    /// Voices the engine has: every language and voice file of `espeak-ng --voices`
    /// except MBROLA ones (they need the mbrola program and its voice packages),
    /// and the variant names (`en-us+f3`).
    public func voices() throws -> (voices: Set<String>, variants: Set<String>) {
        func table(_ args: [String]) throws -> [[Substring]] {
            let run = try Self.run(espeak, args, capture: .stdout)
            guard run.status == 0 else {
                throw AudioError.failed([
                    ToolFailure(tool: "espeak-ng " + args.joined(separator: " "), status: run.status, stderr: "")
                ])
            }
            // Columns: Pty, Language, Age/Gender, VoiceName, File, Other languages.
            return String(decoding: run.output, as: UTF8.self).split(separator: "\n").dropFirst()
                .map { $0.split(separator: " ") }.filter { $0.count >= 5 }
        }
        var voices = Set<String>()
        for row in try table(["--voices"]) where !row[4].hasPrefix("mb/") {
            voices.insert(String(row[1]))
            voices.insert(String(row[4]))
        }
        let variants = Set(try table(["--voices=variant"]).map { String($0[4].split(separator: "/").last!) })
        return (voices, variants)
    }

    /// An unknown voice is a usage error naming the English ones.
    public func checkVoice(_ voice: String) throws {
        let (voices, variants) = try self.voices()
        let parts = voice.split(separator: "+", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        if voices.contains(parts[0]), parts.count == 1 || variants.contains(parts[1]) { return }
        let english = voices.filter { $0.hasPrefix("en") && !$0.contains("/") }.sorted()
        throw AudioError.unknownVoice(voice: voice, english: english)
    }

    /// Speaks a clip to a temporary WAV beside `path` (or makes its silence),
    /// trims, normalises and pads it (`PCMAudio`), encodes it and writes `path`
    /// atomically; returns its seconds and the loudness of its speech.
    /// The text goes through a file (`-f`), never an argument: a text starting
    /// with `-` would be an option, and a pipe to a child that exits early
    /// would raise SIGPIPE here.
    func render(_ clip: ScriptAudio.Clip, voice: String, format: AudioFormat, to path: String) throws -> RenderedClip {
        let (textFile, raw, wav, encoded) = (
            Self.temporary(beside: path, "txt"), Self.temporary(beside: path, "raw.wav"),
            Self.temporary(beside: path, "wav"), Self.temporary(beside: path, format.fileExtension)
        )
        defer { for f in [textFile, raw, wav, encoded] { unlink(f) } }
        var pcm: PCMAudio
        var loudness: Double?
        if clip.spoken.isEmpty {
            pcm = PCMAudio.silence(rate: 22_050, milliseconds: 0)
        } else {
            try AtomicFile.write(clip.spoken, to: textFile)
            let speak = try Self.run(
                espeak, ["-b", "1", "-v", voice, "-w", Self.arg(raw), "-f", Self.arg(textFile)], capture: .stderr)
            guard speak.status == 0 else { throw ToolFailure(tool: "espeak-ng", status: speak.status, speak.output) }
            guard let spoken = PCMAudio(wav: InputFile.read(raw) ?? Data()), !spoken.samples.isEmpty else {
                throw ToolFailure(tool: "espeak-ng", status: 0, Data("wrote no readable 16-bit WAV".utf8))
            }
            pcm = spoken.trimmed().normalized()
            loudness = pcm.loudness.isFinite ? pcm.loudness : nil
        }
        pcm = pcm.padded(lead: clip.lead, trail: clip.trail)
        try AtomicFile.write(pcm.wav(), to: wav)
        try encode(wav, to: encoded, format: format, serialFrom: path)
        guard let bytes = InputFile.read(encoded) else {
            throw ToolFailure(tool: format == .opus ? "opusenc" : "ffmpeg", status: 0, Data("wrote no file".utf8))
        }
        try AtomicFile.write([UInt8](bytes), to: path)
        return RenderedClip(seconds: pcm.seconds, loudness: loudness)
    }

    /// Encodes a WAV to `format`; the same input always gives the same bytes
    /// (opusenc: a stream serial from the file's name; ffmpeg: bit-exact, one thread).
    func encode(_ wav: String, to output: String, format: AudioFormat, serialFrom path: String) throws {
        let result: (status: Int32, output: Data)
        switch format {
        case .opus:
            let serial = String(
                UInt32((path as NSString).lastPathComponent.prefix(8), radix: 16).map { $0 & 0x7fff_ffff } ?? 1)
            result = try Self.run(
                opusenc, ["--quiet"] + format.encoderArguments + ["--serial", serial, Self.arg(wav), Self.arg(output)],
                capture: .stderr)
        case .m4a:
            guard let ffmpeg else { throw AudioError.toolMissing(tool: "ffmpeg", package: "ffmpeg") }
            result = try Self.run(
                ffmpeg,
                ["-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-i", Self.arg(wav)]
                    + format.encoderArguments + ["-f", "mp4", Self.arg(output)], capture: .stderr)
        }
        guard result.status == 0 else {
            throw ToolFailure(tool: format == .opus ? "opusenc" : "ffmpeg", status: result.status, result.output)
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

    /// Longest a tool may run on one text: espeak-ng speaks a 1,000-character
    /// text (the script's limit) in well under a second, opusenc encodes its
    /// minute of speech in about as long. `RACEKIT_TOOL_TIMEOUT` (seconds) changes it.
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
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
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
