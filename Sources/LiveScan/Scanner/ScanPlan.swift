import Foundation

/// How one scan reads its source, decided once when it starts from the kind of source, the engines and the
/// quality level. The worker then runs one loop whatever was decided here.
///
/// | source | barcodes | read ahead | text readings remembered | learned text detector |
/// |---|---|---|---|---|
/// | live (camera, stream, `--realtime`) | whole frames, with the text | no: the newest frame wins | yes | every `textDetectorInterval` frames beside the edge locator, its boxes taken when ready |
/// | video file | where the frame changed, whole every `barcodeWholeReadInterval` frames (whole at levels without one, or with a detector that cannot read a region) | 8 frames, in order | yes | as live, its boxes taken `TextDetectorCadence.fileLag` frames after its turn |
/// | images | whole, at full size (`stillImages`) | one frame per core, side by side | no: images are not a scene | finds every line (`TextDetectorRole.findsLines`) |
struct ScanPlan {
    /// How each frame's barcodes are read; nil when no barcodes are looked for.
    let barcodes: (any BarcodeReading)?
    /// Frames whose barcodes are read on other threads ahead of the frame being tracked; 0 = none, the
    /// worker reads the source itself and each frame's barcodes beside its text.
    let readAheadDepth: Int
    let text: (any TextRecognizer)?
    /// Lines read in earlier frames, not read again until they change (nil: every line read every frame).
    let textCache: TextReadingCache?
    /// The learned text detector's turns beside the edge locator: video and live sources at levels that run it
    /// (`QualityLevel.textDetectorInterval`); nil otherwise.
    let textDetector: TextDetectorCadence?

    init(source: FrameSource, engines: ScanEngines, qualityLevel: QualityLevel,
         isHighFrameRateTrackingEnabled: Bool, sameItem: SameItem) {
        text = engines.textRecognizer
        textCache = isHighFrameRateTrackingEnabled && !source.holdsStillImages
            ? TextReadingCache(rereadInterval: qualityLevel.textRereadInterval, sameItem: sameItem) : nil
        textDetector = engines.textRecognizer.flatMap { recognizer in
            qualityLevel.textDetectorInterval.flatMap { interval in
                source.holdsStillImages ? nil
                    : TextDetectorCadence(recognizer: recognizer, interval: interval,
                                          droppedFrames: source.isLive ? { source.droppedFrames } : nil,
                                          sameItem: sameItem)
            }
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
            // Deep enough that a whole read (about 10 ms at 720p) rarely stalls the frames behind it.
            (barcodes, readAheadDepth) = (reader, 8)
        } else {
            (barcodes, readAheadDepth) = (WholeFrameReading(detector), ProcessInfo.processInfo.activeProcessorCount)
        }
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
