/// How a scan reads the barcodes of each frame: whole (`WholeFrameReading`) or only where a video frame changed
/// (`ChangeGatedBarcodeReader`). One strategy a scan, chosen by its `ScanPlan`; the read-ahead and the frame
/// recogniser ask nothing else of it.
/// A reading that keeps state between frames (the gated reader) is a class: the one instance the plan made is the
/// one that reads every frame.
protocol BarcodeReading: Sendable {
    /// Whether each frame is compared with the one before: frames must then be read one after another, in
    /// order; otherwise they may be read side by side.
    var readsInOrder: Bool { get }
    func barcodes(in frame: Frame) throws -> [Observation]
}

/// Every frame read whole by one detector. It keeps nothing between frames, so frames can be read side by side.
struct WholeFrameReading: BarcodeReading {
    let detector: any BarcodeDetector

    init(_ detector: any BarcodeDetector) {
        self.detector = detector
    }

    var readsInOrder: Bool { false }

    func barcodes(in frame: Frame) throws -> [Observation] {
        try detector.detect(in: frame)
    }
}
