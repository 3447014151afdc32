import Foundation
import Testing
import LiveScan
import LiveScanScenes

@Suite struct TextBridgeTests {
    @Test(arguments: ["Order 4711 ships today", "Aisle 7 Shelf B", "Keep dry and cool"])
    func renderedLineReadsBackExactly(line: String) throws {
        let recognizer = try #require(sharedTextRecognizer)
        let still = try SceneRenderer.still(text: line, pixelHeight: 32)
        let read = try recognizer.recognize(in: frame(still.frame), excluding: [])
        #expect(read.map(\.transcript) == [line])
        let observation = try #require(read.first)
        #expect(observation.confidence > 0.7)
        // The reported box sits on the rendered ink.
        #expect(observation.bounds.intersectionOverUnion(bounds(still.bounds)) > 0.5)
    }

    /// Six lines among codes on a textured page: located, cropped and read (bar: 5 of 6 exact, CER <= 5%).
    @Test func still720TextLinesAreFoundAndRead() throws {
        let recognizer = try #require(sharedTextRecognizer)
        let renderer = try SceneRenderer(scene: ScenePreset.still720.scene)
        let truth = renderer.groundTruth()
        let lines = truth.items.filter { $0.kind == "text" }.compactMap(\.transcript)
        #expect(lines.count == 6)
        let picture = try frame(renderer.render(frame: 0))
        let codes = try ZXingBarcodeDetector().detect(in: picture)
        let read = try recognizer.recognize(in: picture, excluding: codes.map(\.bounds)).compactMap(\.transcript)
        let exact = lines.filter { read.contains($0) }
        #expect(exact.count >= 5, "read \(read), expected \(lines)")
        let errors = lines.map { line in read.map { characterErrorRate($0, truth: line) }.min() ?? 1 }
        let meanError = errors.reduce(0, +) / Double(errors.count)
        #expect(meanError <= 0.05, "mean CER \(meanError)")
        // Nothing is read inside the codes.
        #expect(read.count <= lines.count + 1, "read \(read)")
    }

    /// Small type with tight leading (a label, a receipt) closes into one blob of several lines, which Tesseract
    /// cannot read as a line: the blob is cut between its lines, and each is read on its own.
    @Test func tightlyLeadedLinesAreReadOneByOne() throws {
        let recognizer = try #require(sharedTextRecognizer)
        let lines = ["Net weight 500 g", "Best before 12 2027", "Batch 4711 lot B", "Keep in a cool place", "Made in Norway"]
        let items = lines.enumerated().map { index, line in
            SceneItem.text("line-\(index)", line, pixelHeight: 18, at: ScenePoint(x: 200, y: 40 + 20 * Double(index)))
        }
        let renderer = try SceneRenderer(scene: Scene(name: "label", width: 400, height: 160, items: items))
        // The lines' ink nearly touches: at most a few pixels between one line's box and the next.
        let boxes = items.map { bounds(renderer.bounds(of: $0, frame: 0)).boundingBox }
        let gaps = zip(boxes, boxes.dropFirst()).map { $1.minY - $0.maxY }
        #expect(gaps.allSatisfy { $0 <= 6 }, "gaps \(gaps)")
        let read = try recognizer.recognize(in: frame(renderer.render(frame: 0)), excluding: []).compactMap(\.transcript)
        #expect(lines.filter { read.contains($0) }.count >= 4, "read \(read)")
    }

    /// The demo's bold headline is one line: the opening that removes thin slivers also eats the arms of its
    /// bold E, leaving a gap of about a letter's height inside "LIVESCAN", which words must still join across.
    @Test func boldHeadlineWithAnErodedLetterIsOneLine() throws {
        let recognizer = try #require(sharedTextRecognizer)
        let picture = try frame(SceneRenderer(scene: ScenePreset.demo.scene).render(frame: 0))
        let read = try recognizer.recognize(in: picture, excluding: []).compactMap(\.transcript)
        #expect(read.contains("LIVESCAN DEMO"), "read \(read)")
    }

    /// A missing language names its file, and its Debian package when Debian has one; a name no package has is
    /// said to be unknown (there is no tesseract-ocr-xyz to install).
    @Test func missingLanguageNamesItsFile() {
        #expect {
            _ = try TesseractTextRecognizer(options: TextRecognizerOptions(languages: ["xyz"]))
        } throws: { error in
            guard case let ScanError.modelMissing(message) = error else { return false }
            return message.contains("xyz.traineddata") && message.contains("unknown language 'xyz'")
                && !message.contains("apt install")
        }
        #expect {
            // Not installed by `make setup` (it installs Japanese and Simplified Chinese among others: ScriptTests).
            _ = try TesseractTextRecognizer(options: TextRecognizerOptions(languages: ["chi_tra"]))
        } throws: { error in
            guard case let ScanError.modelMissing(message) = error else { return false }
            return message.contains("chi_tra.traineddata") && message.contains("apt install tesseract-ocr-chi-tra")
        }
    }

    /// The limit is the OpenMP runtime's own, read when the process started: `make test` starts it with
    /// OMP_THREAD_LIMIT=1, and then no advice is due; without the variable the runtime has no limit.
    @Test func theOpenMPLimitIsTheRuntimes() {
        let limit = TesseractTextRecognizer.openMPThreadLimit
        if let set = ProcessInfo.processInfo.environment["OMP_THREAD_LIMIT"].flatMap({ Int($0) }) {
            #expect(limit == set)
        } else {
            #expect(limit == Int(Int32.max))
        }
        #expect((TesseractTextRecognizer.openMPAdvice == nil) == (limit == 1 || ProcessInfo.processInfo.activeProcessorCount == 1))
    }

    @Test func blankFrameHasNoText() throws {
        let recognizer = try #require(sharedTextRecognizer)
        let white = try FrameImage(pixels: [UInt8](repeating: 255, count: 320 * 240), width: 320, height: 240,
                                   channels: 1)
        #expect(try recognizer.recognize(in: Frame(image: white, index: 0, time: 0), excluding: []).isEmpty)
    }
}
