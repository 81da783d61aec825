import Foundation
import Testing

/// The documentation holds together: every relative link of README.md,
/// CHANGELOG.md, Races/README.md, Reports/README.md and docs/ reaches a file (and, with `#anchor`, a heading of
/// it), and nothing in the repository cites the old contract outside it.
@Suite struct DocLinkTests {
    /// A Markdown link found in a file: its target and line.
    struct Link: CustomStringConvertible {
        var file: String
        var line: Int
        var target: String
        var description: String { "\(file):\(line): (\(target))" }
    }

    /// The Markdown files the check covers, relative to the repository.
    static func markdownFiles() throws -> [String] {
        var files = ["README.md", "CHANGELOG.md", "Races/README.md", "Reports/README.md"]
        let docs = Repository.root.appendingPathComponent("docs")
        let walker = FileManager.default.enumerator(atPath: docs.path)
        while let path = walker?.nextObject() as? String {
            if path.hasSuffix(".md") { files.append("docs/" + path) }
        }
        return files.sorted()
    }

    /// Links outside code: `[text](target)` and `[text](target "title")`,
    /// skipping fenced blocks and inline code spans.
    static func links(in text: String, file: String) -> [Link] {
        var out: [Link] = []
        var fenced = false
        for (n, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if rawLine.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                fenced.toggle()
                continue
            }
            guard !fenced else { continue }
            // Inline code spans hold no links.
            let line = rawLine.split(separator: "`", omittingEmptySubsequences: false).enumerated()
                .filter { $0.offset % 2 == 0 }.map(\.element).joined(separator: " ")
            var rest = line[...]
            while let close = rest.range(of: "](") {
                let after = rest[close.upperBound...]
                guard let end = after.firstIndex(of: ")") else { break }
                let target = after[..<end].split(separator: " ").first.map(String.init) ?? ""
                out.append(Link(file: file, line: n + 1, target: target))
                rest = after[end...]
            }
        }
        return out
    }

    /// GitHub's anchors for a Markdown file's headings: lower case, only
    /// letters, digits, `-`, `_` and spaces kept, spaces as `-`; a repeated
    /// anchor gets `-1`, `-2`, ...
    static func anchors(of text: String) -> Set<String> {
        var seen: [String: Int] = [:]
        var out: Set<String> = []
        var fenced = false
        for line in text.split(separator: "\n") {
            if line.hasPrefix("```") { fenced.toggle() }
            guard !fenced, line.hasPrefix("#") else { continue }
            let title = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
            let slug = String(
                title.lowercased().unicodeScalars.filter {
                    CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_" || $0 == " "
                }.map(Character.init)
            ).replacingOccurrences(of: " ", with: "-")
            let count = seen[slug, default: 0]
            out.insert(count == 0 ? slug : "\(slug)-\(count)")
            seen[slug] = count + 1
        }
        return out
    }

    /// What is wrong with a link, or nil when it resolves.
    static func problem(_ link: Link) throws -> String? {
        let target = link.target
        if target.isEmpty { return "empty link" }
        if target.contains("://") || target.hasPrefix("mailto:") { return nil }
        let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let base = Repository.root.appendingPathComponent(link.file).deletingLastPathComponent()
        let url =
            parts[0].isEmpty
            ? Repository.root.appendingPathComponent(link.file)
            : base.appendingPathComponent(parts[0]).standardizedFileURL
        guard url.path.hasPrefix(Repository.root.standardizedFileURL.path + "/") else {
            return "leaves the repository"
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            return "no file \(parts[0])"
        }
        if parts.count > 1 {
            guard !isDirectory.boolValue, url.pathExtension == "md" else { return "an anchor into a non-Markdown file" }
            let anchors = anchors(of: try String(contentsOf: url, encoding: .utf8))
            if !anchors.contains(parts[1]) { return "no heading #\(parts[1]) in \(parts[0])" }
        }
        return nil
    }

    @Test func everyRelativeLinkResolves() throws {
        var checked = 0
        var broken: [String] = []
        for file in try Self.markdownFiles() {
            let text = try String(contentsOf: Repository.root.appendingPathComponent(file), encoding: .utf8)
            for link in Self.links(in: text, file: file) {
                checked += 1
                if let problem = try Self.problem(link) { broken.append("\(link): \(problem)") }
            }
        }
        #expect(broken.isEmpty, "\(broken.joined(separator: "\n"))")
        // The README and the index link every page: a parser that finds no link would pass vacuously.
        #expect(checked > 40, "only \(checked) links found")
    }

    @Test func theCheckerFindsBrokenLinksAndAnchors() throws {
        let text = """
            # Title
            See [a](docs/README.md), [b](missing.md), [c](docs/README.md#no-such-heading), [d](https://x.org/y).
            `[not a link](nowhere.md)`
            ```
            [nor this](nowhere.md)
            ```
            """
        let links = Self.links(in: text, file: "README.md")
        #expect(
            links.map(\.target) == ["docs/README.md", "missing.md", "docs/README.md#no-such-heading", "https://x.org/y"]
        )
        #expect(
            try links.map(Self.problem) == [
                nil, "no file missing.md", "no heading #no-such-heading in docs/README.md", nil
            ])
        #expect(Self.anchors(of: "# A b\n## A b\n## What `--x` does: 1, 2\n") == ["a-b", "a-b-1", "what---x-does-1-2"])
    }

    /// The contracts live in docs/contracts: no source, test, script, doc or
    /// Makefile cites the design file that was outside the repository.
    @Test func nothingCitesTheOldContractFile() throws {
        let name = "DESIGN" + ".md"
        var citing: [String] = []
        for folder in ["Sources", "Tests", "scripts", "docs", "Races", "Reports"] {
            let dir = Repository.root.appendingPathComponent(folder)
            let walker = FileManager.default.enumerator(atPath: dir.path)
            while let path = walker?.nextObject() as? String {
                // Hidden files are no documents (a demo's empty report lock: reading
                // an empty file through String(contentsOf:) leaks under ASan).
                if (path as NSString).lastPathComponent.hasPrefix(".") { continue }
                let url = dir.appendingPathComponent(path)
                guard let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
                if text.contains(name) { citing.append("\(folder)/\(path)") }
            }
        }
        for file in ["README.md", "CHANGELOG.md", "Makefile", "Package.swift"] {
            let text = try String(contentsOf: Repository.root.appendingPathComponent(file), encoding: .utf8)
            if text.contains(name) { citing.append(file) }
        }
        #expect(citing.isEmpty, "\(citing)")
    }
}

/// docs/development.md names every target of Package.swift, so the map of the
/// modules cannot silently fall behind the package.
@Suite struct ModuleMapTests {
    @Test func theDevelopmentPageNamesEveryTarget() throws {
        let package = try String(contentsOf: Repository.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let page = try String(
            contentsOf: Repository.root.appendingPathComponent("docs/development.md"), encoding: .utf8)
        var targets: [String] = []
        for line in package.split(separator: "\n") where !line.contains("product(name") && !line.contains("package(") {
            guard let range = line.range(of: "name: \"") else { continue }
            let rest = line[range.upperBound...]
            if let end = rest.firstIndex(of: "\"") { targets.append(String(rest[..<end])) }
        }
        targets.removeAll { $0 == "RaceKit" }
        #expect(targets.count >= 10, "\(targets)")
        let missing = targets.filter { !page.contains($0) }
        #expect(missing.isEmpty, "docs/development.md does not name \(missing)")
    }

    /// The binary needs no file beside it: a resource bundle (`Bundle.module`)
    /// is found beside the executable or in the build folder, and an installed
    /// racekit whose build folder was gone stopped on "could not load resource
    /// bundle". What the code ships is embedded (`embedInCode`).
    @Test func noSourceReadsAResourceBundle() throws {
        let sources = Repository.root.appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }
        let swift = files.filter { $0.hasSuffix(".swift") }
        #expect(swift.count > 100)
        let readers = try swift.filter { file in
            try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8).contains("Bundle.module")
        }
        #expect(readers.isEmpty, "\(readers)")
    }
}
