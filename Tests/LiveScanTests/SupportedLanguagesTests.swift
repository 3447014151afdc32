import Foundation
import Testing
@testable import LiveScan

/// VisionKit's `DataScanner.supportedTextRecognitionLanguages`: the BCP-47 tags of the Tesseract trained data
/// installed, each one that `RecognizedDataType.text(languages:)` reads as that data.
@Suite struct SupportedLanguagesTests {
    @Test func tagsOfTheTrainedDataInAFolder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessdata-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["eng", "deu", "chi_sim", "nor", "osd", "enm"] {
            try Data().write(to: folder.appendingPathComponent("\(name).traineddata"))
        }
        try Data().write(to: folder.appendingPathComponent("notes.txt"))
        let tags = DataScanner.supportedTextRecognitionLanguages(inTessdata: folder.path)
        #expect(tags == ["de", "en", "nb", "zh-Hans"])
        #expect(TextLanguage.tesseractNames(tags) == ["deu", "eng", "nor", "chi_sim"])
        #expect(DataScanner.supportedTextRecognitionLanguages(inTessdata: folder.path + "/missing") == [])
    }

    /// This machine's own: Debian's tesseract-ocr-eng is installed (scripts/setup.sh), osd beside it has no tag.
    @Test func theInstalledLanguagesIncludeEnglish() {
        let tags = DataScanner.supportedTextRecognitionLanguages
        #expect(tags.contains("en"), "\(tags)")
        #expect(TextLanguage.tesseractNames(tags).allSatisfy { name in
            FileManager.default.fileExists(atPath: InstalledTextLanguages.defaultDirectory + "/\(name).traineddata")
        })
    }
}
