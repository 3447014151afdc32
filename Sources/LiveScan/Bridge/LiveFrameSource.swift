import Foundation

/// A camera or stream read on a thread of its own, so the scanner always gets the newest frame: when
/// recognition is slower than the source, older frames are dropped (latest wins) and counted. Media time
/// is the wall-clock time since the first frame, minus any time spent reconnecting, but two frames are never
/// closer in it than in the source's own timestamps (`mediaTime`).
///
/// With a `ReconnectPolicy`, a source that stops is reopened with growing pauses; meanwhile the scanner
/// simply waits for the next frame, so items still in view after the gap keep their ids.
public final class LiveFrameSource: FrameSource, @unchecked Sendable {
    /// How hard to try when the source stops.
    public struct ReconnectPolicy: Sendable, Equatable {
        /// Give up after this many seconds without a frame (default 30).
        public var giveUpAfter: Double
        /// The first pause between attempts; each next one is twice as long, at most 5 s (default 0.5).
        public var firstPause: Double

        public init(giveUpAfter: Double = 30, firstPause: Double = 0.5) {
            self.giveUpAfter = giveUpAfter
            self.firstPause = firstPause
        }
    }

    public let info: SourceInfo
    private let open: @Sendable () throws -> VideoSource
    private let reconnect: ReconnectPolicy?
    private let condition = NSCondition()
    private var latest: (image: any FramePixels, index: Int, time: Double)?
    private var failure: ScanError?
    private var closed = false
    private var dropped = 0
    private var undecodable = 0
    private var reopened: [SourceReconnection] = []

    /// Opens the source now (errors are thrown here) and starts reading it.
    public convenience init(reconnect: ReconnectPolicy? = nil, open: @escaping @Sendable () throws -> VideoSource)
        throws
    {
        self.init(first: try open(), reconnect: reconnect, open: open)
    }

    /// Reads a camera or stream already opened, without reconnecting. `DataScanner.startScanning` reads every
    /// live `VideoSource` through one of these.
    public convenience init(reading source: VideoSource) {
        self.init(first: source, reconnect: nil) { source }
    }

    private init(first source: VideoSource, reconnect: ReconnectPolicy?,
                 open: @escaping @Sendable () throws -> VideoSource) {
        self.open = open
        self.reconnect = reconnect
        info = source.info
        let reader = Thread { [self] in read(from: source) }
        reader.name = "LiveScan.source"  // Linux keeps 15 characters of a name
        reader.start()
    }

    /// Frames the scanner was too slow to take.
    public var droppedFrames: Int { condition.withLock { dropped } }
    /// Frames the decoder refused, over every connection.
    public var undecodableFrames: Int { condition.withLock { undecodable } }
    public var isLive: Bool { true }
    public var reconnections: [SourceReconnection] { condition.withLock { reopened } }

    public func nextFrame() throws -> Frame? {
        condition.lock()
        defer { condition.unlock() }
        while latest == nil && failure == nil && !closed {
            condition.wait()
        }
        if let frame = latest {
            latest = nil
            return Frame(image: frame.image, index: frame.index, time: frame.time)
        }
        if let failure {
            throw failure
        }
        return nil
    }

    /// Stops reading; a waiting `nextFrame` returns nil.
    public func close() {
        condition.withLock {
            closed = true
            condition.broadcast()
        }
    }

    private var isClosed: Bool { condition.withLock { closed } }

    private func read(from initial: VideoSource) {
        var source: VideoSource? = initial
        var decoded = 0
        var undecodableBefore = 0  // by the connections before this one
        var firstFrameAt: Double?
        var pausedFor = 0.0
        var previous: (time: Double, sourceTime: Double?)?
        while !isClosed {
            do {
                guard let current = source, let frame = try current.nextFrame() else {
                    throw ScanError.sourceDamaged(source: info.name, reason: "the source stopped delivering frames")
                }
                let now = ProcessInfo.processInfo.systemUptime
                let start = firstFrameAt ?? now
                firstFrameAt = start
                let time = Self.mediaTime(arrival: now - start - pausedFor, sourceTime: frame.time, after: previous)
                previous = (time, frame.time)
                let undecodableNow = undecodableBefore + current.undecodableFrames
                condition.withLock {
                    if latest != nil {
                        dropped += 1
                    }
                    latest = (frame.image, decoded, time)
                    undecodable = undecodableNow
                    condition.broadcast()
                }
                decoded += 1
            } catch {
                let failure = error as? ScanError ?? .sourceDamaged(source: info.name, reason: "\(error)")
                undecodableBefore += source?.undecodableFrames ?? 0
                condition.withLock { undecodable = undecodableBefore }
                source = nil
                previous?.sourceTime = nil  // a reopened source starts a clock of its own
                let lostAt = ProcessInfo.processInfo.systemUptime
                guard let reconnected = reopen(after: failure) else { return }
                source = reconnected
                let outage = ProcessInfo.processInfo.systemUptime - lostAt
                pausedFor += outage
                let reason: String
                switch failure {
                case let .sourceDamaged(_, why), let .sourceUnavailable(_, why), let .imageTooLarge(_, why):
                    reason = why  // the source is the one this reads
                default:
                    reason = failure.description
                }
                condition.withLock {
                    reopened.append(SourceReconnection(firstFrameIndex: decoded, outage: outage, reason: reason))
                }
            }
        }
    }

    /// A frame's media time: when it arrived, but never sooner after the previous frame than the source's own
    /// timestamps put them apart. A stream hands over the frames it buffered while connecting in one burst, a
    /// few microseconds apart though they were captured a frame interval apart; motion measured over those
    /// microseconds is hundreds of times too fast and carries every item out of its gate, so each physical
    /// item got a second identity after every (re)connection. A step of more than a second in the source's
    /// clock is a discontinuity, not a frame interval, and is not followed.
    static func mediaTime(arrival: Double, sourceTime: Double, after previous: (time: Double, sourceTime: Double?)?)
        -> Double
    {
        guard let previous else { return arrival }
        guard let previousSourceTime = previous.sourceTime, case let sourceStep = sourceTime - previousSourceTime,
              sourceStep > 0, sourceStep <= 1
        else { return max(arrival, previous.time) }
        return max(arrival, previous.time + sourceStep)
    }

    /// Reopens the source under the policy; nil (with `failure` set) when it gives up or there is none.
    private func reopen(after failure: ScanError) -> VideoSource? {
        let started = ProcessInfo.processInfo.systemUptime
        var pause = reconnect?.firstPause ?? 0
        while let policy = reconnect, !isClosed,
              ProcessInfo.processInfo.systemUptime - started + pause <= policy.giveUpAfter {
            Thread.sleep(forTimeInterval: pause)
            pause = min(pause * 2, 5)
            if let source = try? open() {
                return source
            }
        }
        condition.withLock {
            let gaveUp = reconnect.map { ScanError.sourceDamaged(
                source: info.name, reason: "the source stopped and did not come back within \($0.giveUpAfter) s") }
            self.failure = gaveUp ?? failure
            condition.broadcast()
        }
        return nil
    }
}
