import LiveScanCore

/// A frame's picture made without any image library: one gray level everywhere. What scanner tests with scripted
/// engines need; an engine of the Bridge reads it too, through a gray copy.
public final class BlankPixels: FramePixels {
    public let width: Int
    public let height: Int
    public let gray: UInt8

    public init(width: Int, height: Int, gray: UInt8 = 255) {
        self.width = width
        self.height = height
        self.gray = gray
    }

    public func grayPixels() throws -> [UInt8] {
        [UInt8](repeating: gray, count: width * height)
    }
}
