/// What each quality level asks of the engines: the one mapping from `QualityLevel` (a core value, VisionKit's
/// name for how much work to spend) to the zxing-cpp and text knobs of the Bridge.
extension QualityLevel {
    /// The zxing-cpp knobs of this level, for the given symbologies. A still image is read once, with no frame
    /// budget to keep: from `balanced` up it is read at its full size (a 12-megapixel photo of 60 small QR codes
    /// read 49 of them at 1920 px, 60 at full size), also through zxing-cpp's downscaled passes (a QR code
    /// photographed on a monitor reads only there, its moire smoothed out), inverted (light-on-dark codes:
    /// screens in dark mode, etched metal) and, for 2-D codes, contrast-equalised (underexposed photos, bright spots:
    /// BoofCV's QR photos 116 -> 122).
    public func barcodeOptions(symbologies: Set<Symbology>, stillImages: Bool = false) -> BarcodeDetectorOptions {
        var options = frameOptions(symbologies: symbologies)
        if stillImages && self != .fast {
            options.maxDimension = 0
            options.triesDownscaled = true
            options.triesInverted = true
            options.triesEqualised = true
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

    /// The text knobs of this level: where lines are looked for and how tall their crops are read. From `balanced`
    /// up, the learned detector (`TextRecognizerOptions.detector`) finds what the edge locator misses of scene text
    /// (ICDAR 2015's photos; Benchmarks/text-detector-study.md). A still image (`stillImages`) is read once, so its
    /// 640 ms a frame at 1312x736 buys no lag: it finds every line, and its boxes are read by the learned line
    /// recogniser beside Tesseract (`TextRecognizerOptions.learnedReader`, about 100 ms a box). A video or live
    /// scan keeps the edge locator in every frame and runs the detector beside it every `textDetectorInterval`
    /// frames (`TextDetectorCadence`), at `videoDetectorShortSide`; its turn reads its boxes with both readers (on
    /// ICDAR's 48 photos shown as video, 1.5 s each: word recall 0.29 -> 0.39 still, 0.33 -> 0.45 panned; peak RSS
    /// 325 -> 363 MB, the recogniser's networks kept between frames).
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
        } else if let shortSide = videoDetectorShortSide {
            options.detector = TextDetectorOptions(shortSide: shortSide, keepsNetwork: true,
                                                   maxInputPixels: Self.videoDetectorMaxInputPixels)
            options.learnedReader = LearnedReaderOptions()
        }
        return options
    }

    /// Video and live scans: frames between the learned text detector's turns beside the edge locator; nil: it
    /// does not run. At 30 fps, a turn a second takes a third of one core (`balanced`), two take two thirds
    /// (`accurate`).
    public var textDetectorInterval: Int? {
        switch self {
        case .fast: return nil
        case .balanced: return 30
        case .accurate: return 15
        }
    }

    /// Video and live scans: the short side the learned detector reads a frame at, that of still images (1312x736
    /// for 720p): small scene text needs the scale. ICDAR 2015's 48 dev photos as a drifting 720p video, settled word
    /// recall / precision at `balanced`: 0.515 / 0.756 at 960x544, 0.597 / 0.767 at 1312x736 (fold 0 0.470 -> 0.574,
    /// fold 1 0.560 -> 0.621; stills 0.628 / 0.812); the dev scenes' text unchanged. Its cost: a turn takes about
    /// 700 ms instead of 320 (the dev scenes at `balanced` 52-55 -> 36-40 fps); its memory stays that of 960x544,
    /// read in strips (`videoDetectorMaxInputPixels`). nil where it does not run.
    public var videoDetectorShortSide: Int? {
        switch self {
        case .fast: return nil
        case .balanced, .accurate: return 736
        }
    }

    /// Video and live scans: the most pixels the learned detector's network reads at once, 960x544's. Its buffers,
    /// kept from frame to frame, grow with its input (150 MB at 960x544, 277 MB at 1312x736, which took a scan's
    /// peak RSS over 400 MB); a larger input is read in strips (`TextDetectorOptions.maxInputPixels`).
    static let videoDetectorMaxInputPixels = 960 * 544

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
