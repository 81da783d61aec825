import Foundation
import RaceKitImport
import RaceKitModel
import RaceKitSQLite
import RaceKitStore
import RaceKitTestSupport

/// A fresh temporary folder.
func workFolder() throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rk-flows-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir
}

/// An in-memory store with the tracks imported (file name: GPX text); the
/// stored runs, oldest first.
func storeWith(_ tracks: [String: String]) throws -> (RunStore, [RunRecord]) {
    let dir = try workFolder()
    var files: [String] = []
    for (name, text) in tracks.sorted(by: { $0.key < $1.key }) {
        let url = dir.appendingPathComponent(name)
        try text.write(to: url, atomically: false, encoding: .utf8)
        files.append(url.path)
    }
    let store = try RunStore()
    let results = try Importer(store: store, options: ImportOptions()).run(files: files)
    let failed = results.filter { $0.status != .imported }
    guard failed.isEmpty else { throw Failure(.dataError, "test import failed: \(failed.map(\.file))") }
    return (store, try store.runs())
}
