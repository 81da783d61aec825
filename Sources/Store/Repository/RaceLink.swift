import Foundation

/// The link from a race setup file to the run it became (`race review`). A
/// deleted run leaves the link with no run (`runID` nil): the setup is
/// unlinked, not broken. One link per setup file: two files with the same
/// `name:` (a copied setup) have a link each.
public struct RaceLink: Codable, Sendable, Equatable {
    /// The setup file's absolute path (`key(setupFile:)`), or `slug:SLUG` for a
    /// link made before links were per file (adopted by the first review of a
    /// setup with that slug).
    public var setupKey: String
    /// The setup's slug (its name's).
    public var setupSlug: String
    /// The setup file as given to `race review`.
    public var setupFile: String
    public var raceName: String
    /// YYYY-MM-DD.
    public var raceDate: String?
    public var targetSeconds: Double
    public var runID: String?
    /// Finish clock of the linked run, seconds.
    public var actualSeconds: Double?
    /// The review's Markdown, absolute, when `--out` wrote one.
    public var reviewPath: String?

    public init(
        setupKey: String, setupSlug: String, setupFile: String, raceName: String, raceDate: String?,
        targetSeconds: Double, runID: String?, actualSeconds: Double?, reviewPath: String?
    ) {
        self.setupKey = setupKey; self.setupSlug = setupSlug; self.setupFile = setupFile; self.raceName = raceName
        self.raceDate = raceDate
        self.targetSeconds = targetSeconds; self.runID = runID; self.actualSeconds = actualSeconds
        self.reviewPath = reviewPath
    }

    /// The stored field names, the same in every backend's schema.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case setupKey = "setup_key", setupSlug = "setup_slug", setupFile = "setup_file", raceName = "race_name",
            raceDate = "race_date"
        case targetSeconds = "target_s", runID = "run_id", actualSeconds = "actual_s", reviewPath = "review_path"
    }

    /// The key of a setup file: its absolute path, `.` and `..` removed and
    /// symbolic links resolved (the same file however it is named).
    public static func key(setupFile path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }

    /// The key of a link made before links were per file.
    public static func legacyKey(slug: String) -> String { "slug:" + slug }
}
