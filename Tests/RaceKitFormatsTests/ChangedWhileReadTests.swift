import Foundation
import RaceKitTestSupport
import Testing

@testable import RaceKitFormats

/// A file written while it is read is never a mix of its two versions: it is
/// read as one of them (its digest that version's), or it fails as changed
/// and nothing of it is stored.
@Suite struct ChangedWhileReadTests {
    typealias Scratch = ScratchFolder

    /// Overwrites `path` in place with `bytes`, 64 KB at a time.
    static func rewrite(_ path: String, _ bytes: [UInt8], pause: UInt32 = 0) {
        let fd = open(path, O_WRONLY)
        defer { close(fd) }
        var offset = 0
        while offset < bytes.count {
            let n = min(65_536, bytes.count - offset)
            _ = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress! + offset, n, off_t(offset)) }
            offset += n
            if pause > 0 { usleep(pause) }
        }
    }

    static func outcome(_ path: String, _ mode: ActivityFileReader.ReadAhead) -> String {
        do {
            let r = try ActivityFileReader.read(path: path, readAhead: mode, pointLimit: ActivityFileReader.maxPoints)
            return "\(r.sha256) \(r.outcome)"
        } catch let error as FormatError {
            if case .changedWhileRead = error { return "changed" }
            return "error: \(error)"
        } catch {
            return "error: \(error)"
        }
    }

    @Test func aRewriteInPlaceIsSeenAndARenameOverIsNot() throws {
        let s = try Scratch()
        let path = s.at("a.gpx")
        try Data(trackGPX(seconds: 600, speed: 3, heartRate: 130).utf8).write(to: URL(fileURLWithPath: path))
        let input = try InputSource(path: path)
        try input.checkUnchanged()
        // The kernel's file times tick in milliseconds: step past one.
        usleep(20_000)
        Self.rewrite(path, Array(trackGPX(seconds: 600, speed: 3, heartRate: 165).utf8))
        #expect(throws: FormatError.changedWhileRead(file: path)) { try input.checkUnchanged() }

        // Renamed over: the file already open is the old one, whole and unchanged.
        let other = try InputSource(path: path)
        try Data("x".utf8).write(to: URL(fileURLWithPath: s.at("b.gpx")))
        #expect(rename(s.at("b.gpx"), path) == 0)
        try other.checkUnchanged()
    }

    /// Trials of a 6 MB file (read ahead, and not; 14,000 points, each padded)
    /// rewritten in place while it is read with heart rate 130 changing to 165,
    /// digits of the same length.
    @Test(arguments: [ActivityFileReader.ReadAhead.always, .never])
    func aFileRewrittenMidReadIsOneVersionOrFails(_ mode: ActivityFileReader.ReadAhead) throws {
        let s = try Scratch()
        let old = Array(trackGPX(seconds: 70_000, speed: 3, heartRate: 130, padding: 200).utf8)
        let new = Array(trackGPX(seconds: 70_000, speed: 3, heartRate: 165, padding: 200).utf8)
        #expect(old.count == new.count && old.count > 5_000_000)
        let oldPath = s.at("old.gpx")
        let newPath = s.at("new.gpx")
        try Data(old).write(to: URL(fileURLWithPath: oldPath))
        try Data(new).write(to: URL(fileURLWithPath: newPath))
        let versions = [Self.outcome(oldPath, mode), Self.outcome(newPath, mode)]
        #expect(!versions[0].hasPrefix("error") && versions[0] != versions[1])
        var seen: [String: Int] = [:]
        for trial in 0..<3 {
            let path = s.at("t\(trial).gpx")
            try Data(old).write(to: URL(fileURLWithPath: path))
            usleep(20_000)
            let writer = Thread { Self.rewrite(path, new, pause: 2_000) }
            writer.start()
            let got = Self.outcome(path, mode)
            while !writer.isFinished { usleep(1_000) }
            let kind = got == "changed" ? "changed" : versions.firstIndex(of: got).map { "version \($0)" } ?? "hybrid"
            seen[kind, default: 0] += 1
            #expect(kind != "hybrid", "trial \(trial): \(got.prefix(200))")
        }
        #expect(seen["hybrid"] == nil)
    }
}
