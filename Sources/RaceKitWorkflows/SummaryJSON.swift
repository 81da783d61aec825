import Foundation
import RaceKitImport
import RaceKitOutput
import RaceKitScript
import RaceKitStore

/// `--format json` of the commands that print a summary: `athlete list`,
/// `store check`, `script validate` and `runs recompute`
/// (docs/contracts/json.md, "Summaries").
public enum SummaryJSON {
    /// `athlete list`: every athlete as `athlete show --format json` gives it.
    public static func athletes(_ store: any Store) throws -> String {
        try JSONOutput.string(try store.athletes().map { try AthleteProfile(store, id: $0.id).record })
    }

    struct Check: Encodable {
        var ok: Bool
        /// `sha256:HEX`, and what it covers.
        var digest: String
        var athletes: Int
        var raceLinks: Int
        var runs: Int
        var problems: [String]
        var notes: [String]
    }

    /// `store check`: sound or not, the content digest, the runs checked, and
    /// each problem and note.
    public static func storeCheck(_ c: StoreCheck.Outcome, digest d: StoreDigest) throws -> String {
        try JSONOutput.string(
            Check(
                ok: c.problems.isEmpty, digest: "sha256:" + d.sha256, athletes: d.athletes, raceLinks: d.raceLinks,
                runs: c.runs, problems: c.problems, notes: c.notes))
    }

    struct Validated: Encodable {
        var file: String
        var valid: Bool
        var messages: Int
        var branches: Int
        var personality: String
        var generator: String
    }

    /// `script validate` of a valid script (an invalid one is an error, exit 65).
    public static func validated(_ s: RaceScript, file: String) throws -> String {
        try JSONOutput.string(
            Validated(
                file: file, valid: true, messages: s.messages.count, branches: s.branches.count,
                personality: s.personality, generator: s.generator))
    }

    struct Recomputed: Encodable {
        var checked: Int
        var updated: Int
        var failed: [String]
    }

    /// `runs recompute`: the runs checked, those analysed again, and each failure.
    public static func recompute(_ o: Recompute.Outcome) throws -> String {
        try JSONOutput.string(Recomputed(checked: o.checked, updated: o.updated, failed: o.failed))
    }
}
