import Foundation

/// What VisionKit's class properties say of a scanner: whether it can run here, the languages it reads, whether a
/// camera can be scanned now.
extension DataScanner {
    /// True on Linux whenever CBridge is linked: the scanner needs no special hardware.
    public static var isSupported: Bool { true }

    /// As VisionKit's: the languages text can be read in, as BCP-47 tags (`de`, `en`, `zh-Hans`), sorted, each one
    /// `RecognizedDataType.text(languages:)` accepts: those whose Tesseract trained data is installed (in
    /// $TESSDATA_PREFIX, else /usr/share/tesseract-ocr/5/tessdata) and that a tag names (`osd` and `enm` none).
    public static var supportedTextRecognitionLanguages: [String] {
        supportedTextRecognitionLanguages(inTessdata: InstalledTextLanguages.defaultDirectory)
    }

    /// `supportedTextRecognitionLanguages` for trained data in `directory`.
    static func supportedTextRecognitionLanguages(inTessdata directory: String) -> [String] {
        InstalledTextLanguages.tesseractNames(in: directory).compactMap(TextLanguage.bcp47Tag).sorted()
    }

    /// As VisionKit's: whether scanning from a camera can start now, here that a camera device exists and
    /// this process may read it. Files and streams need none.
    public static var isAvailable: Bool {
        let devices = (try? FileManager.default.contentsOfDirectory(atPath: "/dev")) ?? []
        return devices.contains { $0.hasPrefix("video") && access("/dev/\($0)", R_OK | W_OK) == 0 }
    }
}
