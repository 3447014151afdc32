import Foundation
import Testing
internal import CBridge
@testable import LiveScan
import LiveScanScenes

/// The learned detector the tests share (models/ppocr-v4-det.onnx, fetched by `make setup`).
let sharedTextDetector: Result<LearnedTextDetector, Error> = Result { try LearnedTextDetector() }

/// A line of text rendered by LiveScanScenes (DejaVu Sans), turned `degrees` clockwise on a canvas of `paper` grey
/// with `margin` pixels around it, its ink mapped to `ink` grey: the pixels, and the turned ink box.
func turnedLine(_ text: String, pixelHeight: Int, degrees: Double, ink: Double = 25, paper: Double = 255,
                margin: Double = 60) throws -> (frame: Frame, ink: Bounds) {
    let still = try SceneRenderer.still(text: text, pixelHeight: pixelHeight)
    let source = still.frame
    let angle = degrees * .pi / 180
    let (cosine, sine) = (cos(angle), sin(angle))
    let width = Int((Double(source.width) * abs(cosine) + Double(source.height) * abs(sine) + 2 * margin).rounded())
    let height = Int((Double(source.width) * abs(sine) + Double(source.height) * abs(cosine) + 2 * margin).rounded())
    let (sourceCentreX, sourceCentreY) = (Double(source.width) / 2, Double(source.height) / 2)
    let (centreX, centreY) = (Double(width) / 2, Double(height) / 2)
    // A source point turned clockwise on screen (y down) about the centres.
    func turned(_ x: Double, _ y: Double) -> Point {
        let (dx, dy) = (x - sourceCentreX, y - sourceCentreY)
        return Point(x: centreX + dx * cosine - dy * sine, y: centreY + dx * sine + dy * cosine)
    }
    func sourceGray(_ x: Int, _ y: Int) -> Double {
        guard x >= 0, y >= 0, x < source.width, y < source.height else { return 255 }
        let offset = (y * source.width + x) * 3
        let (blue, green, red) = (source.pixels[offset], source.pixels[offset + 1], source.pixels[offset + 2])
        return (Double(blue) + Double(green) + Double(red)) / 3
    }
    var pixels = [UInt8](repeating: 0, count: width * height)
    for row in 0..<height {
        for column in 0..<width {
            // Inverse turn, then bilinear interpolation of the source's grey.
            let (dx, dy) = (Double(column) + 0.5 - centreX, Double(row) + 0.5 - centreY)
            let x = sourceCentreX + dx * cosine + dy * sine - 0.5, y = sourceCentreY - dx * sine + dy * cosine - 0.5
            let (x0, y0) = (Int(x.rounded(.down)), Int(y.rounded(.down)))
            let (fx, fy) = (x - Double(x0), y - Double(y0))
            let gray = (sourceGray(x0, y0) * (1 - fx) + sourceGray(x0 + 1, y0) * fx) * (1 - fy)
                + (sourceGray(x0, y0 + 1) * (1 - fx) + sourceGray(x0 + 1, y0 + 1) * fx) * fy
            // 25 (the renderer's ink) -> `ink`, 255 -> `paper`.
            pixels[row * width + column] = UInt8((paper + (gray - 255) * (paper - ink) / 230).rounded())
        }
    }
    let box = still.bounds
    let inkBox = Bounds(topLeft: turned(box.topLeft.x, box.topLeft.y), topRight: turned(box.topRight.x, box.topRight.y),
                        bottomRight: turned(box.bottomRight.x, box.bottomRight.y),
                        bottomLeft: turned(box.bottomLeft.x, box.bottomLeft.y))
    let image = try FrameImage(pixels: pixels, width: width, height: height, channels: 1)
    return (Frame(image: image, index: 0, time: 0), inkBox)
}

/// The direction of the quad's top side, in degrees clockwise, -90...90.
func topSideAngle(_ quad: Bounds) -> Double {
    atan2(quad.topRight.y - quad.topLeft.y, quad.topRight.x - quad.topLeft.x) * 180 / .pi
}

@Suite struct TextDetectorTests {
    /// How a scan reads a still image's text with these options (`StillTextReading`).
    private func stillReading(_ options: TextRecognizerOptions) throws -> StillTextReading {
        StillTextReading(engines: try TextEngines(options: options))
    }

    /// Upright, turned and steep lines: one box each, on the ink. "A few pixels": the box's centre within 4 px of the
    /// ink box's, its direction within 3 degrees, and the ink inside it; it is taller than the ink by DB's margin
    /// (its unclip), but less than twice.
    @Test(arguments: [0.0, 12, -25, 40])
    func turnedLineIsFoundOnItsInk(degrees: Double) throws {
        let detector = try sharedTextDetector.get()
        let (picture, ink) = try turnedLine("Order 4711 ships today", pixelHeight: 32, degrees: degrees)
        let found = try detector.detect(in: picture)
        #expect(found.count == 1, "found \(found.map(\.bounds))")
        let box = try #require(found.max {
            $0.bounds.intersectionOverUnion(ink) < $1.bounds.intersectionOverUnion(ink)
        })
        #expect(box.bounds.center.distance(to: ink.center) <= 4, "box \(box.bounds), ink \(ink)")
        #expect(abs(topSideAngle(box.bounds) - degrees) <= 3, "angle \(topSideAngle(box.bounds))")
        #expect(ink.share(coveredBy: box.bounds) > 0.97)
        #expect(box.bounds.shortSide < 2 * ink.shortSide && box.bounds.shortSide > ink.shortSide)
        #expect(box.score > 0.6)
    }

    /// Small (14 px) grey-on-grey type (contrast 60 of 255), turned 8 degrees: still found.
    @Test func smallLowContrastLineIsFound() throws {
        let detector = try sharedTextDetector.get()
        let (picture, ink) = try turnedLine("Best before 12 2027", pixelHeight: 14, degrees: 8, ink: 140, paper: 200)
        let found = try detector.detect(in: picture)
        let box = try #require(found.first { ink.share(coveredBy: $0.bounds) > 0.5 },
                               "found \(found.map(\.bounds)), ink \(ink)")
        #expect(box.bounds.center.distance(to: ink.center) <= 4)
        #expect(abs(topSideAngle(box.bounds) - 8) <= 3)
    }

    @Test func blankFrameHasNoText() throws {
        let detector = try sharedTextDetector.get()
        let white = try FrameImage(pixels: [UInt8](repeating: 255, count: 640 * 360), width: 640, height: 360,
                                   channels: 1)
        #expect(try detector.detect(in: Frame(image: white, index: 0, time: 0)).isEmpty)
    }

    /// Through the recogniser: the detector's box is cut out upright (CB_OCR_recognize_quad) and read exactly, and
    /// the reported bounds lie along the turned line.
    @Test(arguments: [0.0, 15, -30])
    func turnedLineReadsBackExactly(degrees: Double) throws {
        _ = try sharedTextDetector.get()
        let reading = try stillReading(TextRecognizerOptions(detector: TextDetectorOptions()))
        // ("Aisle 7 Shelf B" upright reads "Aisie 7 Shelf B" here: the crop is read at the size it was found, which
        // measured better on ICDAR 2015 than rescaling crops to 40 px.)
        let line = "Order 4711 ships today"
        let (picture, ink) = try turnedLine(line, pixelHeight: 30, degrees: degrees)
        let read = try reading.lines(in: picture, viewObscured: false)
        #expect(read.map(\.transcript) == [line])
        let observation = try #require(read.first)
        #expect(observation.bounds.intersectionOverUnion(ink) > 0.5, "bounds \(observation.bounds), ink \(ink)")
        #expect(abs(topSideAngle(observation.bounds) - degrees) <= 3)
    }

    /// A close crop of a word, its ink at the picture's edges (a word cut out of a photo): DB finds text by the
    /// ground around it, and read this one as "Harpour" until such a picture got a margin.
    @Test func aCloseCropOfAWordIsRead() throws {
        _ = try sharedTextDetector.get()
        let reading = try stillReading(TextRecognizerOptions(detector: TextDetectorOptions()))
        let still = try SceneRenderer.still(text: "Harbour", pixelHeight: 24, margin: 1)
        let image = try FrameImage(pixels: still.frame.pixels, width: still.frame.width, height: still.frame.height,
                                   channels: 3)
        let read = try reading.lines(in: Frame(image: image, index: 0, time: 0), viewObscured: false)
        #expect(read.map(\.transcript) == ["Harbour"], "\(still.frame.width)x\(still.frame.height): \(read)")
    }

    /// A close crop that the learned recogniser reads surely as a whole is that one line, reported on the whole
    /// picture, even when it is stored turned with an Exif orientation (a word cut out of a phone photo keeps its
    /// tag): the picture's outline names its corners as it stands upright, in the stored pixels, so the crop is
    /// read upright (read sideways it would read nothing sure, and the detector's boxes would be read instead).
    @Test(arguments: [UInt8(6), 8, 3])
    func aTurnedCloseCropIsReadWholeUpright(orientation: UInt8) throws {
        _ = try sharedTextDetector.get()
        _ = try sharedLineReader.get()
        let still = try SceneRenderer.still(text: "Harbour", pixelHeight: 24, margin: 1)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livescan-crop-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (_, turned, place) = try ImageFileTests.storeTurned(
            still.frame.pixels, width: still.frame.width, height: still.frame.height, orientation: orientation,
            in: folder)
        let image = try FrameImage(contentsOf: turned)
        let (width, height) = (Double(still.frame.width), Double(still.frame.height))
        let outline = image.uprightOutline
        let upright = [ScenePoint(x: 0, y: 0), ScenePoint(x: width, y: 0), ScenePoint(x: width, y: height),
                       ScenePoint(x: 0, y: height)].map(place)
        #expect([outline.topLeft, outline.topRight, outline.bottomRight, outline.bottomLeft] == upright)
        let reading = try stillReading(QualityLevel.balanced.textOptions(languages: ["eng"],
                                                                                              stillImages: true))
        let read = try reading.lines(in: Frame(image: image, index: 0, time: 0), viewObscured: false)
        #expect(read.map { $0.transcript } == ["Harbour"], "\(read)")
        #expect(read.first?.bounds == outline)
    }

    /// A close crop whose whole reading is unsure (two lines cut out together, read whole as one squeezed line: it
    /// read `Hareur` at 0.65): its boxes' reading, one line each, is the surer, and is kept.
    @Test func aCloseCropReadUnsurelyWholeKeepsItsSurerBoxes() throws {
        _ = try sharedTextDetector.get()
        _ = try sharedLineReader.get()
        let lines = try ["Harbour", "Notes"].map { try SceneRenderer.still(text: $0, pixelHeight: 24, margin: 6).frame }
        let width = lines.map(\.width).max()!, height = lines.map(\.height).reduce(0, +)
        var pixels = [UInt8](repeating: 255, count: width * height * 3)
        var top = 0
        for line in lines {
            for y in 0..<line.height {
                let row = (top + y) * width * 3
                let source = y * line.width * 3
                pixels.replaceSubrange(row..<row + line.width * 3, with: line.pixels[source..<source + line.width * 3])
            }
            top += line.height
        }
        let image = try FrameImage(pixels: pixels, width: width, height: height, channels: 3)
        let reading = try stillReading(QualityLevel.balanced.textOptions(languages: ["eng"],
                                                                                              stillImages: true))
        let read = try reading.lines(in: Frame(image: image, index: 0, time: 0), viewObscured: false)
        #expect(Set(read.map { $0.transcript }) == ["Harbour", "Notes"], "\(read)")
    }

    /// Still images at balanced use the detector; video keeps the edge locator, the detector beside it keeping its
    /// network from frame to frame.
    @Test func theDetectorFindsStillImagesLinesAndRunsBesideTheLocatorInVideo() {
        #expect(QualityLevel.balanced.textOptions(languages: ["eng"], stillImages: true).detector != nil)
        #expect(QualityLevel.accurate.textOptions(languages: ["eng"], stillImages: true).detector != nil)
        #expect(QualityLevel.fast.textOptions(languages: ["eng"], stillImages: true).detector == nil)
        #expect(QualityLevel.balanced.textOptions(languages: ["eng"]).detector?.keepsNetwork == true)
        #expect(QualityLevel.fast.textOptions(languages: ["eng"]).detector == nil)
    }

    /// A video's detector keeps its network's buffers from frame to frame (`keepsNetwork`): the same boxes as one
    /// that gives them back after each picture, frame after frame, and after a frame of another size.
    @Test func aKeptNetworkFindsWhatAFreshOneFinds() throws {
        let fresh = try sharedTextDetector.get()
        let keeping = try LearnedTextDetector(options: TextDetectorOptions(keepsNetwork: true))
        let pictures = try [(0.0, 32), (12, 32), (-25, 24), (0, 32)].map { degrees, height in
            try turnedLine("Order 4711 ships today", pixelHeight: height, degrees: degrees).frame
        }
        for picture in pictures + pictures {
            let expected = try fresh.detect(in: picture)
            #expect(expected.count == 1)
            #expect(try keeping.detect(in: picture) == expected)
        }
    }

    /// A detector whose runs are shared by two threads (a file's scan: `ScanEngines.learnedNetworkThreads`) finds
    /// the boxes one thread finds, picture after picture.
    @Test func twoThreadsFindWhatOneFinds() throws {
        let one = try LearnedTextDetector(options: TextDetectorOptions(keepsNetwork: true))
        let two = try LearnedTextDetector(options: TextDetectorOptions(keepsNetwork: true), threads: 2)
        let pictures = try [(0.0, 32), (12, 32), (-25, 24)].map { degrees, height in
            try turnedLine("Order 4711 ships today", pixelHeight: height, degrees: degrees).frame
        }
        for picture in pictures {
            let expected = try one.detect(in: picture)
            #expect(expected.count == 1)
            #expect(try two.detect(in: picture) == expected)
        }
    }

    /// A run whose cancellation is asked for from another thread ends early with `CancellationError` (the network's
    /// run is stopped, not waited for: well under the time of a whole run), as does a run given a cancellation asked
    /// for already; the detector then finds the same boxes as before.
    @Test func aCancelledRunEndsEarlyAndTheDetectorRunsOnAfterIt() throws {
        let detector = try LearnedTextDetector(options: TextDetectorOptions(shortSide: 1024))
        let picture = try turnedLine("Order 4711 ships today", pixelHeight: 32, degrees: 0, margin: 500).frame
        var started = Date()
        let expected = try detector.detect(in: picture)
        let wholeRun = Date().timeIntervalSince(started)
        #expect(expected.count == 1)

        let cancellation = try DetectionCancellation()
        let canceller = try JoinableThread(name: "test.cancel") {
            usleep(30_000)
            cancellation.cancel()
        }
        started = Date()
        #expect(throws: CancellationError.self) {
            try detector.detect(in: picture, minimumHeight: 0, cancellation: cancellation)
        }
        let cancelledRun = Date().timeIntervalSince(started)
        canceller.join()
        #expect(cancelledRun < 0.5 * wholeRun, "cancelled after \(cancelledRun) s, a whole run \(wholeRun) s")
        #expect(cancellation.isCancelled)
        #expect(throws: CancellationError.self) {
            try detector.detect(in: picture, minimumHeight: 0, cancellation: cancellation)
        }
        #expect(try detector.detect(in: picture, minimumHeight: 0, cancellation: DetectionCancellation()) == expected)
        #expect(try detector.detect(in: picture) == expected)
    }

    /// A picture wider than `maxInputPixels` allows is read in strips whose maps are joined: a line that crosses the
    /// seams is still one box, where the whole picture's read at once is, and a line inside a strip is found as well.
    @Test func aPictureReadInStripsFindsWhatItsWholeReadFinds() throws {
        let whole = try LearnedTextDetector(options: TextDetectorOptions(shortSide: 192))
        let strips = try LearnedTextDetector(options: TextDetectorOptions(shortSide: 192, maxInputPixels: 192 * 480))
        let long = try turnedLine("Order 4711 ships today from the Rotterdam warehouse by rail", pixelHeight: 32,
                                  degrees: 3, margin: 60)
        let expected = try whole.detect(in: long.frame)
        #expect(long.frame.image.width > 3 * 480 / 2, "the picture should span at least three strips")
        #expect(expected.count == 1, "read whole: \(expected.map(\.bounds))")
        let found = try strips.detect(in: long.frame)
        #expect(found.count == expected.count, "read in strips: \(found.map(\.bounds))")
        for box in expected {
            #expect(found.contains { $0.bounds.intersectionOverUnion(box.bounds) > 0.95 }, "\(box.bounds) in \(found)")
        }
    }

    /// A portrait picture (a phone held upright) is read in strips across its long side, one above the other, each
    /// as wide as the picture: its boxes are the whole read's. Cut into columns 352 of its 736 network pixels wide,
    /// each box moved or changed shape (IoU with the whole read's 0.77-0.88), and in a hand-held 450x800 clip of a
    /// shop sign the detector missed the sign that the whole frame shows (`OYSTER`).
    @Test func aPortraitPictureReadInStripsFindsWhatItsWholeReadFinds() throws {
        let whole = try LearnedTextDetector(options: TextDetectorOptions(shortSide: 736))
        let strips = try LearnedTextDetector(options: TextDetectorOptions(shortSide: 736, maxInputPixels: 960 * 544))
        let (width, height) = (450, 800)
        var pixels = [UInt8](repeating: 200, count: width * height)
        for (text, size, degrees, left, top) in [("OYSTER", 40, -20.0, 120, 60), ("St. James", 22, 0, 90, 200),
                                                 ("FESTIVE", 36, 15, 200, 520), ("SALE", 60, 18, 190, 620)] {
            let line = try turnedLine(text, pixelHeight: size, degrees: degrees, paper: 200, margin: 10)
            let ink = try #require(line.frame.image as? FrameImage).grayPixels()
            for y in 0..<line.frame.height where top + y < height {
                for x in 0..<line.frame.width where left + x < width && ink[y * line.frame.width + x] < 200 {
                    pixels[(top + y) * width + left + x] = ink[y * line.frame.width + x]
                }
            }
        }
        let frame = Frame(image: try FrameImage(pixels: pixels, width: width, height: height, channels: 1), index: 0,
                          time: 0)
        let expected = try whole.detect(in: frame)
        #expect(expected.count == 4, "read whole: \(expected.map(\.bounds))")
        let found = try strips.detect(in: frame)
        #expect(found.count == expected.count, "read in strips: \(found.map(\.bounds))")
        for box in expected {
            #expect(found.contains { $0.bounds.intersectionOverUnion(box.bounds) > 0.95 }, "\(box.bounds) in \(found)")
        }
    }

    @Test func missingModelNamesMakeSetup() {
        let path = "/nonexistent/livescan-models/\(TextDetectorModel.fileName)"
        #expect {
            let options = TextRecognizerOptions(detector: TextDetectorOptions(modelPath: path))
            _ = try TextEngines(options: options)
        } throws: { error in
            guard case let ScanError.modelMissing(message) = error else { return false }
            return message.contains(path) && message.contains("make setup")
        }
        // The C API says the same to a C caller, and the status says what kind of failure it is.
        var handle: OpaquePointer?
        #expect(CB_TextDetector_new("", path, 1, &handle) == CB_MODEL_MISSING)
        #expect(handle == nil)
        #expect(String(cString: CB_last_error()).contains("make setup"))
    }

    /// A file that is no model fails as a missing model (run `make setup` again), never as a crash.
    @Test func corruptModelIsReportedNotThrownThrough() throws {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("livescan-not-a-model-\(getpid()).onnx")
        try Data("not an ONNX file".utf8).write(to: path)
        defer { try? FileManager.default.removeItem(at: path) }
        var handle: OpaquePointer?
        #expect(CB_TextDetector_new(try OnnxRuntimeLibrary.locate(), path.path, 1, &handle) == CB_MODEL_MISSING)
        #expect(handle == nil)
        #expect(String(cString: CB_last_error()).contains("make setup"))
    }

    @Test func badOptionsAreInvalidArguments() throws {
        _ = try sharedTextDetector.get()
        var handle: OpaquePointer?
        let path = try TextDetectorModel.locate()
        let runtime = try OnnxRuntimeLibrary.locate()
        for threads: Int32 in [0, -1, CB_MAX_NETWORK_THREADS + 1] {
            #expect(CB_TextDetector_new(runtime, path, threads, &handle) == CB_INVALID_ARGUMENT)
            #expect(handle == nil)
        }
        #expect(throws: ScanError.self) { try LearnedTextDetector(threads: 0) }
        #expect(throws: ScanError.self) { try TextEngines(options: TextRecognizerOptions(learnedNetworkThreads: 65)) }
        #expect(CB_TextDetector_new(runtime, path, 1, &handle) == CB_OK)
        defer { CB_TextDetector_delete(handle) }
        var image: OpaquePointer?
        let pixels = [UInt8](repeating: 255, count: 64 * 64)
        #expect(CB_Image_new(pixels, 64, 64, 1, 64, &image) == CB_OK)
        defer { CB_Image_delete(image) }
        var options = CB_TextDetectorOptions_default()
        options.short_side = 0
        var boxes: UnsafeMutablePointer<CB_TextBox>?
        var count = 0
        #expect(CB_TextDetector_detect(handle, image, &options, nil, &boxes, &count) == CB_INVALID_ARGUMENT)
        #expect(CB_TextDetector_detect(handle, image, nil, nil, &boxes, &count) == CB_INVALID_ARGUMENT)
        options = CB_TextDetectorOptions_default()
        options.max_input_pixels = 1000
        #expect(CB_TextDetector_detect(handle, image, &options, nil, &boxes, &count) == CB_INVALID_ARGUMENT)
        #expect(throws: ScanError.self) { try LearnedTextDetector(options: TextDetectorOptions(maxInputPixels: -1)) }
        options = CB_TextDetectorOptions_default()
        #expect(CB_TextDetector_detect(handle, image, &options, nil, &boxes, &count) == CB_OK)
        defer { CB_TextBoxes_free(boxes) }
        // A blank close crop: DB finds nothing, so the whole picture is its one box, with score 0.
        try #require(count == 1 && boxes != nil)
        #expect(Bounds(boxes![0].quad) == Bounds(x: 0, y: 0, width: 64, height: 64))
        #expect(boxes![0].score == 0)
        #expect(CB_TextDetector_close_crop_margin(64, 64, &options) == 64)
        #expect(CB_TextDetector_close_crop_margin(640, 360, &options) == 0)
    }
}
