/// Whether the camera's view changed from one frame to the next: a cut, a turn to something else, a new picture.
/// Each frame is reduced to the mean grey of its cells; the view changed when more than `changedShare` of them moved by
/// more than `threshold` grey levels since the frame before. Motion does not do that: the dev scenes' conveyor, pans,
/// hands and occluders move at most 7 % of 32-pixel cells by more than 24 levels from one frame to the next; the cuts
/// between ICDAR 2015's photos shown as a video move 55-90 % of them.
struct ViewChange {
    /// Cell side in pixels.
    static let cell = 32
    /// Grey levels (0...255) a cell's mean moves by to count as changed: an eighth of the range.
    static let threshold = 24
    /// The share of changed cells that makes a new view.
    static let changedShare = 0.25

    private var lastMeans: [UInt8] = []

    /// Whether `frame` shows another view than the frame passed before it (false for the first).
    mutating func isNewView(_ frame: Frame) throws -> Bool {
        let means = try frame.bridgeImage().cellMeans(cell: Self.cell).means
        defer { lastMeans = means }
        guard means.count == lastMeans.count, !means.isEmpty else { return false }
        let changed = zip(means, lastMeans).count { abs(Int($0) - Int($1)) > Self.threshold }
        return Double(changed) > Self.changedShare * Double(means.count)
    }
}
