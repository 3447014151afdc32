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
/// The locator's region of a line is not always the line: from frame to frame it finds it whole, as its first words,
/// cut by an occluder, joined to a border, a hand or the line beside it. Each line is remembered where it was read
/// (`Entry.line`); a region within it is a piece of it (not a line of its own, and, read as a stretch of its text,
/// it leaves the line its reading), a region grown past it that reads as nothing or as less leaves it its reading,
/// and a region joining two lines is neither (shelf-pan at `fast`: one line was three items, another took its
/// neighbour's text).
///
/// This is what `isHighFrameRateTrackingEnabled` means here: line localisation (about 1.5 ms at 720p)
/// keeps every line's bounds current every frame; Tesseract (about 10 ms a line) runs only on news.
struct TextReadingCache: Sendable {
    private struct Entry: Sendable {
        /// Where it was in its last `regionsKept` frames, oldest first, never empty: a learned detector's turn is
        /// judged (`judge`) some frames after the frame it looked at.
        private(set) var recentRegions: [(frame: Int, region: Bounds)]
        /// The region as it was when last read.
        var readRegion: Bounds
        /// Where the line that was read is now: the region it was read in, carried along as the locator finds it
        /// (`TextReadingCache.line`), whole or in pieces.
        var line: Bounds
        var reading: Observation?
        var lastRead: Int
        /// Its fresh readings; confirmed, the line may rest.
        var votes = ReadingVotes()
        /// Whether it has ever read as text: a line that then reads as nothing is most likely leaving the
        /// frame or passing through blur, and is tried again sooner than junk.
        var wasText: Bool
        /// The pixels it was last read in.
        var appearance: LineAppearance?
        /// The transcript its last agreeing readings gave.
        var settledText: String?
        /// The settled transcript from before its pixels changed; nil while no change waits to be confirmed.
        var textBeforeChange: String?
        /// Whether the learned detector's latest turn that saw it found no text there (`judge`): it is not read and
        /// gives nothing until it grows (text entering the frame) or a later turn finds text there.
        var isTextless = false

        /// Whether its last reading was sure (`DetectedLineReading.tesseractSureConfidence`).
        var wasReadSurely: Bool {
            (reading?.confidence ?? 0) >= DetectedLineReading.tesseractSureConfidence
        }

        /// Where it was last seen.
        var region: Bounds { recentRegions[recentRegions.count - 1].region }
        /// The frame it was last seen in.
        var lastSeen: Int { recentRegions[recentRegions.count - 1].frame }

        /// Found at `region` in the frame `frame`.
        mutating func seen(at region: Bounds, frame: Int) {
            recentRegions.append((frame, region))
            if recentRegions.count > TextReadingCache.regionsKept {
                recentRegions.removeFirst(recentRegions.count - TextReadingCache.regionsKept)
            }
        }
    }

    /// Frames for which each line's place is kept for `judge`: 2 s at 30 fps, more than a detector turn takes on a
    /// loaded machine (a file's scan judges a turn 10 frames after it: `TextDetectorCadence.fileLag`).
    static let regionsKept = 64

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
    /// cannot be taken, a resting line rests). `holdsNoText`: whether the learned detector, having looked at this view,
    /// found no text at a region, which judges a line found after its turn as `judge` judges the lines it saw;
    /// `turnSaw`: whether that turn saw the pixels a region shows now (they were in view then).
    mutating func lines(in regions: [Bounds], frame: Int, look: (Bounds) -> LineAppearance? = { _ in nil },
                        differs: (LineAppearance) -> Bool = { _ in false },
                        holdsNoText: (Bounds) -> Bool = { _ in false },
                        turnSaw: (Bounds) -> Bool = { _ in false },
                        read: (Bounds) throws -> Observation?) rethrows -> [Observation]
    {
        var result: [Observation] = []
        let joined = regions.map(joinsLines)
        let matches = rememberedLines(of: regions, except: joined)
        // Where each line found again in this frame is now, whole: a region left over inside one is a piece of it.
        let lineNow = zip(regions, matches).map { region, match in
            match.map { Self.line(entries[$0].line, from: entries[$0].region, to: region) }
        }
        let linesNow = lineNow.compactMap { $0 }
        for (position, region) in regions.enumerated() {
            if let index = matches[position], let lineNow = lineNow[position] {
                var entry = entries[index]
                let moved = (dx: lineNow.center.x - entry.line.center.x, dy: lineNow.center.y - entry.line.center.y)
                entry.line = lineNow
                // The pixels a line was read in are looked for again only while it stands there (its region up to
                // the last frame within a pixel of where it was read): a slide, a display, a label before a still
                // camera. A line that moves is read again by its rest, its growth and the locator's regions.
                let stoodStill = entry.region.largestCornerMove(to: entry.readRegion) <= 1
                entry.seen(at: region, frame: frame)
                // A region that grew by half a line height, about a character, holds more than was read (a line
                // entering the frame): that is news. One that shrank (leaving, half hidden, or found as two
                // pieces) holds less, and the line still says what it said.
                let grew = region.width >= entry.readRegion.width + 0.5 * region.height
                // A textless line that grew is read: text may be coming into view. Where the detector saw no text,
                // a line whose edges merely came and went (a texture's, as the camera drifts) stays textless: unread
                // when the detector saw the pixels it grew to, else read and kept unless sure.
                var grownReading: Observation??
                if entry.isTextless {
                    guard grew else {
                        entries[index] = entry
                        continue
                    }
                    let judged = holdsNoText(region)
                    let reading = judged && turnSaw(region) ? nil : try read(region)
                    if (reading?.confidence ?? 0) < DetectedLineReading.tesseractSureConfidence && judged {
                        entry.readRegion = region
                        entry.line = region
                        entry.lastRead = frame
                        entries[index] = entry
                        continue
                    }
                    entry.isTextless = false
                    grownReading = .some(reading)
                }
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
                    var reading = try grownReading ?? read(region)
                    if var carried = previous, let text = carried.transcript,
                       Self.showsPart(of: text, at: entry.line, reading: reading, in: region)
                    {
                        // The line says what it said, where it moved, until its next rest; the region is taken as
                        // read (a join that stays is not read in every frame, the whole line found again is news).
                        carried.bounds = carried.bounds.offsetBy(dx: moved.dx, dy: moved.dy)
                        if reading != nil {
                            entry.votes.count(agrees: true)
                        }
                        entry.reading = carried
                        entry.readRegion = region
                        entry.lastRead = frame
                        entries[index] = entry
                        result.append(carried)
                        continue
                    }
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
            } else if !joined[position],
                      !linesNow.contains(where: { region.share(coveredBy: $0) >= SameItem.withinShare })
            {
                // A line found whole in an earlier frame and in pieces in this one (the locator split it at a word
                // of other height, an occluder cut it) is one line, read where one of its pieces was found again:
                // each other piece, read as a line of its own, would be an item beside it with one of its words.
                // A region the locator finds after the detector's turn, where that turn found no text and saw the
                // pixels it shows (`turnSaw`: a texture's edges come and go as the camera drifts), is judged by the
                // turn, as the lines it saw are, and is not read: it is textless until it grows (text entering the
                // view, read then) or a later turn finds text there. Read (Tesseract's reading kept when sure), such
                // regions took 3 in 10 of its reads over ICDAR's drifting photos, and not one was given.
                if holdsNoText(region) && turnSaw(region) {
                    var entry = Entry(recentRegions: [(frame, region)], readRegion: region, line: region,
                                      reading: nil, lastRead: frame, wasText: false, appearance: nil)
                    entry.isTextless = true
                    entries.append(entry)
                    continue
                }
                let reading = try read(region)
                var entry = Entry(recentRegions: [(frame, region)], readRegion: region, line: region,
                                  reading: reading, lastRead: frame, wasText: reading != nil,
                                  appearance: look(region))
                // Pixels the turn did not see where it found no text, unless read surely, are judged by it too.
                entry.isTextless = !entry.wasReadSurely && holdsNoText(region)
                entries.append(entry)
                if let reading, !entry.isTextless {
                    result.append(reading)
                }
            }
        }
        // A line unseen for a few frames has left or was hidden: read it afresh when it is back.
        entries.removeAll { frame - $0.lastSeen > 5 }
        return result
    }

    /// Whether `reading`, of `region`, shows only part of the line read as `text` at `line` (where it is now): a
    /// piece of it (shorter by a character: the locator found its first words, an occluder cut it; a line as long
    /// that reads otherwise says something else now, a slide or a display), read as a stretch of its text and not
    /// as the line (`SameItem.isPart`), or a region that holds it and more (an edge, a label's border, a texture the
    /// locator joined to it) that reads as nothing or as a stretch of it, the more having spoiled the crop (a line
    /// entering the frame grows and reads as more, not less). Taken as the line's value, the piece would become the
    /// line and its rest a new item when it is found again; the spoiled crop, a line lost or cut.
    static func showsPart(of text: String, at line: Bounds, reading: Observation?, in region: Bounds) -> Bool {
        let character = 0.5 * region.height
        let holdsMore = line.share(coveredBy: region) >= SameItem.withinShare
            && (region.width >= line.width + character || region.height >= line.height + character)
        guard let piece = reading?.transcript else { return holdsMore }
        let isShorter = region.width < line.width - character
        return (isShorter || holdsMore) && SameItem.isPart(piece, at: region, of: text, at: line)
    }

    /// Where the line read at `line` is now that its region moved from `earlier` to `region`: at `region` when that
    /// is the line found whole (as long and as tall, within a character), else moved as the region's edges require
    /// (`move`). Found whole, the line is where it is found: moves through pieces and joins, which their edges only
    /// bound, do not add up.
    static func line(_ line: Bounds, from earlier: Bounds, to region: Bounds) -> Bounds {
        let character = 0.5 * region.height
        if abs(region.width - line.width) <= character && abs(region.height - line.height) <= character {
            return region
        }
        let moved = move(from: earlier, to: region)
        return line.offsetBy(dx: moved.dx, dy: moved.dy)
    }

    /// How far a line moved from `earlier` to `region`, along each axis. A region about as long (or tall) as before,
    /// within half its height (a character), moved with its line: its centre's move. One that grew or shrank (entering
    /// or leaving the frame, found in pieces, joined to a label beside it or an occluder over it) holds a part of the
    /// line, or the line and more, and the line moved only as far as its edges require: not at all when they moved
    /// opposite ways, else as the edge that moved least (the centre's move carried a line found as its first third a
    /// third of its length off it, and a line joined to the hand over it half the hand's height down).
    static func move(from earlier: Bounds, to region: Bounds) -> (dx: Double, dy: Double) {
        let (before, now) = (earlier.boundingBox, region.boundingBox)
        let character = 0.5 * region.height
        func move(from low: Double, _ high: Double, to newLow: Double, _ newHigh: Double) -> Double {
            let (lowMove, highMove) = (newLow - low, newHigh - high)
            guard abs((newHigh - newLow) - (high - low)) > character else { return (lowMove + highMove) / 2 }
            return lowMove * highMove <= 0 ? 0 : abs(lowMove) < abs(highMove) ? lowMove : highMove
        }
        return (move(from: before.minX, before.maxX, to: now.minX, now.maxX),
                move(from: before.minY, before.maxY, to: now.minY, now.maxY))
    }

    /// Whether `region` is two or more lines read apart joined by the locator (lines side by side on a shelf, a
    /// word's gap narrowed by blur or motion), not one of them grown: it is not the place of a remembered line and
    /// holds two that read as text. Read, it gives one line's text or neither (Tesseract reads the crop as one
    /// line), and the other line would take its value and place; the lines keep their readings until they are
    /// found apart again or leave the cache, after which the region is read as the one line it then is.
    private func joinsLines(_ region: Bounds) -> Bool {
        guard !entries.contains(where: { sameItem.isSamePlace(region, as: $0.region) }) else { return false }
        return entries.filter { $0.reading != nil && $0.line.share(coveredBy: region) >= SameItem.withinShare }
            .count >= 2
    }

    /// Whether the line remembered at `region`'s place (`SameItem.isSamePlace`) was last read surely
    /// (`DetectedLineReading.tesseractSureConfidence`, the confidence at which Tesseract's words stand alone): crisp
    /// printed text, which a learned reader would not read better, whether it has settled or is still entering the
    /// frame (each growth read anew).
    func readsSurely(_ region: Bounds) -> Bool {
        entries.contains { sameItem.isSamePlace(region, as: $0.region) && $0.wasReadSurely }
    }

    /// The learned detector's judgement of the lines its turn on the frame `frame` saw: a line that was there, that
    /// Tesseract did not read surely (the crisp printed text it reads best: `readsSurely`) and whose region there
    /// holds none of the turn's text (`isText`), is a texture the edge locator took for a line. The detector, which
    /// tells text from texture far better than edges do, looked there and found nothing: the line is no longer read,
    /// and what it read is no longer given (ICDAR's photos as video: Tesseract's readings of such regions gave
    /// `bee`, `gar`, `ain` and items of no word at all). A line that grows (text coming into view) is read again, and
    /// given unless it still reads unsurely where the detector found none (`lines`' `holdsNoText`); a later turn
    /// judges each line anew. A line that appeared after the turn's frame is judged where it is now, and one found
    /// after this call by `holdsNoText`.
    mutating func judge(frame: Int, isText: (Bounds) -> Bool) {
        for index in entries.indices {
            let recent = entries[index].recentRegions
            // A line found since the turn's frame, where the turn saw the view, is judged where it is now.
            guard let region = recent.last(where: { $0.frame == frame })?.region
                ?? (recent[0].frame > frame ? entries[index].region : nil) else { continue }
            entries[index].isTextless = !entries[index].wasReadSurely && !isText(region)
        }
    }

    /// Forgets every line: the view changed (a cut, a new picture), and a line at a remembered line's place is
    /// another line, which must be read and judged afresh.
    mutating func forgetLines() {
        entries = []
    }

    /// The remembered line each region is, if any, each used once: first the lines at the same place, then,
    /// for the regions left, a line left that it grew from or shrank to (entering or leaving the frame), then a line
    /// left that it lies within (`Entry.line`): a line the locator finds whole in one frame and as other pieces in
    /// the next (its first word, then its first two) is not where its last piece was, but it is where it was read.
    private func rememberedLines(of regions: [Bounds], except joined: [Bool]) -> [Int?] {
        var match = [Int?](repeating: nil, count: regions.count)
        var used = Set<Int>()
        let rules: [(overlap: (Entry, Bounds) -> Double, isRemembered: (Entry, Bounds) -> Bool)] = [
            ({ $0.region.intersectionOverUnion($1) }, { sameItem.isSamePlace($1, as: $0.region) }),
            ({ $0.region.intersectionOverUnion($1) }, { SameItem.isGrownOrShrunk($1, from: $0.region) }),
            ({ $1.share(coveredBy: $0.line) }, { $1.share(coveredBy: $0.line) >= SameItem.withinShare }),
        ]
        for rule in rules {
            for (index, region) in regions.enumerated() where match[index] == nil && !joined[index] {
                // The free remembered line overlapping this region most, each overlap computed once.
                let best = entries.indices.filter { !used.contains($0) }
                    .map { (entry: $0, overlap: rule.overlap(entries[$0], region)) }
                    .max { $0.overlap < $1.overlap }
                if let entry = best?.entry, rule.isRemembered(entries[entry], region) {
                    match[index] = entry
                    used.insert(entry)
                }
            }
        }
        return match
    }
}
