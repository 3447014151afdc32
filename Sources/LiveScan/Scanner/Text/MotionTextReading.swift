/// A video's or a live source's text: a scene in motion, whose lines stay from frame to frame. The lines are
/// located in every frame (`TextRecognizer.lineRegions`: about 1.5 ms at 720p keeps every line's bounds current);
/// the reading cache keeps Tesseract to lines that are new, changed or due (`TextReadingCache`); and, at levels that
/// run it, the learned detector takes turns beside the locator (`TextDetectorCadence`), its boxes adding the text
/// the locator did not find, and each turn judges the locator's lines it saw: where it found no text, a line that
/// Tesseract does not read surely is a texture, no longer read (`TextReadingCache.judge`).
///
/// Called on the scan's worker, one frame after another (`@unchecked Sendable`: its cache is that thread's).
final class MotionTextReading: TextReading, @unchecked Sendable {
    private let recognizer: any TextRecognizer
    /// Lines read in earlier frames, not read again until they change (nil: every line read every frame).
    private var cache: TextReadingCache?
    private let detector: TextDetectorCadence?

    init(recognizer: any TextRecognizer, cache: TextReadingCache?, detector: TextDetectorCadence?) {
        self.recognizer = recognizer
        self.cache = cache
        self.detector = detector
    }

    func lines(in frame: Frame, viewObscured: Bool) throws -> [Observation] {
        let allLocated = try recognizer.lineRegions(in: frame)
        let surelyRead = cache.map { cache in allLocated.filter(cache.readsSurely) } ?? []
        let followed = try detector?.lines(in: frame, located: allLocated, surelyRead: surelyRead,
                                           viewObscured: viewObscured) ?? []
        let (located, detected) = Self.oneRegionPerText(located: allLocated, surelyRead: surelyRead,
                                                        detected: followed)
        // The detector's boxes come read by its turn.
        let detectedLines = detected.compactMap(\.reading)
        guard var cache else {
            return try recognizer.readLines(in: frame, regions: located) + detectedLines
        }
        if let detector {
            if detector.newViewFrame == frame.index {
                // Another view's lines: a line at a remembered line's place is another line.
                cache.forgetLines()
            }
            if let turn = detector.takenTurn {
                cache.judge(frame: turn.frame) { region in Self.holdsText(region, of: turn.boxes) }
            }
        }
        let lines = try cache.lines(in: located, frame: frame.index,
                                    // Pixels that cannot be taken or compared only leave the line to its rest.
                                    look: { (try? LineAppearance(of: $0, in: frame)) ?? nil },
                                    differs: { (try? $0.differs(in: frame)) ?? false },
                                    holdsNoText: { region in
                                        detector?.viewTurn.map {
                                            Self.holdsNoText(region, turnBoxes: $0.boxes,
                                                             followed: followed.map(\.bounds))
                                        } ?? false
                                    },
                                    // Pixels that cannot be taken or looked for are read.
                                    turnSaw: { (try? detector?.turnSaw($0, in: frame)) ?? false },
                                    read: { try recognizer.readLine(in: frame, region: $0) })
        self.cache = cache
        return lines + detectedLines
    }

    func stop() {
        detector?.stop()
    }

    /// Where the edge locator and the detector found the same text, the region that is read. A located region
    /// about as tall as a box it holds (at most `sameLineHeightRatio` times) is that box's line. When Tesseract read
    /// it surely (`surelyRead`: crisp printed text, `TextReadingCache.readsSurely`), or it holds more of the line
    /// than the box (a line entering the frame grows in it, where the detector's box was cut as it was at its turn:
    /// `keepsLine`), it stays the locator's, kept current in every frame and read again when its pixels change in
    /// place. Otherwise, as scene text mostly is, the box is
    /// read, rectified upright at its angle and by both readers (the learned recogniser reads scene words far better
    /// than Tesseract: Benchmarks/text-detector-study.md), and the located region is not. A located region much
    /// taller than the boxes in it is a blob of several lines or texture around them, as on a scene (ICDAR 2015's
    /// photos): the detector's boxes are read, tight around the text, and the blob is not.
    static func oneRegionPerText(located: [Bounds], surelyRead: [Bounds], detected: [DetectedLine])
        -> (located: [Bounds], detected: [DetectedLine])
    {
        let lines = detected.filter { line in
            !located.contains { keepsLine($0, over: line.bounds, surelyRead: surelyRead) }
        }
        let boxes = lines.map(\.bounds)
        return (located.filter { !holdsText($0, of: boxes) }, lines)
    }

    /// Whether the learned detector, whose latest turn of this view found `turnBoxes` and whose boxes followed from it
    /// are at `followed` now, found no text at `region`: the turn looked at the whole frame, so a region holding none
    /// of the text where it was or where it is now holds none. At the frame's edge too: a line that came into view
    /// since the turn is cut by the edge, and Tesseract's unsure reading of it is a piece of a word at best (`VAI`
    /// and `DA` of a `SALE` entering the view); the next turn boxes it where it is text, and its box is read by both
    /// readers.
    static func holdsNoText(_ region: Bounds, turnBoxes: [Bounds], followed: [Bounds]) -> Bool {
        !holdsText(region, of: turnBoxes + followed)
    }

    /// Whether the located region `region` and one of the detector's `boxes` hold the same text: the region lies
    /// mostly in the box or the box mostly in the region (`isMostlyCovered`).
    static func holdsText(_ region: Bounds, of boxes: [Bounds]) -> Bool {
        region.isMostlyCovered(by: boxes) || boxes.contains { $0.isMostlyCovered(by: [region]) }
    }

    /// Whether the located region `region`, the line of the detector's `box`, is read rather than the box: while
    /// Tesseract reads it surely (it is in `surelyRead`), or while it holds more of the line than the box (longer by
    /// half its height, a character: a line entering the frame, whose box was cut at the turn).
    static func keepsLine(_ region: Bounds, over box: Bounds, surelyRead: [Bounds]) -> Bool {
        guard isLine(of: box, located: region) else { return false }
        return surelyRead.contains(region)
            || region.width >= box.boundingBox.maxX - box.boundingBox.minX + 0.5 * region.height
    }

    /// Whether the located region `region` is the line of the detector's `box`: it covers the box and is at most
    /// `sameLineHeightRatio` times as tall.
    static func isLine(of box: Bounds, located region: Bounds) -> Bool {
        box.isMostlyCovered(by: [region]) && region.height <= sameLineHeightRatio * box.shortSide
    }

    /// A located line's region is 1.5 times as tall as its ink (its margins), a detector's box about 1.3-1.6 times
    /// (DB's unclip); a region holding two lines is over 2.5 times the ink.
    static let sameLineHeightRatio = 1.5
}
