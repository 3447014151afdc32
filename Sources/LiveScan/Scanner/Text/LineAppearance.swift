/// The pixels a line of text was read in. The text-reading cache keeps them when it reads a line and, while the
/// line stands still, looks for them again where they were: a line whose text changed in place (a slide, a
/// display, a label replaced) no longer matches, and is read again at once instead of after its rest of up to 8 s.
struct LineAppearance: @unchecked Sendable {
    private let patch: FrameImage
    private let rect: PixelRect

    /// Below this normalised correlation the pixels show other text. The same text in the same place scores 0.94-1
    /// through noise, compression and a hand's shake on the dev scenes; three of 17 characters changed
    /// (`Batch 2024 Lot 88` to `Batch 2025 Lot 99`) 0.88, another slide's line 0.15-0.35.
    static let sameTextScore = 0.9
    /// How far, in pixels, the pixels are looked for around where they were: a still camera's shake. Text that
    /// changed does not match better a few pixels off; 169 positions cost about 0.3 ms a line.
    static let searchRadius = 6

    /// Pixels whose grey levels spread less than this (standard deviation) hold no ink to correlate.
    static let leastContrast = 4.0

    /// The pixels of `bounds` in `frame`, clipped to it; nil when under 4 x 4 of them are in it or they are flat.
    init?(of bounds: Bounds, in frame: Frame) throws {
        rect = PixelRect(enclosing: bounds).clipped(toWidth: frame.width, height: frame.height)
        guard rect.width >= 4, rect.height >= 4 else { return nil }
        patch = try frame.bridgeImage().copyPatch(rect)
        let gray = try patch.grayPixels().map(Double.init)
        let mean = gray.reduce(0, +) / Double(gray.count)
        let variance = gray.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(gray.count)
        guard variance.squareRoot() >= Self.leastContrast else { return nil }
    }

    /// Whether `frame` shows other pixels where these were: their best normalised correlation within
    /// `searchRadius` of their place is under `sameTextScore`.
    func differs(in frame: Frame) throws -> Bool {
        let radius = Self.searchRadius
        let corners = PixelRect(x: rect.x - radius, y: rect.y - radius, width: 2 * radius + 1, height: 2 * radius + 1)
        return try frame.bridgeImage().locate(patch, corners: corners).score < Self.sameTextScore
    }
}
