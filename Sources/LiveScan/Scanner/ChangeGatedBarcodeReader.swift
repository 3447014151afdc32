import Foundation

/// Files only: reads a frame's barcodes only where its pixels changed since they were last read, and keeps
/// the codes found elsewhere as they were. A whole read of a 720p frame costs zxing-cpp about 10 ms, while
/// in most video a few codes move over a still background: reading just the changed parts is what lets
/// barcode scanning keep up with video decoding.
///
/// Each frame is reduced to the mean gray of 16 x 16 cells (about 0.2 ms at 720p). A cell has changed when
/// its mean moved by more than `threshold` from the frame in which it was last read; sensor noise averages
/// out over a cell, a code moving a pixel does not. Changed cells, grown by a margin, form regions; a code
/// known from before that touches a region is read again with it, whole, and the regions are read. Every
/// `fullReadInterval` frames, or when most of the frame changed, the whole frame is read: that catches
/// what cell means cannot see (a code coming into focus without its mean moving).
///
/// Frames must come in order, from one thread or serial queue at a time (the read-ahead's).
final class ChangeGatedBarcodeReader: @unchecked Sendable {
    /// The knobs. On the tracking-mixed scene these read 14 % of the frame a frame and keep every tracking
    /// score; a threshold of 3 with a margin of 2 read 26 % (H.264 noise moves cell means by 3 to 4), and a
    /// margin of 0 cut moving codes, which then lost their identity.
    struct Configuration: Equatable {
        /// Cell side in pixels.
        var cell = 16
        /// A cell whose mean gray moved by more than this (0...255) has changed.
        var threshold = 6
        /// Cells added around changed cells, so that a code whose edge moved is read whole.
        var margin = 1
        /// Frames between whole reads (1: every frame is read whole).
        var fullReadInterval: Int
        /// When regions would cover more than this share of the frame, the whole frame is read instead.
        var maxRegionShare = 0.5
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
    }

    let configuration: Configuration
    private let detector: ZXingBarcodeDetector
    /// The cell means as they were when each cell was last read.
    private var reference: [UInt8] = []
    private var columns = 0
    private var rows = 0
    private var known: [Observation] = []
    private var framesSinceFullRead = 0

    /// How the frames were read, for the benchmark and the tests.
    private(set) var wholeReads = 0
    private(set) var regionReads = 0
    private(set) var framesUnchanged = 0
    /// Cells read by region reads (whole reads not counted).
    private(set) var cellsRead = 0

    init(detector: ZXingBarcodeDetector, configuration: Configuration) {
        self.detector = detector
        self.configuration = configuration
    }

    func barcodes(in frame: Frame) throws -> [Observation] {
        let cell = configuration.cell
        let (means, columns, rows) = try frame.image.cellMeans(cell: cell)
        framesSinceFullRead += 1
        guard means.count == reference.count, columns == self.columns, rows == self.rows,
              framesSinceFullRead < configuration.fullReadInterval, !means.isEmpty else {
            return try readWhole(frame, means: means, columns: columns, rows: rows)
        }
        let changed = (0..<means.count).filter { abs(Int(means[$0]) - Int(reference[$0])) > configuration.threshold }
        if changed.isEmpty {
            framesUnchanged += 1
            return known
        }
        if Double(changed.count) > configuration.maxRegionShare * Double(means.count) {
            return try readWhole(frame, means: means, columns: columns, rows: rows)
        }
        let regions = changed.map { index in
            CellBox(minX: index % columns, minY: index / columns, maxX: index % columns, maxY: index / columns)
                .grown(by: configuration.margin, columns: columns, rows: rows)
        }
        // A known code touching a region is read again with it, whole; then regions that overlap are one.
        let knownBoxes = known.map { cellBox(of: $0.bounds, columns: columns, rows: rows) }
        var merged = Self.merge(regions)
        while true {
            var grown = merged
            for box in knownBoxes {
                if let index = grown.firstIndex(where: { $0.intersects(box) }) {
                    grown[index] = grown[index].union(box.grown(by: configuration.margin, columns: columns,
                                                               rows: rows))
                }
            }
            grown = Self.merge(grown)
            if grown == merged {
                break
            }
            merged = grown
        }
        if Double(merged.reduce(0) { $0 + $1.area }) > configuration.maxRegionShare * Double(columns * rows) {
            return try readWhole(frame, means: means, columns: columns, rows: rows)
        }
        var found = zip(known, knownBoxes).filter { _, box in !merged.contains { $0.intersects(box) } }.map(\.0)
        for region in merged {
            found += try detector.detect(in: frame, region: pixelRect(of: region, frame: frame))
            cellsRead += region.area
            for row in region.minY...region.maxY {
                for column in region.minX...region.maxX {
                    reference[row * columns + column] = means[row * columns + column]
                }
            }
        }
        regionReads += 1
        known = found
        return found
    }

    private func readWhole(_ frame: Frame, means: [UInt8], columns: Int, rows: Int) throws -> [Observation] {
        known = try detector.detect(in: frame)
        reference = means
        self.columns = columns
        self.rows = rows
        framesSinceFullRead = 0
        wholeReads += 1
        return known
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

    private func cellBox(of bounds: Bounds, columns: Int, rows: Int) -> CellBox {
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
