import CSpeech
import Foundation

/// Where a speech library is loaded from: the system's library path, or the
/// folder `RACEKIT_SPEECH_LIBRARIES` names (a self-built eSpeak NG, say).
func speechLibrary(_ soname: String) -> String {
    guard let folder = ProcessInfo.processInfo.environment["RACEKIT_SPEECH_LIBRARIES"], !folder.isEmpty else {
        return soname
    }
    return (folder as NSString).appendingPathComponent(soname)
}

/// What speaks a clip's text: libespeak-ng in this process (`ESpeakLibrary`),
/// or a stand-in (tests).
public protocol SpeechEngine: Sendable {
    /// The engine and its version (`eSpeak NG text-to-speech: 1.51`): part of every file's key.
    func version() throws -> String
    /// The voices (each voice's first language and its voice file) and the variants (`f3`).
    func voices() throws -> (voices: Set<String>, variants: Set<String>)
    /// The text said by `voice` (`en-us`, `en-us+f3`), as 16-bit mono PCM at the engine's rate.
    func speak(_ text: String, voice: String) throws -> PCMAudio
}

/// What compresses a clip to Ogg Opus: libopusenc in this process (`OpusLibrary`), or a stand-in.
public protocol OpusEncoding: Sendable {
    /// The library and its settings: part of every file's key and the manifest's `encoder`.
    var settings: String { get }
    /// One Ogg Opus stream of `pcm` with the stream serial `serial`: the same input, the same bytes.
    func encode(_ pcm: PCMAudio, serial: Int32) throws -> [UInt8]
}

/// eSpeak NG through its library (libespeak-ng.so.1), loaded at first use.
/// The engine keeps its voice, its buffers and its callback in globals, so
/// one instance serves the process and speaks one text at a time (a lock);
/// a clip takes a few milliseconds, the encoding beside it runs in parallel.
public final class ESpeakLibrary: SpeechEngine, @unchecked Sendable {
    /// The library's file name (Debian's libespeak-ng1).
    public static let soname = "libespeak-ng.so.1"
    /// The process's engine; nil when the library is not installed or cannot start
    /// (`startFailure` says why).
    public static let shared: ESpeakLibrary? = ESpeakLibrary(path: speechLibrary(soname))

    /// Longest speech one text may give: ten minutes (a 1,000-character text takes about one).
    static let maxSeconds = 600

    private var api = RKEspeak()
    private let lock = NSLock()
    private var rate = 0
    private var currentVoice: String?
    /// Why the engine would not start (no voice data, say), nil when it did.
    public private(set) var startFailure: String?

    /// Loads the library at `path`; nil when it or one of its functions is missing.
    init?(path: String) {
        guard rk_espeak_load(&api, path) != 0 else { return nil }
        api.initializePath(nil)   // ESPEAK_DATA_PATH, else the compiled-in data folder
        var status = api.initialize(nil)
        if status == ENS_OK { status = api.initializeOutput(ENOUTPUT_MODE_SYNCHRONOUS, 0, nil) }
        guard status == ENS_OK else {
            startFailure = message(status)
            return
        }
        api.setSynthCallback(collectSamples)
        rate = Int(api.sampleRate())
    }

    private func message(_ status: espeak_ng_STATUS) -> String {
        var buffer = [CChar](repeating: 0, count: 512)
        api.statusMessage(status, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private func failure(_ status: espeak_ng_STATUS, _ what: String) -> ToolFailure {
        ToolFailure(
            tool: "espeak-ng", status: Int32(bitPattern: status.rawValue),
            stderr: what + ": " + message(status), inProcess: true)
    }

    private func started() throws {
        if let startFailure {
            throw ToolFailure(tool: "espeak-ng", status: -1, stderr: "cannot start: \(startFailure)", inProcess: true)
        }
    }

    public func version() throws -> String {
        try started()
        return "eSpeak NG text-to-speech: " + text(api.info(nil))
    }

    public func voices() throws -> (voices: Set<String>, variants: Set<String>) {
        try started()
        return lock.withLock {
            func list(_ spec: UnsafeMutablePointer<espeak_VOICE>?) -> [espeak_VOICE] {
                guard var p = api.listVoices(spec) else { return [] }
                var out: [espeak_VOICE] = []
                while let v = p.pointee {
                    out.append(v.pointee)
                    p += 1
                }
                return out
            }
            var voices = Set<String>()
            for v in list(nil) {
                guard let id = v.identifier.map({ String(cString: $0) }), !id.hasPrefix("mb/") else { continue }
                voices.insert(id)
                // `languages`: a priority byte, then a NUL-terminated name, repeated; the first is the voice's language.
                if let languages = v.languages, languages.pointee != 0 {
                    voices.insert(String(cString: languages + 1))
                }
            }
            var variants = Set<String>()
            "variant".withCString { name in
                var spec = espeak_VOICE()
                spec.languages = name
                for v in list(&spec) {
                    if let id = v.identifier {
                        variants.insert(String(String(cString: id).split(separator: "/").last!))
                    }
                }
            }
            return (voices, variants)
        }
    }

    /// The text in `voice`: UTF-8, a sentence pause at its end, no phoneme mnemonics.
    public func speak(_ text: String, voice: String) throws -> PCMAudio {
        try started()
        return try lock.withLock {
            if currentVoice != voice {
                let status = api.setVoiceByName(voice)
                guard status == ENS_OK else { throw failure(status, "voice \(voice)") }
                currentVoice = voice
            }
            let sink = SampleSink(limit: rate * Self.maxSeconds)
            let box = Unmanaged.passRetained(sink)
            defer { box.release() }
            let status = text.withCString { c in
                api.synthesize(
                    c, strlen(c) + 1, 0, POS_CHARACTER, 0, UInt32(espeakCHARS_UTF8 | espeakENDPAUSE), nil,
                    box.toOpaque())
            }
            if sink.overflow {
                throw ToolFailure(
                    tool: "espeak-ng", status: -1, stderr: "spoke more than \(Self.maxSeconds / 60) minutes",
                    inProcess: true)
            }
            guard status == ENS_OK else { throw failure(status, "synthesis") }
            return PCMAudio(rate: rate, samples: sink.samples)
        }
    }
}

/// Where the engine's callback puts one text's samples.
private final class SampleSink {
    var samples: [Int16] = []
    let limit: Int
    var overflow = false
    init(limit: Int) { self.limit = limit }
}

/// The engine's synthesis callback: appends the samples to the text's sink
/// (the `user_data` of every event); 1 stops the synthesis past the limit.
private func collectSamples(
    _ wav: UnsafeMutablePointer<Int16>?, _ count: Int32, _ events: UnsafeMutablePointer<espeak_EVENT>?
) -> Int32 {
    guard let user = events?.pointee.user_data else { return 0 }
    let sink = Unmanaged<SampleSink>.fromOpaque(user).takeUnretainedValue()
    guard let wav, count > 0 else { return 0 }
    guard sink.samples.count + Int(count) <= sink.limit else {
        sink.overflow = true
        return 1
    }
    sink.samples.append(contentsOf: UnsafeBufferPointer(start: wav, count: Int(count)))
    return 0
}

/// libopusenc (encoding) and opusfile (decoding), loaded at first use; both
/// keep their state per stream, so any number of threads use them at once.
public struct OpusLibrary: OpusEncoding, @unchecked Sendable {
    public static let encoderName = "libopusenc.so.0"
    public static let decoderName = "libopusfile.so.0"
    /// The process's encoder; nil when libopusenc is not installed.
    public static let shared: OpusLibrary? = OpusLibrary(path: speechLibrary(encoderName))
    /// The process's decoder; nil when opusfile is not installed.
    public static let decoder: OpusDecoder? = OpusDecoder(path: speechLibrary(decoderName))

    /// Bit rate (24 kbit/s keeps espeak-ng's whole 11 kHz band), the speech
    /// tuning and the slowest, best encoder setting.
    static let bitrate: Int32 = 24_000
    static let complexity: Int32 = 10

    private var api = RKOpusEnc()

    init?(path: String) {
        guard rk_opusenc_load(&api, path) != 0 else { return nil }
    }

    public var settings: String {
        "\(text(api.version())) signal=voice bitrate=\(Self.bitrate) complexity=\(Self.complexity)"
    }

    private func failure(_ code: Int32, _ what: String) -> ToolFailure {
        ToolFailure(
            tool: "libopusenc", status: code, stderr: "\(what): \(text(api.strerror(code)))",
            inProcess: true)
    }

    public func encode(_ pcm: PCMAudio, serial: Int32) throws -> [UInt8] {
        var api = self.api   // rk_opusenc_set takes its address
        guard let comments = api.commentsCreate() else { throw failure(-17, "comments") }
        defer { api.commentsDestroy(comments) }
        var error: Int32 = 0
        guard let encoder = api.createPull(comments, Int32(pcm.rate), 1, 0, &error), error == Int32(RK_OPE_OK)
        else { throw failure(error, "encoder at \(pcm.rate) Hz") }
        defer { api.destroy(encoder) }
        for (request, value) in [
            (RK_OPUS_SET_BITRATE_REQUEST, Self.bitrate), (RK_OPUS_SET_SIGNAL_REQUEST, Int32(RK_OPUS_SIGNAL_VOICE)),
            (RK_OPUS_SET_COMPLEXITY_REQUEST, Self.complexity), (RK_OPE_SET_SERIALNO_REQUEST, serial)
        ] {
            let code = rk_opusenc_set(&api, encoder, Int32(request), value)
            guard code == Int32(RK_OPE_OK) else { throw failure(code, "setting \(request)") }
        }
        var out: [UInt8] = []
        func takePages(flush: Int32) {
            var page: UnsafeMutablePointer<UInt8>?
            var length: Int32 = 0
            while api.getPage(encoder, &page, &length, flush) != 0, let page, length > 0 {
                out.append(contentsOf: UnsafeBufferPointer(start: page, count: Int(length)))
            }
        }
        try pcm.samples.withUnsafeBufferPointer { samples in
            var offset = 0
            while offset < samples.count {
                let n = min(samples.count - offset, 1 << 16)
                let code = api.write(encoder, samples.baseAddress! + offset, Int32(n))
                guard code == Int32(RK_OPE_OK) else { throw failure(code, "write") }
                offset += n
                takePages(flush: 0)
            }
        }
        let code = api.drain(encoder)
        guard code == Int32(RK_OPE_OK) else { throw failure(code, "drain") }
        takePages(flush: 1)
        return out
    }
}

/// opusfile's decoder: an Ogg Opus stream back to 48 kHz 16-bit PCM.
public struct OpusDecoder: @unchecked Sendable {
    private var api = RKOpusFile()

    init?(path: String) {
        guard rk_opusfile_load(&api, path) != 0 else { return nil }
    }

    private func failure(_ code: Int32, _ what: String) -> ToolFailure {
        ToolFailure(tool: "opusfile", status: code, stderr: what, inProcess: true)
    }

    /// The stream's samples per channel (48 kHz) and channels, then its PCM
    /// handed to `body` a block at a time (interleaved): memory stays one block.
    public func decode(
        _ bytes: [UInt8], header: (_ samples: Int, _ channels: Int) throws -> Void,
        _ body: (UnsafeBufferPointer<Int16>) throws -> Void
    ) throws {
        // opusfile reads the bytes in place: they stay borrowed until it is freed.
        try bytes.withUnsafeBufferPointer { data in
            var error: Int32 = 0
            guard let file = api.openMemory(data.baseAddress, data.count, &error) else {
                throw failure(error, "not an Ogg Opus stream (error \(error))")
            }
            defer { api.free(file) }
            let channels = Int(api.channelCount(file, -1))
            let total = api.pcmTotal(file, -1)
            guard total >= 0 else { throw failure(Int32(truncatingIfNeeded: total), "no length") }
            try header(Int(total), channels)
            var block = [Int16](repeating: 0, count: 5760 * 2 * max(1, channels))
            while true {
                let n = block.withUnsafeMutableBufferPointer { api.read(file, $0.baseAddress, Int32($0.count), nil) }
                if n == 0 { return }
                guard n > 0 else { throw failure(n, "damaged at a packet (error \(n))") }
                try block.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[0..<Int(n) * channels])) }
            }
        }
    }
}

/// A C string a library returned, "" for none.
private func text(_ p: UnsafePointer<CChar>?) -> String { p.map { String(cString: $0) } ?? "" }
