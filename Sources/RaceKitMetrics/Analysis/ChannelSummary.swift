/// One extra channel of a run summarised (`runs show`): its key (a running
/// dynamics channel, `ExtraChannel.Key`, or `developer:NAME`), unit, average and maximum.
public struct ChannelSummary: Sendable, Equatable {
    public var key: String
    public var unit: String?
    public var average: Double
    public var maximum: Double

    /// The developer field's name, nil for a running-dynamics channel.
    public var developerName: String? {
        key.hasPrefix("developer:") ? String(key.dropFirst("developer:".count)) : nil
    }
}
