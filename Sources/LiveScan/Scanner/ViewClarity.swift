/// Whether a frame of a video or live source shows its view blurred past reading: a camera shake's motion blur, a
/// refocus. Nothing in view is seen in such frames, yet nothing left: the tracker does not count them against an
/// item's grace period (`Tracker.update`'s `viewObscured`), so that a sign read before a shake and after it is one
/// item, as it was one sign. (A hand-held clip of a sign, legible in three stretches with half a second of shake
/// between them, was reported as three items, each removed a grace period into the shake.)
///
/// Each frame's detail is measured in a grid of cells (`FrameImage.cellDetail`) against each cell's most in the last
/// `window` frames of its view. Blur lowers it in every cell that has detail; a code or a label leaving the view
/// lowers it only where it was, and the background's own texture stays (in any frame of the dev scenes, whose items
/// come, go and are hidden, at most 67 % of the textured cells lost half their detail, of the BoofCV hand-held videos
/// 46 %; in the frames of ICDAR photos blurred by a 24 x 3 px box, 92-98 %). After `window` frames of blur the blurred
/// view is the reference: a view out of focus for longer than a second is the view, and its items age as in any
/// other.
struct ViewClarity {
    static let columns = 8
    static let rows = 6
    /// Frames of a view each cell's reference detail is taken over: a second at 30 fps.
    static let window = 30
    /// A cell whose detail fell under this share of its reference has lost it.
    static let fallenShare: Float = 0.5
    /// A cell is textured when its reference detail is at least this (gray levels of mean absolute Laplacian; a flat
    /// wall or an overexposed sky is under it, and says nothing of blur).
    static let texturedDetail: Float = 3
    /// The view is obscured when at least this share of its textured cells lost their detail.
    static let obscuredShare = 0.85

    private var recent: [[Float]] = []
    /// A cut or a turn to something else starts a new reference: its detail is another view's.
    private var viewChange = ViewChange()

    /// Whether `frame`, the next frame of the source, shows its view obscured.
    mutating func isObscured(_ frame: Frame) throws -> Bool {
        let image = try frame.bridgeImage()
        let detail = try image.cellDetail(columns: Self.columns, rows: Self.rows)
        if try viewChange.isNewView(frame) {
            recent = []
        }
        defer {
            recent.append(detail)
            if recent.count > Self.window {
                recent.removeFirst()
            }
        }
        var textured = 0, fallen = 0
        for cell in detail.indices {
            let reference = recent.map { $0[cell] }.max() ?? 0
            guard reference >= Self.texturedDetail else { continue }
            textured += 1
            if detail[cell] < Self.fallenShare * reference {
                fallen += 1
            }
        }
        return textured > 0 && Double(fallen) >= Self.obscuredShare * Double(textured)
    }
}
