/// A PostgreSQL connection URL read by RaceKit itself before libpq sees it, so
/// that no message is ever built from a password: what is secret is found
/// here (the URL's password, a `password=` parameter, however encoded), the
/// URL is checked against libpq's grammar (`postgresql://[user[:password]@]
/// [host[:port][,...]][/dbname][?key=value&...]`), and every text shown is
/// the URL with its secrets replaced by `***`.
///
/// A password that holds `/`, `?`, `@` or `#` must be percent-encoded in a URL
/// (libpq stops the user info at the first `/` and would read the rest as a
/// host and port, printing it back): such a URL is refused without showing it.
public struct ConnectionURL: Sendable, Equatable {
    /// The text as given.
    public let text: String
    /// Everything that must never be shown: each password as written and
    /// decoded.
    public let secrets: [String]

    /// The URL `text`, or the reason it is not a valid PostgreSQL URL (never
    /// quoting a secret).
    public static func parse(_ text: String) -> Result<ConnectionURL, URLProblem> {
        guard let sep = text.range(of: "://") else { return .failure(.init("it has no '://' after the scheme")) }
        let rest = text[sep.upperBound...]
        var secrets: [String] = []
        var hostPart = rest
        if let at = rest.lastIndex(of: "@") {
            let userInfo = rest[..<at]
            hostPart = rest[rest.index(after: at)...]
            if userInfo.contains(where: { "/?@#".contains($0) }) {
                return .failure(
                    .init(
                        "its user name or password holds a '/', '?', '@' or '#' that is not percent-encoded"
                            + " (write / as %2F, ? as %3F, @ as %40, # as %23)"))
            }
            if let colon = userInfo.firstIndex(of: ":") {
                let password = userInfo[userInfo.index(after: colon)...]
                secrets.append(String(password))
                guard let decoded = percentDecoded(password) else {
                    return .failure(
                        .init("its password has a '%' that is not followed by two hex digits (write % as %25)"))
                }
                secrets.append(decoded)
            }
            guard let user = percentDecoded(userInfo.prefix(while: { $0 != ":" })) else {
                return .failure(
                    .init("its user name has a '%' that is not followed by two hex digits (write % as %25)"))
            }
            if user.contains("\0") { return .failure(.init("its user name holds a NUL (%00)")) }
        }
        let queryStart = hostPart.firstIndex(of: "?")
        let beforeQuery = hostPart[..<(queryStart ?? hostPart.endIndex)]
        let slash = beforeQuery.firstIndex(of: "/")
        let hosts = beforeQuery[..<(slash ?? beforeQuery.endIndex)]
        if let problem = hostProblem(hosts) { return .failure(.init(problem)) }
        if let slash {
            let database = beforeQuery[beforeQuery.index(after: slash)...]
            guard let name = percentDecoded(database), !name.contains("\0") else {
                return .failure(.init("its database name has a '%' that is not followed by two hex digits, or a NUL"))
            }
        }
        if let queryStart {
            let query = hostPart[hostPart.index(after: queryStart)...]
            for pair in query.split(separator: "&", omittingEmptySubsequences: false) {
                guard let eq = pair.firstIndex(of: "=") else {
                    // Not quoted: `password%3Dsecret` is a password without its '='.
                    return .failure(.init("one of its query parameters has no '=' (key=value)"))
                }
                let rawKey = pair[..<eq]
                let rawValue = pair[pair.index(after: eq)...]
                guard let key = percentDecoded(rawKey) else {
                    return .failure(.init("a query parameter's name has a '%' not followed by two hex digits"))
                }
                let secret = key.lowercased() == "password"
                if secret { secrets.append(String(rawValue)) }
                guard let value = percentDecoded(rawValue) else {
                    let name = secret ? "password" : quoted(key[...])
                    return .failure(
                        .init("the value of its query parameter \(name) has a '%' not followed by two hex digits"))
                }
                if secret { secrets.append(value) }
                if value.contains("\0") || key.contains("\0") {
                    return .failure(.init("a query parameter holds a NUL (%00)"))
                }
            }
        }
        return .success(ConnectionURL(text: text, secrets: secrets.filter { !$0.isEmpty }))
    }

    /// What may be a password in text that is no valid URL: the user info past
    /// the user name, as written.
    public static func possibleSecrets(_ text: String) -> [String] {
        guard let start = authorityStart(text), let at = text[start...].lastIndex(of: "@") else { return [] }
        let userInfo = text[start..<at]
        let user = userInfo.prefix(while: { !":/?#".contains($0) })
        let rest = userInfo.dropFirst(user.count).dropFirst()
        return rest.isEmpty ? [] : [String(rest)]
    }

    /// `message` with every secret of this URL replaced by `***`: for what libpq
    /// or a server says about it.
    public func scrubbed(_ message: String) -> String { Self.scrubbed(message, secrets) }

    /// `message` with every one of `secrets` replaced by `***` (longest first,
    /// so a decoded password inside its encoded form goes whole).
    public static func scrubbed(_ message: String, _ secrets: [String]) -> String {
        var out = message
        for secret in secrets.sorted(by: { $0.count > $1.count }) where !secret.isEmpty {
            out = out.replacingOccurrences(of: secret, with: "***")
        }
        return out
    }

    /// The URL as messages show it: user info's password and `password=`
    /// values replaced by `***`.
    public var shown: String { Self.redacted(text) }

    /// `s` with anything that may be a password replaced by `***`: in a URL,
    /// everything between the user name and the last `@` (whatever it holds:
    /// a refused URL is shown this way too) and the value of every query
    /// parameter whose decoded name is `password`; in `key=value` pairs, the
    /// value of `password` (quoted or not).
    public static func redacted(_ s: String) -> String {
        if let start = authorityStart(s) {
            var out = String(s[..<start])
            let rest = s[start...]
            var tail = rest
            if let at = rest.lastIndex(of: "@") {
                let userInfo = rest[..<at]
                let user = userInfo.prefix(while: { !":/?#".contains($0) })
                out += user
                if user.count < userInfo.count { out += ":***" }
                tail = rest[at...]
            }
            guard let q = tail.firstIndex(of: "?") else { return out + tail }
            out += tail[...q]
            let pairs = tail[tail.index(after: q)...].split(separator: "&", omittingEmptySubsequences: false)
            out += pairs.map { pair -> String in
                guard let eq = pair.firstIndex(of: "=") else {
                    // `password%3Dsecret`: a password whose '=' is encoded.
                    let decoded = (percentDecoded(pair) ?? String(pair)).lowercased()
                    return decoded.contains("password") ? "***" : String(pair)
                }
                let key = percentDecoded(pair[..<eq]) ?? String(pair[..<eq])
                return key.lowercased() == "password" ? pair[...eq] + "***" : String(pair)
            }.joined(separator: "&")
            return out
        }
        return redactedPairs(s)
    }

    /// Where a URL's user info would start: after `://`, or in a mistyped URL
    /// (`postgresql:/rk:pw@db`, `postgresql//rk:pw@db`) after the scheme and
    /// the colons and slashes that follow it; nil for text that is no URL.
    static func authorityStart(_ s: String) -> String.Index? {
        if let sep = s.range(of: "://") { return sep.upperBound }
        // `postgresql;//`, `posgresql//`: after the first `//`, when user info follows.
        if let sep = s.range(of: "//"), s[sep.upperBound...].contains("@") { return sep.upperBound }
        let body = s.drop(while: \.isWhitespace)
        let scheme = body.prefix(while: { $0.isASCII && ($0.isLetter || $0.isNumber || "+.-".contains($0)) })
        guard scheme.count >= 2, scheme.first?.isLetter == true else { return nil }
        let marks = body[scheme.endIndex...].prefix(while: { $0 == ":" || $0 == "/" })
        guard !marks.isEmpty, s[marks.endIndex...].contains("@") else { return nil }
        return marks.endIndex
    }

    /// `key=value` connection strings: the value of `password` hidden, quoted
    /// (`'...'` with `\'` escapes) or not.
    static func redactedPairs(_ s: String) -> String {
        var result = ""
        var i = s.startIndex
        while let r = s[i...].range(of: "password", options: .caseInsensitive) {
            var j = r.upperBound
            while j < s.endIndex, s[j] == " " { j = s.index(after: j) }
            guard j < s.endIndex, s[j] == "=" else {
                result += s[i..<r.upperBound]
                i = r.upperBound
                continue
            }
            j = s.index(after: j)
            while j < s.endIndex, s[j] == " " { j = s.index(after: j) }
            result += s[i..<j] + "***"
            if j < s.endIndex, s[j] == "'" {
                j = s.index(after: j)
                while j < s.endIndex, s[j] != "'" {
                    if s[j] == "\\" { j = s.index(after: j) }
                    if j < s.endIndex { j = s.index(after: j) }
                }
                i = j < s.endIndex ? s.index(after: j) : s.endIndex
            } else {
                i = s[j...].firstIndex(where: { $0 == " " || $0 == "&" }) ?? s.endIndex
            }
        }
        return result + s[i...]
    }

    /// Why the host list (`host[:port]`, `[v6]:port`, comma-separated) is not
    /// what libpq reads, or nil.
    static func hostProblem(_ hosts: Substring) -> String? {
        for spec in hosts.split(separator: ",", omittingEmptySubsequences: false) {
            var host = spec
            var port: Substring?
            if spec.hasPrefix("[") {
                guard let close = spec.firstIndex(of: "]") else { return "its IPv6 host \(quoted(spec)) has no ']'" }
                host = spec[spec.index(after: spec.startIndex)..<close]
                let after = spec[spec.index(after: close)...]
                if !after.isEmpty {
                    guard after.hasPrefix(":") else { return "its host \(quoted(spec)) has text after ']'" }
                    port = after.dropFirst()
                }
            } else if let colon = spec.firstIndex(of: ":") {
                host = spec[..<colon]
                port = spec[spec.index(after: colon)...]
            }
            guard let name = percentDecoded(host), !name.contains("\0") else {
                return "its host \(quoted(host)) has a '%' not followed by two hex digits, or a NUL"
            }
            if let port, !port.isEmpty {
                guard port.allSatisfy(\.isASCII), port.allSatisfy(\.isNumber), let n = Int(port),
                    (1...65535).contains(n)
                else { return "its port \(quoted(port)) is not a number from 1 to 65535" }
            }
        }
        return nil
    }

    /// A short piece of a URL that is not secret, quoted for a message (cut
    /// past 40 characters).
    static func quoted(_ s: Substring) -> String {
        let cut = s.count > 40 ? s.prefix(40) + "..." : s
        return "'" + cut + "'"
    }

    /// `s` with `%HH` escapes decoded, or nil when a `%` is not followed by two
    /// hex digits or the bytes are not UTF-8.
    static func percentDecoded(_ s: Substring) -> String? {
        var bytes: [UInt8] = []
        var it = s.utf8.makeIterator()
        while let b = it.next() {
            guard b == UInt8(ascii: "%") else {
                bytes.append(b)
                continue
            }
            guard let h = it.next().flatMap(hexValue), let l = it.next().flatMap(hexValue) else { return nil }
            bytes.append(h << 4 | l)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return b - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return b - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return b - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

/// Why a `--store` value that looks like a URL is not a PostgreSQL URL RaceKit
/// can use; the text never quotes a secret.
public struct URLProblem: Error, Sendable, Equatable {
    public let reason: String
    public init(_ reason: String) { self.reason = reason }
}
