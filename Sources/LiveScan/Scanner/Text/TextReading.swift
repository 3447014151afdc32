/// How a scan reads the text of each frame: a still image's every line at once (`StillTextReading`), or a scene
/// in motion's lines followed from frame to frame and read when they are new or changed (`MotionTextReading`).
/// One strategy a scan, chosen by its `ScanPlan`, as barcode reading is (`BarcodeReading`); the frame recogniser
/// asks nothing else of it.
///
/// A strategy keeps state between frames, so it is a class: the one instance the plan made reads every frame, on
/// the scan's worker, one frame after another (it may read beside the frame's barcodes, on another thread, but never
/// two frames at once).
protocol TextReading: AnyObject, Sendable {
    /// The lines of text in `frame`, read. `viewObscured`: the frame shows its view blurred past reading
    /// (`ViewClarity`, judged once a frame by the scan's worker); a still image never does.
    func lines(in frame: Frame, viewObscured: Bool) throws -> [Observation]
    /// Waits for work the strategy runs on threads of its own: after this nothing of it runs. Call once the scan's
    /// last frame is done.
    func stop()
}

/// A still image: every line found and read at once, with nothing remembered from other images (each is another
/// picture). With the learned detector its boxes are the lines, judged together (`DetectedTextReader.readFrame`: a
/// still is read once, so its 640 ms at 1312x736 buy no lag); without it, the lines the locator finds, each read.
final class StillTextReading: TextReading {
    private let engines: TextEngines

    init(engines: TextEngines) {
        self.engines = engines
    }

    func lines(in frame: Frame, viewObscured: Bool) throws -> [Observation] {
        if let detected = engines.detected {
            return try detected.readFrame(frame)
        }
        return try engines.lines.readLines(in: frame, regions: engines.lines.lineRegions(in: frame))
    }

    func stop() {}
}
