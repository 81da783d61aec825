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
    public func normalized() -> PCMAudio { normalizedMeasured().audio }

    /// `normalized`, with the loudness of what it returns (measured on the way).
    public func normalizedMeasured() -> (audio: PCMAudio, loudness: Double) {
        var out = self, measured = loudness
        guard measured.isFinite else { return (self, measured) }
        var gain = 0.0
        for pass in 0...6 {
            let off = Self.targetLUFS - measured
            guard abs(off) > 0.05, pass < 6 else { break }
            gain += off
            out = limited(gain)
            measured = out.loudness
        }
        return (out, measured)
    }

    /// The samples times 10^(dB/20), each under the ceiling: where a sample
    /// would pass it, the gain dips smoothly around it (reaching the dip 2 ms
    /// ahead, recovering over about 20 ms on each side), so no sample is
    /// clipped and nothing clicks.
    func limited(_ dB: Double) -> PCMAudio {
        let g = pow(10, dB / 20)
        let ceiling = 32767 * pow(10, Self.ceilingDBFS / 20)
        let n = samples.count
        // The gain each sample allows (1 where it stays under the ceiling).
        var need = [Double](repeating: 1, count: n)
        var dips = false
        samples.withUnsafeBufferPointer { x in
            need.withUnsafeMutableBufferPointer { need in
                for i in 0..<n {
                    let a = abs(Double(x[i]) * g)
                    if a > ceiling {
                        need[i] = ceiling / a
                        dips = true
                    }
                }
            }
        }
        if dips {
            // Hold each dip over the 2 ms before and after it, then ease back to 1.
            let hold = max(1, rate * 2 / 1000)
            var held = need
            let ease = 1 - exp(-1 / (Double(rate) * 0.02))
            held.withUnsafeMutableBufferPointer { held in
                need.withUnsafeMutableBufferPointer { need in
                    for i in 0..<n where need[i] < 1 {
                        for k in max(0, i - hold)...min(n - 1, i + hold) { held[k] = min(held[k], need[i]) }
                    }
                    need[0] = held[0]
                    for i in 1..<max(1, n) { need[i] = min(held[i], need[i - 1] + (1 - need[i - 1]) * ease) }
                    for i in stride(from: n - 2, through: 0, by: -1) {
                        need[i] = min(need[i], need[i + 1] + (1 - need[i + 1]) * ease)
                    }
                }
            }
        }
        var out = [Int16](repeating: 0, count: n)
        samples.withUnsafeBufferPointer { x in
            need.withUnsafeBufferPointer { need in
                out.withUnsafeMutableBufferPointer { out in
                    for i in 0..<n { out[i] = Int16(max(-32768, min(32767, (Double(x[i]) * g * need[i]).rounded()))) }
                }
            }
        }
        return PCMAudio(rate: rate, samples: out)
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
        let block = rate * 400 / 1000, step = rate * 100 / 1000
        // The K-weighted squares summed per 100 ms step (and what is left after
        // the last whole step), where a 400 ms block is four steps (every rate
        // that is a multiple of 10 Hz); per sample otherwise. One pass over the
        // samples, through pointers: a render measures every clip twice or more.
        let inSteps = step > 0 && block == 4 * step
        let squares = Self.kWeightedSquares(samples, rate: Double(rate), per: inSteps ? step : 1)
        var powers: [Double] = []
        if samples.count <= block || step == 0 {
            powers = [squares.reduce(0, +) / Double(samples.count)]
        } else if inSteps {
            let whole = samples.count / step
            powers = (0..<whole - 3).map { ($0..<$0 + 4).reduce(0) { $0 + squares[$1] } / Double(block) }
        } else {
            powers = stride(from: 0, through: samples.count - block, by: step).map { start in
                squares[start..<start + block].reduce(0, +) / Double(block)
            }
        }
        func lufs(_ p: Double) -> Double { -0.691 + 10 * log10(p) }
        let loud = powers.filter { $0 > 0 && lufs($0) > -70 }
        guard !loud.isEmpty else { return -.infinity }
        let relative = lufs(loud.reduce(0, +) / Double(loud.count)) - 10
        let gated = loud.filter { lufs($0) > relative }
        return lufs(gated.reduce(0, +) / Double(gated.count))
    }

    /// The squares of the samples (scaled to -1...1) through the two K-weighting
    /// biquads of BS.1770 for sample rate `fs`, from their analog prototypes (the
    /// same design libebur128 uses for rates other than 48 kHz), summed over each
    /// run of `per` samples; the last sum holds what is left after the last whole run.
    static func kWeightedSquares(_ samples: [Int16], rate fs: Double, per: Int) -> [Double] {
        // Stage 1: high shelf, +4 dB above about 1.7 kHz.
        var k = tan(Double.pi * 1681.974450955533 / fs)
        let vh = pow(10, 3.999843853973347 / 20), vb = pow(vh, 0.4996667741545416), q1 = 0.7071752369554196
        var a0 = 1 + k / q1 + k * k
        let (sb0, sb1, sb2) = ((vh + vb * k / q1 + k * k) / a0, 2 * (k * k - vh) / a0, (vh - vb * k / q1 + k * k) / a0)
        let (sa1, sa2) = (2 * (k * k - 1) / a0, (1 - k / q1 + k * k) / a0)
        // Stage 2: high pass at about 38 Hz (numerator 1, -2, 1).
        k = tan(Double.pi * 38.13547087602444 / fs)
        let q2 = 0.5003270373238773
        a0 = 1 + k / q2 + k * k
        let (pa1, pa2) = (2 * (k * k - 1) / a0, (1 - k / q2 + k * k) / a0)
        var sums = [Double](repeating: 0, count: samples.count / per + 1)
        samples.withUnsafeBufferPointer { x in
            sums.withUnsafeMutableBufferPointer { out in
                var (x1, x2, y1, y2) = (0.0, 0.0, 0.0, 0.0)   // the shelf's state
                var (z1, z2) = (0.0, 0.0)   // the high pass's outputs (its inputs are y, y1, y2)
                var sum = 0.0, slot = 0, left = per
                for i in 0..<x.count {
                    let v = Double(x[i]) / 32768
                    let y = sb0 * v + sb1 * x1 + sb2 * x2 - sa1 * y1 - sa2 * y2
                    let z = y - 2 * y1 + y2 - pa1 * z1 - pa2 * z2
                    (x2, x1) = (x1, v)
                    (y2, y1) = (y1, y)
                    (z2, z1) = (z1, z)
                    sum += z * z
                    left -= 1
                    if left == 0 {
                        out[slot] = sum
                        slot += 1
                        sum = 0
                        left = per
                    }
                }
                out[slot] += sum
            }
        }
        return sums
    }
}
