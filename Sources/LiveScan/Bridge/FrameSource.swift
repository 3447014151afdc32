/// Where frames come from: a video file, a camera, a stream, an image or a folder of images.
/// A source is read by one thread at a time, hence Sendable: the scanner's worker, or while a file's barcodes are
/// read ahead, the read-ahead's reader thread alone (`ScanPlan`).
public protocol FrameSource: AnyObject, Sendable {
    /// What the source says about itself; known once it is open.
    var info: SourceInfo { get }
    /// The next frame, or nil at the end. Throws `ScanError.sourceDamaged` when the source stops
    /// before the end it announced.
    func nextFrame() throws -> Frame?
    /// Frames the source delivered that were never recognised (live sources drop stale frames).
    var droppedFrames: Int { get }
    /// Frames of a video that did not decode (a damaged stretch of the file or stream): skipped, and the frames after
    /// them read; read it once the scan has ended.
    var undecodableFrames: Int { get }
    /// True when frames come at the source's own pace and stale ones are dropped (cameras, streams, files
    /// paced at media speed): the scanner then takes one frame at a time, the newest.
    var isLive: Bool { get }
    /// True when each frame is the next moment of one scene (video), so it can be compared with the last:
    /// barcodes are then read only where it changed (`ChangeGatedBarcodeReader`). Images in a folder are not.
    var isVideo: Bool { get }
    /// Stops a live source; a `nextFrame` waiting for it returns nil. Files need nothing.
    func close()
    /// The images the source skipped because they could not be decoded (a folder's, an image sequence's files),
    /// each with the reason, in the order met; read it once the scan has ended.
    var unreadableImages: [ScanError] { get }
    /// The times a camera or stream stopped and was reopened, in order (`--reconnect`); none for other sources.
    var reconnections: [SourceReconnection] { get }
}

extension FrameSource {
    public var droppedFrames: Int { 0 }
    public var undecodableFrames: Int { 0 }
    public var isLive: Bool { false }
    public var isVideo: Bool { false }
    public func close() {}
    public var unreadableImages: [ScanError] { [] }
    public var reconnections: [SourceReconnection] { [] }

    /// Neither a scene's frames nor a live source's: images, each read once with no frame budget to keep, and
    /// sharing nothing with the one before (a line where the last image had one is another line).
    var holdsStillImages: Bool { !isVideo && !isLive }
}
