import Testing

@testable import RaceKitScript

@Suite struct ExpressionTests {
    static func metrics(hr: Double = .nan, distance: Double = 5000, avgPace: Double = 300, target: Double = 300)
        -> Metrics
    {
        var m = Metrics()
        m.hr = hr; m.distance = distance; m.avgPace = avgPace; m.targetPace = target; m.duration = 1500
        m.pace3minRatio = 1.05; m.hrZone = 3; m.cadence = 170; m.currentPace = 290; m.timeOfDayHour = 9
        return m
    }

    @Test func precedenceNotAndOr() throws {
        let m = Self.metrics(hr: 150)
        // NOT binds tighter than AND: (NOT true) AND false is false, NOT (true AND false) is true.
        #expect(try Expression("NOT hr > 100 AND hr > 200").holds(m) == false)
        #expect(try Expression("NOT (hr > 100 AND hr > 200)").holds(m))
        // AND tighter than OR: true OR (true AND false) = true; (true OR true) AND false = false.
        #expect(try Expression("hr > 100 OR hr > 100 AND hr > 200").holds(m))
        #expect(try !Expression("(hr > 100 OR hr > 100) AND hr > 200").holds(m))
        // Arithmetic: * before +, left to right for - and /.
        #expect(try Expression("2 + 3 * 4 == 14").holds(m))
        #expect(try Expression("(2 + 3) * 4 == 20").holds(m))
        #expect(try Expression("10 - 4 - 3 == 3").holds(m))
        #expect(try Expression("12 / 3 / 2 == 2").holds(m))
        #expect(try Expression("-2 * -3 == 6 AND - hr < 0").holds(m))
        #expect(try Expression("avg_pace < target_pace * 1.01 and distance >= 5000").holds(m), "keywords in any case")
    }

    @Test func everyVariableIsRead() throws {
        let m = Self.metrics(hr: 150)
        for (v, value) in [
            ("distance", 5000.0), ("duration", 1500), ("current_pace", 290), ("avg_pace", 300), ("target_pace", 300),
            ("pace_3min_ratio", 1.05), ("hr", 150), ("hr_zone", 3), ("cadence", 170), ("time_of_day_hour", 9)
        ] {
            #expect(try Expression("\(v) == \(value)").holds(m), "\(v)")
        }
        #expect(try Expression("hr > 1 AND cadence > 1").variables == [.hr, .cadence])
    }

    @Test func unknownValuesAndDivisionByZeroAreFalseNeverACrash() throws {
        let noHR = Self.metrics()
        #expect(try !Expression("hr > 160").holds(noHR))
        #expect(try !Expression("NOT hr > 160").holds(noHR), "NOT unknown is unknown, so false")
        #expect(try !Expression("hr > 160 OR hr <= 160").holds(noHR))
        #expect(try Expression("hr > 160 OR distance > 1000").holds(noHR), "a true side makes OR true")
        #expect(try !Expression("hr > 160 AND distance > 1000").holds(noHR))
        #expect(try !Expression("distance / 0 > 1").holds(noHR))
        #expect(try !Expression("NOT distance / (duration - 1500) > 1").holds(noHR))
    }

    /// (expression, column, caret length, words)
    static let errors: [(String, Int, Int, String)] = [
        ("hr > 160 AND hrr < 3", 14, 3, "unknown variable 'hrr'"),
        ("HR > 160", 1, 2, "did you mean 'hr'"),
        ("hr = 160", 4, 1, "use =="),
        ("hr > 160 && distance > 5", 10, 1, "use AND"),
        ("hr >", 5, 1, "ends where a value was expected"),
        ("(hr > 160", 1, 1, "never closed"),
        ("hr > 160)", 9, 1, "unexpected ')'"),
        ("hr + 5", 1, 6, "a number, not a condition"),
        ("hr AND distance > 5", 4, 3, "needs conditions"),
        ("(hr > 5) + 1 > 2", 10, 1, "needs numbers"),
        ("1 < hr < 3", 8, 1, "do not chain"),
        ("", 1, 1, "empty"),
        ("hr > 1.2.3", 6, 5, "not a number"),
        ("NOT", 4, 1, "ends where a value"),
        ("hr > OR", 6, 2, "OR where a value was expected"),
        ("distance >= 5000 AND", 21, 1, "ends where a value"),
        ("hr > 160 #", 10, 1, "unexpected character '#'")
    ]

    @Test func everyErrorHasItsColumnAndACaret() {
        for (source, column, length, words) in Self.errors {
            do {
                _ = try Expression(source)
                Issue.record("accepted '\(source)'")
            } catch let e as ExpressionError {
                #expect(e.column == column, "'\(source)': column \(e.column): \(e.message)")
                #expect(e.length == length, "'\(source)': length \(e.length)")
                #expect(e.message.contains(words), "'\(source)': \(e.message)")
                let lines = e.description.split(separator: "\n", omittingEmptySubsequences: false)
                #expect(lines.count == 3 && lines[1] == "  " + source)
                #expect(
                    lines[2] == "  " + String(repeating: " ", count: column - 1) + String(repeating: "^", count: length)
                )
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    /// Found by `make fuzz`: ~2,900 "(" overflowed the stack of the recursive
    /// parser. Nesting (parentheses, NOT, minus) stops at 32 levels and length at
    /// 512 tokens, each with a message at the token where it is exceeded.
    @Test func deepNestingAndHugeExpressionsAreRefusedNotACrash() throws {
        let deep = String(repeating: "(", count: 32) + "hr > 1" + String(repeating: ")", count: 32)
        #expect(
            try Expression(deep).holds(
                {
                    var m = Metrics(); m.hr = 2; return m
                }()))
        let cases: [(String, Int, String)] = [
            (String(repeating: "(", count: 33) + "hr > 1" + String(repeating: ")", count: 33), 33, "nested too deeply"),
            (String(repeating: "NOT ", count: 40) + "hr > 1", 129, "nested too deeply"),
            ("hr > " + String(repeating: "- ", count: 40) + "1", 70, "nested too deeply"),
            (String(repeating: "( ", count: 1500), 1025, "too long: 1500 tokens"),
            ("hr" + String(repeating: " + hr", count: 300) + " > 1", 1281, "too long: 603 tokens")
        ]
        for (source, column, words) in cases {
            do {
                _ = try Expression(source)
                Issue.record("accepted \(source.prefix(40))...")
            } catch let e as ExpressionError {
                #expect(e.column == column, "\(source.prefix(30))...: column \(e.column): \(e.message)")
                #expect(e.message.contains(words), "\(e.message)")
            }
        }
        // A chain as long as allowed parses and evaluates (one level per operator).
        let chain = "hr" + String(repeating: " + hr", count: 254) + " > 1"
        #expect(
            try Expression(chain).holds(
                {
                    var m = Metrics(); m.hr = 1; return m
                }()))
    }
}
