internal import CBridge

/// Finds and reads lines of text in a frame, in two steps so that a scanner can skip re-reading lines
/// it already knows. Implementations are safe to call from several threads.
public protocol TextRecognizer: Sendable {
    /// Where lines of text are (cheap: about 1.5 ms for a 720p frame).
    func lineRegions(in frame: Frame) throws -> [Bounds]
    /// Reads one region as a single line; nil when nothing legible is there (about 10 ms a line).
    func readLine(in frame: Frame, region: Bounds) throws -> Observation?
    /// Reads the regions of one frame, each as a single line, when none is remembered from other frames: a
    /// recognizer may judge each reading by the others (a page's lines). By default, `readLine` for each.
    func readLines(in frame: Frame, regions: [Bounds]) throws -> [Observation]
}

extension TextRecognizer {
    public func readLines(in frame: Frame, regions: [Bounds]) throws -> [Observation] {
        try regions.compactMap { try readLine(in: frame, region: $0) }
    }

    /// Every line of text in the frame, except inside `excluded` areas (codes already decoded there).
    public func recognize(in frame: Frame, excluding excluded: [Bounds]) throws -> [Observation] {
        try readLines(in: frame, regions: lineRegions(in: frame).filter { !$0.isMostlyCovered(by: excluded) })
    }
}

/// The knobs of LiveScan's text path: where lines are looked for, and how crops are read.
public struct TextRecognizerOptions: Sendable, Equatable {
    /// Tesseract languages, e.g. ["eng"] (default) or ["eng", "deu"]; BCP-47 tags (`en-US`) are read as
    /// `TextLanguage.tesseractNames` maps them.
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
    /// Where lines are looked for: nil (default) is the edge-grouping locator (`EdgeTextLocator`, about
    /// 1.5 ms at 720p, tuned to rendered lines); options here run the learned detector too
    /// (`LearnedTextDetector`, about 640 ms at 720p; it finds scene text at any angle): in a still image its boxes
    /// are the lines (`StillTextReading`), in video it turns every few frames beside the locator
    /// (`MotionTextReading`). Each of its boxes is read rectified upright at the size it was found
    /// (`CB_OCR_recognize_quad`; scaling such crops to `cropHeight` cost 0.04 of ICDAR 2015's word recall).
    public var detector: TextDetectorOptions?
    /// With `detector`: words read with a lower confidence (0...1) are left out of a box's transcript (default
    /// 0.5; Benchmarks/text-detector-study.md). `minimumConfidence` still applies to the box's mean.
    public var minimumWordConfidence: Double
    /// With `detector`: every box is read by the learned line recogniser too (`LearnedLineReader`), and the two
    /// readers' words are voted on (`DetectedLineReading.agreedWords`). Only when every language is one it reads
    /// (`LearnedLineReader.languages`); text in any other is Tesseract's alone. Nil (default) is Tesseract alone.
    public var learnedReader: LearnedReaderOptions?
    /// The threads each run of the learned networks (`detector`, `learnedReader`) is shared by, the caller's
    /// included, 1...64 (default 1: the caller's alone). A scan sets it by its source (`ScanEngines.make`).
    public var learnedNetworkThreads: Int

    public init(languages: [String] = ["eng"], tessdataPath: String? = nil, cropHeight: Double = 40,
                minimumConfidence: Double = 0.55, maxDimension: Int = 1280, minimumTextHeight: Int = 10,
                detector: TextDetectorOptions? = nil, minimumWordConfidence: Double = 0.5, learnedReader: LearnedReaderOptions? = nil,
                learnedNetworkThreads: Int = 1) {
        self.languages = languages
        self.tessdataPath = tessdataPath
        self.cropHeight = cropHeight
        self.minimumConfidence = minimumConfidence
        self.maxDimension = maxDimension
        self.minimumTextHeight = minimumTextHeight
        self.detector = detector
        self.minimumWordConfidence = minimumWordConfidence
        self.learnedReader = learnedReader
        self.learnedNetworkThreads = learnedNetworkThreads
    }

    /// Whether the learned line recogniser reads beside Tesseract: `learnedReader` is set, lines are found by the
    /// learned detector, and every language is one it reads (`en-US` as `eng`: Tesseract's names are compared).
    public var readsWithLearnedReader: Bool {
        learnedReader != nil && detector != nil
            && Set(TextLanguage.tesseractNames(languages)).isSubset(of: LearnedLineReader.languages)
    }

    /// Throws `ScanError.invalidParameter` naming the first option out of its range.
    func validate() throws {
        guard !languages.isEmpty else {
            throw ScanError.invalidParameter(parameter: "languages", reason: "at least one language is needed")
        }
        guard cropHeight >= 8, cropHeight <= 400 else {
            throw ScanError.invalidParameter(parameter: "cropHeight", reason: "must be 8...400 pixels")
        }
        guard minimumWordConfidence >= 0, minimumWordConfidence <= 1 else {
            throw ScanError.invalidParameter(parameter: "minimumWordConfidence", reason: "must be 0...1")
        }
        try Self.validateNetworkThreads(learnedNetworkThreads)
    }

    /// Throws `ScanError.invalidParameter` unless `threads` is 1...64 (`CB_MAX_NETWORK_THREADS`).
    static func validateNetworkThreads(_ threads: Int) throws {
        guard (1...Int(CB_MAX_NETWORK_THREADS)).contains(threads) else {
            throw ScanError.invalidParameter(parameter: "learnedNetworkThreads", reason: "must be 1...64")
        }
    }
}

/// Where the learned line recogniser's files are.
public struct LearnedReaderOptions: Sendable, Equatable {
    /// The folder holding `LineRecognizerModel`'s files; nil = where `ModelFiles.locate` finds them.
    public var modelFolder: String?

    public init(modelFolder: String? = nil) {
        self.modelFolder = modelFolder
    }
}
