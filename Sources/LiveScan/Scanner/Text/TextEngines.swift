/// The engines text is read with: what locates and reads lines one crop at a time (LiveScan's edge locator and
/// Tesseract, or an app's `TextRecognizer`), and the learned detector with what reads its boxes when the options
/// run it. Made once a scan, from `TextRecognizerOptions` or the app's recognizer; the scan's `TextReading` uses
/// them as its plan says.
struct TextEngines: Sendable {
    let lines: any TextRecognizer
    /// Nil when no learned detector runs (`TextRecognizerOptions.detector`, or an app's recognizer).
    let detected: DetectedTextReader?

    /// Loads every engine the options ask for, to fail early: `ScanError.modelMissing` names a missing traineddata
    /// file, or a detector or recogniser model that `make setup` has not fetched.
    init(options: TextRecognizerOptions) throws {
        try options.validate()
        let threads = options.learnedNetworkThreads
        let detector = try options.detector.map { try LearnedTextDetector(options: $0, threads: threads) }
        let learnedReader = options.readsWithLearnedReader
            ? try LearnedLineReader(folder: options.learnedReader?.modelFolder, threads: threads) : nil
        // One pool of Tesseract instances for the lines' reads and the boxes'.
        let tesseract = try TesseractReader(options: options)
        lines = TesseractTextRecognizer(reader: tesseract)
        detected = detector.map { DetectedTextReader(detector: $0, tesseract: tesseract, learnedReader: learnedReader) }
    }

    /// An app's recognizer, alone.
    init(recognizer: any TextRecognizer) {
        lines = recognizer
        detected = nil
    }
}
