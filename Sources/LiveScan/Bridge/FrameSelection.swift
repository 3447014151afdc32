import Foundation

/// Every `interval`-th frame of a file (`--every N`): the frames between are decoded and dropped, so
/// indices and media times stay those of the file.
public final class EveryNthFrameSource: FrameSource, @unchecked Sendable {
    private let source: FrameSource
    private let interval: Int
    private var skipped = 0

    /// `interval` 1 passes every frame.
    public init(_ source: FrameSource, interval: Int) throws {
        guard interval >= 1 else {
            throw ScanError.invalidParameter(parameter: "every", reason: "must be 1 or more")
        }
        self.source = source
        self.interval = interval
    }

    public var info: SourceInfo { source.info }
    public var droppedFrames: Int { source.droppedFrames + skipped }
    public var undecodableFrames: Int { source.undecodableFrames }
    public var isLive: Bool { source.isLive }
    public var isVideo: Bool { source.isVideo }
    public var unreadableImages: [ScanError] { source.unreadableImages }
    public func close() { source.close() }

    public func nextFrame() throws -> Frame? {
        while let frame = try source.nextFrame() {
            if frame.index % interval == 0 {
                return frame
            }
            skipped += 1
        }
        return nil
    }
}

/// A file played at its own speed (`--realtime`), as a camera would deliver it: each frame is handed
/// over no earlier than its media time, and frames whose time has already passed while the scanner was
/// busy are dropped (and counted), so the scan behaves as it would live.
public final class RealTimeFrameSource: FrameSource, @unchecked Sendable {
    private let source: FrameSource
    private var started: Double?
    private var dropped = 0

    public init(_ source: FrameSource) {
        self.source = source
    }

    public var info: SourceInfo { source.info }
    public var droppedFrames: Int { source.droppedFrames + dropped }
    public var undecodableFrames: Int { source.undecodableFrames }
    public var isLive: Bool { true }
    public var unreadableImages: [ScanError] { source.unreadableImages }
    public func close() { source.close() }

    public func nextFrame() throws -> Frame? {
        let frameDuration = info.framesPerSecond > 0 ? 1 / info.framesPerSecond : 1.0 / 30
        while let frame = try source.nextFrame() {
            let now = ProcessInfo.processInfo.systemUptime
            let start = started ?? now - frame.time
            started = start
            let due = start + frame.time
            if now - due > frameDuration {
                dropped += 1  // its moment has passed: a live source would have shown the next one
                continue
            }
            if due > now {
                Thread.sleep(forTimeInterval: due - now)
            }
            return frame
        }
        return nil
    }
}
