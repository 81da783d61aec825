import Foundation
import RaceKitFormats

/// Expands the paths given to `import` into the files to read.
public enum InputCollector {
    /// Extensions read inside folders (case-insensitive): those of `ActivityReaders.standard`.
    public static var extensions: [String] { ActivityReaders.standard.fileExtensions }

    /// Archives read entry by entry (case-insensitive), found in folders too.
    public static let archiveExtensions = [".zip", ".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tar.xz"]

    /// True when a file name has an extension one of `readers` claims.
    public static func isActivityFile(_ name: String, readers: ActivityReaders = .standard) -> Bool {
        readers.claims(fileName: name)
    }

    /// True when a file name has one of `archiveExtensions`.
    public static func isArchive(_ name: String) -> Bool {
        let lower = name.lowercased()
        return archiveExtensions.contains { lower.hasSuffix($0) }
    }

    /// Files to import (folders walked recursively for the files `readers` claim,
    /// archives and Apple Health exports; sorted) and the paths that do not exist.
    public static func collect(
        _ paths: [String], readers: ActivityReaders = .standard
    ) -> (files: [String], missing: [String]) {
        var files: [String] = []
        var missing: [String] = []
        var seen = Set<String>()
        let fm = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else { missing.append(path); continue }
            if !isDirectory.boolValue {
                if seen.insert(path).inserted { files.append(path) }
                continue
            }
            var found: [String] = []
            if let walker = fm.enumerator(atPath: path) {
                while let relative = walker.nextObject() as? String {
                    guard readers.claims(fileName: relative) || isArchive(relative) || isHealthExportName(relative)
                    else {
                        continue
                    }
                    let full = (path as NSString).appendingPathComponent(relative)
                    var dir: ObjCBool = false
                    if fm.fileExists(atPath: full, isDirectory: &dir), !dir.boolValue { found.append(full) }
                }
            }
            for f in droppingHealthRoutes(found.sorted()) where seen.insert(f).inserted { files.append(f) }
        }
        return (files, missing)
    }
}
