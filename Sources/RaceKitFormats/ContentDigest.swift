@preconcurrency internal import CLibCrypto
import RaceKitOutput

/// SHA-256 of some content (a document's bytes, a script's inputs, a spoken
/// text), as lower-case hex: the one place RaceKit computes a digest. The
/// hashing is the system's libcrypto (OpenSSL's EVP interface), so no crypto
/// library is compiled with RaceKit.
///
/// Feed it with `update` as the bytes arrive and call `finish()`, or hash a
/// whole value at once with `ContentDigest.hex(of:)`. It owns a libcrypto
/// context, freed when the value goes away, so it cannot be copied.
public struct ContentDigest: ~Copyable {
    private let context: OpaquePointer

    /// A digest of nothing yet.
    public init() {
        guard let context = EVP_MD_CTX_new() else { fatalError("libcrypto: cannot allocate a digest context") }
        self.context = context
        start()
    }

    deinit { EVP_MD_CTX_free(context) }

    private func start() {
        guard EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else { fatalError("libcrypto: SHA-256 unavailable") }
    }

    /// Adds `bytes` to what is hashed.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        guard EVP_DigestUpdate(context, base, bytes.count) == 1 else { fatalError("libcrypto: SHA-256 update failed") }
    }

    /// Adds `bytes` to what is hashed.
    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// Adds the UTF-8 bytes of `text` to what is hashed.
    public mutating func update(_ text: String) {
        var text = text
        text.withUTF8 { update(UnsafeRawBufferPointer($0)) }
    }

    /// The SHA-256 (64 lower-case hex digits) of everything added since the
    /// start or the last `finish()`; the digest then starts over, empty.
    public mutating func finish() -> String {
        var bytes = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let ok = bytes.withUnsafeMutableBufferPointer { EVP_DigestFinal_ex(context, $0.baseAddress, &length) }
        guard ok == 1, length == 32 else { fatalError("libcrypto: SHA-256 final failed") }
        start()
        return bytes.hexString
    }

    /// The SHA-256 (hex) of `bytes`.
    public static func hex(of bytes: [UInt8]) -> String {
        var digest = ContentDigest()
        digest.update(bytes)
        return digest.finish()
    }

    /// The SHA-256 (hex) of the UTF-8 bytes of `text`.
    public static func hex(of text: String) -> String {
        var digest = ContentDigest()
        digest.update(text)
        return digest.finish()
    }
}
