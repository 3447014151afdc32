/// A camera or stream that stopped and was reopened (`LiveFrameSource.ReconnectPolicy`): when, for how long, why.
public struct SourceReconnection: Sendable, Equatable {
    /// The index of the first frame from the reopened source (frames are numbered on across connections).
    public var firstFrameIndex: Int
    /// Seconds without frames, wall clock: from the failure to the reopening.
    public var outage: Double
    /// Why the source stopped (`ScanError.description`: "the source stopped delivering frames").
    public var reason: String

    public init(firstFrameIndex: Int, outage: Double, reason: String) {
        self.firstFrameIndex = firstFrameIndex
        self.outage = outage
        self.reason = reason
    }
}
