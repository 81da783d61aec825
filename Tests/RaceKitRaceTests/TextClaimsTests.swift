import Foundation
import Testing

@testable import RaceKitScript
@testable import RaceKitScriptWriter

/// Claims as guards (issue 36): a text claiming the size of the gap, the place
/// in the race or the result is said only where the claim is true, and the
/// loader refuses a text whose words claim what it does not declare.
@Suite struct TextClaimsTests {
    typealias P = PlanAwareScriptTests
    typealias T = RaceDayTruthTests

    /// A collapse from 25 km (30% slower), a slightly slow run (1%) and a
    /// well-ahead run (8% quicker), over a flat marathon planned at 3:30.
    static let runs: [(name: String, factor: @Sendable (Double) -> Double)] = [
        ("collapse from 25 km", { $0 < 25_000 ? 1 : 0.7 }), ("slightly slow", { _ in 0.99 }),
        ("well ahead", { _ in 1.08 })
    ]

    static func words(_ text: String, _ kind: (TextClaims.Word) -> Bool) -> [String] {
        TextClaims.claimingWords(in: text).filter { kind($0.claim) }.map(\.phrase)
    }

    @Test(arguments: Personality.shipped)
    func everyClaimPlayedIsTrueOfTheRun(_ personality: String) throws {
        let plan = try P.plan(.flatMarathon, strategy: "even")
        let s = try P.script(plan, personality)
        let d = plan.setup.distanceMeters, target = plan.setup.targetSeconds
        var heard: Set<String> = []
        for run in Self.runs {
            let distances = P.run(s, factor: run.factor)
            let r = try TriggerEngine.simulate(s, metrics: P.metrics(s, distances))
            let finishTime = T.time(distances, at: d)
            for p in r.played {
                let m = try #require(s.messages.first { $0.id == p.messageId })
                let x = m.anchorMeters ?? p.distanceMeters
                let label = "\(personality) \(run.name): '\(p.text)' at \(Int(x)) m"
                // The gap this line speaks of, as a share of the plan's measure.
                var share: Double?
                if m.id.contains(".pace_km_") {
                    let n = (x / 1000).rounded()
                    let actual = T.time(distances, at: x) - T.time(distances, at: x - 1000)
                    let planned = Double(plan.splits[Int(n) - 1].split.splitSeconds)
                    share = abs(actual - planned) / planned
                } else if m.id.contains("_pace_") {
                    let planned = plan.pacePlan.clockSeconds(at: x)
                    share = abs(T.time(distances, at: x) - planned) / planned
                }
                // Size words in the lines of a gap (elsewhere, "back off slightly" is advice).
                let gapLine = share != nil || m.id.contains(".too_fast") || m.id.contains(".fading")
                for w in Self.words(p.text, { if case .size(.small) = $0 { gapLine } else { false } }) {
                    let share = try #require(share, "\(label): '\(w)' in a line of no gap")
                    #expect(share <= GapBand.smallShare + 0.002, "\(label): '\(w)' with a gap of \(share * 100)%")
                    heard.insert("small")
                }
                for w in Self.words(p.text, { if case .size(.large) = $0 { gapLine } else { false } }) {
                    let share = try #require(share, "\(label): '\(w)' in a line of no gap")
                    #expect(share > GapBand.largeShare - 0.002, "\(label): '\(w)' with a gap of \(share * 100)%")
                    heard.insert("large")
                }
                for w in Self.words(p.text, { if case .place(let p) = $0 { !p.contains(.late) } else { false } }) {
                    #expect(x < d * 2 / 3 && p.distanceMeters < d * 0.75, "\(label): '\(w)' late in the race")
                }
                let praise = Self.words(p.text) { if case .result(let r) = $0 { r.contains(.met) } else { false } }
                if m.id.contains(".finish") {
                    let missed = finishTime > target * (1 + GapBand.nearShare)
                    #expect(!missed || praise.isEmpty, "\(label): praise after \(finishTime - target) s over")
                    let band = finishTime <= target + 10 + target * 0.003 ? "met" : missed ? "missed" : "near"
                    #expect(m.branchKey == nil || m.branchKey == "finish_\(band)" || m.branchKey == "finish_other")
                    heard.insert("finish " + band)
                }
            }
        }
        // Each run was graded: the collapse missed, the slightly slow run near, the quick one met.
        #expect(heard.isSuperset(of: ["finish met", "finish near", "finish missed", "large"]), "\(heard.sorted())")
    }

    /// The issue's own lines are no longer said where they were false.
    @Test func theIssuesLinesAreNotSaidWhereFalse() throws {
        let plan = try P.plan(.flatMarathon, strategy: "even")
        for personality in Personality.shipped {
            let s = try P.script(plan, personality)
            let r = try TriggerEngine.simulate(s, metrics: P.metrics(s, P.run(s) { $0 < 25_000 ? 1 : 0.7 }))
            let late = r.played.filter { $0.distanceMeters > 30_000 }.map { $0.text.lowercased() }
            #expect(!late.contains { $0.contains("a little behind") || $0.contains("plenty of race") }, "\(late)")
            let finish = try #require(r.played.last)
            #expect(finish.messageId.hasSuffix(".finish_missed"), "\(personality): \(finish.text)")
            #expect(!finish.text.lowercased().contains("impressive"))
        }
    }

    static func file(_ role: String, _ items: String) -> String {
        var templates: [String: String] = [:]
        for r in Personality.requiredRoles {
            let field = Personality.mustContain[r].map { " {\($0)}" } ?? ""
            let n = Personality.minimumTexts[r] ?? 1
            templates[r] = (1...n).map { "\n    - \"\(r) \($0)\(field)\"" }.joined()
        }
        templates[role] = items
        return "name: mine\ntemplates:\n"
            + Personality.requiredRoles.map { "  \"\($0)\":\(templates[$0]!)" }.joined(separator: "\n") + "\n"
    }

    static func refusal(_ role: String, _ items: String) -> String? {
        do {
            _ = try Personality.parse(file(role, items), file: "mine.yaml")
            return nil
        } catch { return "\(error)" }
    }

    @Test func theLoaderRefusesAClaimNotDeclared() throws {
        let plain = (1...6).map { "\n    - \"{checkpoint} \($0)\"" }.joined()
        // Undeclared words of each kind, in the roles that speak of them.
        let cases: [(String, String, String)] = [
            ("behind", plain + "\n    - \"{checkpoint}: a little behind.\"", "size: small"),
            ("ahead", plain + "\n    - \"{checkpoint}: well ahead now.\"", "size: large"),
            ("behind", plain + "\n    - \"{checkpoint}: behind, plenty of race left.\"", "place: [early, middle]"),
            ("finish", "\n    - \"Done in {elapsed}. Honestly impressive.\"", "result: [met, near]"),
            (
                "fading_late", (1...4).map { "\n    - \"fade \($0)\"" }.joined() + "\n    - \"Slowing a touch.\"",
                "cannot claim"
            ),
            ("near_finish", "\n    - \"Nearly there, target nailed.\"", "cannot claim"),
            ("pace_km", "\n    - \"{unit} {km}, way slower than planned.\"", "cannot claim"),
            ("gel", "\n    - \"Gel {number}, fuel for later.\"", "place: [early, middle]")
        ]
        for (role, items, expected) in cases {
            let why = try #require(Self.refusal(role, items), "\(role): \(items)")
            #expect(why.contains(expected), "\(why)")
            #expect(why.contains("mine.yaml") && why.contains("templates.\(role)["), "\(why)")
        }
        // Declared claims load, with their values.
        let ok = try Personality.parse(
            Self.file(
                "behind", plain + "\n    - {text: \"{checkpoint}: a little behind.\", size: small, place: [early]}"),
            file: "mine.yaml")
        #expect(ok.claims("behind", "{checkpoint}: a little behind.") == TextClaims(size: .small, place: [.early]))
        // A declared claim the words contradict, or a role cannot make, is refused.
        let wrong: [(String, String, String)] = [
            (
                "behind", plain + "\n    - {text: \"{checkpoint}: a little behind.\", size: large}",
                "declares size large"
            ),
            ("gel", "\n    - {text: \"Gel {number}.\", size: small}", "cannot"),
            ("on", plain + "\n    - {text: \"{checkpoint}: on plan.\", result: [met]}", "only finish"),
            (
                "too_fast_early",
                (1...4).map { "\n    - \"fast \($0)\"" }.joined() + "\n    - {text: \"x\", place: [late]}",
                "never plays"
            ),
            ("behind", plain + "\n    - {text: \"{checkpoint}\", size: medium}", "'medium' is not one of small, large"),
            ("behind", plain + "\n    - {text: \"{checkpoint}\", sizes: small}", "unknown key"),
            ("finish", "\n    - {text: \"Done.\", result: [met]}", "no text for a target near or missed"),
            (
                "behind",
                (1...5).map { "\n    - \"{checkpoint} \($0)\"" }.joined()
                    + "\n    - {text: \"{checkpoint}: a bit behind.\", size: small}", "without a claim"
            )
        ]
        for (role, items, expected) in wrong {
            let why = try #require(Self.refusal(role, items), "\(role): \(items)")
            #expect(why.contains(expected), "\(why)")
        }
    }

    /// The word list reads whole words, the longest phrase first.
    @Test func claimingWordsAreWholePhrases() {
        #expect(TextClaims.claimingWords(in: "a littler thing").isEmpty)
        let w = TextClaims.claimingWords(in: "Save the quads for the final stretch.")
        #expect(w.count == 1 && w[0].phrase == "for the final stretch" && w[0].claim == .place([.early, .middle]))
        #expect(TextClaims.claimingWords(in: "{checkpoint}: home stretch").map(\.phrase) == ["home stretch"])
        #expect(TextClaims.place(atMeters: 30_000, of: 42_195) == .late)
        #expect(TextClaims.place(atMeters: 14_000, of: 42_195) == .early)
    }
}
