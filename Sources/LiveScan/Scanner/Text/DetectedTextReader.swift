import Foundation

/// What the learned detector's turns in a video ask of their engines: a frame's text boxes, and one box read.
protocol TextBoxReader: Sendable {
    /// The detector's boxes in `frame`: oriented rectangles around words or lines (hundreds of ms a frame); a
    /// `CancellationError` as soon as `cancellation` is cancelled.
    func boxes(in frame: Frame, cancellation: DetectionCancellation?) throws -> [Bounds]
    /// Reads one box rectified upright; nil when nothing legible is there.
    func readBox(in frame: Frame, region: Bounds) throws -> Observation?
}

/// The learned detector's boxes and their readings, RapidOCR's detection and recognition stages behind one
/// orchestrator: each box is rectified upright and read by Tesseract and, where every language is one it reads,
/// by the learned line recogniser, and the two readings are voted on and judged (`DetectedLineJudge`). A still
/// image is read whole (`readFrame`: its boxes judged together); a video's detector turns read box by box
/// (`TextBoxReader`). Safe from several threads: the detector and the recogniser take turns, Tesseract pools.
struct DetectedTextReader: TextBoxReader, @unchecked Sendable {
    let detector: LearnedTextDetector
    let tesseract: TesseractReader
    /// Nil when a language is one it does not read (`TextRecognizerOptions.readsWithLearnedReader`).
    let learnedReader: LearnedLineReader?
    /// Boxes under this many pixels across their line are left out.
    let minimumTextHeight: Int
    /// The confidence floors of the readings (`TextRecognizerOptions`).
    let judge: DetectedLineJudge

    init(detector: LearnedTextDetector, tesseract: TesseractReader, learnedReader: LearnedLineReader?) {
        self.detector = detector
        self.tesseract = tesseract
        self.learnedReader = learnedReader
        minimumTextHeight = tesseract.options.minimumTextHeight
        judge = DetectedLineJudge(minimumConfidence: tesseract.options.minimumConfidence,
                                  minimumWordConfidence: tesseract.options.minimumWordConfidence)
    }

    func boxes(in frame: Frame, cancellation: DetectionCancellation? = nil) throws -> [Bounds] {
        try detector.boxes(in: frame, minimumHeight: minimumTextHeight, cancellation: cancellation)
    }

    /// Reads a box rectified upright, judged as a scene's (one box alone tells nothing of a page); with the learned
    /// recogniser, a standing box the way its line reads (`readingWay`), read by it too and the two readings voted
    /// on.
    func readBox(in frame: Frame, region detected: Bounds) throws -> Observation? {
        let region = try learnedReader.map { try readingWay(of: detected, in: frame, by: $0) } ?? detected
        var reading = try tesseract.withEngine { try $0.readBox(in: frame, region: region) }
        if let learnedReader {
            try addLearnedReading(to: &reading, region: region, in: frame, by: learnedReader)
        }
        return judge.sceneLine(reading)
    }

    /// Every line of a still image: its boxes read and judged together (`DetectedLineJudge`: a document's are kept
    /// whatever their confidence), and with the learned recogniser each box read by it too, the two readings voted
    /// on (`DetectedLineReading.agreedWords`).
    func readFrame(_ frame: Frame) throws -> [Observation] {
        let regions = try boxes(in: frame)
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

    /// Reads the detector's boxes of one still image (`readFrame`); `boxesHoldText` when it is a close crop.
    private func readBoxes(in frame: Frame, regions: [Bounds], boxesHoldText: Bool) throws -> [Observation] {
        var judge = judge
        judge.boxesHoldText = boxesHoldText
        let upright = try tesseract.withEngine { engine in try regions.map { try engine.readBox(in: frame, region: $0) } }
        let uprightDocument = judge.isDocument(upright)
        var (readings, asRead) = uprightDocument ? (upright, regions) : try tesseract.withEngine {
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
        // A scene's lines run every way, and its standing boxes are read their own way round. In a page, or in a
        // picture where most boxes, and at least `turnSample`, stand (a page photographed turned a quarter), the
        // lines all run the way the picture was found to be turned, above.
        let standing = asRead.count(where: \.isStanding)
        if !isDocument, standing < Self.turnSample || 2 * standing <= asRead.count {
            for index in asRead.indices {
                let way = try readingWay(of: asRead[index], in: frame, by: learnedReader)
                if way != asRead[index] {
                    asRead[index] = way
                    readings[index] = try tesseract.withEngine { try $0.readBox(in: frame, region: way) }
                }
            }
        }
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

    /// The box `region` with its corners named the way its line reads. A box much taller than wide is turned a
    /// quarter before it is read, counter-clockwise as PaddleOCR turns it (`cutLine`), which sets upright a line
    /// written downwards; a line written upwards, as on book spines and many shop signs, is then read upside down
    /// (ICDAR 2015's img_211: `guardian` read `guaian` at 0.70, the other way round `guardian` at 1.00). With the
    /// learned recogniser, such a box is read as named and, unless that reading is sure, the other way round too,
    /// and named the way it reads more surely: the choice PP-OCR's direction classifier makes. Other boxes are read
    /// as named.
    private func readingWay(of region: Bounds, in frame: Frame, by learnedReader: LearnedLineReader) throws -> Bounds {
        guard region.isStanding else { return region }
        let confidence = { (quad: Bounds) in
            DetectedLineReading.mean(try learnedReader.read(in: frame, region: quad).words.map(\.confidence))
        }
        let asNamed = try confidence(region)
        guard asNamed < DetectedLineReading.learnedSureConfidence else { return region }
        let upsideDown = region.cornersNamed(from: 2)
        return try confidence(upsideDown) > asNamed ? upsideDown : region
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
}
