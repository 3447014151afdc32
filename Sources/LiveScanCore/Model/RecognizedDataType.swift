/// What the scanner looks for, as VisionKit's `DataScannerViewController.RecognizedDataType`.
public enum RecognizedDataType: Sendable, Hashable {
    /// Lines of text in the given languages (empty = English), optionally only of one kind: Tesseract's names
    /// (`eng`, `chi_sim`) or BCP-47 tags (`en-US`, `zh-Hans`), read alike (`TextLanguage.tesseractNames`).
    case text(languages: [String] = [], textContentType: TextContentType? = nil)
    /// Barcodes of the given symbologies (empty = every symbology read by default: all but the opt-in `telepen`
    /// and `dxfilmedge`, which must be named; `Symbology.isReadByDefault`).
    case barcode(symbologies: [Symbology] = [])
}

/// How much work the scanner spends per frame, as VisionKit's `QualityLevel`. What each level sets is in the
/// Scanner (`QualityLevel.barcodeOptions`, `textOptions`); README's "Quality levels" table has their measured speed and accuracy.
public enum QualityLevel: String, Sendable, CaseIterable {
    /// zxing-cpp without tryHarder on frames at most 1280 px, rows and columns only (no search for turned linear
    /// codes); text looked for at 960 px, lines read at 32 pixels tall, settled lines re-read every 30 frames.
    case fast
    /// zxing-cpp tryHarder and tryRotate (as ZXingReader) on frames at most 1920 px, and second chances for the
    /// 2-D formats not read but Micro QR (the frame halved; small frames doubled); linear codes at any angle
    /// (`readsAnyAngle`: about 2.6 ms a 720p frame whose codes all read whole); text looked for at
    /// 1280 px, read at 40 pixels tall, re-read every 15 frames. The default.
    case balanced
    /// Also light-on-dark 2-D codes (a second, inverted read) and OpenCV's QR locator, on frames of any
    /// size; text looked for at 1920 px, read at 48 pixels tall, re-read every 8 frames.
    case accurate
}
