import ArgumentParser
import RaceKitPlan
import RaceKitScriptWriter

/// A comma-separated list of one enum's values, as one option takes it:
/// `--export band,tcx`, `--format csv,md`. Blanks around a value are ignored
/// and the order is kept. A value that is not one of the enum's, a blank piece
/// or an empty list is a usage error (exit 64) that argument-parser reports with
/// the value as given and the allowed lists.
struct CommaList<Element>: ExpressibleByArgument, Equatable
where Element: ExpressibleByArgument & CaseIterable & RawRepresentable & Equatable, Element.RawValue == String {
    /// The values, in the order given.
    var elements: [Element]

    init(_ elements: [Element]) {
        self.elements = elements
    }

    init?(argument: String) {
        var elements: [Element] = []
        for piece in argument.split(separator: ",") {
            guard let element = Element(argument: String(piece).trimmingBlanks()) else { return nil }
            elements.append(element)
        }
        guard !elements.isEmpty else { return nil }
        self.elements = elements
    }

    func contains(_ element: Element) -> Bool { elements.contains(element) }

    var defaultValueDescription: String { elements.map(\.rawValue).joined(separator: ",") }

    /// Every list of distinct values in the enum's order (`csv`, `md`, `csv,md`):
    /// what the usage error and the shell completions offer.
    static var allValueStrings: [String] {
        let names = Element.allCases.map(\.rawValue)
        var subsets: [[Int]] = [[]]
        for i in names.indices { subsets += subsets.map { $0 + [i] } }
        return subsets.filter { !$0.isEmpty }
            .sorted { $0.count != $1.count ? $0.count < $1.count : $0.lexicographicallyPrecedes($1) }
            .map { $0.map { names[$0] }.joined(separator: ",") }
    }
}

/// `race plan --export`: the files to write.
extension PlanExport: ExpressibleByArgument {}

/// `race script --personality`: a shipped personality by name.
extension ShippedPersonality: ExpressibleByArgument {}
