/// One point as a reader collects it; every channel is NaN when absent.
public struct SamplePoint: Sendable, Equatable {
    /// Seconds since the Unix epoch (UTC).
    public var time = Double.nan
    /// Latitude in degrees.
    public var latitude = Double.nan
    /// Longitude in degrees.
    public var longitude = Double.nan
    /// Elevation in metres above sea level.
    public var elevation = Double.nan
    /// Cumulative distance in metres as recorded by the device.
    public var distance = Double.nan
    /// Heart rate in beats per minute.
    public var heartRate = Double.nan
    /// Cadence as written in the file (strides or steps per minute, or rpm).
    public var cadence = Double.nan
    /// Speed in metres per second.
    public var speed = Double.nan
    /// Power in watts.
    public var power = Double.nan
    /// Temperature in degrees Celsius.
    public var temperature = Double.nan

    @inlinable public init() {}

    /// Fills every channel that is absent here with the other point's value.
    public mutating func fillMissing(from other: SamplePoint) {
        if latitude.isNaN, longitude.isNaN { latitude = other.latitude; longitude = other.longitude }
        if elevation.isNaN { elevation = other.elevation }
        if distance.isNaN { distance = other.distance }
        if heartRate.isNaN { heartRate = other.heartRate }
        if cadence.isNaN { cadence = other.cadence }
        if speed.isNaN { speed = other.speed }
        if power.isNaN { power = other.power }
        if temperature.isNaN { temperature = other.temperature }
    }
}

/// A sample series stored as a struct of arrays (one contiguous array per channel,
/// NaN where a point has no value), so that a 4-hour 1 Hz run is a handful of
/// allocations rather than 14,400 objects.
public struct SampleSeries: Sendable, Equatable {
    /// The channels, in storage order.
    public enum Channel: Int, CaseIterable, Sendable {
        case time, latitude, longitude, elevation, distance, heartRate, cadence, speed, power, temperature
    }

    public var time = ContiguousArray<Double>()
    public var latitude = ContiguousArray<Double>()
    public var longitude = ContiguousArray<Double>()
    public var elevation = ContiguousArray<Double>()
    public var distance = ContiguousArray<Double>()
    public var heartRate = ContiguousArray<Double>()
    public var cadence = ContiguousArray<Double>()
    public var speed = ContiguousArray<Double>()
    public var power = ContiguousArray<Double>()
    public var temperature = ContiguousArray<Double>()
    /// Channels only some runs record (running dynamics, developer fields),
    /// each as long as the fixed ones.
    public var extras: [ExtraChannel] = []

    public init() {}

    // Inlinable, as `append` is: a reader's per-point loop in another module
    // would otherwise call them, and copy the whole series to ask its count.
    /// Number of points.
    @inlinable public var count: Int { time.count }
    @inlinable public var isEmpty: Bool { time.isEmpty }

    /// Reserves room for `n` points in every channel.
    public mutating func reserveCapacity(_ n: Int) {
        for channel in Channel.allCases { self[channel].reserveCapacity(n) }
    }

    /// Appends one point.
    @inlinable
    public mutating func append(_ p: SamplePoint) {
        time.append(p.time); latitude.append(p.latitude); longitude.append(p.longitude)
        elevation.append(p.elevation); distance.append(p.distance); heartRate.append(p.heartRate)
        cadence.append(p.cadence); speed.append(p.speed); power.append(p.power)
        temperature.append(p.temperature)
        if !extras.isEmpty { for k in extras.indices { extras[k].values.append(.nan) } }
    }

    /// The point at index `i`.
    public subscript(point i: Int) -> SamplePoint {
        get {
            var p = SamplePoint()
            p.time = time[i]; p.latitude = latitude[i]; p.longitude = longitude[i]
            p.elevation = elevation[i]; p.distance = distance[i]; p.heartRate = heartRate[i]
            p.cadence = cadence[i]; p.speed = speed[i]; p.power = power[i]; p.temperature = temperature[i]
            return p
        }
        set {
            time[i] = newValue.time; latitude[i] = newValue.latitude; longitude[i] = newValue.longitude
            elevation[i] = newValue.elevation; distance[i] = newValue.distance; heartRate[i] = newValue.heartRate
            cadence[i] = newValue.cadence; speed[i] = newValue.speed; power[i] = newValue.power
            temperature[i] = newValue.temperature
        }
    }

    /// One channel's values.
    public subscript(channel: Channel) -> ContiguousArray<Double> {
        get {
            switch channel {
            case .time: return time
            case .latitude: return latitude
            case .longitude: return longitude
            case .elevation: return elevation
            case .distance: return distance
            case .heartRate: return heartRate
            case .cadence: return cadence
            case .speed: return speed
            case .power: return power
            case .temperature: return temperature
            }
        }
        set {
            switch channel {
            case .time: time = newValue
            case .latitude: latitude = newValue
            case .longitude: longitude = newValue
            case .elevation: elevation = newValue
            case .distance: distance = newValue
            case .heartRate: heartRate = newValue
            case .cadence: cadence = newValue
            case .speed: speed = newValue
            case .power: power = newValue
            case .temperature: temperature = newValue
            }
        }
    }

    /// Changes one channel in place (no copy of the array).
    public mutating func modify(_ channel: Channel, _ body: (inout ContiguousArray<Double>) -> Void) {
        switch channel {
        case .time: body(&time)
        case .latitude: body(&latitude)
        case .longitude: body(&longitude)
        case .elevation: body(&elevation)
        case .distance: body(&distance)
        case .heartRate: body(&heartRate)
        case .cadence: body(&cadence)
        case .speed: body(&speed)
        case .power: body(&power)
        case .temperature: body(&temperature)
        }
    }

    /// True when at least one point has a value in the channel.
    public func has(_ channel: Channel) -> Bool {
        self[channel].contains { !$0.isNaN }
    }
}
