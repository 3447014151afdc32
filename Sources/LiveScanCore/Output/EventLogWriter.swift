/// Writes a scan to an event log (schema in `EventLog`), one flushed line per event.
public final class EventLogWriter: @unchecked Sendable {
    private let output: LineOutput
    /// The start line's source, which change lines do not repeat as their `file`.
    private var source: String?

    public init(output: LineOutput) {
        self.output = output
    }

    public func start(source: SourceInfo, config: EventLog.Config) throws {
        self.source = source.name
        try output.write(EventLog.startLine(source: source, config: config))
    }

    public func write(_ changes: ScanChanges) throws {
        for line in EventLog.changeLines(changes, source: source) {
            try output.write(line)
        }
    }

    /// Records that frames are `width` x `height` from `frameIndex` on.
    public func resized(frameIndex: Int, time: Double, width: Int, height: Int) throws {
        try output.write(EventLog.resizeLine(frameIndex: frameIndex, time: time, width: width, height: height))
    }

    public func finish(_ outcome: ScanOutcome) throws {
        try output.write(EventLog.endLine(outcome))
    }
}
