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
        // The learned recogniser's network is made on a thread of its own while this one loads the detector and
        // Tesseract: each takes 50-100 ms alone, and a scan's first frame waits for all three. The errors are
        // thrown in the order the engines were once loaded one after the other: the detector's, the recogniser's,
        // Tesseract's.
        let folder = options.learnedReader?.modelFolder
        let learnedReading = options.readsWithLearnedReader
            ? try ValueMadeOnThread(name: "LiveScan.load") { try LearnedLineReader(folder: folder, threads: threads) }
            : nil
        let detecting = Result { try options.detector.map { try LearnedTextDetector(options: $0, threads: threads) } }
        // One pool of Tesseract instances for the lines' reads and the boxes'.
        let reading = Result { try TesseractReader(options: options) }
        let learnedReaderMade = learnedReading.map { made in Result { try made.value() } }
        let detector = try detecting.get()
        let learnedReader = try learnedReaderMade?.get()
        let tesseract = try reading.get()
        lines = TesseractTextRecognizer(reader: tesseract)
        detected = detector.map { DetectedTextReader(detector: $0, tesseract: tesseract, learnedReader: learnedReader) }
    }

    /// An app's recognizer, alone.
    init(recognizer: any TextRecognizer) {
        lines = recognizer
        detected = nil
    }
}
