import Foundation
internal import CBridge

/// The learned line recogniser's files (`scripts/fetch-models.sh`), found as `ModelFiles.locate` says.
public enum LineRecognizerModel {
    /// The network, which reads a line of any width (padded to 320 or 640 columns, 48 pixels tall).
    public static let fileName = "ppocr-v6-rec.onnx"
    /// Its character list.
    public static let keysFileName = "ppocr-v6-rec-keys.txt"
    /// Both, in the order `CB_LineReader_new` takes them.
    public static let fileNames = [fileName, keysFileName]
}

/// What the learned recogniser read in one box: its words, each with the mean probability of its characters.
public struct LearnedReading: Sendable, Equatable {
    public struct Word: Sendable, Equatable {
        public var text: String
        /// 0...1.
        public var confidence: Double
        /// The columns of the line it was read in, in the frame's pixels.
        public var bounds: Bounds
    }

    public var words: [Word]

    public var text: String { words.map(\.text).joined(separator: " ") }
}

/// PP-OCRv6 small's line recogniser (`CB_LineReader_*`, SVTR through ONNX Runtime): one upright line, Latin,
/// Chinese or Japanese script. On ICDAR 2015's cropped scene words it reads 106 of 149 exactly where PP-OCRv4's
/// read 90 and Tesseract 48 (Benchmarks/text-detector-study.md), at about the cost of PP-OCRv4's. Calls from several
/// threads take turns.
public final class LearnedLineReader: @unchecked Sendable {
    private let handle: OpaquePointer

    /// The Tesseract languages whose script the recogniser reads (its dictionary: 15,908 Han characters, kana, Latin):
    /// with any other, text is Tesseract's alone. 12 rendered Japanese and 12 Chinese sign lines, character error
    /// rate with Tesseract alone and with both: 0.359 -> 0.016 and 0.614 -> 0.000. Other Latin-script languages are
    /// not in it yet: nothing here measured its vote on them.
    public static let languages: Set<String> = ["eng", "chi_sim", "chi_tra", "jpn"]

    /// Loads the model from `folder` (nil: where `ModelFiles.locate` finds it), to run on `threads` threads
    /// (`TextRecognizerOptions.learnedNetworkThreads`): `ScanError.modelMissing` names `make setup` when it is not
    /// installed.
    public init(folder: String? = nil, threads: Int = 1) throws {
        try TextRecognizerOptions.validateNetworkThreads(threads)
        let paths = try LineRecognizerModel.fileNames.map { fileName in
            let explicitPath = folder.map { URL(fileURLWithPath: $0).appendingPathComponent(fileName).path }
            return try ModelFiles.locate(fileName, describedAs: "the text recogniser model", explicitPath: explicitPath)
        }
        let runtime = try OnnxRuntimeLibrary.locate(besideNetwork: paths[0])
        var handle: OpaquePointer?
        let status = CB_LineReader_new(runtime, paths[0], paths[1], Int32(threads), &handle)
        guard status == CB_OK, let handle else {
            let message = bridgeLastError()
            throw status == CB_MODEL_MISSING ? ScanError.modelMissing(message) : ScanError.engineFailure(message)
        }
        self.handle = handle
    }

    deinit {
        CB_LineReader_delete(handle)
    }

    /// Frees the networks until the next read, which makes them again (111 MB for both widths; see
    /// `CB_LineReader_release_networks`).
    public func releaseNetworks() {
        CB_LineReader_release_networks(handle)
    }

    /// Reads the quad `region` (its corners named the way the line reads) rectified upright; no words when it read
    /// none.
    public func read(in frame: Frame, region: Bounds) throws -> LearnedReading {
        var quad = CB_Quad(region)
        var line: UnsafeMutablePointer<CB_TextLine>?
        try frame.withBridgeImage { pixels in
            try check(CB_LineReader_read_quad(handle, pixels, &quad, &line)) {
                .engineFailure("text recogniser: \($0)")
            }
        }
        defer { CB_TextLines_free(line, 1) }
        guard let line else { return LearnedReading(words: []) }
        return LearnedReading(words: (0..<line.pointee.word_count).map { index in
            let word = line.pointee.words[index]
            return LearnedReading.Word(text: String(cString: word.text), confidence: Double(word.confidence) / 100,
                                       bounds: Bounds(word.quad))
        })
    }
}
