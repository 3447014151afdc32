import Foundation

/// One decoded picture of a source: its pixels, its 0-based index in decode order and its media time.
public struct Frame: Sendable {
    /// The pixels, 8-bit BGR, owned by CBridge.
    public let image: FrameImage
    /// 0-based index of the frame in the order the source decoded it.
    public let index: Int
    /// Media time in seconds (the source's timestamp, or index / fps when it gives none).
    public let time: Double

    public init(image: FrameImage, index: Int, time: Double) {
        self.image = image
        self.index = index
        self.time = time
    }

    public var width: Int { image.width }
    public var height: Int { image.height }
}
