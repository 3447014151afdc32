/// What the scanner looks for, as VisionKit's `DataScannerViewController.RecognizedDataType`.
public enum RecognizedDataType: Sendable, Hashable {
    /// Lines of text in the given Tesseract languages (empty = English), optionally only of one kind.
    case text(languages: [String] = [], textContentType: TextContentType? = nil)
    /// Barcodes of the given symbologies (empty = every symbology).
    case barcode(symbologies: [Symbology] = [])
}

/// How much work the scanner spends per frame, as VisionKit's `QualityLevel`.
public enum QualityLevel: String, Sendable, CaseIterable {
    /// zxing-cpp without tryHarder; text lines read at 32 pixels tall.
    case fast
    /// zxing-cpp tryHarder and tryRotate (as ZXingReader); text lines read at 40 pixels tall. The default.
    case balanced
    /// Also light-on-dark 2-D codes (a second, inverted read) and OpenCV's QR locator; text lines read at
    /// 48 pixels tall.
    case accurate

    /// The zxing-cpp knobs of this level, for the given symbologies.
    public func barcodeOptions(symbologies: Set<Symbology>) -> BarcodeDetectorOptions {
        switch self {
        case .fast: return BarcodeDetectorOptions(symbologies: symbologies, tryHarder: false, tryRotate: false)
        case .balanced: return BarcodeDetectorOptions(symbologies: symbologies, tryHarder: true, tryRotate: true)
        case .accurate:
            var options = BarcodeDetectorOptions(symbologies: symbologies, tryHarder: true, tryRotate: true)
            options.triesInverted = true
            return options
        }
    }

    /// Whether OpenCV's QR locator runs after zxing-cpp (it costs 60-110 ms a 720p frame).
    public var usesQRLocator: Bool { self == .accurate }

    /// The height, in pixels, text line crops are scaled to before Tesseract reads them.
    public var textCropHeight: Double {
        switch self {
        case .fast: return 32
        case .balanced: return 40
        case .accurate: return 48
        }
    }
}
