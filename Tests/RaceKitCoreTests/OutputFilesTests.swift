import Foundation
import RaceKitTestSupport
import Testing

@testable import RaceKitModel
@testable import RaceKitOutput

/// Output and lock files never follow a symbolic link out of their folder, and
/// RaceKit's own files in its folders are never read when they are not regular.
@Suite struct OutputFilesTests {
    typealias Scratch = ScratchFolder

    func isThere(_ path: String) -> Bool {
        var st = stat()
        return lstat(path, &st) == 0
    }

    @Test func aLinkInTheTemporaryFilesPlaceIsNotWrittenThrough() throws {
        let s = try Scratch()
        try AtomicFile.write("outside\n", to: s.at("victim"))
        try AtomicFile.createDirectory(s.at("out"))
        // The name AtomicFile.write gives its temporary file, as a link to the victim.
        symlink(s.at("victim"), s.at("out/.report.md.\(getpid()).tmp"))
        try AtomicFile.write("report\n", to: s.at("out/report.md"))
        #expect(try String(contentsOfFile: s.at("victim"), encoding: .utf8) == "outside\n")
        #expect(try String(contentsOfFile: s.at("out/report.md"), encoding: .utf8) == "report\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: s.at("out")) == ["report.md"])
    }

    @Test func aLinkInTheTargetsPlaceIsReplacedNotFollowed() throws {
        let s = try Scratch()
        try AtomicFile.write("outside\n", to: s.at("victim"))
        symlink(s.at("victim"), s.at("report.md"))
        try AtomicFile.write("report\n", to: s.at("report.md"))
        #expect(try String(contentsOfFile: s.at("victim"), encoding: .utf8) == "outside\n")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: s.at("report.md"))) == nil)
    }

    @Test func aLockFileLinkedToAMissingPathIsRefusedAndNothingIsCreatedThere() throws {
        let s = try Scratch()
        symlink(s.at("elsewhere/lock"), s.at(".racekit-report.lock"))
        try FileManager.default.createDirectory(atPath: s.at("elsewhere"), withIntermediateDirectories: false)
        #expect {
            _ = try OutputLock(directory: s.path, waitSeconds: 0)
        } throws: { error in
            "\(error)".contains("symbolic link") && ExitClass(of: error) == .ioError
        }
        #expect(!isThere(s.at("elsewhere/lock")))
    }

    @Test func aFIFOInALocksPlaceIsRefused() throws {
        let s = try Scratch()
        mkfifo(s.at(".racekit-audio.lock"), 0o644)
        #expect(throws: OutputError.self) {
            _ = try OutputLock(directory: s.path, name: ".racekit-audio.lock", waitSeconds: 0)
        }
    }

    @Test func aSubfolderThatIsALinkIsRefused() throws {
        let s = try Scratch()
        try AtomicFile.createDirectory(s.at("elsewhere"))
        try AtomicFile.createDirectory(s.at("Reports"))
        symlink(s.at("elsewhere"), s.at("Reports/anna"))
        #expect {
            try AtomicFile.createSubdirectory(s.at("Reports/anna"))
        } throws: { error in
            "\(error)".contains("a symbolic link") && ExitClass(of: error) == .cannotCreate
        }
        try AtomicFile.createSubdirectory(s.at("Reports/bob"))
        try AtomicFile.createSubdirectory(s.at("Reports/bob"))
        var st = stat()
        #expect(lstat(s.at("Reports/bob"), &st) == 0 && st.st_mode & S_IFMT == S_IFDIR)
    }

    /// `--out` at a dangling link or at a device says what it is, not "A file
    /// with the same name already exists".
    @Test func anOutputFolderThatCannotBeOneSaysWhy() throws {
        let s = try Scratch()
        symlink(s.at("gone"), s.at("dangling"))
        #expect {
            try AtomicFile.createDirectory(s.at("dangling"))
        } throws: { error in
            "\(error)".contains("symbolic link to \(s.at("gone")), which does not exist")
        }
        #expect {
            try AtomicFile.createDirectory("/dev/null")
        } throws: { error in
            "\(error)".contains("not a folder (a character device)") && ExitClass(of: error) == .cannotCreate
        }
        // A link to a real folder is a folder the user named: used as it is.
        try AtomicFile.createDirectory(s.at("real"))
        symlink(s.at("real"), s.at("alias"))
        try AtomicFile.createDirectory(s.at("alias"))
    }

    @Test func readRegularNeverBlocksOnAFIFOAndNeverFollowsALink() throws {
        let s = try Scratch()
        mkfifo(s.at("clip.opus"), 0o644)
        let started = Date()
        #expect(InputFile.readRegular(s.at("clip.opus")) == nil)
        #expect(Date().timeIntervalSince(started) < 5)
        try AtomicFile.write("x", to: s.at("real"))
        symlink(s.at("real"), s.at("link"))
        #expect(InputFile.readRegular(s.at("link")) == nil)
        #expect(InputFile.readRegular(s.at("real")) == Data("x".utf8))
    }
}
