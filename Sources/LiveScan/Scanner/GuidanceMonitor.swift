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
