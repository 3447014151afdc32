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
    /// `partlyOutOfFrame`: pixels that would reach past the frame's edge at some place searched (a line the camera
    /// is turning away from) and are not found whole in the frame are looked for by their part that stays in the
    /// frame wherever they are searched, as long as at least half their short side of it does; otherwise (and always
    /// without it) the whole patch must fit in the frame.
    mutating func find(in frame: Frame, step: (dx: Double, dy: Double), radius: Int, minScore: Double,
                       partlyOutOfFrame: Bool = false) throws -> (dx: Double, dy: Double)?
    {
        let expectedX = Int((origin.x + moved.dx + step.dx).rounded())
        let expectedY = Int((origin.y + moved.dy + step.dy).rounded())
        let corners = PixelRect(x: expectedX - radius, y: expectedY - radius, width: 2 * radius + 1,
                                height: 2 * radius + 1)
        // The whole patch first, at the places searched where it fits in the frame: a line near the edge that a
        // wide search could take past it has mostly stayed in view (a box 16 px below the top edge, searched 44 px
        // around, was looked for by its 25 lowest rows alone, too few, and lost).
        var found = try frame.bridgeImage().locate(patch, corners: corners), offset = (x: 0, y: 0)
        // The patch's columns and rows out of the frame at some place searched.
        let cut = (left: max(radius - expectedX, 0), top: max(radius - expectedY, 0),
                   right: max(expectedX + patch.width + radius - frame.width, 0),
                   bottom: max(expectedY + patch.height + radius - frame.height, 0))
        if found.score < minScore, partlyOutOfFrame, cut.left + cut.top + cut.right + cut.bottom > 0 {
            let inFrame = PixelRect(x: cut.left, y: cut.top, width: patch.width - cut.left - cut.right,
                                    height: patch.height - cut.top - cut.bottom)
            guard min(inFrame.width, inFrame.height) >= max(shortSide / 2, 4) else { return nil }
            offset = (cut.left, cut.top)
            found = try frame.bridgeImage().locate(try patch.copyPatch(inFrame),
                                                   corners: PixelRect(x: corners.x + offset.x, y: corners.y + offset.y,
                                                                      width: corners.width, height: corners.height))
        }
        guard found.score >= minScore else { return nil }
        let movedNow = (dx: found.x - Double(offset.x) - origin.x, dy: found.y - Double(offset.y) - origin.y)
        defer { moved = movedNow }
        return (movedNow.dx - moved.dx, movedNow.dy - moved.dy)
    }
}
