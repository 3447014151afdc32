/// What Tesseract read in one of the learned detector's boxes, before its confidence is judged.
struct DetectedLineReading: Equatable {
    struct Word: Equatable {
        var text: String
        /// Tesseract's confidence in the word, 0...1.
        var confidence: Double
    }

    /// The detector's box.
    var region: Bounds
    var words: [Word]

    /// The mean of the words' confidences. Tesseract's own line confidence sits below it when one word is poor
    /// ("THEORY g"), and dropped such lines whole (Benchmarks/text-detector-study.md).
    var confidence: Double {
        words.isEmpty ? 0 : words.map(\.confidence).reduce(0, +) / Double(words.count)
    }

    /// The reading as a line of text, its words under `minimumWordConfidence` left out; nil when the box's
    /// mean confidence is under `minimumConfidence` or nothing plausible is left.
    func observation(minimumConfidence: Double, minimumWordConfidence: Double) -> Observation? {
        let transcript = words.filter { $0.confidence >= minimumWordConfidence }.map(\.text).joined(separator: " ")
        guard !words.isEmpty, confidence >= minimumConfidence, TextPlausibility.isPlausibleLine(transcript) else {
            return nil
        }
        // The detector's box has a margin of about a third of its height above and below the ink (PaddleOCR's
        // unclip), so that the boxes of a page's lines overlap their neighbours' (and Tesseract's boxes, which take
        // in the neighbours' ascenders, overlap too): without a strip between its rows, a page of columns was read
        // across them (magazine page 8087_054 CER 0.75). The box reported is the detector's, narrowed across the
        // line to `detectedLineShare` of its height.
        return .text(transcript, confidence: confidence, bounds: region.narrowedAcross(to: Self.detectedLineShare))
    }

    /// The share of a detected box's height its line's ink takes (measured on the magazine pages: 0.6 of the box
    /// keeps the line's capitals and stays clear of the next line).
    static let detectedLineShare = 0.6
}

/// How the readings of one frame are judged, with the recognizer's two confidence floors: the one place that says
/// what reads confidently and what makes a frame a document.
struct DetectedLineJudge {
    var minimumConfidence: Double
    var minimumWordConfidence: Double

    /// Boxes that read confidently, at least, that make a frame a document.
    static let documentLineCount = 12

    /// The reading as a scene's line: nil when it does not read confidently.
    func sceneLine(_ reading: DetectedLineReading?) -> Observation? {
        reading?.observation(minimumConfidence: minimumConfidence, minimumWordConfidence: minimumWordConfidence)
    }

    /// Whether at least `documentLineCount` of the readings read confidently.
    func isDocument(_ readings: [DetectedLineReading?]) -> Bool {
        readings.count(where: { sceneLine($0) != nil }) >= Self.documentLineCount
    }

    /// The lines of one frame's readings, judged together. In a scene the detector also fires on textures,
    /// railings and foliage, which Tesseract "reads" with low confidence: a box must read confidently and its
    /// poor words are left out. In a document (`isDocument`: a page, a receipt) the detector's boxes are text, and a word read poorly is nearer the truth than none: every
    /// plausible reading is kept, all its words.
    ///
    /// Measured on the dev halves, words Tesseract read under 0.5: on the SROIE receipts 141 of 296 are words of
    /// the receipt, on ICDAR 2015's scene photos 13 of 121 are words of the photo. Each receipt reads 19 to 76
    /// boxes confidently, each scene photo 0 to 10 (all but one at most 6). Keeping every reading of a document
    /// took the receipts' CER from 0.242 to 0.117, and left the scene photos' word recall and precision as they
    /// were.
    func lines(of readings: [DetectedLineReading?]) -> [Observation] {
        guard isDocument(readings) else {
            return readings.compactMap(sceneLine)
        }
        return readings.compactMap { $0?.observation(minimumConfidence: 0, minimumWordConfidence: 0) }
    }
}
