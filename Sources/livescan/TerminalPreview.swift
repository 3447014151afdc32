import Foundation
import LiveScan

/// A frame as `--preview` draws it: its pixels downscaled in CBridge (`FrameImage.resizedRGBPixels`) to
/// `width` x `height`, packed RGB, with the index and size of the frame they come from and the items at that frame
/// (in its pixels), so that outlines stay on what they outline.
struct PreviewPicture {
    let width: Int
    let height: Int
    let rgb: [UInt8]
    let frameIndex: Int
    let frameWidth: Int
    let frameHeight: Int
    let items: [RecognizedItem]

    /// Which picture this is: its frame and its size (a resize makes another of the same frame).
    var identity: [Int] { [frameIndex, width, height] }
}

/// One character cell of the preview: the upper half block `▀` in the upper pixel's colour over the lower's, a
/// label's character (black on its item's colour), or where there is no picture a space in the terminal's own
/// colours (nil).
struct PreviewCell: Equatable {
    var glyph: Character
    var foreground: RGBColor?
    var background: RGBColor?

    static let blank = PreviewCell(glyph: " ", foreground: nil, background: nil)
}

/// The preview's cells, row by row, and what it takes to put them on a terminal.
struct PreviewGrid: Equatable {
    let columns: Int
    let rows: Int
    var cells: [PreviewCell]

    init(columns: Int, rows: Int, cells: [PreviewCell]? = nil) {
        self.columns = columns
        self.rows = rows
        self.cells = cells ?? Array(repeating: .blank, count: columns * rows)
    }

    subscript(column: Int, row: Int) -> PreviewCell {
        get { cells[row * columns + column] }
        set { cells[row * columns + column] = newValue }
    }

    /// Every row as the terminal gets it: a colour change only where the colours change, attributes reset at the
    /// end so nothing after it is coloured.
    func lines(_ mode: PreviewColorMode) -> [String] {
        (0..<rows).map { row in
            var line = ""
            appendCells(row: row, from: 0, to: columns, mode: mode, to: &line)
            return line
        }
    }

    /// Unchanged cells no further apart than this are rewritten with the changes around them: a cursor move
    /// (`ESC[row;colH`) is longer than a few cells of the same colour.
    static let largestSkippedGap = 3

    /// What brings a screen that shows `drawn` (nil: nothing of it is known, as after a resize) to this grid, its
    /// top-left cell at 0-based row `top` and column `left`; and the grid the screen shows then. Only the cells
    /// whose glyph or shown colour changed are written (`PreviewColorMode.shows`), each run of them after a
    /// cursor move. With nothing known, each row is cleared and written whole.
    func updates(from drawn: PreviewGrid?, mode: PreviewColorMode, top: Int,
                 left: Int) -> (output: String, shown: PreviewGrid) {
        guard let drawn, drawn.columns == columns, drawn.rows == rows else {
            var output = ""
            for row in 0..<rows {
                output += "\u{1B}[\(top + row + 1);1H\u{1B}[0m\u{1B}[K\u{1B}[\(top + row + 1);\(left + 1)H"
                appendCells(row: row, from: 0, to: columns, mode: mode, to: &output)
            }
            return (output, self)
        }
        var output = "", shown = drawn
        for row in 0..<rows {
            let changed = (0..<columns).filter { column in
                let (wanted, old) = (self[column, row], drawn[column, row])
                return wanted.glyph != old.glyph || !mode.shows(wanted.foreground, as: old.foreground)
                    || !mode.shows(wanted.background, as: old.background)
            }
            var index = 0
            while index < changed.count {
                var last = index
                while last + 1 < changed.count, changed[last + 1] - changed[last] <= Self.largestSkippedGap + 1 {
                    last += 1
                }
                let (start, end) = (changed[index], changed[last] + 1)
                output += "\u{1B}[\(top + row + 1);\(left + start + 1)H"
                appendCells(row: row, from: start, to: end, mode: mode, to: &output)
                for column in start..<end {
                    shown[column, row] = self[column, row]
                }
                index = last + 1
            }
        }
        return (output, shown)
    }

    /// Cells `start..<end` of `row`, then the attributes reset. Only a colour that changes is set (the bytes of a
    /// moving picture are mostly these); where a cell lacks a colour the one before had, and at the start, where
    /// what is set is not known, the attributes are reset (SGR 0) and its colours set.
    private func appendCells(row: Int, from start: Int, to end: Int, mode: PreviewColorMode, to output: inout String) {
        var current: PreviewCell?
        for column in start..<end {
            let cell = self[column, row]
            let reset = current.map { ($0.foreground != nil && cell.foreground == nil)
                || ($0.background != nil && cell.background == nil) } ?? true
            let foreground = reset || !mode.isSame(cell.foreground, as: current?.foreground) ? cell.foreground : nil
            let background = reset || !mode.isSame(cell.background, as: current?.background) ? cell.background : nil
            if reset || foreground != nil || background != nil {
                output += reset ? "\u{1B}[0" : "\u{1B}["
                if let foreground {
                    output += reset ? ";" : ""
                    mode.append(foreground, background: false, to: &output)
                }
                if let background {
                    output += reset || foreground != nil ? ";" : ""
                    mode.append(background, background: true, to: &output)
                }
                output += "m"
            }
            current = cell
            output.append(cell.glyph)
        }
        output += "\u{1B}[0m"
    }
}

/// `--preview`: the picture the scanner sees, drawn in the live listing with Unicode half blocks (each character
/// cell two pixels, one over the other, a terminal cell being about twice as tall as wide), every item outlined in
/// `--annotate`'s colours with its short id beside it, the region of interest outlined too.
enum TerminalPreview {
    /// A terminal smaller than this shows the listing alone: a picture on it would be too small to recognise.
    static let minimumTerminal = (columns: 40, rows: 20)
    /// The lines the listing keeps under the picture: its header (3), 8 item rows and its footer (2).
    static let listingLines = 13

    /// `--annotate`'s colours (CBridge/Annotate.cpp, there as BGR): barcodes green, text orange, the region of
    /// interest light blue; labels are black on their item's colour.
    static let barcodeColor = RGBColor(red: 40, green: 200, blue: 80)
    static let textColor = RGBColor(red: 255, green: 150, blue: 0)
    static let regionColor = RGBColor(red: 100, green: 190, blue: 255)
    static let labelInk = RGBColor(red: 0, green: 0, blue: 0)
    static let halfBlock: Character = "▀"

    /// Where the picture goes on the terminal, or why it is not shown.
    enum Layout: Equatable {
        /// The picture's size in cells (`columns` x `2 * rows` pixels), from the screen's top, centred.
        case shown(columns: Int, rows: Int)
        /// No picture: why, for the listing's footer.
        case off(reason: String)
    }

    /// The largest picture of the frame's shape (its pixels square: one a cell wide, two a cell tall) that a
    /// `terminalWidth` x `terminalHeight` terminal holds above `listingLines` of listing. Off without `color`
    /// (`NO_COLOR`) and on a terminal under `minimumTerminal`.
    static func layout(terminalWidth: Int, terminalHeight: Int, frameWidth: Int, frameHeight: Int,
                       color: Bool) -> Layout {
        guard color else { return .off(reason: "NO_COLOR") }
        guard terminalWidth >= minimumTerminal.columns, terminalHeight >= minimumTerminal.rows else {
            return .off(reason: "terminal under \(minimumTerminal.columns)x\(minimumTerminal.rows)")
        }
        guard frameWidth > 0, frameHeight > 0 else { return .off(reason: "the picture's size is not known") }
        let aspect = Double(frameWidth) / Double(frameHeight)
        let rows = min(terminalHeight - listingLines, max(1, Int((Double(terminalWidth) / aspect / 2).rounded())))
        let columns = min(terminalWidth, max(1, Int((Double(rows) * 2 * aspect).rounded())))
        return .shown(columns: columns, rows: rows)
    }

    /// The cells of `picture` on a `columns` x `rows` grid (blank where the picture is smaller, as right after a
    /// resize, or before the first frame), its items and `regionOfInterest` (in frame pixels) outlined, and each
    /// item's short id above or below its outline where it fits among the picture's cells and the labels before.
    static func grid(_ picture: PreviewPicture?, regionOfInterest: Bounds?, columns: Int, rows: Int) -> PreviewGrid {
        var grid = PreviewGrid(columns: columns, rows: rows)
        guard let picture, picture.width > 0, picture.height > 0,
              picture.rgb.count >= picture.width * picture.height * 3 else { return grid }
        var canvas = PreviewCanvas(picture)
        if let regionOfInterest {
            canvas.outline(regionOfInterest, in: regionColor)
        }
        for item in picture.items {
            canvas.outline(item.bounds, in: color(of: item))
        }
        let shownColumns = min(columns, canvas.width), shownRows = min(rows, (canvas.height + 1) / 2)
        for row in 0..<shownRows {
            for column in 0..<shownColumns {
                let lower = 2 * row + 1 < canvas.height ? canvas[column, 2 * row + 1] : nil
                grid[column, row] = PreviewCell(glyph: halfBlock, foreground: canvas[column, 2 * row],
                                                background: lower)
            }
        }
        var placed: [(row: Int, columns: Range<Int>)] = []
        for item in picture.items {
            guard let box = canvas.cellBox(of: item.bounds) else { continue }
            // Only the id: an item's value is untrusted and has the listing's row. The id is hex, escaped anyway.
            let label = Array(TerminalSafeText.escape(item.shortID))
            guard label.count <= shownColumns else { continue }
            let start = min(max(box.columns.lowerBound, 0), shownColumns - label.count)
            let span = start..<(start + label.count)
            let free = [box.rows.lowerBound - 1, box.rows.upperBound].first { row in
                (0..<shownRows).contains(row) && !placed.contains { $0.row == row && $0.columns.overlaps(span) }
            }
            guard let row = free else { continue }
            for (offset, character) in label.enumerated() {
                grid[start + offset, row] = PreviewCell(glyph: character, foreground: labelInk,
                                                        background: color(of: item))
            }
            placed.append((row, span))
        }
        return grid
    }

    static func color(of item: RecognizedItem) -> RGBColor {
        if case .text = item { textColor } else { barcodeColor }
    }
}

/// The preview's pixels, outlines drawn into them: the picture's size, small (a terminal's width at most), so
/// drawing here costs nothing next to the scan.
private struct PreviewCanvas {
    let width: Int
    let height: Int
    private var pixels: [RGBColor]
    private let scaleX: Double
    private let scaleY: Double

    init(_ picture: PreviewPicture) {
        width = picture.width
        height = picture.height
        pixels = (0..<(width * height)).map { index in
            RGBColor(red: picture.rgb[3 * index], green: picture.rgb[3 * index + 1], blue: picture.rgb[3 * index + 2])
        }
        scaleX = Double(width) / Double(max(picture.frameWidth, 1))
        scaleY = Double(height) / Double(max(picture.frameHeight, 1))
    }

    subscript(column: Int, row: Int) -> RGBColor {
        pixels[row * width + column]
    }

    /// `bounds` (frame pixels) in the picture's pixels.
    private func corners(of bounds: Bounds) -> [(x: Double, y: Double)] {
        bounds.corners.map { (x: $0.x * scaleX, y: $0.y * scaleY) }
    }

    /// Draws the quad's four sides, one pixel wide, cut to the picture.
    mutating func outline(_ bounds: Bounds, in color: RGBColor) {
        let points = corners(of: bounds)
        for index in 0..<4 {
            guard let (start, end) = clipped(points[index], points[(index + 1) % 4]) else { continue }
            line(from: pixel(at: start), to: pixel(at: end), color: color)
        }
    }

    /// The pixel a point of the picture (0...width, 0...height) falls in: a side on the frame's right or bottom
    /// edge (a region of interest as large as the frame) lies on the last column or row.
    private func pixel(at point: (x: Double, y: Double)) -> (x: Int, y: Int) {
        (min(Int(point.x), width - 1), min(Int(point.y), height - 1))
    }

    /// The cells the quad's outline spans (its pixels' columns; their rows halved), nil when it is wholly outside
    /// the picture.
    func cellBox(of bounds: Bounds) -> (columns: Range<Int>, rows: Range<Int>)? {
        let points = corners(of: bounds)
        let xs = points.map(\.x), ys = points.map(\.y)
        guard (xs + ys).allSatisfy(\.isFinite), let minX = xs.min(), let maxX = xs.max(), let minY = ys.min(),
              let maxY = ys.max(), maxX >= 0, maxY >= 0, minX < Double(width), minY < Double(height) else { return nil }
        let left = Int(max(minX, 0)), right = Int(min(maxX, Double(width - 1)))
        let top = Int(max(minY, 0)) / 2, bottom = Int(min(maxY, Double(height - 1))) / 2
        return (left..<(right + 1), top..<(bottom + 1))
    }

    /// The part of the segment inside the picture (Liang-Barsky), nil when none is or a coordinate is not finite:
    /// a quad far outside must cost no more than one inside.
    private func clipped(_ start: (x: Double, y: Double),
                         _ end: (x: Double, y: Double)) -> ((x: Double, y: Double), (x: Double, y: Double))? {
        guard [start.x, start.y, end.x, end.y].allSatisfy(\.isFinite) else { return nil }
        let (dx, dy) = (end.x - start.x, end.y - start.y)
        let (right, bottom) = (Double(width), Double(height))
        var (enter, leave) = (0.0, 1.0)
        for (direction, room) in [(-dx, start.x), (dx, right - start.x), (-dy, start.y), (dy, bottom - start.y)] {
            if direction == 0 {
                if room < 0 { return nil }
                continue
            }
            let ratio = room / direction
            if direction < 0 {
                enter = max(enter, ratio)
            } else {
                leave = min(leave, ratio)
            }
            if enter > leave { return nil }
        }
        return ((start.x + enter * dx, start.y + enter * dy), (start.x + leave * dx, start.y + leave * dy))
    }

    /// Bresenham's line between two pixels inside the picture.
    private mutating func line(from start: (x: Int, y: Int), to end: (x: Int, y: Int), color: RGBColor) {
        let (dx, dy) = (abs(end.x - start.x), -abs(end.y - start.y))
        let (stepX, stepY) = (start.x < end.x ? 1 : -1, start.y < end.y ? 1 : -1)
        var (x, y, error) = (start.x, start.y, dx + dy)
        while true {
            pixels[y * width + x] = color
            if x == end.x && y == end.y { break }
            let twice = 2 * error
            if twice >= dy {
                error += dy
                x += stepX
            }
            if twice <= dx {
                error += dx
                y += stepY
            }
        }
    }
}
