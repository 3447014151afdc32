import Foundation
internal import CBridge

/// The knobs of the learned text detector (PP-OCRv4's DB model through ONNX Runtime, `CB_TextDetector_*`).
/// Defaults are rapidocr-onnxruntime 1.4.4's, measured in Benchmarks/text-detector-study.md.
public struct TextDetectorOptions: Sendable, Equatable {
    /// The model file; nil looks for `ppocr-v4-det.onnx` as `TextDetectorModel.locate` says.
    public var modelPath: String?
    /// The network reads the image with its short side scaled to this (default 736: 1312x736 for a 720p frame;
    /// at 960x544 it found 153 instead of 178 of ICDAR's 222 transcribed words, in half the time).
    public var shortSide: Int
    /// ...and its long side at most this many pixels (default 2560).
    public var maxLongSide: Int
    /// A region is kept when its mean text probability is at least this, 0...1 (default 0.5).
    public var boxThreshold: Double
    /// Whether the buffers of the network's run are kept for the next frame (a video's), rather than given back
    /// after each picture (default false: images come in many sizes, and the buffers, 150-280 MB, would stay beside
    /// the next picture's readers).
    public var keepsNetwork: Bool
    /// The most pixels the network reads at once; a larger input is read as side-by-side strips with 128 columns
    /// of overlap, their probability maps joined: the same scale, the network's buffers bounded (they grow with its
    /// input: 150 MB at 960x544, 277 MB at 1312x736), the time the whole input's and the overlaps' (default 0: the
    /// whole input at once).
    public var maxInputPixels: Int

    public init(modelPath: String? = nil, shortSide: Int = 736, maxLongSide: Int = 2560, boxThreshold: Double = 0.5,
                keepsNetwork: Bool = false, maxInputPixels: Int = 0) {
        self.modelPath = modelPath
        self.shortSide = shortSide
        self.maxLongSide = maxLongSide
        self.boxThreshold = boxThreshold
        self.keepsNetwork = keepsNetwork
        self.maxInputPixels = maxInputPixels
    }
}

/// The detector's model, found as `ModelFiles.locate` says.
public enum TextDetectorModel {
    /// The file `scripts/fetch-models.sh` writes into `models/`.
    public static let fileName = "ppocr-v4-det.onnx"

    /// The model's path: `explicitPath` if given, else `fileName` where `ModelFiles.locate` finds it. Throws
    /// `ScanError.modelMissing`, naming `make setup`, when it is not installed.
    public static func locate(explicitPath: String? = nil) throws -> String {
        try ModelFiles.locate(fileName, describedAs: "the text detector model", explicitPath: explicitPath)
    }
}

/// One text box the detector found: an oriented rectangle around a word or a line, in the frame's pixels, and
/// the mean text probability inside it.
public struct DetectedText: Sendable, Equatable {
    public var bounds: Bounds
    public var score: Double
}

/// PP-OCRv4's DB text detector (`CB_TextDetector_detect`): words and lines at any angle, as oriented rectangles.
/// About 250 ms for a 720p frame at the default 1312x736 on one core (ONNX Runtime; OpenCV 4.6's dnn took 500-640).
/// The network is loaded once; calls from several threads take turns, so that its buffers are not taken twice over.
public final class LearnedTextDetector: @unchecked Sendable {
    public let options: TextDetectorOptions
    /// The threads each run is shared by.
    public let threads: Int
    private let handle: OpaquePointer
    private let lock = NSLock()

    /// Loads the model, to run on `threads` threads (`TextRecognizerOptions.learnedNetworkThreads`):
    /// `ScanError.modelMissing` names `make setup` when it is not installed.
    public init(options: TextDetectorOptions = TextDetectorOptions(), threads: Int = 1) throws {
        try TextRecognizerOptions.validateNetworkThreads(threads)
        guard options.shortSide >= 32, options.shortSide <= 4096 else {
            throw ScanError.invalidParameter(parameter: "shortSide", reason: "must be 32...4096 pixels")
        }
        guard options.maxLongSide >= 32, options.maxLongSide <= 8192 else {
            throw ScanError.invalidParameter(parameter: "maxLongSide", reason: "must be 32...8192 pixels")
        }
        guard options.maxInputPixels == 0 || options.maxInputPixels >= 32 * 32 else {
            throw ScanError.invalidParameter(parameter: "maxInputPixels", reason: "must be 0 or at least 1024")
        }
        guard options.boxThreshold >= 0, options.boxThreshold < 1 else {
            throw ScanError.invalidParameter(parameter: "boxThreshold", reason: "must be in 0..<1")
        }
        let path = try TextDetectorModel.locate(explicitPath: options.modelPath)
        var handle: OpaquePointer?
        let runtime = try OnnxRuntimeLibrary.locate(besideNetwork: path)
        let status = CB_TextDetector_new(runtime, path, Int32(threads), &handle)
        guard status == CB_OK, let handle else {
            let message = bridgeLastError()
            throw status == CB_MODEL_MISSING ? ScanError.modelMissing(message) : ScanError.engineFailure(message)
        }
        self.handle = handle
        self.options = options
        self.threads = threads
    }

    deinit {
        CB_TextDetector_delete(handle)
    }

    /// Whether `frame` is a close crop (`CB_TextDetector_close_crop_margin`): a word or a line cut out around its
    /// text, whose ink touches its edges. Its boxes are text.
    public func isCloseCrop(_ frame: Frame) -> Bool {
        var raw = rawOptions
        return CB_TextDetector_close_crop_margin(Int32(frame.image.width), Int32(frame.image.height), &raw) > 0
    }

    private var rawOptions: CB_TextDetectorOptions {
        var raw = CB_TextDetectorOptions_default()
        raw.short_side = Int32(options.shortSide)
        raw.max_long_side = Int32(options.maxLongSide)
        raw.box_threshold = Float(options.boxThreshold)
        raw.keeps_network = options.keepsNetwork ? 1 : 0
        raw.max_input_pixels = Int32(options.maxInputPixels)
        return raw
    }

    /// The text boxes of `frame`, in no particular order, those whose short side is under `minimumHeight` pixels
    /// left out (a close crop in which none is left is its own one box, `CB_TextDetector_detect`).
    public func detect(in frame: Frame, minimumHeight: Int = 0) throws -> [DetectedText] {
        try detect(in: frame, minimumHeight: minimumHeight, cancellation: nil)
    }

    /// `detect`, ended early with `CancellationError` when `cancellation` is cancelled before or while it runs.
    func detect(in frame: Frame, minimumHeight: Int, cancellation: DetectionCancellation?) throws -> [DetectedText] {
        var raw = rawOptions
        raw.min_height = Int32(minimumHeight)
        var boxes: UnsafeMutablePointer<CB_TextBox>?
        var count = 0
        let status = try lock.withLock {
            try frame.withBridgeImage { pixels in
                CB_TextDetector_detect(handle, pixels, &raw, cancellation?.handle, &boxes, &count)
            }
        }
        if status == CB_CANCELLED {
            throw CancellationError()
        }
        try check(status) { .engineFailure("text detector: \($0)") }
        defer { CB_TextBoxes_free(boxes) }
        guard let boxes else { return [] }
        return (0..<count).map { DetectedText(bounds: Bounds(boxes[$0].quad), score: Double(boxes[$0].score)) }
    }

    /// The boxes of `frame` at least `minimumHeight` pixels across their line (`detect`'s, cut to the picture).
    public func boxes(in frame: Frame, minimumHeight: Int) throws -> [Bounds] {
        try boxes(in: frame, minimumHeight: minimumHeight, cancellation: nil)
    }

    /// `boxes`, ended early with `CancellationError` when `cancellation` is cancelled before or while they are found.
    func boxes(in frame: Frame, minimumHeight: Int, cancellation: DetectionCancellation?) throws -> [Bounds] {
        // The detector leaves out the boxes under the height itself, so that a close crop in which it finds none
        // tall enough is read whole (a 50 x 15 crop of `swatch` held one box 8 pixels tall); what its cut to the
        // picture leaves lower is left out here.
        try detect(in: frame, minimumHeight: minimumHeight, cancellation: cancellation).map(\.bounds)
            .filter { $0.shortSide >= Double(minimumHeight) }
    }
}
