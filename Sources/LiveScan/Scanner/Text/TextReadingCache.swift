/// OCR that costs only what changes: the lines found in this frame are matched to the lines found in
/// recent frames by place (`SameItem`: they have not been read yet); a line read consistently before is not
/// read again until its re-read interval has passed or its region grew, and its last reading is carried to
/// where the line is now. A new line is read, read again in the next frame to confirm, then rests:
/// `rereadInterval` frames, doubling with each agreeing re-read up to 16x the interval (the vote has
/// converged). A resting line whose pixels changed where it stands (`LineAppearance`: a slide, a display, a label
/// replaced in place) is read at once, and when two fresh readings agree on other text than it had settled on, the
/// reading is marked a new value (`Observation.isNewValue`): the tracker takes it as what the line says now, not as
/// one more vote against its past. Regions that read as nothing (textures, codes) rest too, so junk is not re-read
/// every frame.
///
/// This is what `isHighFrameRateTrackingEnabled` means here: line localisation (about 1.5 ms at 720p)
/// keeps every line's bounds current every frame; Tesseract (about 10 ms a line) runs only on news.
struct TextReadingCache: Sendable {
    private struct Entry: Sendable {
        var region: Bounds
        /// The region as it was when last read.
        var readRegion: Bounds
        /// The region as it was when last read, carried along with the line: where the line that was read is now.
        var line: Bounds
        var reading: Observation?
        var lastRead: Int
        /// Its fresh readings; confirmed, the line may rest.
        var votes = ReadingVotes()
        /// Whether it has ever read as text: a line that then reads as nothing is most likely leaving the
        /// frame or passing through blur, and is tried again sooner than junk.
        var wasText: Bool
        var lastSeen: Int
        /// The pixels it was last read in.
        var appearance: LineAppearance?
        /// The transcript its last agreeing readings gave.
        var settledText: String?
        /// The settled transcript from before its pixels changed; nil while no change waits to be confirmed.
        var textBeforeChange: String?
    }

    /// Frames between the first re-reads of a line that has settled (default 15: twice a second at 30 fps).
    let rereadInterval: Int
    /// What makes this frame's region a remembered line: the tracker's rule.
    let sameItem: SameItem
    private var entries: [Entry] = []

    init(rereadInterval: Int = 15, sameItem: SameItem = SameItem(configuration: TrackerConfiguration())) {
        self.rereadInterval = max(rereadInterval, 1)
        self.sameItem = sameItem
    }

    /// Agreeing readings 2, 3, 4 ... rest 1x, 2x, 4x ... the interval, at most 16x (8 s at 15 frames, 30 fps).
    /// A line that read as text and now reads as nothing rests 1, 2, 4 ... frames up to that: it would
    /// otherwise stay unseen for as long as a tracker waits before it calls an item gone.
    private func rest(of entry: Entry) -> Int {
        let doublings = min(entry.votes.agreeingSinceConfirmed, 4)
        let rest = rereadInterval << doublings
        return entry.reading == nil && entry.wasText ? min(1 << doublings, rest) : rest
    }

    /// The lines in `regions`, read with `read` only where the cache cannot answer. `look` keeps the pixels a
    /// line is read in, and `differs` tells whether this frame shows other pixels there (without them, or when they
    /// cannot be taken, a resting line rests).
    mutating func lines(in regions: [Bounds], frame: Int, look: (Bounds) -> LineAppearance? = { _ in nil },
                        differs: (LineAppearance) -> Bool = { _ in false },
                        read: (Bounds) throws -> Observation?) rethrows -> [Observation]
    {
        var result: [Observation] = []
        let matches = rememberedLines(of: regions)
        // Where each line found again in this frame is now, whole: a region left over inside one is a piece of it.
        let linesNow = zip(regions, matches).compactMap { region, match in
            match.map { index in
                let moved = Self.move(from: entries[index].region, to: region)
                return entries[index].line.offsetBy(dx: moved.dx, dy: moved.dy)
            }
        }
        for (region, match) in zip(regions, matches) {
            if let index = match {
                var entry = entries[index]
                let moved = Self.move(from: entry.region, to: region)
                entry.line = entry.line.offsetBy(dx: moved.dx, dy: moved.dy)
                // The pixels a line was read in are looked for again only while it stands there (its region up to
                // the last frame within a pixel of where it was read): a slide, a display, a label before a still
                // camera. A line that moves is read again by its rest, its growth and the locator's regions.
                let stoodStill = entry.region.largestCornerMove(to: entry.readRegion) <= 1
                entry.region = region
                entry.lastSeen = frame
                // A region that grew by half a line height, about a character, holds more than was read (a line
                // entering the frame): that is news. One that shrank (leaving, half hidden, or found as two
                // pieces) holds less, and the line still says what it said.
                let grew = region.width >= entry.readRegion.width + 0.5 * region.height
                let looksChanged = stoodStill && entry.settledText != nil
                    && entry.appearance.map(differs) == true
                let rests = entry.votes.isConfirmed && frame - entry.lastRead < rest(of: entry) && !grew
                if rests && !looksChanged {
                    if var reading = entry.reading {
                        reading.bounds = reading.bounds.offsetBy(dx: moved.dx, dy: moved.dy)
                        entry.reading = reading
                        result.append(reading)
                    }
                } else {
                    let previous = entry.reading
                    var reading = try read(region)
                    let agrees = reading?.transcript == previous?.transcript
                    // Read because its pixels changed, a line that reads as it did was only re-read early, as at the end
                    // of a rest; one that reads as other text (a slide, a display, a label replaced in place) waits
                    // for the next fresh reading to confirm it.
                    if looksChanged && rests && !agrees {
                        entry.textBeforeChange = entry.settledText
                    }
                    entry.votes.count(agrees: agrees)
                    if entry.votes.isConfirmed {
                        if let before = entry.textBeforeChange {
                            // Two fresh readings since its pixels changed agree: this is what the line says now.
                            let saysOtherText = reading?.transcript != before
                            reading?.isNewValue = saysOtherText
                            entry.textBeforeChange = nil
                        }
                        entry.settledText = reading?.transcript
                    }
                    entry.reading = reading
                    entry.reading?.isNewValue = false  // news once; carried on, it is the line's value
                    entry.wasText = entry.wasText || reading != nil
                    entry.readRegion = region
                    entry.line = region
                    entry.lastRead = frame
                    entry.appearance = look(region)
                    if entry.textBeforeChange != nil && !entry.votes.isConfirmed {
                        // Not confirmed yet: given now, the reading would be one vote among the old text's and move
                        // the old text's item onto the new text's place. The line stays what it was, where it was,
                        // for that frame (unseen, its item would be lost, and a piece or another box of it could
                        // start a second item).
                        if let previous {
                            result.append(previous)
                        }
                    } else if let reading {
                        result.append(reading)
                    }
                }
                entries[index] = entry
            } else if !linesNow.contains(where: { region.share(coveredBy: $0) >= SameItem.withinShare }) {
                // A line found whole in an earlier frame and in pieces in this one (the locator split it at a word
                // of other height, an occluder cut it) is one line, read where one of its pieces was found again:
                // each other piece, read as a line of its own, would be an item beside it with one of its words.
                let reading = try read(region)
                entries.append(Entry(region: region, readRegion: region, line: region, reading: reading,
                                     lastRead: frame, wasText: reading != nil, lastSeen: frame,
                                     appearance: look(region)))
                if let reading {
                    result.append(reading)
                }
            }
        }
        // A line unseen for a few frames has left or was hidden: read it afresh when it is back.
        entries.removeAll { frame - $0.lastSeen > 5 }
        return result
    }

    /// How far a line moved from `earlier` to `region`. A region about as long as before (within half its height, a
    /// character) moved with its line: its centre's move. One that grew or shrank along the line (entering or leaving
    /// the frame, found in pieces, joined to a label beside it, cut by an occluder) holds a part of the line, or the
    /// line and more, and the line moved only as far as its edges require: not at all when they moved opposite ways,
    /// else as the edge that moved least (the centre's move carried a line found as its first third a third of its
    /// length off it).
    static func move(from earlier: Bounds, to region: Bounds) -> (dx: Double, dy: Double) {
        let (before, now) = (earlier.boundingBox, region.boundingBox)
        let dy = region.center.y - earlier.center.y
        guard abs(region.width - earlier.width) > 0.5 * region.height else {
            return (region.center.x - earlier.center.x, dy)
        }
        let left = now.minX - before.minX, right = now.maxX - before.maxX
        return (left * right <= 0 ? 0 : abs(left) < abs(right) ? left : right, dy)
    }

    /// Whether the line remembered at `region`'s place (`SameItem.isSamePlace`) was last read surely
    /// (`DetectedLineReading.tesseractSureConfidence`, the confidence at which Tesseract's words stand alone): crisp
    /// printed text, which a learned reader would not read better, whether it has settled or is still entering the
    /// frame (each growth read anew).
    func readsSurely(_ region: Bounds) -> Bool {
        entries.contains { entry in
            sameItem.isSamePlace(region, as: entry.region)
                && (entry.reading?.confidence ?? 0) >= DetectedLineReading.tesseractSureConfidence
        }
    }

    /// The remembered line each region is, if any, each used once: first the lines at the same place, then,
    /// for the regions left, a line left that it grew from or shrank to (entering or leaving the frame).
    private func rememberedLines(of regions: [Bounds]) -> [Int?] {
        var match = [Int?](repeating: nil, count: regions.count)
        var used = Set<Int>()
        for isRemembered in [sameItem.isSamePlace, SameItem.isGrownOrShrunk] {
            for (index, region) in regions.enumerated() where match[index] == nil {
                // The free remembered line overlapping this region most, each overlap computed once.
                let best = entries.indices.filter { !used.contains($0) }
                    .map { (entry: $0, overlap: entries[$0].region.intersectionOverUnion(region)) }
                    .max { $0.overlap < $1.overlap }
                if let entry = best?.entry, isRemembered(region, entries[entry].region) {
                    match[index] = entry
                    used.insert(entry)
                }
            }
        }
        return match
    }
}
