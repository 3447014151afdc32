/// What would help the scanner read what is in view, as VisionKit's guidance (`isGuidanceEnabled`).
public enum ScanGuidance: String, Sendable, Equatable {
    /// A 2-D code is in view but could not be decoded: too small, too far, or partly hidden.
    case moveCloser
    /// The picture is much blurrier than it was a moment ago: the camera or the items are moving.
    case holdStill

    /// The hint in words, for a person.
    public var message: String {
        switch self {
        case .moveCloser: return "move closer: a code is in view but cannot be read"
        case .holdStill: return "hold still: the picture is blurred"
        }
    }
}
