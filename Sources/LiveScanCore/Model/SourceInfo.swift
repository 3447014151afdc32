/// What a frame source says about itself before the first frame.
public struct SourceInfo: Sendable, Equatable {
    /// The path, URL or camera name as the user gave it.
    public var name: String
    public var width: Int
    public var height: Int
    /// Frames per second; 0 when the source does not say (images, some streams).
    public var framesPerSecond: Double
    /// The number of frames the container announces; nil for cameras, streams and unknown lengths.
    public var frameCount: Int?

    public init(name: String, width: Int, height: Int, framesPerSecond: Double, frameCount: Int?) {
        self.name = name
        self.width = width
        self.height = height
        self.framesPerSecond = framesPerSecond
        self.frameCount = frameCount
    }
}
