import Foundation

/// How one scan reads its source, decided once when it starts from the kind of source, the engines and the
/// quality level. The worker then runs one loop whatever was decided here.
///
/// | source | barcodes | read ahead | text readings remembered | learned text detector |
/// |---|---|---|---|---|
/// | live (camera, stream, `--realtime`) | whole frames, with the text | no: the newest frame wins | yes | every `textDetectorInterval` frames beside the edge locator, its boxes taken when ready |
/// | video file | where the frame changed, whole every `barcodeWholeReadInterval` frames (whole at levels without one, or with a detector that cannot read a region) | up to 128 MB of frames (24 MB with text), 8 to 128 (`gatedReadAheadDepth`), in order | yes | as live, its boxes taken `TextDetectorCadence.fileLag` frames after its turn |
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
            let depth = Self.gatedReadAheadDepth(width: source.info.width, height: source.info.height,
                                                 readsText: engines.textRecognizer != nil)
            (barcodes, readAheadDepth) = (reader, depth)
        } else {
            (barcodes, readAheadDepth) = (WholeFrameReading(detector), ProcessInfo.processInfo.activeProcessorCount)
        }
    }
}

extension ScanPlan {
    /// Frames of a video file decoded ahead of its gated reading. They absorb the reading's bursts (a whole read
    /// takes as long as decoding 8 frames at 720p) and its busy stretches (the bench video's first 20 s, while many
    /// codes move, read slower than they decode; its last 40 s faster), so that the decoder, the scan's longest
    /// chain, seldom waits: on the 1-minute 720p bench video (barcodes only) 8 frames gave 0.63x of
    /// `ffmpeg -threads 1`, 16 gave 0.65x, 32 gave 0.69x (5 alternated runs); 92 took 9 % off 32's wall time (10
    /// alternated runs, faster in all 10: the decoder waited 0.05-0.09 s instead of 0.20-0.27 s), 15 -> 41 frames
    /// 2 % off the 1080p one's. Decoded frames stay in memory until read (4:2:0, 1.5 bytes a pixel): at most 128 MB
    /// of them (barcodes-only peak RSS, as far as the decoder got ahead: 720p 132 MB at 32 frames, 210-213 MB at
    /// 92; 1080p 143 MB at 15, 159-218 MB at 41), 24 MB in a scan that also reads text, whose models hold most of its
    /// memory and whose text reading, not the decoder, sets its pace (1080p text and barcodes: peak RSS 416 MB at
    /// 48 MB of frames, 383 MB at 24); at least 8 frames and at most 128 (4 s at 30 fps). Barcodes only: 92 at 720p,
    /// 41 at 1080p, 10 at 4K; with text: 17 and 8.
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
