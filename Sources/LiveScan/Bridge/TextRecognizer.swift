/// Finds and reads lines of text in a frame. Implementations are safe to call from several threads.
public protocol TextRecognizer: Sendable {
    /// Every line of text in the frame, except inside `excluded` areas (codes already decoded there).
    func recognize(in frame: Frame, excluding excluded: [Bounds]) throws -> [Observation]
}

/// The knobs of LiveScan's text path: where lines are looked for, and how crops are read.
public struct TextRecognizerOptions: Sendable, Equatable {
    /// Tesseract languages, e.g. ["eng"] (default) or ["eng", "deu"].
    public var languages: [String]
    /// The folder holding `<language>.traineddata`; nil = `TESSDATA_PREFIX` or Debian's default.
    public var tessdataPath: String?
    /// Each line crop is rescaled to this height in pixels, margins included, before Tesseract reads it
    /// (default 40). Measured on generated scenes: 36-56 read every line; upscaling 40-pixel crops 1.5x or
    /// more turned a serif line to garbage.
    public var cropHeight: Double
    /// Lines read with a lower mean confidence (0...1) are dropped as noise (default 0.55).
    public var minimumConfidence: Double
    /// Text lines are looked for in a copy of the frame at most this large (long side, default 1280).
    public var maxDimension: Int
    /// Text shorter than this many source pixels is not looked for (default 10).
    public var minimumTextHeight: Int

    public init(languages: [String] = ["eng"], tessdataPath: String? = nil, cropHeight: Double = 40,
                minimumConfidence: Double = 0.55, maxDimension: Int = 1280, minimumTextHeight: Int = 10) {
        self.languages = languages
        self.tessdataPath = tessdataPath
        self.cropHeight = cropHeight
        self.minimumConfidence = minimumConfidence
        self.maxDimension = maxDimension
        self.minimumTextHeight = minimumTextHeight
    }
}
