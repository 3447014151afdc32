import Foundation
internal import CBridge

/// The Tesseract trained data installed: what `DataScanner.supportedTextRecognitionLanguages` lists.
enum InstalledTextLanguages {
    /// Where Tesseract reads trained data from when no `tessdataPath` is given (`CB_OCR_tessdata_directory`):
    /// $TESSDATA_PREFIX, else Debian's folder.
    static var defaultDirectory: String { String(cString: CB_OCR_tessdata_directory()) }

    /// Tesseract's names of the languages installed in `directory` (`eng` for `eng.traineddata`), sorted; none
    /// when it cannot be listed.
    static func tesseractNames(in directory: String) -> [String] {
        let suffix = ".traineddata"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasSuffix(suffix) && $0.count > suffix.count }
            .map { String($0.dropLast(suffix.count)) }.sorted()
    }
}
