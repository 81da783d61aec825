import Foundation
import Testing

@testable import RaceKitFormats

/// `ContentDigest` is SHA-256 exactly: the published test vectors (FIPS 180-2),
/// any split of the input into updates, and coreutils' `sha256sum`, so every
/// digest stored before (runs' `source_sha256`, script digests, audio names)
/// stays the same.
@Suite struct ContentDigestTests {
    /// The bytes 0, 1, 2, ... of a seeded linear congruential generator.
    static func seededBytes(_ count: Int, seed: UInt64 = 25) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
    }

    @Test func knownVectors() {
        #expect(ContentDigest.hex(of: "") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(ContentDigest.hex(of: "abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            ContentDigest.hex(of: "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(
            ContentDigest.hex(of: [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func textAndBytesHashTheSame() {
        let text = "Lauf über 10 km 🏃"
        #expect(ContentDigest.hex(of: text) == ContentDigest.hex(of: Array(text.utf8)))
        #expect(ContentDigest.hex(of: text) != ContentDigest.hex(of: "Lauf uber 10 km"))
    }

    /// Updates cut at odd places (1 byte, across SHA-256's 64-byte blocks, empty
    /// pieces) give the one-shot digest, which is `sha256sum`'s.
    @Test func incrementalUpdatesEqualOneShot() throws {
        let bytes = Self.seededBytes(100_003)
        let oneShot = ContentDigest.hex(of: bytes)
        #expect(oneShot == (try sha256sum(bytes)))
        let splits: [[Int]] = [[1], [63, 1, 0, 65], [55, 56, 57], [127, 4099], [65_536, 1], [3, 7, 11, 13, 17, 19]]
        for pieces in splits {
            var digest = ContentDigest()
            var at = 0
            var k = 0
            while at < bytes.count {
                let end = min(bytes.count, at + pieces[k % pieces.count])
                bytes[at..<end].withUnsafeBytes { digest.update($0) }
                at = end
                k += 1
            }
            #expect(digest.finish() == oneShot, "pieces \(pieces)")
        }
    }

    /// After `finish()` the digest starts over, empty.
    @Test func finishStartsOver() {
        var digest = ContentDigest()
        digest.update("a long text that is forgotten")
        _ = digest.finish()
        #expect(digest.finish() == ContentDigest.hex(of: ""))
        digest.update("ab")
        digest.update([UInt8(ascii: "c")])
        #expect(digest.finish() == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    /// A gzipped document's digest is that of its decompressed bytes (what
    /// `source_sha256` has always held), whoever hashes it.
    @Test func aGzippedDocumentHashesItsDecompressedBytes() throws {
        let path = try fixture("garmin-forerunner.tcx")
        let plain = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let gz = try temporaryDirectory().appendingPathComponent("run.tcx.gz")
        try Data(try gzip(String(decoding: plain, as: UTF8.self))).write(to: gz)
        let expected = try sha256sum(plain)
        for mode in [ActivityFileReader.ReadAhead.never, .always] {
            #expect(try ActivityFileReader.read(path: path, readAhead: mode).sha256 == expected)
            #expect(try ActivityFileReader.read(path: gz.path, readAhead: mode).sha256 == expected)
        }
    }
}
