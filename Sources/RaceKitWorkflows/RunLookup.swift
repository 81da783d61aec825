import RaceKitModel
import RaceKitStore

/// Finds a run by id or unique id prefix, or exits 66 / 64 with a message.
public enum RunLookup {
    public static func find(_ store: any Store, _ id: String) throws -> RunRecord {
        if let run = try store.run(id: id.uppercased()) { return run }
        let matches = try store.runs(idPrefix: id)
        if matches.count == 1 { return matches[0] }
        if matches.isEmpty { throw StoreError.unknownRun(id) }
        throw Failure(
            .usage, "'\(id)' matches several runs (\(matches.map(\.id).joined(separator: ", "))); give more of the id")
    }
}
