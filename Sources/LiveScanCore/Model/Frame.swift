import Foundation

/// A frame's picture, as the core sees it: its size. The pixels themselves belong to whoever decoded them
/// (CBridge's `FrameImage` in `LiveScan`), so tracking and the event log never depend on an image library, and
/// tests can make frames with no pixels at all.
public protocol FramePixels: AnyObject, Sendable {
    var width: Int { get }
    var height: Int { get }
    /// The picture as 8-bit gray, `width * height` bytes, row by row: what an engine that did not decode it
    /// reads it from.
    func grayPixels() throws -> [UInt8]
}

/// One decoded picture of a source: its pixels, its 0-based index in decode order and its media time.
public struct Frame: Sendable {
    /// The pixels (for every frame a LiveScan source decodes, a `FrameImage` in CBridge: a 4:2:0 video's frames
    /// as their decoder's planes, other pictures 8-bit BGR).
    public let image: any FramePixels
    /// 0-based index of the frame in the order the source decoded it.
    public let index: Int
    /// Media time in seconds (the source's timestamp, or index / fps when it gives none).
    public let time: Double
    /// The image file the frame was decoded from, as the source names it (`ImageSource`: the argument, or the
    /// folder's path joined with the file's name); nil for frames of a video, camera or stream.
    public let file: String?

    public init(image: any FramePixels, index: Int, time: Double, file: String? = nil) {
        self.image = image
        self.index = index
        self.time = time
        self.file = file
    }

    public var width: Int { image.width }
    public var height: Int { image.height }
}
