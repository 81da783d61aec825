import Foundation

/// What a personality text claims beyond the sign of the measure that chose
/// its role (docs/scripts.md, "Claims"): the size of the gap, the place in the
/// race, the result. The generator says a text only where each claim is true
/// of the measure at that point; a text without claims is true wherever its
/// role plays.
public struct TextClaims: Sendable, Equatable, Hashable {
    /// The size of the gap: `small` within `GapBand.smallShare`, `large` beyond
    /// `GapBand.largeShare` (of the plan's time so far, or of the planned split).
    public enum Size: String, Sendable, CaseIterable { case small, large }
    /// Where in the race: thirds of its distance.
    public enum Place: String, Sendable, CaseIterable { case early, middle, late }
    /// The finish against the target.
    public enum Result: String, Sendable, CaseIterable { case met, near, missed }

    public var size: Size?
    public var place: Set<Place>?
    public var result: Set<Result>?

    public init(size: Size? = nil, place: Set<Place>? = nil, result: Set<Result>? = nil) {
        self.size = size
        self.place = place
        self.result = result
    }

    public static let none = TextClaims()
    public var isEmpty: Bool { size == nil && place == nil && result == nil }

    /// The third of the race a point is in.
    public static func place(atMeters x: Double, of distance: Double) -> Place {
        guard distance > 0 else { return .early }
        let share = x / distance
        return share < 1.0 / 3 ? .early : share < 2.0 / 3 ? .middle : .late
    }

    /// True where the text may be said at a place (no place claim: anywhere).
    public func fits(_ place: Place) -> Bool { self.place?.contains(place) ?? true }
    /// True where the text may be said anywhere in a stretch of the race
    /// (a condition can play at any point of its range).
    public func fits(all places: Set<Place>) -> Bool { self.place.map { places.isSubset(of: $0) } ?? true }

    /// For the canonical text of a personality (the script's input digest).
    var canonical: String {
        [
            size.map { "size=\($0.rawValue)" },
            place.map { "place=\($0.map(\.rawValue).sorted().joined(separator: "+"))" },
            result.map { "result=\($0.map(\.rawValue).sorted().joined(separator: "+"))" }
        ].compactMap { $0 }.joined(separator: ",")
    }

    /// The roles whose texts may claim a size: those chosen by a gap with a
    /// sign (the split or the clock at a checkpoint). The conditions speak
    /// from 4% and 5% off the plan's pace, beyond any small gap.
    public static let sizeRoles: Set<String> = ["pace_km_ahead", "pace_km_behind", "ahead", "behind"]
    /// Roles whose texts the size words are read in: those spoken of a gap.
    static let gapRoles: Set<String> = sizeRoles.union(["pace_km", "on", "too_fast_early", "fading_late"])
    /// The only role graded by the result.
    public static let resultRoles: Set<String> = ["finish"]
    /// Roles whose result words are read: the finish and what leads to it.
    static let resultWordRoles: Set<String> = ["finish", "near_finish"]
    /// Where each role can play, for the roles that cannot play everywhere;
    /// a text claiming a place must cover all of it to be said in a condition.
    public static func places(of role: String) -> Set<Place>? {
        switch role {
        case "start": return [.early]
        case "too_fast_early": return [.early]   // before 25%
        case "fading_late": return [.middle, .late]   // 60% to 95%
        case "near_finish", "finish": return [.late]
        default: return nil
        }
    }

    /// Words that claim something, lower case, matched on word boundaries,
    /// the longest first (so "for the final stretch", a stretch still to come,
    /// is not "final stretch"). Each names the claim it makes.
    public enum Word: Sendable, Equatable {
        case size(Size)
        case place(Set<Place>)
        case result(Set<Result>)
    }

    public static let words: [(phrase: String, claim: Word)] = {
        var w: [(String, Word)] = []
        for p in [
            "a little", "a touch", "a bit", "a tad", "slightly", "a fraction", "a few seconds", "fractionally",
            "marginally", "bit leisurely", "just off", "barely", "a smidge", "a hair", "nothing dramatic",
            "all you need"
        ] {
            w.append((p, .size(.small)))
        }
        for p in [
            "well ahead", "well behind", "way ahead", "way behind", "a lot", "far ahead", "far behind", "big gap",
            "huge", "massive", "miles ahead", "miles behind", "a long way off", "a big", "way quicker", "way slower",
            "way faster", "well quicker", "well slower", "well faster", "way off", "nowhere near", "glaciers"
        ] {
            w.append((p, .size(.large)))
        }
        for p in [
            "plenty of race", "plenty of running", "long way to go", "the race is long", "a long race",
            "back half", "the wall", "the last few", "real race starts", "for the final stretch",
            "for the closing stretch", "for later", "for the end", "at the end", "half an hour", "there's time",
            "this early", "too early", "early part", "early on",
            "still early", "early miles", "early kilometres", "the first half"
        ] {
            w.append(
                (
                    p,
                    .place(
                        p.contains("early") || p == "the first half" || p == "back half" ? [.early] : [.early, .middle])
                ))
        }
        for p in [
            "nearly home", "nearly there", "almost there", "almost home", "almost done", "final push",
            "closing stretch", "home stretch", "final stretch", "the finish is close", "last push"
        ] {
            w.append((p, .place([.late])))
        }
        for p in [
            "impressive", "impressed", "proud", "nailed", "well done", "brilliant", "wonderful", "smashed",
            "personal best", "not bad", "mission accomplished", "perfect", "great run", "legend", "beautifully",
            "magnificent", "superb", "champion", "target met", "on target", "victory"
        ] {
            w.append((p, .result([.met, .near])))
        }
        for p in ["next time", "not today", "missed", "tough day", "bad day", "not the day"] {
            w.append((p, .result([.near, .missed])))
        }
        return w.sorted { $0.0.count > $1.0.count }
    }()

    /// The claiming words of a text (fields taken out), longest match first.
    public static func claimingWords(in text: String) -> [(phrase: String, claim: Word)] {
        var rest = " " + RaceScriptText.withoutFields(text).lowercased() + " "
        var found: [(String, Word)] = []
        for (phrase, claim) in words {
            var searchFrom = rest.startIndex
            while let r = rest.range(of: phrase, range: searchFrom..<rest.endIndex) {
                let before = rest[rest.index(before: r.lowerBound)], after = rest[r.upperBound]
                if !before.isLetter, !after.isLetter {
                    found.append((phrase, claim))
                    // Blank the match so a shorter phrase inside it is not found again.
                    rest.replaceSubrange(r, with: String(repeating: " ", count: phrase.count))
                    break
                }
                searchFrom = r.upperBound
            }
        }
        return found
    }

    /// Why a claim the words make (`said`) is not what the text declares.
    static func mismatch<T: RawRepresentable>(
        _ phrase: String, _ key: String, _ what: String, said: Set<T>, declared: Set<T>?
    ) -> String? where T.RawValue == String {
        func list(_ v: Set<T>, _ separator: String) -> String {
            v.map(\.rawValue).sorted().joined(separator: separator)
        }
        guard let declared else {
            return "says '\(phrase)', \(what): declare `\(key): [\(list(said, ", "))]` or reword it"
        }
        if declared.isSubset(of: said) { return nil }
        return "says '\(phrase)' (\(list(said, "/"))) but declares \(key) \(list(declared, "/"))"
    }

    /// Why a text's claims do not fit its words or its role (nil: they do).
    public func refusal(role: String, text: String) -> String? {
        if size != nil, !Self.sizeRoles.contains(role) {
            return
                "claims a size, which \(role) texts cannot: only \(Self.sizeRoles.sorted().joined(separator: ", ")) are chosen by a gap whose size the generator can grade"
        }
        if result != nil, !Self.resultRoles.contains(role) {
            return "claims a result, which only finish texts can (the finish is graded by the result)"
        }
        if let place, let range = Self.places(of: role), place.isDisjoint(with: range) {
            return
                "claims the place \(place.map(\.rawValue).sorted().joined(separator: "/")), where \(role) never plays (\(range.map(\.rawValue).sorted().joined(separator: "/")))"
        }
        for (phrase, word) in Self.claimingWords(in: text) {
            switch word {
            case .size(let s) where Self.gapRoles.contains(role):
                guard Self.sizeRoles.contains(role) else {
                    return
                        "says '\(phrase)', a size of the gap, which \(role) texts cannot claim (the generator cannot grade it there): reword it"
                }
                guard let size else {
                    return "says '\(phrase)', a size of the gap: declare `size: \(s.rawValue)` or reword it"
                }
                if size != s { return "says '\(phrase)' (a \(s.rawValue) gap) but declares size \(size.rawValue)" }
            case .place(let p):
                let natural = Self.places(of: role) ?? Set(Place.allCases)
                if natural.isSubset(of: p) { continue }
                if let why = Self.mismatch(phrase, "place", "a place in the race", said: p, declared: place) {
                    return why
                }
            case .result(let r) where Self.resultWordRoles.contains(role):
                guard Self.resultRoles.contains(role) else {
                    return
                        "says '\(phrase)', a result, which \(role) texts cannot claim (the result is not known yet): reword it"
                }
                if let why = Self.mismatch(phrase, "result", "a result", said: r, declared: result) { return why }
            default: continue
            }
        }
        return nil
    }
}

/// Text helpers shared by the claims and the loader.
enum RaceScriptText {
    /// The text with each `{field}` replaced by a space.
    static func withoutFields(_ s: String) -> String {
        var out = "", inField = false
        for c in s {
            if c == "{" { inField = true; out.append(" "); continue }
            if c == "}" { inField = false; continue }
            if !inField { out.append(c) }
        }
        return out
    }
}

/// The bands of a gap the generator grades texts by (docs/scripts.md):
/// small within 3% of the plan's measure, large beyond 5%, the result of a
/// finish met (on plan or ahead), near (within 2% behind) or missed.
public enum GapBand {
    public static let smallShare = 0.03
    public static let largeShare = 0.05
    public static let nearShare = 0.02
}
