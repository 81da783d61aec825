import Foundation
import Testing

@testable import RaceKitPlan
@testable import RaceKitScriptWriter

/// Setups and personalities are files a user names: a wrong one (a password
/// file, a key, a huge or binary file) is refused without its words in the
/// message, quickly and in bounded memory.
@Suite struct YAMLInputTests {
    static func message(_ body: () throws -> Void) -> String {
        do {
            try body()
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    /// A file of NULs is refused at its first one: libyaml's error quoted the
    /// whole line, and took time growing with the square of the file.
    @Test func controlCharactersAreRefusedWhereTheyAre() throws {
        let nuls = String(repeating: "\u{0}", count: 400_000)
        let m = Self.message { _ = try Personality.parse(nuls, file: "z.yaml") }
        #expect(m == "z.yaml:1: not valid YAML: column 1 holds a control character (U+00), which YAML does not allow")
        let setup = "name: T\ndistance: 10k\ntarget_time: \"50:00\"\nnotes: a\u{1B}[2Jb\n"
        #expect(
            Self.message { _ = try SetupLoader.parse(yaml: setup, file: "s.yaml") }
                == "s.yaml:4: not valid YAML: column 9 holds a control character (U+1B), which YAML does not allow")
    }

    /// A password file, an environment file, a shadow line: no word of them
    /// reaches the message, whichever loader reads it.
    @Test(arguments: [
        "root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n",
        "DB_PASSWORD=hunter2-SECRET API_KEY=sk_live_FAKE123\n",
        "root:*:20228:0:99999:7:::\nsecret: hunter2-SECRET\n",
        "- hunter2-SECRET\n- sk_live_FAKE123\n"
    ])
    func aFileGivenByMistakeIsNotQuoted(_ text: String) throws {
        let path = try temporaryFile("secret.yaml", text)
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        for m in [
            Self.message { _ = try Personality.load(path: path) }, Self.message { _ = try SetupLoader.load(path: path) }
        ] {
            #expect(m.hasPrefix(path), "\(m)")
            for word in ["root:", "hunter2", "sk_live", "daemon", "20228"] { #expect(!m.contains(word), "\(m)") }
        }
    }

    /// A value is quoted (it is what the user wrote), but 40 characters at most.
    @Test func aLongValueIsQuotedInPart() throws {
        let long = String(repeating: "x", count: 500)
        let m = Self.message {
            _ = try SetupLoader.parse(
                yaml: "name: T\ndistance: 10k\ntarget_time: \"50:00\"\npacing: \(long)\n", file: "s.yaml")
        }
        #expect(
            m.contains("'\(String(repeating: "x", count: 40))…'") && !m.contains(String(repeating: "x", count: 41)),
            "\(m)")
    }

    /// More than `maxFileBytes` is refused, and no more than that is read.
    @Test func aFileLargerThanASetupCanBeIsRefused() throws {
        let path = try temporaryFile(
            "big.yaml", "notes: \"" + String(repeating: "a", count: SetupLoader.maxFileBytes) + "\"\n")
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        #expect(
            Self.message { _ = try SetupLoader.load(path: path) }
                == "\(path): larger than 1024 KB, the most a setup or personality file may hold")
        #expect(
            Self.message { _ = try Personality.load(path: path) }
                == "\(path): larger than 1024 KB, the most a setup or personality file may hold")
    }
}
