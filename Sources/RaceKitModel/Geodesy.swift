#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Great-circle geometry on a spherical Earth.
public enum Geodesy {
    /// Mean Earth radius in metres (IUGG R1 = 6,371,008.8 m). gpxpy uses the
    /// equatorial radius (6,378,137 m), which makes every distance about 0.1% long.
    public static let earthRadiusMeters = 6_371_008.8

    /// Haversine distance in metres between two points given in degrees.
    @inline(__always)
    public static func distance(lat1: Double, lon1: Double, lat2: Double, lon2: Double) -> Double {
        let rad = Double.pi / 180
        let dLat = (lat2 - lat1) * rad
        let dLon = (lon2 - lon1) * rad
        let s1 = sin(dLat / 2)
        let s2 = sin(dLon / 2)
        let a = s1 * s1 + cos(lat1 * rad) * cos(lat2 * rad) * s2 * s2
        return 2 * earthRadiusMeters * asin(min(1, a.squareRoot()))
    }
}
