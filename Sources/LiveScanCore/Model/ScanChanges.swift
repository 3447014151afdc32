/// One frame's changes, with the frame in which they were decided.
public struct ScanChanges: Sendable, Equatable {
    /// 0-based index of the decoded frame that decided the changes.
    public var frameIndex: Int
    /// Its media time in seconds.
    public var time: Double
    public var added: [RecognizedItem]
    public var updated: [RecognizedItem]
    public var removed: [RecognizedItem]
    /// Every current item after the changes, in reading order.
    public var allItems: [RecognizedItem]
    /// The image file of the frame that decided the changes (`Frame.file`); nil for a video, camera or stream.
    public var file: String?

    public init(frameIndex: Int, time: Double, added: [RecognizedItem] = [], updated: [RecognizedItem] = [],
                removed: [RecognizedItem] = [], allItems: [RecognizedItem] = [], file: String? = nil) {
        self.frameIndex = frameIndex
        self.time = time
        self.added = added
        self.updated = updated
        self.removed = removed
        self.allItems = allItems
        self.file = file
    }
}

/// How a scan ended.
public struct ScanOutcome: Sendable, Equatable {
    public enum Reason: String, Sendable {
        /// The source had no further frame.
        case endOfSource = "eof"
        /// `stopScanning()` or `requestStop()` was called: the app (or the command's `--once`, or a reader
        /// of its output that went away) had what it wanted. Added within schema v1.
        case stopped
        /// A signal stopped the scan: `requestStop(.interrupted)`, as the CLI calls it on SIGINT/SIGTERM.
        case interrupted
        /// The source or an engine failed; `error` says how.
        case error
    }

    public var reason: Reason
    public var error: ScanError?
    /// Index and media time of the last frame processed (-1 and 0 when there was none).
    public var lastFrameIndex: Int
    public var lastTime: Double
    /// Frames processed.
    public var framesProcessed: Int
    /// Frames the source decoded but the scanner never took: a live source's stale frames (latest wins),
    /// `--every N`'s skipped ones, `--realtime`'s late ones.
    public var framesDropped: Int
    /// Frames of a video that did not decode (a damaged stretch): skipped, the frames after them scanned.
    public var framesUndecodable: Int

    public init(reason: Reason, error: ScanError? = nil, lastFrameIndex: Int = -1, lastTime: Double = 0,
                framesProcessed: Int = 0, framesDropped: Int = 0, framesUndecodable: Int = 0) {
        self.reason = reason
        self.error = error
        self.lastFrameIndex = lastFrameIndex
        self.lastTime = lastTime
        self.framesProcessed = framesProcessed
        self.framesDropped = framesDropped
        self.framesUndecodable = framesUndecodable
    }
}
