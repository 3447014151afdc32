import Foundation
internal import CBridge

/// Text lines located by `CB_TextRegions_find` (morphological gradient grouping) and read one crop at a
/// time by Tesseract in single-line mode (PSM 7). Whole-frame layout analysis returns mostly garbage on
/// cluttered scenes, while correctly cropped lines read exactly: locating is the hard part.
///
/// With `TextRecognizerOptions.detector`, lines are found by the learned detector instead (`LearnedTextDetector`)
/// and each of its oriented boxes is read rectified upright (`CB_OCR_recognize_quad`).
///
/// Tesseract instances are not thread-safe, so each call borrows one from a pool and returns it: calls on
/// different threads run in parallel on different instances, never behind one lock around recognition.
public final class TesseractTextRecognizer: TextRecognizer, @unchecked Sendable {
    public let options: TextRecognizerOptions
    private let poolLock = NSLock()
    private var idleEngines: [TesseractEngine] = []
    private let detector: LearnedTextDetector?
    private let learnedReader: LearnedLineReader?

    /// Loads the languages once to fail early: `ScanError.modelMissing` names a missing traineddata file, or a
    /// detector or recogniser model that `make setup` has not fetched.
    public init(options: TextRecognizerOptions = TextRecognizerOptions()) throws {
        guard !options.languages.isEmpty else {
            throw ScanError.invalidParameter(parameter: "languages", reason: "at least one language is needed")
        }
        guard options.cropHeight >= 8, options.cropHeight <= 400 else {
            throw ScanError.invalidParameter(parameter: "cropHeight", reason: "must be 8...400 pixels")
        }
        guard options.minimumWordConfidence >= 0, options.minimumWordConfidence <= 1 else {
            throw ScanError.invalidParameter(parameter: "minimumWordConfidence", reason: "must be 0...1")
        }
        self.options = options
        detector = try options.detector.map { try LearnedTextDetector(options: $0) }
        learnedReader = options.readsWithLearnedReader
            ? try LearnedLineReader(folder: options.learnedReader?.modelFolder) : nil
        idleEngines.append(try TesseractEngine(options: options))
        Self.adviseOnOpenMPOnce
    }

    /// The most threads Tesseract's OpenMP runtime uses at once: `OMP_THREAD_LIMIT` as it was when the process
    /// started (the runtime reads it only then), `Int(Int32.max)` when unset, 1 without OpenMP.
    public static var openMPThreadLimit: Int { Int(CB_OCR_thread_limit()) }

    /// What to do about OpenMP on this machine, or nil when nothing is needed: Debian's Tesseract runs every line
    /// on as many OpenMP threads as there are cores, whose spinning makes it about 9 times slower on 2 cores.
    /// LiveScan cannot change the limit once the process runs (and would not change process-wide state for the
    /// app); the process has to start with `OMP_THREAD_LIMIT=1`, as the `livescan` command restarts itself.
    public static var openMPAdvice: String? {
        guard openMPThreadLimit > 1, ProcessInfo.processInfo.activeProcessorCount > 1 else { return nil }
        return "LiveScan: Tesseract's OpenMP is not limited to one thread, so text is read about 9x slower on this "
            + "\(ProcessInfo.processInfo.activeProcessorCount)-core machine: start the process with OMP_THREAD_LIMIT=1"
    }

    /// Says `openMPAdvice` on standard error, once a process, when the first recognizer starts.
    private static let adviseOnOpenMPOnce: Void = {
        if let advice = openMPAdvice {
            FileHandle.standardError.write(Data((advice + "\n").utf8))
        }
    }()

    /// Reads `region` with Tesseract in single-line mode (PSM 7), the crop scaled to `cropHeight`; with the learned
    /// detector finding the lines, as `readDetectedBox`.
    public func readLine(in frame: Frame, region: Bounds) throws -> Observation? {
        if detectorFindsLines {
            return try readDetectedBox(in: frame, region: region)
        }
        return try withEngine { try $0.readLine(in: frame, region: region) }
    }

    /// Reads a box of the learned detector rectified upright, judged as a scene's (one box alone tells nothing of
    /// a page); with the learned recogniser, read by it too and the two readings voted on.
    public func readDetectedBox(in frame: Frame, region: Bounds) throws -> Observation? {
        let judge = DetectedLineJudge(minimumConfidence: options.minimumConfidence,
                                      minimumWordConfidence: options.minimumWordConfidence)
        var reading = try withEngine { try $0.readBox(in: frame, region: region) }
        if let learnedReader {
            try addLearnedReading(to: &reading, region: region, in: frame, by: learnedReader)
        }
        return judge.sceneLine(reading)
    }

    /// `reading` of the box `region` with the learned recogniser's reading added (`DetectedLineReading.learned`),
    /// read along the line as Tesseract read it when it read a word there; still nil when neither read a word.
    private func addLearnedReading(to reading: inout DetectedLineReading?, region: Bounds, in frame: Frame,
                                   by learnedReader: LearnedLineReader) throws {
        let along = reading?.region ?? region
        let learned = try learnedReader.read(in: frame, region: along)
        if reading == nil && learned.words.isEmpty { return }
        reading = reading ?? DetectedLineReading(region: along, words: [])
        reading?.learned = learned
    }

    /// Whether the learned detector's boxes are the lines (`TextDetectorRole.findsLines`).
    private var detectorFindsLines: Bool { detector != nil && options.detectorRole == .findsLines }

    /// Reads the regions of one frame; with the learned detector, its boxes' readings are judged together
    /// (`DetectedLineJudge`: a document's are kept whatever their confidence), and with the learned recogniser
    /// each box is read by it too, the two readings voted on (`DetectedLineReading.agreedWords`).
    public func readLines(in frame: Frame, regions: [Bounds]) throws -> [Observation] {
        guard let detector, detectorFindsLines else {
            return try regions.compactMap { try readLine(in: frame, region: $0) }
        }
        let isCloseCrop = detector.isCloseCrop(frame)
        guard isCloseCrop, !regions.isEmpty, let learnedReader else {
            return try readBoxes(in: frame, regions: regions, boxesHoldText: isCloseCrop)
        }
        // A close crop is cut out around its text, and the detector's boxes inside it can cut the letters at its
        // edges (`MOKING` of `SMOKING`) or take in a neighbouring line's (`Giant HYPER`). Read whole by the learned
        // recogniser, it is that one line when the recogniser is sure of it alone; otherwise its boxes are read too,
        // and the surer of the two readings is kept, however sure, as where a close crop's two readers differ (it
        // holds text). ICDAR 2015's 149 dev word crops, read exactly: boxes alone 106, whole alone 106 (a different
        // 9 each); whole when sure, else boxes 112; whole when sure, else the surer 116 (the surer alone 113).
        defer { learnedReader.releaseNetworks() }  // as after any picture's boxes
        let whole = try wholeReading(frame, by: learnedReader)
        if let whole, whole.confidence >= DetectedLineReading.learnedSureConfidence {
            return [whole]
        }
        let lines = try readBoxes(in: frame, regions: regions, boxesHoldText: true)
        let linesConfidence = DetectedLineReading.mean(lines.map(\.confidence))
        return whole.map { $0.confidence > linesConfidence ? [$0] : lines } ?? lines
    }

    /// Reads the detector's boxes of one frame (`readLines`); `boxesHoldText` when the frame is a close crop.
    private func readBoxes(in frame: Frame, regions: [Bounds], boxesHoldText: Bool) throws -> [Observation] {
        var judge = DetectedLineJudge(minimumConfidence: options.minimumConfidence,
                                      minimumWordConfidence: options.minimumWordConfidence,
                                      boxesHoldText: boxesHoldText)
        let upright = try withEngine { engine in try regions.map { try engine.readBox(in: frame, region: $0) } }
        let uprightDocument = judge.isDocument(upright)
        var (readings, asRead) = uprightDocument ? (upright, regions) : try withEngine {
            try turnedIfUpsideDown(upright, regions: regions, in: frame, judge: judge, $0)
        }
        let isDocument = uprightDocument || judge.isDocument(readings)
        guard let learnedReader else {
            return isDocument ? judge.lines(of: readings) : readings.compactMap(judge.sceneLine)
        }
        // Its networks are freed when this picture's boxes are read, as the detector's is after each picture:
        // kept, they stayed beside the next picture's detector, 41 MB of the peak RSS over ICDAR's 48 photos
        // (436 -> 395 MB, PP-OCRv4's networks; PP-OCRv6 small's take 1.7 times as much), against 5 s more over
        // the 48 to make them again (57 -> 62 s).
        defer { learnedReader.releaseNetworks() }
        for index in readings.indices {
            try addLearnedReading(to: &readings[index], region: asRead[index], in: frame, by: learnedReader)
        }
        // A document's boxes are text, as a close crop's are. Voting on a document's words too took the magazine
        // pages 8071_093 / 8087_054 from CER 0.104 / 0.080 to 0.096 / 0.072 (Tesseract alone, --psm 3: 0.094 /
        // 0.078) and the SROIE receipts from 0.117 to 0.083, at 4 s more per page or receipt (100 ms a box).
        judge.boxesHoldText = judge.boxesHoldText || isDocument
        return readings.compactMap(judge.sceneLine)
    }

    /// The whole picture read as one line by the learned recogniser, upright (`FrameImage.uprightOutline`); nil
    /// when it read nothing plausible.
    private func wholeReading(_ frame: Frame, by learnedReader: LearnedLineReader) throws -> Observation? {
        let outline = try frame.bridgeImage().uprightOutline
        let reading = try learnedReader.read(in: frame, region: outline)
        guard TextPlausibility.isPlausibleLine(reading.text) else { return nil }
        return .text(reading.text, confidence: DetectedLineReading.mean(reading.words.map(\.confidence)),
                     bounds: outline)
    }

    /// A page photographed upside down, or turned a quarter anticlockwise (its lines run upwards), reads as garbage:
    /// each crop is read the wrong way round. The longest boxes are read the other way round too; when at least
    /// two, and more than before, read confidently so, the whole frame is read that way. The readings, and the
    /// regions with their corners named as they were read.
    private func turnedIfUpsideDown(_ upright: [DetectedLineReading?], regions: [Bounds], in frame: Frame,
                                    judge: DetectedLineJudge, _ engine: TesseractEngine) throws
        -> ([DetectedLineReading?], [Bounds])
    {
        let sample = regions.indices.sorted { regions[$0].longSide > regions[$1].longSide }.prefix(Self.turnSample)
        let turned = try sample.map { try engine.readBox(in: frame, region: regions[$0].cornersNamed(from: 2)) }
        let turnedCount = turned.count(where: { judge.sceneLine($0) != nil })
        guard turnedCount >= 2, turnedCount > sample.count(where: { judge.sceneLine(upright[$0]) != nil }) else {
            return (upright, regions)
        }
        let turnedSample = Dictionary(uniqueKeysWithValues: zip(sample, turned))
        let turnedRegions = regions.map { $0.cornersNamed(from: 2) }
        let readings = try regions.indices.map { index in
            try turnedSample[index] ?? engine.readBox(in: frame, region: turnedRegions[index])
        }
        return (readings, turnedRegions)
    }

    /// Boxes read both ways round to tell whether a frame is upside down: its longest, which hold the most text.
    static let turnSample = 5

    /// Tesseract's own layout analysis over the whole frame (PSM 3), for comparison: 180 ms and more at
    /// 720p, and on cluttered scenes mostly garbage. Lines below `minimumConfidence` are dropped.
    public func recognizePage(in frame: Frame) throws -> [Observation] {
        try withEngine { try $0.readPage(in: frame) }
    }

    /// Candidate line rectangles (`CB_TextRegions_find`), margins included, before reading; with the learned
    /// detector finding the lines (`TextDetectorRole.findsLines`), its oriented boxes.
    public func lineRegions(in frame: Frame) throws -> [Bounds] {
        if detectorFindsLines {
            return try boxes(in: frame)
        }
        var raw = CB_TextRegionOptions(max_dimension: Int32(options.maxDimension),
                                       min_height: Int32(options.minimumTextHeight), max_height: 0)
        var rects: UnsafeMutablePointer<CB_Rect>?
        var count = 0
        try frame.withBridgeImage { pixels in
            try check(CB_TextRegions_find(pixels, &raw, &rects, &count)) { .engineFailure("OpenCV: \($0)") }
        }
        defer { CB_Rects_free(rects) }
        guard let rects else { return [] }
        return (0..<count).map { index in
            let rect = rects[index]
            return Bounds(x: Double(rect.x), y: Double(rect.y), width: Double(rect.width), height: Double(rect.height))
        }
    }

    /// With the detector beside the edge locator (`TextDetectorRole.besideLocator`), its boxes; else none.
    public func detectedBoxes(in frame: Frame) throws -> [Bounds] {
        detector != nil && options.detectorRole == .besideLocator ? try boxes(in: frame) : []
    }

    /// The learned detector's boxes, those under `minimumTextHeight` left out.
    private func boxes(in frame: Frame) throws -> [Bounds] {
        guard let detector else { return [] }
        // The detector leaves out the boxes under the height itself, so that a close crop in which it finds none
        // tall enough is read whole (a 50 x 15 crop of `swatch` held one box 8 pixels tall); what its cut to the
        // picture leaves lower is left out here.
        return try detector.detect(in: frame, minimumHeight: options.minimumTextHeight).map(\.bounds)
            .filter { $0.shortSide >= Double(options.minimumTextHeight) }
    }

    private func withEngine<Result>(_ body: (TesseractEngine) throws -> Result) throws -> Result {
        poolLock.lock()
        let pooled = idleEngines.popLast()
        poolLock.unlock()
        let engine = try pooled ?? TesseractEngine(options: options)
        defer {
            poolLock.lock()
            idleEngines.append(engine)
            poolLock.unlock()
        }
        return try body(engine)
    }
}

/// One `tesseract::TessBaseAPI`, used by one thread at a time.
final class TesseractEngine {
    private let handle: OpaquePointer
    private let options: TextRecognizerOptions

    init(options: TextRecognizerOptions) throws {
        var handle: OpaquePointer?
        let languages = TextLanguage.tesseractNames(options.languages).joined(separator: "+")
        let status = CB_OCR_new(options.tessdataPath, languages, &handle)
        guard status == CB_OK, let handle else {
            let message = bridgeLastError()
            throw status == CB_MODEL_MISSING ? ScanError.modelMissing(message)
                : ScanError.invalidParameter(parameter: "languages", reason: message)
        }
        self.handle = handle
        self.options = options
    }

    deinit {
        CB_OCR_delete(handle)
    }

    func readPage(in frame: Frame) throws -> [Observation] {
        var lines: UnsafeMutablePointer<CB_TextLine>?
        var count = 0
        try frame.withBridgeImage { pixels in
            try check(CB_OCR_recognize(handle, pixels, nil, Int32(CB_PSM_AUTO.rawValue), 1, &lines, &count)) {
                .engineFailure("Tesseract: \($0)")
            }
        }
        defer { CB_TextLines_free(lines, count) }
        guard let lines else { return [] }
        return (0..<count).compactMap { index in
            let line = lines[index]
            let confidence = Double(line.confidence) / 100
            guard confidence >= options.minimumConfidence else { return nil }
            return .text(String(cString: line.text), confidence: confidence, bounds: Bounds(line.quad))
        }
    }

    /// Reads the quad `region` (a detector's box) rectified upright, as one line; nil when Tesseract read no word.
    func readBox(in frame: Frame, region: Bounds) throws -> DetectedLineReading? {
        var quad = CB_Quad(region)
        var lines: UnsafeMutablePointer<CB_TextLine>?
        var count = 0
        try frame.withBridgeImage { pixels in
            try check(CB_OCR_recognize_quad(handle, pixels, &quad, 0, &lines, &count)) {
                .engineFailure("Tesseract: \($0)")
            }
        }
        defer { CB_TextLines_free(lines, count) }
        guard let lines, count > 0 else { return nil }
        let best = (0..<count).map { lines[$0] }.max { $0.confidence < $1.confidence }!
        let words = (0..<best.word_count).map { index in
            DetectedLineReading.Word(text: String(cString: best.words[index].text),
                                     confidence: Double(best.words[index].confidence) / 100,
                                     bounds: Bounds(best.words[index].quad))
        }
        // The detector names a box's corners by where they lie (PaddleOCR's order); Tesseract's line box, mapped
        // back from the crop as it was read (turned a quarter when the box is tall), runs the way the line reads.
        return words.isEmpty ? nil : DetectedLineReading(region: region.cornersNamed(along: Bounds(best.quad)),
                                                         words: words)
    }

    /// Reads `region` as one line; nil when nothing legible is there.
    func readLine(in frame: Frame, region: Bounds) throws -> Observation? {
        let box = region.boundingBox
        var rect = CB_Rect(x: Int32(box.minX.rounded(.down)), y: Int32(box.minY.rounded(.down)),
                           width: Int32((box.maxX - box.minX).rounded(.up)),
                           height: Int32((box.maxY - box.minY).rounded(.up)))
        let scale = min(max(options.cropHeight / Double(max(rect.height, 1)), 0.25), 4)
        var lines: UnsafeMutablePointer<CB_TextLine>?
        var count = 0
        try frame.withBridgeImage { pixels in
            try check(CB_OCR_recognize(handle, pixels, &rect, Int32(CB_PSM_SINGLE_LINE.rawValue), Float(scale),
                                       &lines, &count)) { .engineFailure("Tesseract: \($0)") }
        }
        defer { CB_TextLines_free(lines, count) }
        guard let lines, count > 0 else { return nil }
        // PSM 7 yields one line; should Tesseract split it anyway, the most confident part wins.
        let best = (0..<count).map { lines[$0] }.max { $0.confidence < $1.confidence }!
        let transcript = String(cString: best.text)
        let confidence = Double(best.confidence) / 100
        guard confidence >= options.minimumConfidence, TextPlausibility.isPlausibleLine(transcript) else {
            return nil
        }
        return .text(transcript, confidence: confidence, bounds: Bounds(best.quad))
    }
}

/// Cheap checks that reject what Tesseract "reads" in textures and code modules.
enum TextPlausibility {
    static func isPlausibleLine(_ text: String) -> Bool {
        let scalars = text.unicodeScalars.filter { !$0.properties.isWhitespace }
        let alphanumerics = scalars.filter { CharacterSet.alphanumerics.contains($0) }.count
        return alphanumerics >= 2 && Double(alphanumerics) >= 0.6 * Double(scalars.count)
    }
}
