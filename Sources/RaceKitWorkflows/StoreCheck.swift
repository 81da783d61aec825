import RaceKitImport
import RaceKitStore

/// `racekit store check`: the store's own checks (integrity, every run's
/// samples), and runs whose zones and load are of a provisional profile.
public enum StoreCheck {
    /// What the check found: the runs counted, problems (exit 65) and notes.
    public struct Outcome: Sendable {
        public var runs: Int
        public var problems: [String]
        public var notes: [String]
        /// What stderr says: each note, then each problem.
        public var messages: [String] { notes.map { "note: " + $0 } + problems.map { "problem: " + $0 } }
    }

    /// What `store check` prints: on stdout the digest and "ok" (or the JSON,
    /// `SummaryJSON.storeCheck`), on stderr each note and problem (text only);
    /// `sound` false is exit 65.
    public static func report(_ store: any Store, json: Bool) throws -> (out: String, errors: [String], sound: Bool) {
        let check = try run(store)
        let digest = try StoreDigest.of(store), sound = check.problems.isEmpty
        if json { return (try SummaryJSON.storeCheck(check, digest: digest), [], sound) }
        let ok = "ok: \(check.runs) runs, integrity check passed, every run's samples whole."
        return ("digest: \(digest)" + (sound ? "\n" + ok : ""), check.messages, sound)
    }

    public static func run(_ store: any Store) throws -> Outcome {
        var (runs, problems) = try store.verify()
        var notes: [String] = []
        // Zones and loads of a provisional profile are wrong figures, not an
        // upgrade left to do: a problem. Runs of an older RaceKit are a note.
        for p in try Recompute(store: store).pending() {
            let redo = "racekit runs recompute --athlete \(p.athleteID)"
            if p.provisional > 0 {
                problems.append(
                    "\(p.provisional) \(p.provisional == 1 ? "run" : "runs") of athlete \(p.athleteID) with zones and load of another profile than the athlete's current one (an import stopped before its recompute?): \(redo), or the next import, finishes it"
                )
            }
            if p.olderVersion > 0 {
                notes.append(
                    "\(p.olderVersion) \(p.olderVersion == 1 ? "run" : "runs") of athlete \(p.athleteID) analysed by an older RaceKit: \(redo) analyses them again"
                )
            }
        }
        return Outcome(runs: runs, problems: problems, notes: notes)
    }
}
