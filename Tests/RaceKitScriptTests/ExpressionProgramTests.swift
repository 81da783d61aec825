import RaceKitTestSupport
import Testing

@testable import RaceKitScript

/// The compiled program (`Expression.Program`) against the three-valued rules
/// of docs/contracts/script.md walked over the parse tree: random expressions,
/// random metrics with unknown values, zeros and infinities, the same answer.
@Suite struct ExpressionProgramTests {
    enum Truth { case yes, no, unknown }

    /// The reference: the tree evaluated as the contract words it.
    static func truth(_ n: Expression.Node, _ m: Metrics) -> Truth {
        switch n {
        case .compare(let op, let a, let b):
            let x = number(a, m), y = number(b, m)
            guard x.isFinite, y.isFinite else { return .unknown }
            let close = abs(x - y) <= 1e-9 * max(1, abs(x), abs(y))
            let table: [String: Bool] = ["<": x < y, "<=": x <= y, ">": x > y, ">=": x >= y, "==": close]
            let r = table[op] ?? !close
            return r ? .yes : .no
        case .not(let a):
            let x = truth(a, m)
            return x == .yes ? .no : x == .no ? .yes : .unknown
        case .and(let a, let b):
            let x = truth(a, m), y = truth(b, m)
            return x == .no || y == .no ? .no : x == .yes && y == .yes ? .yes : .unknown
        case .or(let a, let b):
            let x = truth(a, m), y = truth(b, m)
            return x == .yes || y == .yes ? .yes : x == .no && y == .no ? .no : .unknown
        default: return .unknown
        }
    }

    static func number(_ n: Expression.Node, _ m: Metrics) -> Double {
        switch n {
        case .number(let v): return v
        case .variable(let v): return v.value(m)
        case .negate(let a): return -number(a, m)
        case .arithmetic(let op, let a, let b):
            let x = number(a, m), y = number(b, m)
            switch op {
            case "+": return x + y
            case "-": return x - y
            case "*": return x * y
            default: return y == 0 ? .nan : x / y
            }
        default: return .nan
        }
    }

    struct Generator {
        var rng: SplitMix64
        let names = Variable.allCases.map(\.rawValue)

        mutating func pick<T>(_ xs: [T]) -> T { xs[Int(rng.next() % UInt64(xs.count))] }

        mutating func number(_ depth: Int) -> String {
            switch depth <= 0 ? rng.next() % 2 : rng.next() % 5 {
            case 0: return pick(["0", "1", "2.5", "160", "0.001", "99999999", "300"])
            case 1: return pick(names)
            case 2: return "-" + number(depth - 1)
            case 3: return "(\(number(depth - 1)) \(pick(["+", "-", "*", "/"])) \(number(depth - 1)))"
            default: return "\(number(depth - 1)) \(pick(["+", "-", "*", "/"])) \(number(depth - 1))"
            }
        }

        mutating func condition(_ depth: Int) -> String {
            switch depth <= 0 ? 0 : rng.next() % 5 {
            case 0, 1:
                return "\(number(depth - 1)) \(pick(["<", "<=", ">", ">=", "==", "!="])) \(number(depth - 1))"
            case 2: return "NOT " + condition(depth - 1)
            case 3: return "(\(condition(depth - 1)) AND \(condition(depth - 1)))"
            default: return "\(condition(depth - 1)) OR \(condition(depth - 1))"
            }
        }

        mutating func metrics() -> Metrics {
            var m = Metrics()
            let values: [Double] = [.nan, 0, 1, -1, 160, 300.5, .infinity, 5000, 1e-300, 2.5]
            m.distance = pick(values); m.duration = pick(values); m.currentPace = pick(values)
            m.avgPace = pick(values); m.targetPace = pick(values); m.planTime = pick(values)
            m.timeVsPlan = pick(values); m.grade = pick(values); m.paceVsPlan = pick(values)
            m.splitVsPlan = pick(values); m.pace3minRatio = pick(values); m.hr = pick(values)
            m.hrZone = pick(values); m.cadence = pick(values); m.timeOfDayHour = pick(values)
            return m
        }
    }

    @Test func theProgramAnswersAsTheTreeOnRandomExpressions() throws {
        var g = Generator(rng: SplitMix64(seed: 27))
        var answers: [Truth: Int] = [:]
        for _ in 0..<2000 {
            let source = g.condition(4)
            let e = try #require(try? Expression(source), "\(source)")
            for _ in 0..<20 {
                let m = g.metrics()
                let expected = Self.truth(e.root, m)
                answers[expected, default: 0] += 1
                let got = e.program.truth(m)
                let truth: Truth = got == 1 ? .yes : got == 0 ? .no : .unknown
                #expect(truth == expected, "\(source)")
                #expect(got == 1 || got == 0 || got.isNaN, "\(source): \(got)")
                #expect(e.holds(m) == (expected == .yes))
            }
        }
        // Every answer is met often: the comparison is not all "unknown".
        for t in [Truth.yes, .no, .unknown] { #expect(answers[t, default: 0] > 2000, "\(t): \(answers)") }
    }
}
