import Foundation
import RaceKitScript
import Testing

@testable import RaceKitAudio

/// The clip processing (loudness, trimming) and the packet-level join of the
/// race as heard.
@Suite struct AudioJoinTests {
    static func sine(rate: Int, seconds: Double, amplitude: Double, hz: Double = 997) -> PCMAudio {
        PCMAudio(
            rate: rate,
            samples: (0..<Int(Double(rate) * seconds)).map {
                Int16((amplitude * 32767 * sin(2 * .pi * hz * Double($0) / Double(rate))).rounded())
            })
    }

    /// BS.1770: a full-scale 997 Hz sine in one channel reads -3.01 LKFS, at
    /// any sample rate the filters are designed for (11,025 Hz: a 400 ms block is
    /// not four whole 100 ms steps, and is summed sample by sample).
    @Test(arguments: [11_025, 22_050, 44_100, 48_000])
    func loudnessMatchesTheStandardsReferenceTone(rate: Int) {
        #expect(abs(Self.sine(rate: rate, seconds: 3, amplitude: 1).loudness - -3.01) < 0.05)
        #expect(abs(Self.sine(rate: rate, seconds: 3, amplitude: 0.1).loudness - -23.01) < 0.05)
        // Shorter than one 400 ms block: measured as one block.
        #expect(abs(Self.sine(rate: rate, seconds: 0.25, amplitude: 0.1).loudness - -23.01) < 0.3)
        #expect(PCMAudio.silence(rate: rate, milliseconds: 500).loudness == -.infinity)
    }

    /// Rates too low for a 100 ms step (a WAV header's value, not an engine's)
    /// are measured as one block, never looped over; one sample is limited alone.
    @Test func tinyRatesAndSingleSamplesAreMeasuredAndLimited() {
        let low = PCMAudio(rate: 5, samples: [16_000, -16_000, 16_000, -16_000, 16_000, -16_000])
        #expect(low.loudness.isFinite)
        let one = PCMAudio(rate: 22_050, samples: [32_767]).limited(6)
        #expect(one.samples.count == 1 && Double(one.samples[0]) <= 32_767 * pow(10, PCMAudio.ceilingDBFS / 20) + 1)
        #expect(PCMAudio(rate: 22_050, samples: []).normalized().samples.isEmpty)
    }

    @Test func clipsAreTrimmedFadedBroughtToTheTargetAndPadded() {
        let quiet = Self.sine(rate: 22_050, seconds: 1, amplitude: 0.02)
        let raw =
            PCMAudio.silence(rate: 22_050, milliseconds: 300).samples + quiet.samples
            + PCMAudio.silence(rate: 22_050, milliseconds: 500).samples
        let clip = PCMAudio(rate: 22_050, samples: raw).trimmed()
        #expect(abs(clip.seconds - 1.0) < 0.03, "\(clip.seconds)")
        #expect(clip.samples.first == 0 && clip.samples.last == 0, "faded in and out")
        let normalized = clip.normalized()
        #expect(abs(normalized.loudness - PCMAudio.targetLUFS) < 0.1)
        // A clip whose peak would pass the ceiling is limited there, and still reaches the target.
        let burst = Self.sine(rate: 22_050, seconds: 0.01, amplitude: 0.5).samples
        let spiky = PCMAudio(rate: 22_050, samples: clip.samples + burst + clip.samples).normalized()
        #expect(Double(spiky.samples.map { abs(Int($0)) }.max()!) <= 32767 * pow(10, PCMAudio.ceilingDBFS / 20) + 1)
        #expect(abs(spiky.loudness - PCMAudio.targetLUFS) < 0.3, "\(spiky.loudness)")
        let padded = normalized.padded(lead: 40, trail: 200)
        #expect(padded.samples.count == normalized.samples.count + 882 + 4410)
        #expect(PCMAudio(wav: Data(padded.wav())) == padded)
        #expect(PCMAudio(rate: 22_050, samples: [Int16](repeating: 3, count: 100)).trimmed().samples.isEmpty)
    }

    /// Two packets of a real encoder's stream layout: a SILK 20 ms frame and a
    /// CELT 2.5 ms frame count as what their TOC says.
    @Test func packetsLastWhatTheirTOCSays() {
        #expect(OggOpus.samples(of: [0x08 | 1 << 3]) == 960)   // config 1: SILK NB 20 ms
        #expect(OggOpus.samples(of: [UInt8(16 << 3)]) == 120)   // config 16: CELT NB 2.5 ms
        #expect(OggOpus.samples(of: [UInt8(13 << 3) | 1]) == 1920)   // hybrid FB 20 ms, two frames
        #expect(OggOpus.samples(of: [UInt8(31 << 3) | 3, 3]) == 2880)   // CELT 20 ms, code 3, three frames
        #expect(OggOpus.samples(of: []) == 0)
    }

    @Test func aWrittenStreamReadsBackWithItsPacketsAndChecksums() throws {
        var head = Array("OpusHead".utf8) + [1, 1, 0x38, 0x01] + [0x22, 0x56, 0, 0] + [0, 0, 0]
        head[9] = 1
        let packets: [[UInt8]] = (0..<130).map { i in [UInt8(27 << 3)] + [UInt8](repeating: UInt8(i), count: i * 3) }
        let bytes = OggOpus.write(head: head, packets: packets, vendor: "racekit", serial: 7)
        let stream = try OggOpus.read(bytes)
        #expect(stream.head == head && stream.packets == packets)
        #expect(stream.samples == 130 * 960)
        // Every page's CRC is the Ogg CRC of the page with its CRC field zeroed.
        var i = 0
        var pages = 0
        while i < bytes.count {
            let segments = Int(bytes[i + 26])
            let length = 27 + segments + bytes[i + 27..<i + 27 + segments].reduce(0) { $0 + Int($1) }
            var page = Array(bytes[i..<i + length])
            let stored = page[22..<26].enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (8 * $1.offset) }
            for k in 22..<26 { page[k] = 0 }
            #expect(OggOpus.crc32(page) == stored)
            i += length
            pages += 1
        }
        #expect(pages >= 5 && bytes[5] == 2, "BOS first")
        // The check value of this CRC: CRC-32/CKSUM (0x765E7680 for "123456789") without its final xor.
        #expect(OggOpus.crc32(Array("123456789".utf8)) == 0x89A1_897F)
        #expect(throws: OggOpus.ReadError.self) { try OggOpus.read(Array(bytes.prefix(100))) }
        #expect(throws: OggOpus.ReadError.self) {
            try OggOpus.read(Array("OggS".utf8) + [UInt8](repeating: 0, count: 30))
        }
    }
}
