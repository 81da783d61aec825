/// The release of RaceKit: what `racekit --version` prints and what a
/// generated race script names as its `generator`. CHANGELOG.md lists what
/// each release changed; bump both together.
public enum RaceKitVersion {
    /// The release, as semantic versioning writes it.
    public static let current = "0.4.0"
}
