internal import CBridge

/// Lines of text located by `CB_TextRegions_find`: edges grouped morphologically into wide, low regions with
/// text-like stroke density (about 1.5 ms for a 720p frame, tuned to rendered lines). Whole-frame layout analysis
/// returns mostly garbage on cluttered scenes, while correctly cropped lines read exactly: locating is the hard
/// part. It keeps nothing between calls and is safe to call from several threads.
struct EdgeTextLocator: Sendable {
    /// The frame is looked at in a copy at most this large (long side).
    let maxDimension: Int
    /// Text shorter than this many source pixels is not looked for.
    let minimumTextHeight: Int

    /// Candidate line rectangles, margins included.
    func lineRegions(in frame: Frame) throws -> [Bounds] {
        var raw = CB_TextRegionOptions(max_dimension: Int32(maxDimension), min_height: Int32(minimumTextHeight),
                                       max_height: 0)
        var rects: UnsafeMutablePointer<CB_Rect>?
        var count = 0
        try frame.withBridgeImage { pixels in
            try check(CB_TextRegions_find(pixels, &raw, &rects, &count)) { .engineFailure("OpenCV: \($0)") }
        }
        defer { CB_Rects_free(rects) }
        guard let rects else { return [] }
        return (0..<count).map { index in
            let rect = rects[index]
            return Bounds(x: Double(rect.x), y: Double(rect.y), width: Double(rect.width), height: Double(rect.height))
        }
    }
}
