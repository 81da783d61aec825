import Foundation
import RaceKitOutput
import RaceKitScript

/// The files `race plan --export` writes.
public enum PlanExport: String, CaseIterable, Sendable {
    case band, tcx, gpx

    /// The file name for a race, from the setup file's stem (`RaceSetup.fileStem`).
    public func fileName(stem: String) -> String { self == .band ? "\(stem)-band.svg" : "\(stem).\(rawValue)" }

    /// Writes the exports of a plan into `directory` (created if needed), each
    /// atomically; returns the paths written. TCX and GPX need a course.
    public static func write(_ exports: [PlanExport], of plan: RacePlan, to directory: String) throws -> [String] {
        if exports.contains(where: { $0 != .band }), plan.course == nil {
            throw SetupError(
                kind: .invalid, file: plan.setup.file, line: 0, key: "course",
                message: "a TCX or GPX export needs a course file; add `course:` to the setup")
        }
        try AtomicFile.createDirectory(directory)
        var written: [String] = []
        for e in exports {
            let path = (directory as NSString).appendingPathComponent(e.fileName(stem: plan.setup.fileStem))
            let bytes: [UInt8]
            switch e {
            case .band: bytes = Array(PaceBand.svg(plan, unitName: PlanOutput.unitName(plan.unitMeters)).utf8)
            case .tcx: bytes = [UInt8](try CourseExport.tcx(plan, unitMeters: plan.unitMeters))
            case .gpx: bytes = [UInt8](try CourseExport.gpx(plan, unitMeters: plan.unitMeters))
            }
            try AtomicFile.write(bytes, to: path)
            written.append(path)
        }
        return written
    }
}

/// `race new`: a commented setup written from the template, checked to load first.
public enum NewRace {
    public struct Options: Sendable {
        public var name: String
        public var distance: String
        public var distanceMeters: Double
        public var targetSeconds: Double
        public var athlete: String?
        public var course: String?
        public var date: String?
        /// Why the target is what it is, when it was suggested.
        public var suggestion: String?
        public var directory: String
        public var force: Bool

        public init(
            name: String, distance: String, distanceMeters: Double, targetSeconds: Double, athlete: String?,
            course: String?, date: String?, suggestion: String?, directory: String, force: Bool
        ) {
            self.name = name
            self.distance = distance
            self.distanceMeters = distanceMeters
            self.targetSeconds = targetSeconds
            self.athlete = athlete
            self.course = course
            self.date = date
            self.suggestion = suggestion
            self.directory = directory
            self.force = force
        }
    }

    /// Writes `DIR/SLUG.yaml`; returns its path. An existing file is kept unless `force`.
    public static func write(_ o: Options) throws -> String {
        let path = (o.directory as NSString).appendingPathComponent("\(RaceSetup.slug(o.name)).yaml")
        if FileManager.default.fileExists(atPath: path), !o.force {
            throw OutputError.exists(path: path, hint: "use --force to overwrite")
        }
        let text = RaceTemplate.yaml(
            name: o.name, distance: o.distance, distanceMeters: o.distanceMeters, targetSeconds: o.targetSeconds,
            athlete: o.athlete, course: o.course, date: o.date, suggestion: o.suggestion)
        // The template must load: checked before anything is written.
        _ = try SetupLoader.parse(yaml: text, file: path)
        try AtomicFile.createDirectory(o.directory)
        try AtomicFile.write(text, to: path)
        return path
    }
}
