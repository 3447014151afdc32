import Foundation
internal import CBridge

/// LiveScan's own `TextRecognizer`: lines located by the edge locator (`EdgeTextLocator`) and read one crop at a
/// time by Tesseract in single-line mode (PSM 7), a reading kept when it is confident and plausible. The learned
/// detector and recogniser of `TextRecognizerOptions` are not this type's: a scan runs them beside it
/// (`TextEngines`).
///
/// Safe to call from several threads: each read borrows a Tesseract instance of its own (`TesseractReader`).
public final class TesseractTextRecognizer: TextRecognizer, @unchecked Sendable {
    public let options: TextRecognizerOptions
    private let locator: EdgeTextLocator
    let reader: TesseractReader

    /// Loads the languages once to fail early: `ScanError.modelMissing` names a missing traineddata file;
    /// `ScanError.invalidParameter` an option out of its range.
    public convenience init(options: TextRecognizerOptions = TextRecognizerOptions()) throws {
        try options.validate()
        self.init(reader: try TesseractReader(options: options))
    }

    /// Reads with `reader`, whose options are taken as valid.
    init(reader: TesseractReader) {
        options = reader.options
        locator = EdgeTextLocator(maxDimension: reader.options.maxDimension,
                                  minimumTextHeight: reader.options.minimumTextHeight)
        self.reader = reader
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

    /// Says `openMPAdvice` on standard error, once a process, when the first Tesseract reader starts.
    static let adviseOnOpenMPOnce: Void = {
        if let advice = openMPAdvice {
            FileHandle.standardError.write(Data((advice + "\n").utf8))
        }
    }()

    /// Candidate line rectangles (`EdgeTextLocator`), margins included, before reading.
    public func lineRegions(in frame: Frame) throws -> [Bounds] {
        try locator.lineRegions(in: frame)
    }

    /// Reads `region` with Tesseract in single-line mode (PSM 7), the crop scaled to `cropHeight`; nil when what it
    /// read is under `minimumConfidence` or not plausibly text (`TextPlausibility`).
    public func readLine(in frame: Frame, region: Bounds) throws -> Observation? {
        guard let line = try reader.withEngine({ try $0.readLine(in: frame, region: region) }),
              line.confidence >= options.minimumConfidence, TextPlausibility.isPlausibleLine(line.transcript ?? "")
        else { return nil }
        return line
    }

    /// Tesseract's own layout analysis over the whole frame (PSM 3), for comparison: 180 ms and more at
    /// 720p, and on cluttered scenes mostly garbage. Lines below `minimumConfidence` are dropped.
    public func recognizePage(in frame: Frame) throws -> [Observation] {
        try reader.withEngine { try $0.readPage(in: frame) }.filter { $0.confidence >= options.minimumConfidence }
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
