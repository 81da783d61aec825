import RaceKitTestSupport
import Testing

@testable import RaceKitModel
@testable import RaceKitOutput

@Suite struct TimestampParserTests {
    @Test(arguments: [
        ("2026-03-01T07:00:00Z", 1_772_348_400.0),
        ("2026-03-01T07:00:00.5Z", 1_772_348_400.5),
        ("2026-03-01T08:00:00+01:00", 1_772_348_400.0),
        ("2026-03-01T08:15:00+01:15", 1_772_348_400.0),
        ("2026-03-01T02:00:00-05:00", 1_772_348_400.0),
        ("2026-03-01T08:00:00+0100", 1_772_348_400.0),
        ("2026-03-01T08:00:00+01", 1_772_348_400.0),
        ("2026-03-01 07:00:00Z", 1_772_348_400.0),
        ("  2026-03-01T07:00:00Z\n", 1_772_348_400.0),
        ("2026-03-01T07:00:00.1234567Z", 1_772_348_400.1234567),
        ("2026-03-01T07:00:00.850000+00:00", 1_772_348_400.85)
    ])
    func parsesZonesAndFractions(text: String, expected: Double) throws {
        let t = try #require(TimestampParser.parse(text))
        #expect(abs(t.secondsSinceEpoch - expected) < 1e-6)
        #expect(!t.hadNoZone)
    }

    @Test func takesATimeWithoutZoneAsUTCAndFlagsIt() throws {
        let t = try #require(TimestampParser.parse("2026-03-01T07:00:00"))
        #expect(t.secondsSinceEpoch == 1_772_348_400)
        #expect(t.hadNoZone)
    }

    @Test func handlesFarPastAndFutureYears() throws {
        #expect(TimestampParser.parse("1901-12-13T20:45:52.2073437Z")!.secondsSinceEpoch < -2_147_483_647)
        #expect(TimestampParser.parse("1234-05-06T07:08:09Z") != nil)
        #expect(TimestampParser.parse("4096-01-01T00:00:00Z")!.secondsSinceEpoch > 60_000_000_000)
    }

    @Test(arguments: [
        "", "2026-02-30T00:00:00Z", "2026-13-01T00:00:00Z", "2026-03-01", "2026-03-01T25:00:00Z",
        "2026-03-01T07:00:00X", "2026-03-01T07:00:00.Z", "yesterday", "2026-03-01T07:00:00+25:00"
    ])
    func rejectsMalformedTimestamps(text: String) {
        #expect(TimestampParser.parse(text) == nil)
    }

    @Test func acceptsLeapDayOnlyInLeapYears() {
        #expect(TimestampParser.parse("2024-02-29T00:00:00Z") != nil)
        #expect(TimestampParser.parse("2025-02-29T00:00:00Z") == nil)
        #expect(TimestampParser.parse("2000-02-29T00:00:00Z") != nil)
        #expect(TimestampParser.parse("1900-02-29T00:00:00Z") == nil)
    }

    @Test func formatsBackToISO8601() {
        #expect(TimestampParser.format(1_772_348_400) == "2026-03-01T07:00:00Z")
        #expect(TimestampParser.format(1_772_348_400.25) == "2026-03-01T07:00:00.250Z")
        #expect(TimestampParser.format(-1) == "1969-12-31T23:59:59Z")
    }
}

@Suite struct NumberParserTests {
    @Test(arguments: [
        ("12.5", 12.5), (" -3.25 ", -3.25), ("+7", 7.0), ("1e3", 1000.0), ("0.000123", 0.000123),
        ("37.240441404283046722412109375", 37.240441404283046722412109375), (".5", 0.5), ("5.", 5.0)
    ])
    func parsesDecimals(text: String, expected: Double) {
        #expect(NumberParser.parseDouble(text) == expected)
    }

    @Test(arguments: ["", "  ", "abc", "1,5", "nan", "inf", "1.2.3", "-", "12abc", "0x1F"])
    func rejectsNonNumbers(text: String) {
        #expect(NumberParser.parseDouble(text) == nil)
    }
}

@Suite struct GeodesyTests {
    @Test func oneDegreeOfLatitudeIsAbout111Kilometres() {
        let d = Geodesy.distance(lat1: 0, lon1: 0, lat2: 1, lon2: 0)
        #expect(abs(d - 111_195) < 5)
    }

    @Test func samePointIsZero() {
        #expect(Geodesy.distance(lat1: 48.1, lon1: 11.5, lat2: 48.1, lon2: 11.5) == 0)
    }
}

@Suite struct ULIDTests {
    @Test func isTwentySixCrockfordCharactersSortedByTime() {
        let a = ULID.make(at: 1_772_348_400), b = ULID.make(at: 1_772_348_401)
        #expect(a.count == 26)
        #expect(a.allSatisfy { "0123456789ABCDEFGHJKMNPQRSTVWXYZ".contains($0) })
        #expect(a < b)
        #expect(ULID.make(at: 1_772_348_400) != a)
    }
}

/// `TimestampParser.format` writes years 0-9999 as bytes: the same text as the
/// padded strings it writes for every other year (the reference below), for
/// random instants, whole and fractional, across the range and its edges.
@Suite struct TimestampFormatTests {
    static func reference(_ seconds: Double, fractional: Bool) -> String {
        guard seconds.isFinite, abs(seconds) < 1e13 else { return TextFormat.unknown }
        let whole = Int((seconds).rounded(.down))
        var millis = Int(((seconds - Double(whole)) * 1000).rounded())
        var w = whole
        if millis >= 1000 { w += 1; millis -= 1000 }
        var days = w / 86_400
        var rem = w % 86_400
        if rem < 0 { rem += 86_400; days -= 1 }
        let (y, m, d) = TimestampParser.civilFromDays(days)
        func pad(_ v: Int, _ n: Int) -> String {
            let s = String(abs(v))
            return (v < 0 ? "-" : "") + String(repeating: "0", count: max(0, n - s.count)) + s
        }
        var out =
            "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))T\(pad(rem / 3600, 2)):\(pad(rem / 60 % 60, 2)):\(pad(rem % 60, 2))"
        if fractional, millis != 0 { out += "." + pad(millis, 3) }
        return out + "Z"
    }

    @Test func bytesAndPaddedStringsAgree() {
        var rng = SplitMix64(seed: 86_400)
        var instants: [Double] = [
            0, -0.0005, 0.9996, -62_167_219_200, -62_167_219_200.5, 253_402_300_799.9996, 1e12, -1e12
        ]
        for _ in 0..<20_000 {
            let t = Double(Int64(bitPattern: rng.next()) % 400_000_000_000) + Double(rng.next() % 1_000_000) / 1e6
            instants.append(t)
        }
        for t in instants {
            for fractional in [true, false] {
                #expect(TimestampParser.format(t, fractional: fractional) == Self.reference(t, fractional: fractional))
            }
        }
    }
}
