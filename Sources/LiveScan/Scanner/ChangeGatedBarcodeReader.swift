import Foundation

/// Video files only: reads a frame's barcodes only where its pixels changed since they were last looked at, and
/// follows codes that merely moved instead of reading them again. A whole read of a 720p frame costs
/// zxing-cpp about 10 ms, while in most video a few codes move over a still background: reading just what
/// is new is what lets barcode scanning keep up with video decoding.
///
/// Each frame is reduced to the mean gray of 16 x 16 cells (about 0.2 ms at 720p). A cell has changed when
/// its mean moved by more than `threshold` since its pixels were last accounted for; sensor noise averages
/// out over a cell, a code moving a pixel does not. Then:
/// - a known code among changed cells is looked for near where its motion puts it (normalised correlation
///   with its own pixels from the frame it was read in); found, it moves there, and the cells it left and
///   entered are accounted for. A code is read again at least every `maxFramesFollowed` frames.
/// - the changed cells left, grown by a margin, form regions; a known code that was not found and touches a
///   region is read again with it, whole; the regions are read.
/// Every `fullReadInterval` frames, or when most of the frame changed, the whole frame is read: that catches
/// what cell means cannot see (a code coming into focus without its mean moving), and gives 2-D codes the second
/// chances a region read leaves to it (`RegionBarcodeDetector`).
///
/// Whatever changed and is not a followed code is read, in every frame it changes: content that only moved is
/// not skipped. A code on a hand-held sheet reads in the frames that happen to be sharp, so each changed frame
/// is a chance to read it. Following the regions that read nothing like codes (read again every third frame)
/// read 39 % fewer cells on the 720p bench video and lost BoofCV's hand-held videos frame recall (QR 0.999 ->
/// 0.982, one code first reported 59 frames late; Micro QR 0.930 -> 0.890); taking the changed cells beside a
/// followed code as its paper when their means matched its move lost Micro QR 0.930 -> 0.851 (a sheet of 18
/// small codes: the neighbours not yet read were taken for paper).
///
/// Frames must come in order, from one thread or serial queue at a time (the read-ahead's).
final class ChangeGatedBarcodeReader: BarcodeReading, @unchecked Sendable {
    /// Each frame is compared with the one before.
    var readsInOrder: Bool { true }

    /// The knobs. On the 720p tracking-mixed scene these read 6 % of the frame a frame (14 % without
    /// following codes) and keep every tracking score; a threshold of 3 with a margin of 2 read 26 % (H.264
    /// noise moves cell means by 3 to 4), and a margin of 0 cut moving codes, which then lost their identity.
    struct Configuration: Equatable {
        /// Cell side in pixels.
        var cell = 16
        /// A cell whose mean gray moved by more than this (0...255) has changed.
        var threshold = 6
        /// Cells added around changed cells, so that a code whose edge moved is read whole.
        var margin = 1
        /// Frames between whole reads (1: every frame is read whole).
        var fullReadInterval: Int
        /// When changed cells are more than this share of the frame, the whole frame is read instead.
        var maxChangedShare = 0.5
        /// A code is followed when its pixels correlate at least this well where it is looked for: codes
        /// that moved score 0.9 to 1 on the tracking scenes, a code entering the frame or half hidden less,
        /// another code under 0.5.
        var minFollowScore = 0.85
        /// Frames a code may be followed before it is read again (0: never followed).
        var maxFramesFollowed = 10
        /// Codes whose box is thinner than this are read again instead of followed: a linear code read on a
        /// few rows looks the same a row up or down.
        var minFollowedSide = 24
    }

    /// Upright cell-index box, both ends included.
    private struct CellBox: Equatable {
        var minX, minY, maxX, maxY: Int

        func grown(by cells: Int, columns: Int, rows: Int) -> CellBox {
            CellBox(minX: max(minX - cells, 0), minY: max(minY - cells, 0),
                    maxX: min(maxX + cells, columns - 1), maxY: min(maxY + cells, rows - 1))
        }

        func intersects(_ other: CellBox) -> Bool {
            minX <= other.maxX && other.minX <= maxX && minY <= other.maxY && other.minY <= maxY
        }

        func union(_ other: CellBox) -> CellBox {
            CellBox(minX: min(minX, other.minX), minY: min(minY, other.minY),
                    maxX: max(maxX, other.maxX), maxY: max(maxY, other.maxY))
        }

        var area: Int { (maxX - minX + 1) * (maxY - minY + 1) }

        /// Whether any cell of the box is true in `cells` (row by row, `columns` a row).
        func contains(where cells: (Int) -> Bool, columns: Int) -> Bool {
            (minY...maxY).contains { row in (minX...maxX).contains { cells(row * columns + $0) } }
        }

        func forEachCell(_ body: (_ column: Int, _ row: Int) -> Void) {
            for row in minY...maxY {
                for column in minX...maxX {
                    body(column, row)
                }
            }
        }
    }

    /// A code found earlier, with what it takes to find it again.
    fileprivate struct KnownCode {
        var observation: Observation
        /// Its gray pixels in the frame it was read in; nil when it was read wholly outside the frame, and then
        /// never followed.
        var pixels: FollowedPixels?
        /// How it moves, in pixels per frame it was located in (read or followed).
        var motion = Motion()
        var framesFollowed = 0

        /// The code as `SameItem` pairs it with a fresh read: `steps` frames on from where it was last located
        /// (0 for a code followed into this frame already).
        func sighting(steps: Double) -> SameItem.Sighting {
            SameItem.Sighting(observation: observation, expected: motion.predicted(observation.bounds, after: steps))
        }
    }

    let configuration: Configuration
    /// What makes a fresh read a known code: the tracker's rule.
    let sameItem: SameItem
    private let detector: any RegionBarcodeDetector
    /// The cell means as they were when each cell was last accounted for.
    private var reference: [UInt8] = []
    private var columns = 0
    private var rows = 0
    private var known: [KnownCode] = []
    /// Codes a region read did not find again, with the frames since each was last located. For
    /// `maxFramesFollowed` frames, a region that touches where one would be now is grown to hold it whole, as for a
    /// known code: a code that a frame's blur or glare made unreadable is still there, and the cells that change
    /// as it moves on may leave a gap across it (a Code 128 moving 1.5 px a frame, unreadable in every other
    /// frame, was read in two halves and missed in 7 frames a whole read found it in).
    private var lost: [(code: KnownCode, frames: Int)] = []
    private var framesSinceFullRead = 0

    /// How the frames were read, for the benchmark and the tests.
    private(set) var wholeReads = 0
    private(set) var regionReads = 0
    /// Frames in which nothing was read: nothing changed, or only codes that moved and were followed.
    private(set) var framesNotRead = 0
    /// Cells read by region reads (whole reads not counted).
    private(set) var cellsRead = 0
    /// Codes found again by their pixels instead of read.
    private(set) var codesFollowed = 0

    init(detector: any RegionBarcodeDetector, configuration: Configuration,
         sameItem: SameItem = SameItem(configuration: TrackerConfiguration())) {
        self.detector = detector
        self.configuration = configuration
        self.sameItem = sameItem
    }

    func barcodes(in frame: Frame) throws -> [Observation] {
        // Its pixels are read many times (cell means, each code's patch, every region read): in CBridge once.
        let frame = try frame.bridged()
        let (means, columns, rows) = try frame.bridgeImage().cellMeans(cell: configuration.cell)
        framesSinceFullRead += 1
        lost = lost.compactMap { $0.frames < configuration.maxFramesFollowed ? ($0.code, $0.frames + 1) : nil }
        guard means.count == reference.count, columns == self.columns, rows == self.rows,
              framesSinceFullRead < configuration.fullReadInterval, !means.isEmpty else {
            return try readWhole(frame, means: means, columns: columns, rows: rows)
        }
        var changed = (0..<means.count).map { abs(Int(means[$0]) - Int(reference[$0])) > configuration.threshold }
        let changedCount = changed.reduce(0) { $1 ? $0 + 1 : $0 }
        if Double(changedCount) > configuration.maxChangedShare * Double(means.count) {
            return try readWhole(frame, means: means, columns: columns, rows: rows)
        }
        let followed = changedCount == 0 ? [] : try followKnownCodes(in: frame, means: means, changed: &changed)
        let regions = regionsToRead(changed: changed, followed: followed)
        if regions.isEmpty {
            framesNotRead += 1
            return known.map(\.observation)
        }
        let fresh = try readRegions(regions, of: frame)
        for region in regions {
            accountFor(region, means: means, changed: &changed)
            cellsRead += region.area
        }
        regionReads += 1
        replaceKnownCodes(with: fresh, readIn: regions, followed: followed)
        return known.map(\.observation)
    }

    /// Follows the known codes next to a change; the cells each left and entered are accounted for. The
    /// indices of those followed.
    private func followKnownCodes(in frame: Frame, means: [UInt8], changed: inout [Bool]) throws -> Set<Int> {
        var followed = Set<Int>()
        for index in known.indices {
            let before = cellBox(of: known[index].observation.bounds)
            let near = before.grown(by: configuration.margin, columns: columns, rows: rows)
            guard near.contains(where: { changed[$0] }, columns: columns), try follow(&known[index], in: frame) else {
                continue
            }
            followed.insert(index)
            accountFor(before.union(cellBox(of: known[index].observation.bounds)), means: means, changed: &changed)
        }
        codesFollowed += followed.count
        return followed
    }

    /// The changed cells, grown by the margin, with every known code not followed that they touch, whole;
    /// overlapping boxes merged.
    private func regionsToRead(changed: [Bool], followed: Set<Int>) -> [CellBox] {
        var regions = Self.merge(changed.indices.filter { changed[$0] }.map { index in
            CellBox(minX: index % columns, minY: index / columns, maxX: index % columns, maxY: index / columns)
                .grown(by: configuration.margin, columns: columns, rows: rows)
        })
        let unfollowed = known.indices.filter { !followed.contains($0) }.map { cellBox(of: known[$0].observation.bounds) }
            + lost.map { cellBox(of: $0.code.motion.predicted($0.code.observation.bounds, after: Double($0.frames))) }
        while true {
            var grown = regions
            for box in unfollowed {
                if let region = grown.firstIndex(where: { $0.intersects(box) }) {
                    grown[region] = grown[region].union(box.grown(by: configuration.margin, columns: columns, rows: rows))
                }
            }
            grown = Self.merge(grown)
            if grown == regions {
                return regions
            }
            regions = grown
        }
    }

    /// Reads the regions side by side: the decoder's thread leaves most of a second core idle.
    private func readRegions(_ regions: [CellBox], of frame: Frame) throws -> [KnownCode] {
        let rects = regions.map { pixelRect(of: $0, frame: frame) }
        let results = RegionResults(count: rects.count)
        DispatchQueue.concurrentPerform(iterations: rects.count) { index in
            results.store(Result { try read(frame, region: rects[index]) }, at: index)
        }
        return try results.all.flatMap { try $0.get() }
    }

    /// Keeps the followed codes and those no region touched; a code read again (paired by `SameItem`, as the
    /// tracker pairs it) replaces itself and hands on its motion, so that a fast code is looked for where it
    /// is going. Only codes a region touched can have been read again: the others' pixels were not looked at,
    /// so a twin read beside one of them is a code of its own. A code a region touched and did not read again
    /// goes to `lost`; one there that a fresh read pairs with leaves it.
    private func replaceKnownCodes(with fresh: [KnownCode], readIn regions: [CellBox], followed: Set<Int>) {
        var fresh = fresh
        let touched = known.indices.filter { index in
            let box = cellBox(of: known[index].observation.bounds)
            return regions.contains { $0.intersects(box) }
        }
        // A code followed into this frame is where it is now: no step to predict, and none to measure.
        let steps = touched.map { followed.contains($0) ? 0.0 : 1.0 }
        let pairs = sameItem.pairs(zip(touched, steps).map { known[$0].sighting(steps: $1) }, fresh.map(\.observation))
        for (candidate, now) in pairs {
            let before = known[touched[candidate]]
            fresh[now].motion = before.motion
            fresh[now].motion.observe(from: before.observation.bounds.center, to: fresh[now].observation.bounds.center,
                                      elapsed: steps[candidate])
        }
        let readAgain = Set(pairs.map { touched[$0.earlier] })
        let touchedNotFollowed = Set(touched.filter { !followed.contains($0) })
        let foundAgain = Set(sameItem.pairs(lost.map { $0.code.sighting(steps: Double($0.frames)) },
                                            fresh.map(\.observation)).map(\.earlier))
        lost = lost.indices.filter { !foundAgain.contains($0) }.map { lost[$0] }
            + touchedNotFollowed.subtracting(readAgain).sorted().map { (known[$0], 1) }
        known = known.indices.filter { !readAgain.contains($0) && !touchedNotFollowed.contains($0) }.map { known[$0] }
            + fresh
    }

    /// Marks the cells of `box` as seen as they are now.
    private func accountFor(_ box: CellBox, means: [UInt8], changed: inout [Bool]) {
        box.forEachCell { column, row in
            changed[row * columns + column] = false
            reference[row * columns + column] = means[row * columns + column]
        }
    }

    private func readWhole(_ frame: Frame, means: [UInt8], columns: Int, rows: Int) throws -> [Observation] {
        known = try read(frame, region: nil)
        lost = []
        reference = means
        self.columns = columns
        self.rows = rows
        framesSinceFullRead = 0
        wholeReads += 1
        return known.map(\.observation)
    }

    private func read(_ frame: Frame, region: PixelRect?) throws -> [KnownCode] {
        try detector.detect(in: frame, region: region).map { observation in
            KnownCode(observation: observation, pixels: try FollowedPixels(observation.bounds, in: frame))
        }
    }

    /// Looks for `code` where its last step would take it; true (and `code` moved) when found.
    private func follow(_ code: inout KnownCode, in frame: Frame) throws -> Bool {
        guard var pixels = code.pixels, code.framesFollowed < configuration.maxFramesFollowed,
              pixels.shortSide >= configuration.minFollowedSide else { return false }
        let step = code.motion.step(after: 1)
        // Room for the step to change by a few pixels, more for fast codes.
        let radius = 4 + Int(max(abs(step.dx), abs(step.dy)).rounded(.up))
        guard let move = try pixels.find(in: frame, step: step, radius: radius, minScore: configuration.minFollowScore)
        else { return false }
        let before = code.observation.bounds
        code.observation.bounds = before.offsetBy(dx: move.dx, dy: move.dy)
        code.motion.observe(from: before.center, to: code.observation.bounds.center, elapsed: 1)
        code.pixels = pixels
        code.framesFollowed += 1
        return true
    }

    /// Merges overlapping boxes until none overlap.
    private static func merge(_ boxes: [CellBox]) -> [CellBox] {
        var result: [CellBox] = []
        for box in boxes {
            var box = box
            while let index = result.firstIndex(where: { $0.intersects(box) }) {
                box = box.union(result.remove(at: index))
            }
            result.append(box)
        }
        return result
    }

    private func cellBox(of bounds: Bounds) -> CellBox {
        let box = bounds.boundingBox
        let cell = Double(configuration.cell)
        func clamped(_ value: Double, _ limit: Int) -> Int { min(max(Int((value / cell).rounded(.down)), 0), limit - 1) }
        return CellBox(minX: clamped(box.minX, columns), minY: clamped(box.minY, rows),
                       maxX: clamped(box.maxX, columns), maxY: clamped(box.maxY, rows))
    }

    /// A cell box in pixels; boxes on the last column or row reach the frame's edge (cells cut by the edge
    /// have no mean of their own).
    private func pixelRect(of box: CellBox, frame: Frame) -> PixelRect {
        let cell = configuration.cell
        let right = box.maxX == columns - 1 ? frame.width : (box.maxX + 1) * cell
        let bottom = box.maxY == rows - 1 ? frame.height : (box.maxY + 1) * cell
        return PixelRect(x: box.minX * cell, y: box.minY * cell, width: right - box.minX * cell,
                         height: bottom - box.minY * cell)
    }
}

/// What the regions of one frame gave, each stored by the thread that read it.
private final class RegionResults: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Result<[ChangeGatedBarcodeReader.KnownCode], Error>]

    init(count: Int) {
        results = Array(repeating: .success([]), count: count)
    }

    func store(_ result: Result<[ChangeGatedBarcodeReader.KnownCode], Error>, at index: Int) {
        lock.withLock { results[index] = result }
    }

    var all: [Result<[ChangeGatedBarcodeReader.KnownCode], Error>] { lock.withLock { results } }
}
