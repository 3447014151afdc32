/// What each quality level asks of the engines: the one mapping from `QualityLevel` (a core value, VisionKit's
/// name for how much work to spend) to the zxing-cpp and text knobs of the Bridge.
extension QualityLevel {
    /// The zxing-cpp knobs of this level, for the given symbologies. A still image is read once, with no frame
    /// budget to keep: from `balanced` up it is read at its full size (a 12-megapixel photo of 60 small QR codes
    /// read 49 of them at 1920 px, 60 at full size), also through zxing-cpp's downscaled passes (a QR code
    /// photographed on a monitor reads only there, its moire smoothed out) and inverted (light-on-dark codes:
    /// screens in dark mode, etched metal).
    public func barcodeOptions(symbologies: Set<Symbology>, stillImages: Bool = false) -> BarcodeDetectorOptions {
        var options = frameOptions(symbologies: symbologies)
        if stillImages && self != .fast {
            options.maxDimension = 0
            options.triesDownscaled = true
            options.triesInverted = true
        }
        return options
    }

    private func frameOptions(symbologies: Set<Symbology>) -> BarcodeDetectorOptions {
        switch self {
        case .fast:
            return BarcodeDetectorOptions(symbologies: symbologies, tryHarder: false, tryRotate: false,
                                          maxDimension: 1280)
        case .balanced:
            var options = BarcodeDetectorOptions(symbologies: symbologies, tryHarder: true, tryRotate: true,
                                                 maxDimension: 1920)
            options.readsAnyAngle = true
            return options
        case .accurate:
            var options = BarcodeDetectorOptions(symbologies: symbologies, tryHarder: true, tryRotate: true,
                                                 maxDimension: 0)
            options.triesInverted = true
            options.readsAnyAngle = true
            return options
        }
    }

    /// The text knobs of this level: where lines are looked for and how tall their crops are read. For still
    /// images (`stillImages`), `balanced` and `accurate` find lines with the learned detector
    /// (`TextRecognizerOptions.detector`): on ICDAR 2015's scene photos it finds what the edge locator misses
    /// (Benchmarks/text-detector-study.md), and an image is read once, so its 640 ms a frame buys no lag; its
    /// boxes are read by the learned line recogniser beside Tesseract (`TextRecognizerOptions.learnedReader`,
    /// about 100 ms a box). Video and live sources keep the edge locator at every level.
    public func textOptions(languages: [String], stillImages: Bool = false) -> TextRecognizerOptions {
        var options: TextRecognizerOptions
        switch self {
        case .fast: options = TextRecognizerOptions(languages: languages, cropHeight: 32, maxDimension: 960)
        case .balanced: options = TextRecognizerOptions(languages: languages, cropHeight: 40, maxDimension: 1280)
        case .accurate: options = TextRecognizerOptions(languages: languages, cropHeight: 48, maxDimension: 1920)
        }
        if stillImages && self != .fast {
            options.detector = TextDetectorOptions()
            options.learnedReader = LearnedReaderOptions()
        }
        return options
    }

    /// Whether OpenCV's QR locator runs after zxing-cpp (it costs 60-110 ms a 720p frame).
    public var usesQRLocator: Bool { self == .accurate }

    /// Video files: frames between whole reads for barcodes; in between, only the parts of a frame that
    /// changed are read (`ChangeGatedBarcodeReader`). nil: every frame is read whole. Live sources and images
    /// are always read whole: a live scan takes the newest frame, not the next, and images are not a scene.
    /// `fast` reads whole frames: without tryHarder, zxing-cpp scans a region on other rows than the whole
    /// frame, and its one-row boxes of linear codes then jumped (2 and 4 ID switches on the tracking scenes).
    public var barcodeWholeReadInterval: Int? {
        switch self {
        case .fast: return nil
        case .balanced: return 30
        case .accurate: return nil
        }
    }

    /// Frames between re-reads of a text line whose readings agree (the interval doubles as they keep
    /// agreeing; see `TextReadingCache`).
    public var textRereadInterval: Int {
        switch self {
        case .fast: return 30
        case .balanced: return 15
        case .accurate: return 8
        }
    }
}
