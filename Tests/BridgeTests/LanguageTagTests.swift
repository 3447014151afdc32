import Foundation
import Testing
import LiveScan
import LiveScanScenes

/// `DataScanner` and the text options take BCP-47 tags as VisionKit does: `en`, `en-US`, `en-GB` and `eng` are one
/// language, the one the learned line reader reads.
@Suite struct LanguageTagTests {
    @Test(arguments: ["eng", "en", "en-US", "en-GB", "EN-us"])
    func englishTagsTurnTheLearnedReaderOn(tag: String) {
        #expect(QualityLevel.balanced.textOptions(languages: [tag], stillImages: true).readsWithLearnedReader)
        #expect(QualityLevel.accurate.textOptions(languages: [tag]).readsWithLearnedReader)
        #expect(!QualityLevel.balanced.textOptions(languages: [tag, "de-DE"], stillImages: true)
            .readsWithLearnedReader)
    }

    /// The lines a scanner looking for text in `languages` adds on the image at `path`: transcript, confidence and
    /// bounds (the learned reader's vote shows in the confidence).
    private func linesAdded(scanning path: String, languages: [String]) throws -> [String] {
        final class Added: DataScannerDelegate, @unchecked Sendable {
            let lock = NSLock()
            var lines: [String] = []
            func dataScanner(_ dataScanner: DataScanner, didAdd addedItems: [RecognizedItem],
                             allItems: [RecognizedItem]) {
                lock.withLock {
                    for case let .text(text) in addedItems {
                        lines.append("\(text.transcript) \(text.confidence) \(text.bounds)")
                    }
                }
            }
        }
        let added = Added()
        let scanner = DataScanner(recognizedDataTypes: [.text(languages: languages)], recognizesMultipleItems: true)
        scanner.delegate = added
        try scanner.startScanning(ImageSource(path: path))
        #expect(scanner.waitUntilFinished()?.reason == .endOfSource)
        return added.lock.withLock { added.lines }
    }

    @Test func aScannerGivenEnUSReadsAsOneGivenEng() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("livescan-tags-\(UUID())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let image = scratch.appendingPathComponent("line.png").path
        let scene = Scene(
            name: "line", width: 640, height: 160, fps: 30, frameCount: 1, background: .paper,
            items: [.text("text-1", "Order 4711 ships today", pixelHeight: 36, at: ScenePoint(x: 320, y: 80))],
            noiseSigma: 2, seed: 3)
        try SceneRenderer(scene: scene).writeImage(to: image)
        let eng = try linesAdded(scanning: image, languages: ["eng"])
        #expect(eng.count == 1 && eng[0].hasPrefix("Order 4711 ships today "), "\(eng)")
        #expect(try linesAdded(scanning: image, languages: ["en-US"]) == eng)
        // Both spellings at once are one language.
        #expect(try linesAdded(scanning: image, languages: ["en", "eng"]) == eng)
    }
}
