import Foundation
import RaceKitCore

/// The programs `script render` runs: the espeak-ng speech engine and opusenc
/// (opus-tools), both from Debian (`make deps` installs them).
public struct SpeechTools: Sendable, Equatable {
    /// Path of `espeak-ng`.
    public var espeak: String
    /// Path of `opusenc`.
    public var opusenc: String

    public init(espeak: String, opusenc: String) {
        self.espeak = espeak
        self.opusenc = opusenc
    }

    /// Both programs from PATH; a missing one is `AudioError.toolMissing`.
    public static func find(path: String? = ProcessInfo.processInfo.environment["PATH"]) throws -> SpeechTools {
        guard let espeak = which("espeak-ng", path: path) else {
            throw AudioError.toolMissing(tool: "espeak-ng", package: "espeak-ng")
        }
        guard let opusenc = which("opusenc", path: path) else {
            throw AudioError.toolMissing(tool: "opusenc", package: "opus-tools")
        }
        return SpeechTools(espeak: espeak, opusenc: opusenc)
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

    /// Speaks `text` to a temporary WAV beside `path`, encodes it to Ogg Opus and
    /// writes `path` atomically; returns the seconds of speech (from the WAV).
    /// The text goes through a file (`-f`), never an argument: a text starting
    /// with `-` would be an option, and a pipe to a child that exits early
    /// would raise SIGPIPE here.
    func render(_ text: String, voice: String, to path: String) throws -> Double {
        let temp = ((path as NSString).deletingLastPathComponent as NSString)
            .appendingPathComponent(".\((path as NSString).lastPathComponent).\(getpid())")
        let (textFile, wav, opus) = (temp + ".txt", temp + ".wav", temp + ".tmp.opus")
        defer { for f in [textFile, wav, opus] { unlink(f) } }
        try AtomicFile.write(text, to: textFile)
        let speak = try Self.run(espeak, ["-b", "1", "-v", voice, "-w", wav, "-f", textFile], capture: .stderr)
        guard speak.status == 0 else { throw ToolFailure(tool: "espeak-ng", status: speak.status, speak.output) }
        guard let info = AudioFormats.WAV(InputFile.read(wav) ?? Data()), info.dataBytes > 0
        else {
            throw ToolFailure(tool: "espeak-ng", status: 0, Data("wrote no readable WAV with speech".utf8))
        }
        // A stream serial from the file's name: the same text encodes to the same bytes.
        let serial = String(
            UInt32((path as NSString).lastPathComponent.prefix(8), radix: 16).map { $0 & 0x7fff_ffff } ?? 1)
        let encode = try Self.run(
            opusenc, ["--quiet"] + ScriptAudio.encoderArguments + ["--serial", serial, wav, opus], capture: .stderr)
        guard encode.status == 0, let bytes = InputFile.read(opus) else {
            throw ToolFailure(tool: "opusenc", status: encode.status, encode.output)
        }
        try AtomicFile.write([UInt8](bytes), to: path)
        return info.seconds
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
    static func parallel<Job: Sendable>(
        _ jobs: [Job], workers: Int, progress: (@Sendable (Int, Int) -> Void)?,
        _ body: @Sendable (Job) throws -> Double
    ) -> [Result<Double, ToolFailure>] {
        let state = Locked(
            (next: 0, done: 0, results: [Result<Double, ToolFailure>?](repeating: nil, count: jobs.count)))
        DispatchQueue.concurrentPerform(iterations: min(workers, jobs.count)) { _ in
            while true {
                let i = state.withLock { s -> Int? in
                    defer { s.next += 1 }
                    return s.next < jobs.count ? s.next : nil
                }
                guard let i else { return }
                let result: Result<Double, ToolFailure>
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
