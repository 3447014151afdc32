import Foundation

/// How one scan reads its source, decided once when it starts from the kind of source, the engines and the
/// quality level. The worker then runs one loop whatever was decided here.
///
/// | source | barcodes | read ahead | text |
/// |---|---|---|---|
/// | live (camera, stream, `--realtime`) | whole frames, with the text | no: the newest frame wins | in motion (`MotionTextReading`): readings remembered; the learned detector every `textDetectorInterval` frames beside the edge locator, its boxes taken when ready |
/// | video file | where the frame changed, whole every `barcodeWholeReadInterval` frames (whole at levels without one, or with a detector that cannot read a region) | up to 128 MB of frames (24 MB with text), 8 to 128 (`gatedReadAheadDepth`), in order | in motion, as live, the detector's boxes taken `TextDetectorCadence.fileLag` frames after its turn |
/// | images | whole, at full size (`stillImages`) | one frame per core, side by side | still (`StillTextReading`): nothing remembered, images are not a scene; the learned detector's boxes are the lines |
struct ScanPlan {
    /// How each frame's barcodes are read; nil when no barcodes are looked for.
    let barcodes: (any BarcodeReading)?
    /// Frames whose barcodes are read on other threads ahead of the frame being tracked; 0 = none, the
    /// worker reads the source itself and each frame's barcodes beside its text.
    let readAheadDepth: Int
    /// How each frame's text is read; nil when no text is looked for.
    let text: (any TextReading)?

    init(source: FrameSource, engines: ScanEngines, qualityLevel: QualityLevel,
         isHighFrameRateTrackingEnabled: Bool, sameItem: SameItem) {
        text = engines.text.map { text in
            Self.textReading(text, source: source, qualityLevel: qualityLevel,
                             isHighFrameRateTrackingEnabled: isHighFrameRateTrackingEnabled, sameItem: sameItem)
        }
        guard let detector = engines.barcodeDetector else {
            (barcodes, readAheadDepth) = (nil, 0)
            return
        }
        if source.isLive {
            // Reading ahead would only add latency: a live scan takes the newest frame, not the next.
            (barcodes, readAheadDepth) = (WholeFrameReading(detector), 0)
        } else if source.isVideo, let interval = qualityLevel.barcodeWholeReadInterval,
                  let regionDetector = detector as? any RegionBarcodeDetector {
            let reader = ChangeGatedBarcodeReader(detector: regionDetector,
                                                  configuration: .init(fullReadInterval: interval), sameItem: sameItem)
            let depth = Self.gatedReadAheadDepth(width: source.info.width, height: source.info.height,
                                                 readsText: engines.text != nil)
            (barcodes, readAheadDepth) = (reader, depth)
        } else {
            (barcodes, readAheadDepth) = (WholeFrameReading(detector), ProcessInfo.processInfo.activeProcessorCount)
        }
    }
}

extension ScanPlan {
    /// A still image's text is read at once; a scene in motion's, its lines remembered while
    /// `isHighFrameRateTrackingEnabled` (every line read every frame otherwise), the learned detector turning
    /// beside the locator at levels that run it (`QualityLevel.textDetectorInterval`).
    private static func textReading(_ engines: TextEngines, source: FrameSource, qualityLevel: QualityLevel,
                                    isHighFrameRateTrackingEnabled: Bool, sameItem: SameItem) -> any TextReading {
        if source.holdsStillImages {
            return StillTextReading(engines: engines)
        }
        let cache = isHighFrameRateTrackingEnabled
            ? TextReadingCache(rereadInterval: qualityLevel.textRereadInterval, sameItem: sameItem) : nil
        let detector = engines.detected.flatMap { boxReader in
            qualityLevel.textDetectorInterval.map { interval in
                TextDetectorCadence(boxReader: boxReader, interval: interval,
                                    droppedFrames: source.isLive ? { source.droppedFrames } : nil, sameItem: sameItem)
            }
        }
        return MotionTextReading(recognizer: engines.lines, cache: cache, detector: detector)
    }

    /// Frames of a video file decoded ahead of its gated reading: enough to absorb the reading's bursts (a whole
    /// read takes as long as decoding 8 frames at 720p) and busy stretches, so that the decoder, the scan's longest
    /// chain, seldom waits; at most 128 MB of decoded frames (4:2:0, 1.5 bytes a pixel), 24 MB in a scan that also
    /// reads text, whose models hold most of its memory and whose reading, not the decoder, sets its pace; 8 to
    /// 128 frames (4 s at 30 fps). Barcodes only: 92 at 720p, 41 at 1080p, 10 at 4K; with text: 17 and 8. The
    /// measurements behind the budgets: docs/benchmark-history.md, "Read-ahead depth".
    static func gatedReadAheadDepth(width: Int, height: Int, readsText: Bool) -> Int {
        let frameBytes = max(1, width * height * 3 / 2)
        let budget = readsText ? 24_000_000 : 128_000_000
        return min(128, max(8, budget / frameBytes))
    }
}

/// The scan's frames in order, each with its barcodes when the read-ahead decoded them already.
final class FrameFeed {
    private let source: FrameSource
    private let readAhead: BarcodeReadAhead?

    init(source: FrameSource, plan: ScanPlan) {
        self.source = source
        readAhead = plan.barcodes.flatMap { reading in
            plan.readAheadDepth > 0 ? BarcodeReadAhead(source: source, reading: reading, depth: plan.readAheadDepth)
                : nil
        }
    }

    /// The next frame, and its barcodes if they were read ahead (nil: not read yet); nil at the end.
    func next() throws -> (frame: Frame, barcodes: [Observation]?)? {
        if let readAhead {
            return try readAhead.next().map { ($0.frame, $0.barcodes) }
        }
        return try source.nextFrame().map { ($0, nil) }
    }

    /// Waits for the read-ahead's threads: after this, nothing reads the source but the caller.
    func stop() {
        readAhead?.stop()
    }
}
