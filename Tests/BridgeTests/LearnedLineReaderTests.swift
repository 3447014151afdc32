import Foundation
import Testing
internal import CBridge
@testable import LiveScan
import LiveScanScenes

/// The learned line recogniser the tests share (models/ppocr-v6-rec.onnx, fetched by `make setup`).
let sharedLineReader: Result<LearnedLineReader, Error> = Result { try LearnedLineReader() }

@Suite struct LearnedLineReaderTests {
    /// A rendered word, turned, found by the detector and read from its box rectified upright (a word turned a
    /// quarter clockwise reads downwards: its box is turned back before it is read). Words only: the recogniser's
    /// spaces are unsure (it read "HarbourNotes" at -40 degrees), which is why its words are voted on with
    /// Tesseract's (`AgreedWordsTests`).
    @Test(arguments: [0.0, 25.0, -40.0, 90.0])
    func aDetectedWordIsReadRectified(degrees: Double) throws {
        let detector = try sharedTextDetector.get()
        let reader = try sharedLineReader.get()
        let (frame, _) = try turnedLine("Harbour", pixelHeight: 30, degrees: degrees)
        let boxes = try detector.detect(in: frame)
        try #require(boxes.count == 1, "\(boxes)")
        let read = try reader.read(in: frame, region: boxes[0].bounds)
        #expect(read.text == "Harbour")
        #expect(read.words.allSatisfy { $0.confidence > 0.9 }, "\(read)")
    }

    /// A word written up or down the picture (turned a quarter either way, as on a book's spine or an upright shop
    /// sign) is read by the scene reader whichever way it runs: its standing box is read both ways round and named
    /// the way it reads more surely (`DetectedTextReader.readingWay`).
    @Test(arguments: [90.0, -90.0])
    func aStandingWordIsReadWhicheverWayItRuns(degrees: Double) throws {
        let engines = try TextEngines(options: QualityLevel.balanced.textOptions(languages: ["eng"]))
        let reader = try #require(engines.detected)
        // On a canvas large enough to be a scene, not a close crop of the word.
        let (frame, _) = try turnedLine("Harbour", pixelHeight: 30, degrees: degrees, margin: 200)
        let boxes = try reader.boxes(in: frame)
        try #require(boxes.count == 1, "\(boxes)")
        // A video's turn reads the box alone; a still image, its boxes together.
        #expect(try reader.readBox(in: frame, region: boxes[0])?.transcript == "Harbour")
        #expect(try reader.readFrame(frame).map(\.transcript) == ["Harbour"])
    }

    /// Networks released after a picture's lines are made again by the next read, which reads as before; a
    /// release with none made, or twice, does nothing.
    @Test func aReaderWhoseNetworksWereReleasedReadsAsBefore() throws {
        let detector = try sharedTextDetector.get()
        let reader = try LearnedLineReader()
        reader.releaseNetworks()
        let (frame, _) = try turnedLine("Harbour", pixelHeight: 30, degrees: 0)
        let box = try #require(try detector.detect(in: frame).first)
        let before = try reader.read(in: frame, region: box.bounds)
        reader.releaseNetworks()
        reader.releaseNetworks()
        let after = try reader.read(in: frame, region: box.bounds)
        #expect(before.text == "Harbour")
        #expect(after == before)
        CB_LineReader_release_networks(nil)
    }

    /// A reader whose runs two threads share (a file's scan: `ScanEngines.learnedNetworkThreads`) reads what one
    /// thread reads, also once its networks were released and made again.
    @Test func twoThreadsReadWhatOneReads() throws {
        let detector = try sharedTextDetector.get()
        let one = try sharedLineReader.get()
        let two = try LearnedLineReader(threads: 2)
        for degrees in [0.0, 25.0] {
            let (frame, _) = try turnedLine("Harbour", pixelHeight: 30, degrees: degrees)
            let box = try #require(try detector.detect(in: frame).first)
            let expected = try one.read(in: frame, region: box.bounds)
            #expect(expected.text == "Harbour")
            #expect(try two.read(in: frame, region: box.bounds) == expected)
            two.releaseNetworks()
            #expect(try two.read(in: frame, region: box.bounds) == expected)
        }
    }

    /// Through the C API: a word's quad spans the columns it was read in, which lie on its ink, and the line's quad
    /// is the whole box. To within two steps of the network (8 of its pixels each): CTC emits each character at
    /// one step somewhere on its letter.
    @Test func aWordsQuadLiesOnItsInk() throws {
        let detector = try sharedTextDetector.get()
        _ = try sharedLineReader.get()
        let (frame, ink) = try turnedLine("Harbour", pixelHeight: 30, degrees: 0)
        let box = try #require(try detector.detect(in: frame).first)
        var handle: OpaquePointer?
        let paths = try LineRecognizerModel.fileNames.map {
            try ModelFiles.locate($0, describedAs: "the text recogniser model")
        }
        #expect(CB_LineReader_new(try OnnxRuntimeLibrary.locate(), paths[0], paths[1], 1, &handle) == CB_OK)
        defer { CB_LineReader_delete(handle) }
        var quad = CB_Quad(box.bounds)
        var line: UnsafeMutablePointer<CB_TextLine>?
        try frame.withBridgeImage { pixels in
            #expect(CB_LineReader_read_quad(handle, pixels, &quad, &line) == CB_OK)
        }
        defer { CB_TextLines_free(line, 1) }
        let read = try #require(line).pointee
        #expect(String(cString: read.text) == "Harbour")
        try #require(read.word_count == 1)
        let word = Bounds(read.words[0].quad).boundingBox, inkBox = ink.boundingBox
        // One step of the network in the frame's pixels: the box is scaled to 48 pixels tall.
        let step = 8 * (box.bounds.boundingBox.maxY - box.bounds.boundingBox.minY) / 48
        #expect(abs(word.minX - inkBox.minX) <= 2 * step && abs(word.maxX - inkBox.maxX) <= 2 * step,
                "\(word) \(inkBox)")
        #expect(Bounds(read.quad).boundingBox == box.bounds.boundingBox)
    }

    /// Two words set a narrow gap apart, 20 px tall, crisp and blurred as a photo's are: the recogniser reads each
    /// gap's step as a blank, and without the space it holds there (`wordGapSpaceShare` in LineReader.cpp) read
    /// `SwissHotel` in 2 of these 8 and `NORTHINDIA` in 1, as it read `NORTHINDIA` and `GALAXYNote` in ICDAR 2015's
    /// photos. Each is two words.
    @Test func twoWordsANarrowGapApartAreTwoWords() throws {
        let detector = try sharedTextDetector.get()
        let reader = try sharedLineReader.get()
        for words in [["Swiss", "Hotel"], ["NORTH", "INDIA"]] {
            for gap in [0.2, 0.3] {
                for blurred in [false, true] {
                    let frame = try wordsSetApart(words, gap: gap, pixelHeight: 20, blurred: blurred)
                    let boxes = try detector.detect(in: frame)
                    try #require(boxes.count == 1, "\(words) \(gap) \(blurred): \(boxes)")
                    let read = try reader.read(in: frame, region: boxes[0].bounds)
                    #expect(read.words.map(\.text) == words, "gap \(gap), blurred \(blurred)")
                }
            }
        }
    }

    /// A Chinese line whose characters stand a third to most of their height apart: one word, no space put between
    /// its characters (Chinese and Japanese do not part their words with spaces; without that rule one of these
    /// three was parted).
    @Test func aChineseLineWithGapsIsOneWord() throws {
        let detector = try sharedTextDetector.get()
        let reader = try sharedLineReader.get()
        let characters = "欢迎来到北京图书馆".map(String.init)
        for gap in [0.3, 0.5, 0.8] {
            let frame = try wordsSetApart(characters, gap: gap, pixelHeight: 24, blurred: false, font: .cjk)
            let boxes = try detector.detect(in: frame)
            try #require(boxes.count == 1, "\(gap): \(boxes)")
            let read = try reader.read(in: frame, region: boxes[0].bounds)
            #expect(read.words.count == 1 && read.text == characters.joined(), "gap \(gap): \(read.words.map(\.text))")
        }
    }

    /// `words` rendered one by one (`font`, `pixelHeight` tall) and set side by side `gap` times the height
    /// apart on white, with `margin` pixels around; `blurred`, each pixel the mean of its 3 x 3 neighbourhood.
    private func wordsSetApart(_ words: [String], gap: Double, pixelHeight: Int, blurred: Bool,
                               font: SceneFont = .sans, margin: Int = 60) throws -> Frame {
        let renders = try words.map {
            try SceneRenderer.still(text: $0, pixelHeight: pixelHeight, font: font, margin: 0).frame
        }
        let gapPixels = Int((gap * Double(pixelHeight)).rounded())
        let width = renders.map(\.width).reduce(0, +) + gapPixels * (renders.count - 1) + 2 * margin
        let height = renders.map(\.height).max()! + 2 * margin
        var pixels = [UInt8](repeating: 255, count: width * height)
        var left = margin
        for render in renders {
            let top = (height - render.height) / 2
            for row in 0..<render.height {
                for column in 0..<render.width {
                    let offset = (row * render.width + column) * 3
                    let channels = render.pixels[offset..<(offset + 3)]
                    pixels[(top + row) * width + left + column] = UInt8(channels.reduce(0) { $0 + Int($1) } / 3)
                }
            }
            left += render.width + gapPixels
        }
        if blurred {
            let sharp = pixels
            for row in 1..<(height - 1) {
                for column in 1..<(width - 1) {
                    var sum = 0
                    for dy in -1...1 {
                        for dx in -1...1 {
                            sum += Int(sharp[(row + dy) * width + column + dx])
                        }
                    }
                    pixels[row * width + column] = UInt8(sum / 9)
                }
            }
        }
        let image = try FrameImage(pixels: pixels, width: width, height: height, channels: 1)
        return Frame(image: image, index: 0, time: 0)
    }

    @Test func missingModelNamesMakeSetup() {
        let folder = "/nonexistent/livescan-models"
        #expect {
            _ = try LearnedLineReader(folder: folder)
        } throws: { error in
            guard case let ScanError.modelMissing(message) = error else { return false }
            return message.contains(folder) && message.contains("make setup")
        }
        var handle: OpaquePointer?
        let missing = "\(folder)/\(LineRecognizerModel.fileName)"
        #expect(CB_LineReader_new(missing, missing, missing, 1, &handle) == CB_MODEL_MISSING)
        #expect(handle == nil)
        #expect(String(cString: CB_last_error()).contains("make setup"))
    }

    /// A file that is no model, or an empty character list, fails as a missing model, never as a crash.
    @Test func corruptModelIsReportedNotThrownThrough() throws {
        let notAModel = FileManager.default.temporaryDirectory
            .appendingPathComponent("livescan-not-a-recogniser-\(getpid()).onnx")
        try Data("not an ONNX file".utf8).write(to: notAModel)
        defer { try? FileManager.default.removeItem(at: notAModel) }
        let keys = try ModelFiles.locate(LineRecognizerModel.keysFileName, describedAs: "the character list")
        var handle: OpaquePointer?
        let runtime = try OnnxRuntimeLibrary.locate()
        #expect(CB_LineReader_new(runtime, notAModel.path, keys, 1, &handle) == CB_MODEL_MISSING)
        #expect(handle == nil)
        #expect(String(cString: CB_last_error()).contains("make setup"))
        let model = try ModelFiles.locate(LineRecognizerModel.fileName, describedAs: "the model")
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("livescan-no-keys-\(getpid()).txt")
        try Data().write(to: empty)
        defer { try? FileManager.default.removeItem(at: empty) }
        #expect(CB_LineReader_new(runtime, model, empty.path, 1, &handle) == CB_MODEL_MISSING)
        #expect(handle == nil)
        #expect(CB_LineReader_new(runtime, model, keys, 0, &handle) == CB_INVALID_ARGUMENT)
        #expect(handle == nil)
        #expect(throws: ScanError.self) { try LearnedLineReader(threads: 65) }
    }

    /// The learned recogniser reads only English's script here; any other language leaves text to Tesseract.
    @Test func aLanguageItDoesNotReadFallsBackToTesseract() {
        let still = QualityLevel.balanced.textOptions(languages: ["eng"], stillImages: true)
        #expect(still.readsWithLearnedReader)
        #expect(!QualityLevel.balanced.textOptions(languages: ["eng", "deu"], stillImages: true).readsWithLearnedReader)
        #expect(QualityLevel.balanced.textOptions(languages: ["eng"]).readsWithLearnedReader)
        #expect(!QualityLevel.balanced.textOptions(languages: ["eng", "deu"]).readsWithLearnedReader)
        #expect(!QualityLevel.fast.textOptions(languages: ["eng"]).readsWithLearnedReader)
        #expect(!QualityLevel.fast.textOptions(languages: ["eng"], stillImages: true).readsWithLearnedReader)
        var noDetector = still
        noDetector.detector = nil
        #expect(!noDetector.readsWithLearnedReader)
    }
}

/// How the two readers' words of a scene's box are voted on (`DetectedLineReading.agreedWords`).
@Suite struct AgreedWordsTests {
    let judge = DetectedLineJudge(minimumConfidence: 0.55, minimumWordConfidence: 0.5)
    let box = Bounds(x: 0, y: 10, width: 300, height: 40)

    /// A word read between columns `from` and `to` of the box.
    typealias Read = (text: String, confidence: Double, from: Double, to: Double)

    func reading(tesseract: [Read], learned: [Read]) -> DetectedLineReading {
        func bounds(_ read: Read) -> Bounds { Bounds(x: read.from, y: 15, width: read.to - read.from, height: 30) }
        return DetectedLineReading(
            region: box,
            words: tesseract.map { .init(text: $0.text, confidence: $0.confidence, bounds: bounds($0)) },
            learned: LearnedReading(words: learned.map {
                .init(text: $0.text, confidence: $0.confidence, bounds: bounds($0))
            }))
    }

    @Test func aWordBothReadIsKeptInTheLearnedSpelling() {
        let line = judge.sceneLine(reading(tesseract: [("Soup.", 0.6, 10, 60)], learned: [("Soup", 0.7, 12, 58)]))
        #expect(line?.transcript == "Soup")
    }

    @Test func wordsRunTogetherTakeTesseractsSpacing() {
        let line = judge.sceneLine(reading(tesseract: [("FOR", 0.6, 10, 50), ("LIFE", 0.7, 60, 110)],
                                           learned: [("FORLIFE", 0.8, 8, 112)]))
        #expect(line?.transcript == "FOR LIFE")
    }

    @Test func aWordOnlyOneReaderSawNeedsThatReaderToBeSure() {
        #expect(judge.sceneLine(reading(tesseract: [], learned: [("CAFE", 0.99, 10, 90)]))?.transcript == "CAFE")
        #expect(judge.sceneLine(reading(tesseract: [], learned: [("CAFE", 0.8, 10, 90)])) == nil)
        // In line order, beside a word both read.
        let line = judge.sceneLine(reading(tesseract: [("GRAND", 0.7, 10, 80), ("OPENING", 0.95, 90, 200)],
                                           learned: [("GRAND", 0.6, 10, 80)]))
        #expect(line?.transcript == "GRAND OPENING")
    }

    @Test func whereTheReadersDifferTheSurerOfThoseSureAloneIsKept() {
        // Neither sure alone: a railing "read" two ways.
        #expect(judge.sceneLine(reading(tesseract: [("llll", 0.8, 10, 90)], learned: [("IIII", 0.85, 10, 90)])) == nil)
        // Tesseract is sure enough alone, the learned recogniser not quite.
        let differing = reading(tesseract: [("tile", 0.92, 10, 60)], learned: [("file", 0.929, 10, 60)])
        #expect(judge.sceneLine(differing)?.transcript == "tile")
        // In a close crop or a document the box is text: the surer reading is kept however sure.
        var closeCrop = judge
        closeCrop.boxesHoldText = true
        #expect(closeCrop.sceneLine(differing)?.transcript == "file")
        #expect(closeCrop.sceneLine(reading(tesseract: [("llll", 0.8, 10, 90)], learned: [("IIII", 0.85, 10, 90)]))?
            .transcript == "IIII")
    }

    @Test func anEmptyLearnedReadingLeavesOnlyWhatTesseractIsSureOf() {
        #expect(judge.sceneLine(reading(tesseract: [("OWS", 0.75, 10, 60)], learned: [])) == nil)
        // Without the learned reader, the same Tesseract word passes the scene's bars.
        let alone = DetectedLineReading(region: box, words: [.init(text: "OWS", confidence: 0.75, bounds: box)])
        #expect(judge.sceneLine(alone)?.transcript == "OWS")
    }
}
