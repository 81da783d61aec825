import RaceKitModel

/// Garmin's Training Center XML v1 and v2 (`TCXHandler`): activities and courses.
struct TCXActivityReader: XMLActivityReader {
    var format: SourceFormat { .tcx }
    var name: String { "TCX" }
    var fileExtensions: [String] { [".tcx"] }
    var rootElement: Local { .trainingCenterDatabase }
    var noActivityReason: String { "no activity with trackpoints" }

    func read(_ document: XMLActivityDocument, limits: ReadLimits) throws -> ParsedDocument {
        let handler = TCXHandler(vocabulary: document.vocabulary)
        try document.drive(handler, limits: limits)
        return handler.finish()
    }
}
