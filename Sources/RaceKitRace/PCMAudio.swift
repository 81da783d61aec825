import Foundation

/// Mono 16-bit audio between the speech engine and the encoder: every clip is
/// trimmed to its speech, faded in and out at the cut (no click), brought to
/// one loudness (ITU-R BS.1770, `loudness`) and given the silence its place
/// in a sentence wants, so that clips joined end to end sound like one voice.
public struct PCMAudio: Sendable, Equatable {
    /// Samples per second.
    public var rate: Int
    public var samples: [Int16]

    public init(rate: Int, samples: [Int16]) {
        self.rate = rate
        self.samples = samples
    }

    /// Bumped when the processing below changes: part of every audio file's key.
    public static let version = 2
    /// The loudness every clip is brought to (LUFS).
    public static let targetLUFS = -20.0
    /// The highest sample after the gain (dBFS): peaks above it are limited.
    public static let ceilingDBFS = -1.0
    /// A sample under this is silence when trimming (about -46 dBFS).
    static let silenceThreshold = 160
    /// Speech kept around the first and last loud sample, and the fade over it.
    static let edgeMilliseconds = 12

    public var seconds: Double { rate > 0 ? Double(samples.count) / Double(rate) : 0 }

    /// The samples of a PCM WAVE (16-bit; several channels are mixed to one);
    /// nil when it is not one.
    public init?(wav data: Data) {
        guard let info = AudioFormats.WAV(data), info.bitsPerSample == 16, info.channels >= 1 else { return nil }
        let bytes = [UInt8](data)
        guard let start = AudioFormats.WAV.dataOffset(bytes) else { return nil }
        let frames = info.dataBytes / (2 * info.channels)
        var out = [Int16](repeating: 0, count: frames)
        for f in 0..<frames {
            var sum = 0
            for c in 0..<info.channels {
                let i = start + 2 * (f * info.channels + c)
                sum += Int(Int16(bitPattern: UInt16(bytes[i]) | UInt16(bytes[i + 1]) << 8))
            }
            out[f] = Int16(sum / info.channels)
        }
        self.init(rate: info.sampleRate, samples: out)
    }

    /// A silence of `milliseconds`.
    public static func silence(rate: Int, milliseconds: Int) -> PCMAudio {
        PCMAudio(rate: rate, samples: [Int16](repeating: 0, count: rate * milliseconds / 1000))
    }

    /// A RIFF/WAVE file of the samples (mono, 16-bit).
    public func wav() -> [UInt8] {
        let data = samples.count * 2
        var out = Self.wavHeader(rate: rate, channels: 1, dataBytes: data)
        out.reserveCapacity(out.count + data)
        for s in samples {
            let u = UInt16(bitPattern: s)
            out.append(UInt8(u & 0xFF))
            out.append(UInt8(u >> 8))
        }
        return out
    }

    /// The 44-byte header of a 16-bit PCM WAVE file of `dataBytes` sample bytes.
    public static func wavHeader(rate: Int, channels: Int, dataBytes data: Int) -> [UInt8] {
        func le(_ v: Int, _ n: Int) -> [UInt8] { (0..<n).map { UInt8((v >> (8 * $0)) & 0xFF) } }
        let frame = 2 * channels
        return Array("RIFF".utf8) + le(36 + data, 4) + Array("WAVEfmt ".utf8) + le(16, 4) + le(1, 2)
            + le(channels, 2) + le(rate, 4) + le(rate * frame, 4) + le(frame, 2) + le(16, 2) + Array("data".utf8)
            + le(data, 4)
    }

    /// The speech only: from a little before the first sample over the silence
    /// threshold to a little after the last, faded in and out over that margin.
    /// Empty when there is no speech at all.
    public func trimmed() -> PCMAudio {
        guard let first = samples.firstIndex(where: { abs(Int($0)) > Self.silenceThreshold }),
            let last = samples.lastIndex(where: { abs(Int($0)) > Self.silenceThreshold })
        else { return PCMAudio(rate: rate, samples: []) }
        let edge = rate * Self.edgeMilliseconds / 1000
        var out = Array(samples[max(0, first - edge)...min(samples.count - 1, last + edge)])
        let fade = min(edge, out.count / 2)
        for i in 0..<fade {
            let k = Double(i) / Double(max(1, fade))
            out[i] = Int16((Double(out[i]) * k).rounded())
            out[out.count - 1 - i] = Int16((Double(out[out.count - 1 - i]) * k).rounded())
        }
        return PCMAudio(rate: rate, samples: out)
    }

    /// The samples times 10^(dB/20), rounded and kept in range.
    public func gained(_ dB: Double) -> PCMAudio {
        let g = pow(10, dB / 20)
        return PCMAudio(
            rate: rate, samples: samples.map { Int16(max(-32768, min(32767, (Double($0) * g).rounded()))) })
    }

    /// The clip at `targetLUFS`, its peaks held under `ceilingDBFS` by a
    /// limiter (`limited`) rather than by less gain: a word with one loud
    /// plosive is as loud as the rest. The limiter takes a little loudness
    /// off: up to six passes, until within 0.05 LU. Silence is
    /// returned as it is.
    public func normalized() -> PCMAudio {
        guard loudness.isFinite else { return self }
        var out = self
        var gain = 0.0
        for _ in 0..<6 {
            let off = Self.targetLUFS - out.loudness
            guard abs(off) > 0.05 else { break }
            gain += off
            out = limited(gain)
        }
        return out
    }

    /// The samples times 10^(dB/20), each under the ceiling: where a sample
    /// would pass it, the gain dips smoothly around it (reaching the dip 2 ms
    /// ahead, recovering over about 20 ms on each side), so no sample is
    /// clipped and nothing clicks.
    func limited(_ dB: Double) -> PCMAudio {
        let g = pow(10, dB / 20)
        let ceiling = 32767 * pow(10, Self.ceilingDBFS / 20)
        let y = samples.map { Double($0) * g }
        var need = y.map { abs($0) > ceiling ? ceiling / abs($0) : 1 }
        guard need.contains(where: { $0 < 1 }) else {
            return PCMAudio(rate: rate, samples: y.map { Int16(max(-32768, min(32767, $0.rounded()))) })
        }
        // Hold each dip over the 2 ms before and after it, then ease back to 1.
        let hold = max(1, rate * 2 / 1000)
        var held = need
        for i in need.indices where need[i] < 1 {
            for k in max(0, i - hold)...min(need.count - 1, i + hold) { held[k] = min(held[k], need[i]) }
        }
        let ease = 1 - exp(-1 / (Double(rate) * 0.02))
        need = held
        for i in need.indices.dropFirst() { need[i] = min(held[i], need[i - 1] + (1 - need[i - 1]) * ease) }
        for i in need.indices.reversed().dropFirst() { need[i] = min(need[i], need[i + 1] + (1 - need[i + 1]) * ease) }
        return PCMAudio(
            rate: rate,
            samples: zip(y, need).map { Int16(max(-32768, min(32767, ($0 * $1).rounded()))) })
    }

    /// With `lead` and `trail` milliseconds of silence around it.
    public func padded(lead: Int, trail: Int) -> PCMAudio {
        PCMAudio(
            rate: rate,
            samples: [Int16](repeating: 0, count: rate * lead / 1000) + samples
                + [Int16](repeating: 0, count: rate * trail / 1000))
    }

    /// Integrated loudness (LUFS) per ITU-R BS.1770-4: K-weighting (a high
    /// shelf and a high pass, designed for this sample rate), the mean square
    /// over 400 ms blocks overlapping by 75%, gated at -70 LUFS and then at 10
    /// LU under the mean of what passed. A clip shorter than one block is one
    /// block. -infinity for silence.
    public var loudness: Double {
        guard rate > 0, !samples.isEmpty else { return -.infinity }
        let weighted = Self.kWeighted(samples.map { Double($0) / 32768 }, rate: Double(rate))
        let block = rate * 400 / 1000, step = rate * 100 / 1000
        var powers: [Double] = []
        if weighted.count <= block {
            powers = [weighted.reduce(0) { $0 + $1 * $1 } / Double(weighted.count)]
        } else {
            var start = 0
            while start + block <= weighted.count {
                var sum = 0.0
                for i in start..<start + block { sum += weighted[i] * weighted[i] }
                powers.append(sum / Double(block))
                start += step
            }
        }
        func lufs(_ p: Double) -> Double { -0.691 + 10 * log10(p) }
        let loud = powers.filter { $0 > 0 && lufs($0) > -70 }
        guard !loud.isEmpty else { return -.infinity }
        let relative = lufs(loud.reduce(0, +) / Double(loud.count)) - 10
        let gated = loud.filter { lufs($0) > relative }
        return lufs(gated.reduce(0, +) / Double(gated.count))
    }

    /// The two K-weighting biquads of BS.1770 for sample rate `fs`, from their
    /// analog prototypes (the same design libebur128 uses for rates other than 48 kHz).
    static func kWeighted(_ x: [Double], rate fs: Double) -> [Double] {
        // Stage 1: high shelf, +4 dB above about 1.7 kHz.
        var k = tan(Double.pi * 1681.974450955533 / fs)
        let vh = pow(10, 3.999843853973347 / 20), vb = pow(vh, 0.4996667741545416), q1 = 0.7071752369554196
        var a0 = 1 + k / q1 + k * k
        let shelf = (
            b: [(vh + vb * k / q1 + k * k) / a0, 2 * (k * k - vh) / a0, (vh - vb * k / q1 + k * k) / a0],
            a: [2 * (k * k - 1) / a0, (1 - k / q1 + k * k) / a0]
        )
        // Stage 2: high pass at about 38 Hz.
        k = tan(Double.pi * 38.13547087602444 / fs)
        let q2 = 0.5003270373238773
        a0 = 1 + k / q2 + k * k
        let pass = (b: [1.0, -2, 1], a: [2 * (k * k - 1) / a0, (1 - k / q2 + k * k) / a0])
        func biquad(_ x: [Double], _ b: [Double], _ a: [Double]) -> [Double] {
            var y = [Double](repeating: 0, count: x.count)
            var (x1, x2, y1, y2) = (0.0, 0.0, 0.0, 0.0)
            for i in x.indices {
                let v = b[0] * x[i] + b[1] * x1 + b[2] * x2 - a[0] * y1 - a[1] * y2
                (x2, x1, y2, y1) = (x1, x[i], y1, v)
                y[i] = v
            }
            return y
        }
        return biquad(biquad(x, shelf.b, shelf.a), pass.b, pass.a)
    }
}
