import Foundation
internal import CBridge

/// Tesseract (`CB_OCR_*`) as LiveScan reads with it: one line at a time (PSM 7), a learned detector's box rectified
/// upright, or a whole page (PSM 3), each reading as Tesseract gave it; what to keep of it is for the reader's
/// caller to judge.
///
/// Tesseract instances are not thread-safe, so each read borrows one from a pool and returns it: reads on different
/// threads run in parallel on different instances, never behind one lock around recognition.
final class TesseractReader: @unchecked Sendable {
    let options: TextRecognizerOptions
    private let poolLock = NSLock()
    private var idleEngines: [TesseractEngine] = []

    /// Loads the languages once to fail early: `ScanError.modelMissing` names a missing traineddata file.
    init(options: TextRecognizerOptions) throws {
        self.options = options
        idleEngines.append(try TesseractEngine(options: options))
        TesseractTextRecognizer.adviseOnOpenMPOnce
    }

    /// Runs `body` on an engine of the pool: reads made in one body run on one engine, one after another.
    func withEngine<Result>(_ body: (TesseractEngine) throws -> Result) throws -> Result {
        let pooled = poolLock.withLock { idleEngines.popLast() }
        let engine = try pooled ?? TesseractEngine(options: options)
        defer { poolLock.withLock { idleEngines.append(engine) } }
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

    /// Tesseract's own layout analysis over the whole frame (PSM 3): every line it found.
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
        return (0..<count).map { index in
            let line = lines[index]
            return .text(String(cString: line.text), confidence: Double(line.confidence) / 100,
                         bounds: Bounds(line.quad))
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
        var words = (0..<best.word_count).map { index in
            DetectedLineReading.Word(text: String(cString: best.words[index].text),
                                     confidence: Double(best.words[index].confidence) / 100,
                                     bounds: Bounds(best.words[index].quad))
        }
        DetectedLineReading.Word.markSpaces(&words, asIn: String(cString: best.text))
        // The detector names a box's corners by where they lie (PaddleOCR's order); Tesseract's line box, mapped
        // back from the crop as it was read (turned a quarter when the box is tall), runs the way the line reads.
        return words.isEmpty ? nil : DetectedLineReading(region: region.cornersNamed(along: Bounds(best.quad)),
                                                         words: words)
    }

    /// Reads `region` in single-line mode (PSM 7), the crop scaled to `cropHeight`; nil when Tesseract read no line.
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
        return .text(String(cString: best.text), confidence: Double(best.confidence) / 100, bounds: Bounds(best.quad))
    }
}
