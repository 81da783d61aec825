/// What happened to one input file.
public enum FileStatus: String, Sendable, Codable {
    case imported, upgraded, duplicate, skipped, failed
}

/// The outcome for one input file, as `import --format json` prints it.
public struct FileResult: Sendable, Codable, Equatable {
    /// The path as given (or as found under a given folder).
    public var file: String
    public var status: FileStatus
    /// New runs (imported), the runs replaced by a richer copy (upgraded), or the
    /// runs already stored (duplicate).
    public var runIds: [String]
    /// Why it was skipped or failed, or what else is worth knowing; nil otherwise.
    public var reason: String?

    public init(file: String, status: FileStatus, runIds: [String] = [], reason: String? = nil) {
        self.file = file; self.status = status; self.runIds = runIds; self.reason = reason
    }

    /// True when the file was not read: its import stamp said it is unchanged
    /// since the last import, which this result repeats (not in the JSON: the
    /// result is the one reading it would give).
    public var unchanged = false

    enum CodingKeys: String, CodingKey { case file, status, runIds, reason }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(file, forKey: .file)
        try c.encode(status, forKey: .status)
        try c.encode(runIds, forKey: .runIds)
        try c.encode(reason, forKey: .reason)   // null, never omitted
    }
}

/// Counts for the closing summary.
public struct ImportSummary: Sendable, Equatable {
    public var imported = 0, upgraded = 0, duplicate = 0, skipped = 0, failed = 0
    /// Runs stored by this import.
    public var runsStored = 0
    public var total: Int { imported + upgraded + duplicate + skipped + failed }

    public init(_ results: [FileResult]) {
        for r in results {
            switch r.status {
            case .imported: imported += 1; runsStored += r.runIds.count
            case .upgraded: upgraded += 1
            case .duplicate: duplicate += 1
            case .skipped: skipped += 1
            case .failed: failed += 1
            }
        }
    }
}

/// Progress while an import runs.
public struct ImportProgress: Sendable {
    public var done: Int
    public var total: Int
    public var summary: ImportSummary
}
