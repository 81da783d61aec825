/// Suggestions for misspelt keys and names.
public enum Spelling {
    /// The known word nearest to `s` (Levenshtein distance, case-insensitive),
    /// when it is within 2 edits or a third of the length; nil otherwise.
    public static func nearest(_ s: String, in known: [String]) -> String? {
        let a = Array(s.lowercased())
        func distance(_ b: [Character]) -> Int {
            var row = Array(0...b.count)
            for (i, x) in a.enumerated() {
                var diagonal = row[0]
                row[0] = i + 1
                for (j, y) in b.enumerated() {
                    let above = row[j + 1]
                    row[j + 1] = min(above + 1, row[j] + 1, diagonal + (x == y ? 0 : 1))
                    diagonal = above
                }
            }
            return row[b.count]
        }
        var best: (word: String, distance: Int)?
        for word in known {
            let d = distance(Array(word.lowercased()))
            if d < (best?.distance ?? .max) { best = (word, d) }
        }
        guard let best, best.distance <= max(2, a.count / 3) else { return nil }
        return best.word
    }
}
