/// What the scanner looks for, as VisionKit's `DataScannerViewController.RecognizedDataType`.
public enum RecognizedDataType: Sendable, Hashable {
    /// Lines of text in the given Tesseract languages (empty = English), optionally only of one kind.
    case text(languages: [String] = [], textContentType: TextContentType? = nil)
    /// Barcodes of the given symbologies (empty = every symbology).
    case barcode(symbologies: [Symbology] = [])
}

/// Kinds of text content, as VisionKit's `DataScannerViewController.TextContentType`.
public enum TextContentType: String, Sendable, Hashable, CaseIterable {
    case url, emailAddress, telephoneNumber, dateTimeDuration, currency, shipmentTrackingNumber
}

/// How much work the scanner spends per frame, as VisionKit's `QualityLevel`.
public enum QualityLevel: String, Sendable, CaseIterable {
    /// zxing-cpp without tryHarder; text crops read at their size.
    case fast
    /// zxing-cpp tryHarder; text crops enlarged 1.5x. The default.
    case balanced
    /// Also tryRotate and OpenCV's QR locator; text crops enlarged 2x.
    case accurate

    /// The zxing-cpp knobs of this level, for the given symbologies.
    public func barcodeOptions(symbologies: Set<Symbology>) -> BarcodeDetectorOptions {
        switch self {
        case .fast: return BarcodeDetectorOptions(symbologies: symbologies, tryHarder: false, tryRotate: false)
        case .balanced: return BarcodeDetectorOptions(symbologies: symbologies, tryHarder: true, tryRotate: false)
        case .accurate: return BarcodeDetectorOptions(symbologies: symbologies, tryHarder: true, tryRotate: true)
        }
    }

    /// Whether OpenCV's QR locator runs after zxing-cpp (it costs 60-110 ms a 720p frame).
    public var usesQRLocator: Bool { self == .accurate }

    /// The scale text crops are enlarged by before Tesseract reads them.
    public var textCropScale: Double {
        switch self {
        case .fast: return 1
        case .balanced: return 1.5
        case .accurate: return 2
        }
    }
}
