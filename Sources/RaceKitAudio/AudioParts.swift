import Foundation
import RaceKitScript
import RaceKitScriptWriter

/// A message text cut into what a companion plays in order: fixed fragments,
/// each one pre-rendered file, and run-time slots, each said by clips of the
/// voice's vocabulary (`SpokenWords`). The fragments' texts and the slots'
/// values joined give the text the engine fills (`Placeholders.fill`).
public enum AudioPart: Sendable, Equatable {
    /// Text between slots: one file, or nothing to play when it is only spaces.
    case fixed(AudioFragment)
    /// A run-time value (`{split_time}`) and how it is said.
    case slot(name: String, kind: SpokenWords.Kind)

    /// The parts of a message text (or variant), in order. A `{name}` that is
    /// not a run-time placeholder stays text.
    public static func parts(of text: String) -> [AudioPart] {
        var out: [AudioPart] = []
        var fixed = ""
        var previousSlot: SpokenWords.Kind?
        func flush(atEnd: Bool) {
            if !fixed.isEmpty || out.isEmpty && atEnd {
                out.append(
                    .fixed(
                        AudioFragment(
                            text: fixed, afterSlot: previousSlot, atStart: out.isEmpty, atEnd: atEnd)))
            }
            fixed = ""
        }
        // The same scan as `Placeholders.filled`, so the parts join to its text.
        var name: String?
        for c in text {
            if c == "{" {
                if let open = name { fixed += "{" + open }
                name = ""
                continue
            }
            if c == "}", let n = name {
                name = nil
                guard let kind = SpokenWords.kind(of: n) else {
                    fixed += "{" + n + "}"
                    continue
                }
                flush(atEnd: false)
                out.append(.slot(name: n, kind: kind))
                previousSlot = kind
                continue
            }
            if name != nil { name!.append(c) } else { fixed.append(c) }
        }
        if let n = name { fixed += "{" + n }
        flush(atEnd: true)
        return out
    }
}

/// A fixed fragment of a text: what it shows, what the engine reads, and the
/// silence around it that its punctuation asks for (the engine's own leading
/// and trailing silence is cut, so a comma at a join still sounds like one).
public struct AudioFragment: Sendable, Hashable {
    /// The fragment exactly as in the text.
    public var text: String
    /// What the engine reads (`SpokenText`, edge spaces and a leading mark
    /// cut); empty when there is nothing to say.
    public var spoken: String
    /// Silence before and after the speech, in milliseconds.
    public var leadMilliseconds: Int
    public var trailMilliseconds: Int

    /// Between two words of one phrase: half of it on each side of a join.
    public static let wordGap = 40
    /// A comma, semicolon or colon at a join.
    public static let commaPause = 200
    /// A full stop, question or exclamation mark at a join.
    public static let sentencePause = 400

    init(text: String, afterSlot: SpokenWords.Kind?, atStart: Bool, atEnd: Bool) {
        self.text = text
        let number: Set<SpokenWords.Kind> = [.decimal, .integer]
        var spoken = Substring(
            SpokenText.normalize(text, afterNumber: afterSlot.map { number.contains($0) } ?? false))
        func pause(_ c: Character?) -> Int {
            guard let c else { return Self.wordGap }
            if ",;:".contains(c) { return Self.commaPause }
            if ".!?".contains(c) { return Self.sentencePause }
            return Self.wordGap
        }
        spoken = spoken.drop { $0.isWhitespace }
        let lead = pause(spoken.first)
        spoken = spoken.drop { $0.isWhitespace || ",;:.!?".contains($0) }
        while let last = spoken.last, last.isWhitespace { spoken.removeLast() }
        guard spoken.contains(where: { $0.isLetter || $0.isNumber }) else {
            // Only spaces and marks (", " between two slots): no file; the
            // vocabulary's pause when a mark is there (`isPause`).
            self.spoken = ""
            leadMilliseconds = 0
            trailMilliseconds = 0
            return
        }
        self.spoken = String(spoken)
        leadMilliseconds = atStart ? Self.wordGap : lead
        trailMilliseconds = atEnd ? Self.wordGap : pause(spoken.last)
    }

    /// A fragment of only marks and spaces that asks for a pause (", ").
    public var isPause: Bool { spoken.isEmpty && text.contains(where: { ",;:.!?".contains($0) }) }

    public init(text: String, spoken: String, leadMilliseconds: Int, trailMilliseconds: Int) {
        self.text = text
        self.spoken = spoken
        self.leadMilliseconds = leadMilliseconds
        self.trailMilliseconds = trailMilliseconds
    }
}
