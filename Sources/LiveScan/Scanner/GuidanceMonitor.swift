/// Decides, frame by frame, whether the user needs a hint (`ScanGuidance`).
///
/// Sharpness (variance of the Laplacian) depends on what is in view as much as on focus, so no fixed
/// bar works across scenes (measured on generated frames: a sharp cluttered page scored 620, the same
/// kind of page blurred by sigma 2 scored 500 on another layout). Blur is therefore judged against the
/// scene's own recent best: a frame under `blurRatio` of the decaying peak is "blurred".
struct GuidanceMonitor: Sendable {
    /// A frame this much less sharp than the recent peak counts as blurred (default 0.3).
    var blurRatio = 0.3
    /// How fast the remembered peak fades per frame, so a new, plainer scene is not judged by the old one.
    var peakDecay = 0.98
    /// Below this peak the scene has too little detail to judge blur at all.
    var minimumPeak = 20.0
    private var peak = 0.0

    /// The hint for a frame: `undecodedCodes` 2-D codes were located but not read; `sharpness` as measured.
    mutating func guidance(undecodedCodes: Int, sharpness: Double) -> ScanGuidance? {
        peak = max(sharpness, peak * peakDecay)
        if undecodedCodes > 0 {
            return .moveCloser
        }
        if peak >= minimumPeak && sharpness < blurRatio * peak {
            return .holdStill
        }
        return nil
    }
}

/// The scanner's guidance for one scan: which 2-D codes are in view but undecoded (OpenCV's QR locator,
/// every `locatorInterval` frames: it costs about 30 ms), and how sharp the frame is.
struct Guide {
    /// The change of hint, when there is one (`guidance` nil: no hint needed any more).
    struct Change {
        let guidance: ScanGuidance?
    }

    let locator: OpenCVQRLocator?
    let locatorInterval = 10
    private var monitor = GuidanceMonitor()
    private var located: [Observation] = []
    private var current: ScanGuidance?

    init(locator: OpenCVQRLocator?) {
        self.locator = locator
    }

    /// Feeds one frame: `decoded` are its items' observations, `located` codes a detector found but could
    /// not read. Returns a change of hint, or nil when the hint stays as it was.
    mutating func update(frame: Frame, decoded: [Observation], located extra: [Observation]) -> Change? {
        if frame.index % locatorInterval == 0, let locator {
            located = (try? locator.locate(in: frame)) ?? []
        }
        let undecoded = (located + extra).filter { code in
            code.symbology?.isTwoDimensional == true && !decoded.contains {
                $0.kind == .barcode && $0.bounds.intersectionOverUnion(code.bounds) > SameItem.locatedCodeOverlap
            }
        }
        let hint = monitor.guidance(undecodedCodes: undecoded.count, sharpness: (try? frame.bridgeImage().sharpness()) ?? 0)
        guard hint != current else { return nil }
        current = hint
        return Change(guidance: hint)
    }
}
