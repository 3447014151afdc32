import Dispatch
import Foundation

/// One frame's observations: its barcodes (read here unless the read-ahead read them) and its text lines,
/// the two side by side (one core each); then the parts of structured-append sequences complete in this scan
/// become their messages, and text inside a decoded code, pieces of lines and lines of kinds
/// not asked for are dropped, and only what lies in the region of interest is kept. The reading cache keeps
/// Tesseract to lines that are new. Text is looked for by the edge locator in every frame and, in video and live
/// scans that have one, by the learned detector at its cadence: its boxes add the text the locator did not find.
struct FrameRecognizer {
    let barcodes: (any BarcodeReading)?
    let text: (any TextRecognizer)?
    var textCache: TextReadingCache?
    let textDetector: TextDetectorCadence?
    /// Structured-append parts seen so far in this scan.
    var sequences = StructuredAppendAssembly()
    /// nil = every line of text; otherwise only lines holding one of these kinds of content.
    let textContentTypes: Set<TextContentType>?

    init(plan: ScanPlan, textContentTypes: Set<TextContentType>?) {
        barcodes = plan.barcodes
        text = plan.text
        textCache = plan.textCache
        textDetector = plan.textDetector
        self.textContentTypes = textContentTypes
    }

    /// Waits for the text detector's turn in progress, if any: call once the scan's last frame is done.
    func stop() {
        textDetector?.stop()
    }

    /// Where the edge locator and the detector found the same text, the region that is read. A located region
    /// about as tall as a box it holds (at most `sameLineHeightRatio` times) is that box's line: the locator's, kept
    /// current in every frame (a line entering the frame grows in it, where the detector's box was cut as it was
    /// at its turn). A located region much taller than the boxes in it is a blob of several lines or texture
    /// around them, as on a scene (ICDAR 2015's photos): the detector's boxes are read, tight around the text and
    /// at its angle, and the blob is not.
    static func oneRegionPerText(located: [Bounds], detected: [DetectedLine])
        -> (located: [Bounds], detected: [DetectedLine])
    {
        let lines = detected.filter { line in !located.contains { isLine(of: line.bounds, located: $0) } }
        let boxes = lines.map(\.bounds)
        let regions = located.filter { region in
            !region.isMostlyCovered(by: boxes) && !boxes.contains { $0.isMostlyCovered(by: [region]) }
        }
        return (regions, lines)
    }

    /// Whether the located region `region` is the line of the detector's `box`: it covers the box and is at most
    /// `sameLineHeightRatio` times as tall.
    static func isLine(of box: Bounds, located region: Bounds) -> Bool {
        box.isMostlyCovered(by: [region]) && region.height <= sameLineHeightRatio * box.shortSide
    }

    /// A located line's region is 1.5 times as tall as its ink (its margins), a detector's box about 1.3-1.6 times
    /// (DB's unclip); a region holding two lines is over 2.5 times the ink.
    static let sameLineHeightRatio = 1.5

    mutating func observations(in frame: Frame, decodedBarcodes: [Observation]?, regionOfInterest: Bounds?)
        throws -> [Observation]
    {
        let allLocated = try text?.lineRegions(in: frame) ?? []
        let (located, detected) = Self.oneRegionPerText(
            located: allLocated, detected: try textDetector?.lines(in: frame, located: allLocated) ?? [])
        let results = ConcurrentResults()
        results.textCache = textCache
        let readText: @Sendable () throws -> Void = { [text] in
            guard let text else { return }
            // The detector's boxes come read by its turn.
            let detectedLines = detected.compactMap(\.reading)
            if var cache = results.textCache {
                results.lines = try cache.lines(in: located, frame: frame.index,
                                                // Pixels that cannot be taken or compared only leave the line to its rest.
                                                look: { (try? LineAppearance(of: $0, in: frame)) ?? nil },
                                                differs: { (try? $0.differs(in: frame)) ?? false },
                                                read: { try text.readLine(in: frame, region: $0) })
                    + detectedLines
                results.textCache = cache
            } else {
                results.lines = try text.readLines(in: frame, regions: located) + detectedLines
            }
        }
        if let decodedBarcodes {
            results.barcodes = decodedBarcodes
            try readText()
        } else {
            DispatchQueue.concurrentPerform(iterations: 2) { [barcodes] task in
                do {
                    if task == 0 {
                        results.barcodes = try barcodes?.barcodes(in: frame) ?? []
                    } else {
                        try readText()
                    }
                } catch {
                    results.record(error)
                }
            }
        }
        textCache = results.textCache
        if let error = results.error {
            throw error
        }
        let codes = sequences.assemble(results.barcodes.withoutRepeatedCodes())
        let codeBounds = codes.map(\.bounds)
        var lines = results.lines.filter { !$0.bounds.isMostlyCovered(by: codeBounds) }.withoutPiecesOfLines()
        if let wanted = textContentTypes {
            lines = lines.filter { line in wanted.contains { $0.matches(line.transcript ?? "") } }
        }
        let observations = codes + lines
        guard let box = regionOfInterest?.boundingBox else { return observations }
        return observations.filter {
            let center = $0.bounds.center
            return center.x >= box.minX && center.x <= box.maxX && center.y >= box.minY && center.y <= box.maxY
        }
    }
}

/// What the two engines of one frame found, written from two threads (each its own field).
private final class ConcurrentResults: @unchecked Sendable {
    var barcodes: [Observation] = []
    var lines: [Observation] = []
    var textCache: TextReadingCache?
    private let lock = NSLock()
    private(set) var error: Error?

    func record(_ failure: Error) {
        lock.withLock {
            if error == nil {
                error = failure
            }
        }
    }
}
