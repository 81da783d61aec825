import Testing

@testable import RaceKitOutput

@Suite struct DisplayTextTests {
    @Test func terminalSequencesAreShownEscaped() {
        // Sets the window title, rings the bell, clears the screen.
        let hostile = "\u{1B}]0;pwned\u{07}\u{1B}[2JMorning run"
        #expect(DisplayText.line(hostile) == "\\u{1B}]0;pwned\\u{07}\\u{1B}[2JMorning run")
        #expect(DisplayText.escaped(hostile) == DisplayText.line(hostile))
    }

    @Test func textOfSeveralLinesKeepsLineFeedsOnly() {
        #expect(DisplayText.escaped("a\nb") == "a\nb")
        #expect(DisplayText.escaped("a\r\nb\tc") == "a\\r\nb\\tc")
        #expect(DisplayText.escaped("progress\r overwritten") == "progress\\r overwritten")
    }

    @Test func oneLineTextEscapesTabCRAndLF() {
        #expect(DisplayText.line("one\r\ntwo") == "one\\r\\ntwo")
        #expect(DisplayText.line("a\tb\nc\rd") == "a\\tb\\nc\\rd")
    }

    @Test func delC1AndBidiOverridesAreEscaped() {
        #expect(DisplayText.line("\u{00}x\u{7F}") == "\\u{00}x\\u{7F}")
        #expect(DisplayText.line("\u{85}\u{9B}31m") == "\\u{85}\\u{9B}31m")
        #expect(DisplayText.line("abc\u{202E}gpj.exe") == "abc\\u{202E}gpj.exe")
        #expect(DisplayText.line("\u{2066}x\u{2069}") == "\\u{2066}x\\u{2069}")
    }

    @Test func ordinaryTextIsUntouched() {
        for s in ["Müller 🏃‍♀️ 10 km", "Łódź · 5:30/km", "a\\u{1B}b", "مرحبا", "\u{200F}x", "\u{A0}"] {
            #expect(DisplayText.line(s) == s)
        }
    }

    @Test func escapingTwiceChangesNothing() {
        let once = DisplayText.line("\u{1B}[31m\r\n\u{9B}")
        #expect(DisplayText.line(once) == once)
    }

    @Test func theRangesAreExact() {
        let unsafe: [UInt32] = [0x00, 0x09, 0x0A, 0x1F, 0x7F, 0x80, 0x9F, 0x202A, 0x202E, 0x2066, 0x2069]
        let safe: [UInt32] = [0x20, 0x7E, 0xA0, 0x2029, 0x202F, 0x2065, 0x206A, 0x200E]
        for v in unsafe { #expect(DisplayText.isUnsafe(Unicode.Scalar(v)!), "U+\(String(v, radix: 16))") }
        for v in safe { #expect(!DisplayText.isUnsafe(Unicode.Scalar(v)!), "U+\(String(v, radix: 16))") }
    }
}
