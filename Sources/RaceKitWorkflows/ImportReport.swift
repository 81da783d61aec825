import Foundation
import RaceKitFormats
import RaceKitImport
import RaceKitOutput

/// `racekit import`'s text report: one line per file that needs a word, then
/// the summary. Every line is one line (`DisplayText.line`): an entry name or a
/// message quoting a file holds no line break.
public enum ImportReport {
    /// Failures (for stderr), and the rest (for stdout, nothing when `quiet`).
    public static func text(_ results: [FileResult], quiet: Bool) -> (errors: [String], out: [String]) {
        func line(_ s: String) -> String { DisplayText.line(s) }
        let errors = results.filter { $0.status == .failed }.map { line("failed: \($0.reason ?? $0.file)") }
        guard !quiet else { return (errors, []) }
        var out: [String] = []
        for r in results where r.status == .skipped { out.append(line("skipped: \(r.file): \(r.reason ?? "")")) }
        for r in results where r.status == .duplicate && r.reason?.hasPrefix("already imported") == false {
            out.append(line("duplicate: \(r.file): \(r.reason ?? "")"))
        }
        for r in results where r.status == .upgraded { out.append(line("upgraded: \(r.file): \(r.reason ?? "")")) }
        for r in results where r.status == .imported && r.reason != nil {
            out.append(line("note: \(r.file): \(r.reason!)"))
        }
        out.append(summary(results))
        return (errors, out)
    }

    /// The last line: what was found and what became of it.
    static func summary(_ results: [FileResult]) -> String {
        let s = ImportSummary(results)
        if s.total == 0 {
            return
                "No activity files found (\(ActivityReaders.standard.nameList), plain or .gz; archives; Apple Health exports)."
        }
        if s.imported == 0 && s.upgraded == 0 && s.failed == 0 && s.duplicate > 0 {
            return
                "Nothing new: \(s.duplicate) of \(inputs(results)) already imported\(s.skipped > 0 ? ", \(s.skipped) skipped" : "")."
        }
        let upgraded = s.upgraded > 0 ? "\(s.upgraded) upgraded, " : ""
        let runs = s.runsStored == 1 ? "1 run" : "\(s.runsStored) runs"
        return
            "\(inputs(results)): \(s.imported) imported (\(runs)), \(upgraded)\(s.duplicate) duplicate, \(s.skipped) skipped, \(s.failed) failed."
    }

    /// "1 file", "12 files", "30 workouts" or "2 files and 30 workouts": an Apple
    /// Health export's results are its workouts (`export.xml#LINE`), not files.
    public static func inputs(_ results: [FileResult]) -> String {
        let workouts = results.filter {
            $0.file.range(of: #"\.xml(\.gz)?#[0-9]+$"#, options: [.regularExpression, .caseInsensitive]) != nil
        }.count
        let files = results.count - workouts
        func n(_ k: Int, _ one: String, _ many: String) -> String { k == 1 ? "1 \(one)" : "\(k) \(many)" }
        switch (files, workouts) {
        case (_, 0): return n(files, "file", "files")
        case (0, _): return n(workouts, "workout", "workouts")
        default: return n(files, "file", "files") + " and " + n(workouts, "workout", "workouts")
        }
    }
}
