/// Writes a scan to an event log (schema in `EventLog`), one flushed line per event.
public final class EventLogWriter: @unchecked Sendable {
    private let output: LineOutput?
    private let escapesForTerminal: Bool
    private let copy: (@Sendable (String) -> Void)?
    /// The start line's source, which change lines do not repeat as their `file`.
    private var source: String?

    /// `escapesForTerminal`: the log goes to a terminal (`--events -` on one), so the C1 controls and
    /// bidirectional overrides that JSON may carry raw are written as `\uXXXX` escapes
    /// (`TerminalSafeText.escapeJSON`): the same values for a reader, nothing for the terminal to obey.
    /// `copy` is handed every line as written to a file (a live view's stream of the log), after `output` took it;
    /// `output` may be nil when the copy is the only reader.
    public init(output: LineOutput?, escapesForTerminal: Bool = false, copy: (@Sendable (String) -> Void)? = nil) {
        self.output = output
        self.escapesForTerminal = escapesForTerminal
        self.copy = copy
    }

    public func start(source: SourceInfo, config: EventLog.Config) throws {
        self.source = source.name
        try write(EventLog.startLine(source: source, config: config))
    }

    public func write(_ changes: ScanChanges) throws {
        for line in EventLog.changeLines(changes, source: source) {
            try write(line)
        }
    }

    /// Records that frames are `width` x `height` from `frameIndex` on.
    public func resized(frameIndex: Int, time: Double, width: Int, height: Int) throws {
        try write(EventLog.resizeLine(frameIndex: frameIndex, time: time, width: width, height: height))
    }

    public func reconnected(frameIndex: Int, time: Double, outage: Double, reason: String) throws {
        try write(EventLog.reconnectLine(frameIndex: frameIndex, time: time, outage: outage, reason: reason))
    }

    /// Records that the user chose `item` after frame `frameIndex` (`DataScannerDelegate`'s `didTapOn`); `file`: the
    /// image file of that frame.
    public func tapped(_ item: RecognizedItem, frameIndex: Int, time: Double, file: String? = nil) throws {
        try write(EventLog.tapLine(item, frameIndex: frameIndex, time: time, file: file, source: source))
    }

    public func finish(_ outcome: ScanOutcome) throws {
        try write(EventLog.endLine(outcome))
    }

    private func write(_ line: String) throws {
        try output?.write(escapesForTerminal ? TerminalSafeText.escapeJSON(line) : line)
        copy?(line)
    }
}
