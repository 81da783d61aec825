import RaceKitModel

/// The values an expression can read: one snapshot of live metrics.
/// NaN is unknown (no heart rate, no pace yet).
public struct Metrics: Sendable, Equatable {
    /// Metres from the start.
    public var distance = 0.0
    /// Seconds since the start (the clock keeps running through pauses).
    public var duration = 0.0
    /// Smoothed current pace, s/km.
    public var currentPace = Double.nan
    /// Average pace so far (elapsed time over distance), s/km.
    public var avgPace = Double.nan
    /// The plan's pace at the current distance (strategy and course included), s/km.
    public var targetPace = Double.nan
    /// The plan's clock time at the current distance, s.
    public var planTime = Double.nan
    /// Seconds behind the plan (clock minus the plan's clock here; negative when ahead).
    public var timeVsPlan = Double.nan
    /// The plan's grade here, percent.
    public var grade = Double.nan
    /// Current pace over the plan's pace here (above 1 is slower than planned).
    public var paceVsPlan = Double.nan
    /// The last completed split (a whole unit, km or mile): its time, s.
    public var splitSeconds = Double.nan
    /// The plan's time for that split, s: the difference of the plan's clock
    /// at its two ends, each rounded to the whole second (as the plan's table).
    public var splitPlanSeconds = Double.nan
    /// The last split's time minus the plan's time for it, s (negative: quicker).
    public var splitVsPlan = Double.nan
    /// The plan's finish shifted by the current gap and its recent trend, s.
    public var projectedFinish = Double.nan
    /// Speed over the last 3 minutes divided by the target speed (above 1 is faster).
    public var pace3minRatio = Double.nan
    public var hr = Double.nan
    /// 1-5 from the athlete's zones.
    public var hrZone = Double.nan
    /// Steps per minute.
    public var cadence = Double.nan
    /// Watts now (the last record's, held at most 30 s), and the mean of the
    /// last 3 minutes' seconds with power (once 30 of them are there).
    public var power = Double.nan
    public var power3min = Double.nan
    /// 0-23 in the athlete's time zone.
    public var timeOfDayHour = Double.nan
    public init() {}
}

/// A whitelisted variable (the script language's names).
// swift-format-ignore: AlwaysUseLowerCamelCase
public enum Variable: String, CaseIterable, Sendable {
    case distance, duration, current_pace, avg_pace, target_pace, pace_3min_ratio, hr, hr_zone, cadence,
        time_of_day_hour, plan_time, time_vs_plan, grade, pace_vs_plan, split_vs_plan, split_plan, power, power_3min

    @inline(__always) func value(_ m: Metrics) -> Double {
        switch self {
        case .distance: return m.distance
        case .duration: return m.duration
        case .current_pace: return m.currentPace
        case .avg_pace: return m.avgPace
        case .target_pace: return m.targetPace
        case .pace_3min_ratio: return m.pace3minRatio
        case .hr: return m.hr
        case .hr_zone: return m.hrZone
        case .cadence: return m.cadence
        case .time_of_day_hour: return m.timeOfDayHour
        case .plan_time: return m.planTime
        case .time_vs_plan: return m.timeVsPlan
        case .grade: return m.grade
        case .pace_vs_plan: return m.paceVsPlan
        case .split_vs_plan: return m.splitVsPlan
        case .split_plan: return m.splitPlanSeconds
        case .power: return m.power
        case .power_3min: return m.power3min
        }
    }
}

/// An expression that cannot be used: where (1-based column, length) and why.
public struct ExpressionError: RaceKitError, Equatable {
    public var exitClass: ExitClass { .dataError }
    public var message: String
    public var column: Int
    public var length: Int
    public var source: String

    /// `column N: message`, the expression, and a caret line under the offending token.
    public var description: String {
        "column \(column): \(message)\n  \(source)\n  " + String(repeating: " ", count: max(0, column - 1))
            + String(repeating: "^", count: max(1, length))
    }
}

/// A parsed, type-checked expression (docs/contracts/script.md, "Expressions").
///
///     or      := and (OR and)*
///     and     := not (AND not)*
///     not     := NOT not | compare
///     compare := sum ((< | <= | > | >= | == | !=) sum)?
///     sum     := product ((+ | -) product)*
///     product := unary ((* | /) unary)*
///     unary   := - unary | NUMBER | VARIABLE | ( or )
///
/// NOT binds tighter than AND, AND tighter than OR. Keywords are case-insensitive.
/// A condition is boolean at the top; comparisons take numbers; AND/OR/NOT take
/// conditions. Evaluation is three-valued: a comparison with an unknown value (no
/// heart rate) or a division by zero is unknown, NOT unknown is unknown, and a
/// condition that ends unknown is false, never a crash.
public struct Expression: Sendable, Equatable, CustomStringConvertible {
    indirect enum Node: Sendable, Equatable {
        case number(Double)
        case variable(Variable)
        case negate(Node)
        case arithmetic(Character, Node, Node)
        case compare(String, Node, Node)
        case not(Node)
        case and(Node, Node)
        case or(Node, Node)
    }

    public let source: String
    let root: Node
    private(set) var program = Program()
    /// The variables it reads.
    public let variables: Set<Variable>

    public var description: String { source }

    /// Parses a condition (a boolean expression).
    public init(_ source: String) throws {
        var p = Parser(source: source)
        let (node, type) = try p.parseExpression()
        if let extra = p.peek {
            throw p.error("unexpected '\(extra.text)' after the end of the expression", extra)
        }
        guard type == .condition else {
            throw ExpressionError(
                message: "this is a number, not a condition: compare it (e.g. \(source.isEmpty ? "hr" : source) > 160)",
                column: 1, length: max(1, source.count), source: source)
        }
        self.source = source
        root = node
        program.compile(node, condition: true)
        var used = Set<Variable>()
        Self.collect(node, into: &used)
        variables = used
    }

    static func collect(_ n: Node, into s: inout Set<Variable>) {
        switch n {
        case .number: break
        case .variable(let v): s.insert(v)
        case .negate(let a), .not(let a): collect(a, into: &s)
        case .arithmetic(_, let a, let b), .compare(_, let a, let b), .and(let a, let b), .or(let a, let b):
            collect(a, into: &s); collect(b, into: &s)
        }
    }

    public static func == (a: Expression, b: Expression) -> Bool { a.root == b.root }

    /// True only when the condition holds for certain.
    public func holds(_ m: Metrics) -> Bool { program.holds(m) }

    /// The expression as a postfix program over a stack of numbers, compiled once:
    /// a trigger engine evaluates its conditions every second of a race, and a walk
    /// over the tree of indirect nodes cost a retain and a release per node.
    /// A truth is a number too: 1 yes, 0 no, NaN unknown.
    struct Program: Sendable {
        enum Op: Sendable {
            case number(Double), variable(Variable), negate, not
            case add, subtract, multiply, divide
            case less, lessOrEqual, greater, greaterOrEqual, equal, notEqual
            case and, or
        }
        var ops: [Op] = []

        /// `node` in postfix order; a node of the other type than its place wants
        /// (the parser never makes one) is unknown there.
        mutating func compile(_ node: Node, condition: Bool) {
            switch node {
            case .number, .variable, .negate, .arithmetic:
                guard !condition else { return ops.append(.number(.nan)) }
            case .compare, .not, .and, .or:
                guard condition else { return ops.append(.number(.nan)) }
            }
            switch node {
            case .number(let v): ops.append(.number(v))
            case .variable(let v): ops.append(.variable(v))
            case .negate(let a):
                compile(a, condition: false); ops.append(.negate)
            case .not(let a):
                compile(a, condition: true); ops.append(.not)
            case .arithmetic(let op, let a, let b):
                compile(a, condition: false); compile(b, condition: false)
                ops.append(op == "+" ? .add : op == "-" ? .subtract : op == "*" ? .multiply : .divide)
            case .compare(let op, let a, let b):
                compile(a, condition: false); compile(b, condition: false)
                let code: [String: Op] = [
                    "<": .less, "<=": .lessOrEqual, ">": .greater, ">=": .greaterOrEqual, "==": .equal
                ]
                ops.append(code[op] ?? .notEqual)
            case .and(let a, let b):
                compile(a, condition: true); compile(b, condition: true); ops.append(.and)
            case .or(let a, let b):
                compile(a, condition: true); compile(b, condition: true); ops.append(.or)
            }
        }

        func holds(_ m: Metrics) -> Bool { truth(m) == 1 }

        /// The condition's truth under `m`: 1, 0, or NaN when unknown (a comparison
        /// with an unknown value or a division by zero: NaN for a number).
        func truth(_ m: Metrics) -> Double {
            ops.withUnsafeBufferPointer { code in
                withUnsafeTemporaryAllocation(of: Double.self, capacity: max(1, code.count)) { stack in
                    var top = 0
                    for op in code {
                        switch op {
                        case .number(let v):
                            stack[top] = v; top += 1
                        case .variable(let v):
                            stack[top] = v.value(m); top += 1
                        case .negate:
                            stack[top - 1] = -stack[top - 1]
                        case .not:
                            let x = stack[top - 1]
                            stack[top - 1] = x == 1 ? 0 : x == 0 ? 1 : .nan
                        default:
                            top -= 1
                            stack[top - 1] = Self.apply(op, stack[top - 1], stack[top])
                        }
                    }
                    return stack[0]
                }
            }
        }

        @inline(__always) static func apply(_ op: Op, _ x: Double, _ y: Double) -> Double {
            switch op {
            case .add: return x + y
            case .subtract: return x - y
            case .multiply: return x * y
            case .divide: return y == 0 ? .nan : x / y
            // AND is no when either is, yes when both are; OR the other way round.
            case .and: return x == 0 || y == 0 ? 0 : x == 1 && y == 1 ? 1 : .nan
            case .or: return x == 1 || y == 1 ? 1 : x == 0 && y == 0 ? 0 : .nan
            default:
                guard x.isFinite, y.isFinite else { return .nan }
                let close = abs(x - y) <= 1e-9 * max(1, abs(x), abs(y))
                switch op {
                case .less: return x < y ? 1 : 0
                case .lessOrEqual: return x <= y ? 1 : 0
                case .greater: return x > y ? 1 : 0
                case .greaterOrEqual: return x >= y ? 1 : 0
                case .equal: return close ? 1 : 0
                default: return close ? 0 : 1
                }
            }
        }
    }
}

/// Recursive-descent parser over a token list.
struct Parser {
    enum Kind: Equatable { case number(Double), identifier, op, lparen, rparen, keyword(String) }
    struct Token { var kind: Kind; var text: String; var column: Int }
    enum ValueType { case number, condition }

    let source: String
    var tokens: [Token] = []
    var index = 0
    var lexError: ExpressionError?
    /// Current depth of parentheses, NOT and unary minus.
    var nesting = 0

    init(source: String) {
        self.source = source
        lex()
    }

    var peek: Token? { index < tokens.count ? tokens[index] : nil }

    func error(_ message: String, _ token: Token?) -> ExpressionError {
        if let token {
            return ExpressionError(message: message, column: token.column, length: token.text.count, source: source)
        }
        return ExpressionError(message: message, column: source.count + 1, length: 1, source: source)
    }

    mutating func lex() {
        let chars = Array(source)
        var i = 0
        while i < chars.count {
            let c = chars[i]
            let column = i + 1
            if c == " " || c == "\t" { i += 1; continue }
            if c.isNumber || (c == "." && i + 1 < chars.count && chars[i + 1].isNumber) {
                var j = i
                while j < chars.count, chars[j].isNumber || chars[j] == "." { j += 1 }
                let text = String(chars[i..<j])
                guard let v = Double(text), text.filter({ $0 == "." }).count <= 1 else {
                    lexError = ExpressionError(
                        message: "'\(text)' is not a number", column: column, length: text.count, source: source)
                    return
                }
                tokens.append(Token(kind: .number(v), text: text, column: column))
                i = j
                continue
            }
            if c.isLetter || c == "_" {
                var j = i
                while j < chars.count, chars[j].isLetter || chars[j].isNumber || chars[j] == "_" { j += 1 }
                let text = String(chars[i..<j])
                let upper = text.uppercased()
                tokens.append(
                    Token(
                        kind: ["AND", "OR", "NOT"].contains(upper) ? .keyword(upper) : .identifier, text: text,
                        column: column))
                i = j
                continue
            }
            if c == "(" { tokens.append(Token(kind: .lparen, text: "(", column: column)); i += 1; continue }
            if c == ")" { tokens.append(Token(kind: .rparen, text: ")", column: column)); i += 1; continue }
            let two = i + 1 < chars.count ? String(chars[i...i + 1]) : ""
            if ["<=", ">=", "==", "!="].contains(two) {
                tokens.append(Token(kind: .op, text: two, column: column)); i += 2; continue
            }
            if "+-*/<>".contains(c) {
                tokens.append(Token(kind: .op, text: String(c), column: column)); i += 1; continue
            }
            let hint: String
            switch c {
            case "=": hint = " (use == to compare)"
            case "&": hint = " (use AND)"
            case "|": hint = " (use OR)"
            case "!": hint = " (use NOT, or != to compare)"
            default: hint = ""
            }
            lexError = ExpressionError(
                message: "unexpected character '\(c)'\(hint)", column: column, length: 1, source: source)
            return
        }
    }

    /// Longest expression, in tokens: a chain of `+` or `AND` nests one node per
    /// operator, and evaluating a tree recurses once per level.
    static let maxTokens = 512
    /// Deepest nesting of parentheses, NOT and unary minus (each level is a few
    /// recursive calls while parsing; thousands overflowed the stack, found by
    /// `make fuzz`).
    static let maxNesting = 32

    /// The whole expression: a token list of bounded size, parsed.
    mutating func parseExpression() throws -> (Expression.Node, ValueType) {
        if let e = lexError { throw e }
        if tokens.isEmpty {
            throw ExpressionError(message: "the expression is empty", column: 1, length: 1, source: source)
        }
        if tokens.count > Self.maxTokens {
            throw error(
                "the expression is too long: \(tokens.count) tokens, at most \(Self.maxTokens)", tokens[Self.maxTokens])
        }
        return try parseOr()
    }

    /// Enters one level of nesting at `t`; throws past `maxNesting`.
    mutating func nest(_ t: Token) throws {
        nesting += 1
        if nesting > Self.maxNesting {
            throw error("nested too deeply: more than \(Self.maxNesting) levels of parentheses, NOT and minus", t)
        }
    }

    mutating func parseOr() throws -> (Expression.Node, ValueType) {
        var (left, type) = try parseAnd()
        while let t = peek, t.kind == .keyword("OR") {
            index += 1
            try require(type, .condition, at: t, "OR")
            let (right, rtype) = try parseAnd()
            try require(rtype, .condition, at: t, "OR")
            left = .or(left, right)
            type = .condition
        }
        return (left, type)
    }

    mutating func parseAnd() throws -> (Expression.Node, ValueType) {
        var (left, type) = try parseNot()
        while let t = peek, t.kind == .keyword("AND") {
            index += 1
            try require(type, .condition, at: t, "AND")
            let (right, rtype) = try parseNot()
            try require(rtype, .condition, at: t, "AND")
            left = .and(left, right)
            type = .condition
        }
        return (left, type)
    }

    mutating func parseNot() throws -> (Expression.Node, ValueType) {
        if let t = peek, t.kind == .keyword("NOT") {
            index += 1
            try nest(t)
            defer { nesting -= 1 }
            let (inner, type) = try parseNot()
            try require(type, .condition, at: t, "NOT")
            return (.not(inner), .condition)
        }
        return try parseCompare()
    }

    func require(_ type: ValueType, _ wanted: ValueType, at t: Token, _ what: String) throws {
        guard type == wanted else {
            throw error(
                wanted == .condition
                    ? "\(what) needs conditions on both sides (a comparison such as hr > 160), not a number"
                    : "'\(what)' needs numbers, not a condition", t)
        }
    }

    mutating func parseCompare() throws -> (Expression.Node, ValueType) {
        let (left, type) = try parseSum()
        guard let t = peek, t.kind == .op, ["<", "<=", ">", ">=", "==", "!="].contains(t.text) else {
            return (left, type)
        }
        index += 1
        try require(type, .number, at: t, t.text)
        let (right, rtype) = try parseSum()
        try require(rtype, .number, at: t, t.text)
        if let next = peek, next.kind == .op, ["<", "<=", ">", ">=", "==", "!="].contains(next.text) {
            throw error("comparisons do not chain: write a < b AND b < c", next)
        }
        return (.compare(t.text, left, right), .condition)
    }

    mutating func parseSum() throws -> (Expression.Node, ValueType) {
        var (left, type) = try parseProduct()
        while let t = peek, t.kind == .op, t.text == "+" || t.text == "-" {
            index += 1
            try require(type, .number, at: t, t.text)
            let (right, rtype) = try parseProduct()
            try require(rtype, .number, at: t, t.text)
            left = .arithmetic(Character(t.text), left, right)
        }
        return (left, type)
    }

    mutating func parseProduct() throws -> (Expression.Node, ValueType) {
        var (left, type) = try parseUnary()
        while let t = peek, t.kind == .op, t.text == "*" || t.text == "/" {
            index += 1
            try require(type, .number, at: t, t.text)
            let (right, rtype) = try parseUnary()
            try require(rtype, .number, at: t, t.text)
            left = .arithmetic(Character(t.text), left, right)
        }
        return (left, type)
    }

    mutating func parseUnary() throws -> (Expression.Node, ValueType) {
        guard let t = peek else { throw error("the expression ends where a value was expected", nil) }
        index += 1
        switch t.kind {
        case .op where t.text == "-":
            try nest(t)
            defer { nesting -= 1 }
            let (inner, type) = try parseUnary()
            try require(type, .number, at: t, "-")
            return (.negate(inner), .number)
        case .number(let v):
            return (.number(v), .number)
        case .identifier:
            guard let v = Variable(rawValue: t.text) else {
                let known = Variable.allCases.map(\.rawValue)
                let close = known.first { $0.lowercased() == t.text.lowercased() }
                throw error(
                    "unknown variable '\(t.text)'" + (close.map { " (did you mean '\($0)'?)" } ?? "")
                        + "; variables: \(known.joined(separator: ", "))", t)
            }
            return (.variable(v), .number)
        case .lparen:
            try nest(t)
            defer { nesting -= 1 }
            let inner = try parseOr()
            guard let close = peek, close.kind == .rparen else {
                throw error("'(' is never closed", t)
            }
            index += 1
            return inner
        case .rparen:
            throw error("')' without a matching '('", t)
        case .keyword(let k):
            throw error("\(k) where a value was expected", t)
        case .op:
            throw error("'\(t.text)' where a value was expected", t)
        }
    }
}
