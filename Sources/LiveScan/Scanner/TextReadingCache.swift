/// OCR that costs only what changes: the lines found in this frame are matched to the lines found in
/// recent frames by overlap; a line read consistently before is not read again until its re-read interval
/// has passed, and its last reading is carried to where the line is now. A new line is read, read again
/// in the next frame to confirm, then rests: `rereadInterval` frames, doubling with each agreeing
/// re-read up to 16x the interval (the vote has converged; the rare re-read still catches a display whose
/// text changes in place). Regions that read as nothing (textures, codes) rest too, so junk is not
/// re-read every frame.
///
/// This is what `isHighFrameRateTrackingEnabled` means here: line localisation (about 1.5 ms at 720p)
/// keeps every line's bounds current every frame; Tesseract (about 10 ms a line) runs only on news.
struct TextReadingCache: Sendable {
    private struct Entry: Sendable {
        var region: Bounds
        var reading: Observation?
        var lastRead: Int
        /// Consecutive readings that agreed; 2 or more means the line may rest.
        var agreeing: Int
        var lastSeen: Int
    }

    /// Frames between the first re-reads of a line that has settled (default 15: twice a second at 30 fps).
    let rereadInterval: Int
    /// Least overlap (IoU) between this frame's region and a remembered one to be the same line.
    let sameLineOverlap = 0.5
    private var entries: [Entry] = []

    init(rereadInterval: Int = 15) {
        self.rereadInterval = max(rereadInterval, 1)
    }

    /// Agreeing readings 2, 3, 4 ... rest 1x, 2x, 4x ... the interval, at most 16x (8 s at 15 frames, 30 fps).
    private func rest(afterAgreeing agreeing: Int) -> Int {
        rereadInterval << min(max(agreeing - 2, 0), 4)
    }

    /// The lines in `regions`, read with `read` only where the cache cannot answer.
    mutating func lines(in regions: [Bounds], frame: Int, read: (Bounds) throws -> Observation?) rethrows
        -> [Observation]
    {
        var result: [Observation] = []
        var used = Set<Int>()
        for region in regions {
            // The free remembered line overlapping this region most, each overlap computed once.
            let match = entries.indices.filter { !used.contains($0) }
                .map { (index: $0, overlap: entries[$0].region.intersectionOverUnion(region)) }
                .max { $0.overlap < $1.overlap }
            if let index = match?.index, let overlap = match?.overlap, overlap >= sameLineOverlap {
                used.insert(index)
                var entry = entries[index]
                let moved = (dx: region.center.x - entry.region.center.x, dy: region.center.y - entry.region.center.y)
                entry.region = region
                entry.lastSeen = frame
                if entry.agreeing >= 2 && frame - entry.lastRead < rest(afterAgreeing: entry.agreeing) {
                    if var reading = entry.reading {
                        reading.bounds = reading.bounds.offsetBy(dx: moved.dx, dy: moved.dy)
                        entry.reading = reading
                        result.append(reading)
                    }
                } else {
                    let reading = try read(region)
                    entry.agreeing = reading?.transcript == entry.reading?.transcript ? entry.agreeing + 1 : 1
                    entry.reading = reading
                    entry.lastRead = frame
                    if let reading {
                        result.append(reading)
                    }
                }
                entries[index] = entry
            } else {
                let reading = try read(region)
                entries.append(Entry(region: region, reading: reading, lastRead: frame, agreeing: 1, lastSeen: frame))
                used.insert(entries.count - 1)
                if let reading {
                    result.append(reading)
                }
            }
        }
        // A line unseen for a few frames has left or was hidden: read it afresh when it is back.
        entries.removeAll { frame - $0.lastSeen > 5 }
        return result
    }
}
