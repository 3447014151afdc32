import Foundation
internal import CBridge

/// The knobs of the learned text detector (PP-OCRv4's DB model through OpenCV 4.6's dnn, `CB_TextDetector_*`).
/// Defaults are rapidocr-onnxruntime 1.4.4's, measured in Benchmarks/text-detector-study.md.
public struct TextDetectorOptions: Sendable, Equatable {
    /// The model file; nil looks for `ppocr-v4-det-opencv.onnx` as `TextDetectorModel.locate` says.
    public var modelPath: String?
    /// The network reads the image with its short side scaled to this (default 736: 1312x736 for a 720p frame;
    /// at 960x544 it found 153 instead of 178 of ICDAR's 222 transcribed words, in half the time).
    public var shortSide: Int
    /// ...and its long side at most this many pixels (default 2560).
    public var maxLongSide: Int
    /// A region is kept when its mean text probability is at least this, 0...1 (default 0.5).
    public var boxThreshold: Double

    public init(modelPath: String? = nil, shortSide: Int = 736, maxLongSide: Int = 2560, boxThreshold: Double = 0.5) {
        self.modelPath = modelPath
        self.shortSide = shortSide
        self.maxLongSide = maxLongSide
        self.boxThreshold = boxThreshold
    }
}

/// Where `make setup` puts the detector's model, and how LiveScan finds it.
public enum TextDetectorModel {
    /// The file `scripts/fetch-models.sh` writes into `models/`.
    public static let fileName = "ppocr-v4-det-opencv.onnx"

    /// The model's path: `explicitPath` if given; else the first that exists of `$LIVESCAN_MODELS/<fileName>`,
    /// `models/<fileName>` in the current folder, and `models/<fileName>` beside the running executable or in
    /// one of its parent folders (a build in `.build/release` finds the checkout's `models/`). Throws
    /// `ScanError.modelMissing`, naming `make setup`, when none does.
    public static func locate(explicitPath: String? = nil) throws -> String {
        let files = FileManager.default
        if let explicitPath {
            guard files.fileExists(atPath: explicitPath) else {
                throw ScanError.modelMissing("the text detector model \(explicitPath) is not installed; "
                    + "run `make setup` to fetch it")
            }
            return explicitPath
        }
        let candidates = searchedPaths()
        if let found = candidates.first(where: { files.fileExists(atPath: $0) }) {
            return found
        }
        throw ScanError.modelMissing("the text detector model \(fileName) is not installed (looked for "
            + "\(candidates.joined(separator: ", "))); run `make setup` in the LiveScan checkout to fetch it")
    }

    static func searchedPaths() -> [String] {
        var paths: [String] = []
        if let folder = ProcessInfo.processInfo.environment["LIVESCAN_MODELS"], !folder.isEmpty {
            paths.append(URL(fileURLWithPath: folder).appendingPathComponent(fileName).path)
        }
        paths.append(URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            .appendingPathComponent("models").appendingPathComponent(fileName).path)
        var folder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        while folder.path != "/" {
            paths.append(folder.appendingPathComponent("models").appendingPathComponent(fileName).path)
            folder.deleteLastPathComponent()
        }
        var seen = Set<String>()
        return paths.filter { seen.insert($0).inserted }
    }
}

/// One text box the detector found: an oriented rectangle around a word or a line, in the frame's pixels, and
/// the mean text probability inside it.
public struct DetectedText: Sendable, Equatable {
    public var bounds: Bounds
    public var score: Double
}

/// PP-OCRv4's DB text detector (`CB_TextDetector_detect`): words and lines at any angle, as oriented rectangles.
/// About 640 ms for a 720p frame at the default 1312x736 on one core. The network is loaded once; it is not
/// reentrant, so calls from several threads take turns.
public final class LearnedTextDetector: @unchecked Sendable {
    public let options: TextDetectorOptions
    private let handle: OpaquePointer
    private let lock = NSLock()

    /// Loads the model: `ScanError.modelMissing` names `make setup` when it is not installed.
    public init(options: TextDetectorOptions = TextDetectorOptions()) throws {
        guard options.shortSide >= 32, options.shortSide <= 4096 else {
            throw ScanError.invalidParameter(parameter: "shortSide", reason: "must be 32...4096 pixels")
        }
        guard options.maxLongSide >= 32, options.maxLongSide <= 8192 else {
            throw ScanError.invalidParameter(parameter: "maxLongSide", reason: "must be 32...8192 pixels")
        }
        guard options.boxThreshold >= 0, options.boxThreshold < 1 else {
            throw ScanError.invalidParameter(parameter: "boxThreshold", reason: "must be in 0..<1")
        }
        let path = try TextDetectorModel.locate(explicitPath: options.modelPath)
        var handle: OpaquePointer?
        let status = CB_TextDetector_new(path, &handle)
        guard status == CB_OK, let handle else {
            let message = bridgeLastError()
            throw status == CB_MODEL_MISSING ? ScanError.modelMissing(message) : ScanError.engineFailure(message)
        }
        self.handle = handle
        self.options = options
    }

    deinit {
        CB_TextDetector_delete(handle)
    }

    /// The text boxes of `frame`, in no particular order.
    public func detect(in frame: Frame) throws -> [DetectedText] {
        var raw = CB_TextDetectorOptions_default()
        raw.short_side = Int32(options.shortSide)
        raw.max_long_side = Int32(options.maxLongSide)
        raw.box_threshold = Float(options.boxThreshold)
        var boxes: UnsafeMutablePointer<CB_TextBox>?
        var count = 0
        try lock.withLock {
            try frame.withBridgeImage { pixels in
                try check(CB_TextDetector_detect(handle, pixels, &raw, &boxes, &count)) {
                    .engineFailure("text detector: \($0)")
                }
            }
        }
        defer { CB_TextBoxes_free(boxes) }
        guard let boxes else { return [] }
        return (0..<count).map { DetectedText(bounds: Bounds(boxes[$0].quad), score: Double(boxes[$0].score)) }
    }
}
