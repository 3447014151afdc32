/// Pixels cut from one frame and found again in later ones by normalised correlation (`FrameImage.locate`): how
/// the scanner keeps something's bounds on its pixels between reads, a known barcode's
/// (`ChangeGatedBarcodeReader`) and a detected line of text's (`TextDetectorCadence`) alike.
struct FollowedPixels {
    let patch: FrameImage
    /// The top-left corner of `patch` in the frame it was cut from.
    private let origin: (x: Double, y: Double)
    /// How far the pixels have moved since they were cut.
    private var moved = (dx: 0.0, dy: 0.0)

    /// The pixels of `bounds` in `frame`, clipped to it; nil when none are in it (zxing may place a cut-off
    /// code's corners outside the frame).
    init?(_ bounds: Bounds, in frame: Frame) throws {
        let rect = PixelRect(enclosing: bounds).clipped(toWidth: frame.width, height: frame.height)
        guard rect.width > 0, rect.height > 0 else { return nil }
        patch = try frame.bridgeImage().copyPatch(rect)
        origin = (Double(rect.x), Double(rect.y))
    }

    var shortSide: Int { min(patch.width, patch.height) }

    /// Looks for the pixels `step` on from where they were last found, within `radius` pixels of that place. When
    /// they match there at least `minScore`, their move since last found; otherwise nil, and nothing changes.
    mutating func find(in frame: Frame, step: (dx: Double, dy: Double), radius: Int, minScore: Double) throws
        -> (dx: Double, dy: Double)?
    {
        let expectedX = origin.x + moved.dx + step.dx
        let expectedY = origin.y + moved.dy + step.dy
        let corners = PixelRect(x: Int(expectedX.rounded()) - radius, y: Int(expectedY.rounded()) - radius,
                                width: 2 * radius + 1, height: 2 * radius + 1)
        let found = try frame.bridgeImage().locate(patch, corners: corners)
        guard found.score >= minScore else { return nil }
        let movedNow = (dx: found.x - origin.x, dy: found.y - origin.y)
        defer { moved = movedNow }
        return (movedNow.dx - moved.dx, movedNow.dy - moved.dy)
    }
}
