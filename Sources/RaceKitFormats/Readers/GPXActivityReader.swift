import RaceKitModel

/// GPX 1.0 and 1.1 (`GPXHandler`): tracks, routes and waypoints.
struct GPXActivityReader: XMLActivityReader {
    var format: SourceFormat { .gpx }
    var name: String { "GPX" }
    var fileExtensions: [String] { [".gpx"] }
    var rootElement: Local { .gpx }

    func read(_ document: XMLActivityDocument, limits: ReadLimits) throws -> ParsedDocument {
        let handler = GPXHandler(vocabulary: document.vocabulary)
        try document.drive(handler, limits: limits)
        return handler.finish()
    }
}
