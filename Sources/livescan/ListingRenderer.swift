import Foundation
import LiveScan

/// Everything the live listing shows, as plain values: the renderer is a pure function of it.
struct ListingState {
    var source: SourceInfo
    var framesProcessed = 0
    var framesDropped = 0
    /// Frames processed per second of wall time.
    var processingRate = 0.0
    var items: [RecognizedItem] = []
    /// Media time at which each item was added, for its age.
    var addedAt: [UUID: Double] = [:]
    var currentTime = 0.0
    var selected: UUID?
    var isPaused = false
    /// A one-line note in the footer: what the last key did.
    var message: String?
    /// What would help the scanner read (VisionKit's guidance), shown in the header.
    var guidance: String?
    /// `--roi`, in pixels: named in the header.
    var regionOfInterest: Bounds?
    /// `--preview`: whether the picture was asked for, and the latest (nil until the first frame's).
    var showsPreview = false
    var preview: PreviewPicture?

    /// The item selected after `key` among `ids` (in the listing's order), `selected` before it: one row up or down,
    /// a page (`page` rows, what the screen shows) up or down, the first or the last, kept within the list.
    static func selection(after key: Terminal.Key, in ids: [UUID], selected: UUID?, page: Int) -> UUID? {
        guard !ids.isEmpty else { return selected }
        let index = ids.firstIndex { $0 == selected } ?? 0
        let next: Int
        switch key {
        case .up: next = index - 1
        case .down: next = index + 1
        case .pageUp: next = index - max(page, 1)
        case .pageDown: next = index + max(page, 1)
        case .home: next = 0
        case .end: next = ids.count - 1
        default: return selected
        }
        return ids[min(max(next, 0), ids.count - 1)]
    }
}

/// Renders the listing: `height` lines, none wider than `width` columns (escape sequences excluded),
/// usable from 80x24 up. Header, column titles, one row per item (scrolled to keep the selection in
/// view), footer with the keys.
enum ListingRenderer {
    static let footerKeys = "↑/↓ PgUp/PgDn Home/End select  Enter act  s snapshot  p pause  q quit"

    /// The rows items get on a screen `height` lines tall holding `items` items: all but the header's three lines
    /// and the footer's two, and one less when some are hidden (a line says how many).
    static func itemRows(height: Int, items: Int) -> Int {
        let rows = max(height, 6) - 5
        return items > rows ? rows - 1 : rows
    }

    /// The listing's lines; `note` (why `--preview` is off) starts the footer's message line, before the last key's
    /// message, short enough to stay whole on a narrow terminal where a title line is cut.
    static func render(_ state: ListingState, width: Int, height: Int, color: Bool, note: String? = nil) -> [String] {
        let width = max(width, 20), height = max(height, 6)
        let columns = Columns(width: width)
        var lines = [fit(titleLine(state), width), fit(statusLine(state), width)]
        // One column for the selection mark, as every row has.
        lines.append(fit(" " + columns.row(id: "ID", kind: "KIND", value: "VALUE", confidence: "CONF", age: "AGE",
                                           position: "POSITION"), width))
        lines += itemLines(state, columns: columns, width: width, height: height, color: color)
        while lines.count < height - 2 {
            lines.append("")
        }
        lines.append(fit([note, state.message.map { TerminalSafeText.escape($0) }].compactMap { $0 }
            .joined(separator: "  "), width))
        lines.append(fit(footerKeys, width))
        return lines
    }

    /// The whole screen: with `--preview` shown, the picture at the top and the listing in the lines it leaves;
    /// else the listing alone, its footer saying why the preview is off when it was asked for.
    static func screen(_ state: ListingState, width: Int, height: Int, color: Bool) -> ListingScreen {
        switch previewLayout(state, width: width, height: height, color: color) {
        case nil:
            return ListingScreen(lines: render(state, width: width, height: height, color: color))
        case let .off(reason)?:
            return ListingScreen(lines: render(state, width: width, height: height, color: color,
                                               note: "preview off: " + reason))
        case let .shown(_, rows)?:
            return ListingScreen(preview: previewArea(state, width: width, height: height, color: color),
                                 lines: render(state, width: width, height: height - rows, color: color),
                                 listingTop: rows)
        }
    }

    /// Where `--preview`'s picture goes on a `width` x `height` terminal: from the top row, centred; nil when it is
    /// not shown.
    static func previewArea(_ state: ListingState, width: Int, height: Int, color: Bool) -> PreviewArea? {
        guard case let .shown(columns, rows)? = previewLayout(state, width: width, height: height, color: color) else {
            return nil
        }
        return PreviewArea(columns: columns, rows: rows, left: (width - columns) / 2)
    }

    /// Where `--preview`'s picture goes on a `width` x `height` terminal, for the latest picture's frame size (the
    /// source's before the first); nil when it was not asked for.
    static func previewLayout(_ state: ListingState, width: Int, height: Int, color: Bool) -> TerminalPreview.Layout? {
        guard state.showsPreview else { return nil }
        let frame = state.preview.map { (width: $0.frameWidth, height: $0.frameHeight) }
            ?? (width: state.source.width, height: state.source.height)
        return TerminalPreview.layout(terminalWidth: width, terminalHeight: height, frameWidth: frame.width,
                                      frameHeight: frame.height, color: color)
    }

    /// The lines the listing itself has on a `height`-line terminal: all of them, or those the preview leaves.
    static func listingHeight(_ state: ListingState, width: Int, height: Int, color: Bool) -> Int {
        if case let .shown(_, rows)? = previewLayout(state, width: width, height: height, color: color) {
            return height - rows
        }
        return height
    }

    /// The source, its size and rate, and the region of interest.
    private static func titleLine(_ state: ListingState) -> String {
        let source = state.source
        let fps = source.framesPerSecond > 0 ? String(format: " @ %.4g fps", source.framesPerSecond) : ""
        var title = "LiveScan  \(TerminalSafeText.escape(source.name))  \(source.width)x\(source.height)\(fps)"
        if let box = state.regionOfInterest?.boundingBox {
            title += "  roi \(Int(box.minX)),\(Int(box.minY)) \(Int(box.maxX - box.minX))x\(Int(box.maxY - box.minY))"
        }
        return title
    }

    /// Frames, rate and items; a file's progress, a pause and the guidance.
    private static func statusLine(_ state: ListingState) -> String {
        let barcodes = state.items.filter { if case .barcode = $0 { return true } else { return false } }.count
        var status = "frames \(state.framesProcessed) (dropped \(state.framesDropped))  "
            + String(format: "%.1f fps", state.processingRate)
            + "  items \(state.items.count) (\(barcodes) barcode, \(state.items.count - barcodes) text)"
        if let progress = ProgressLine.progress(done: state.framesProcessed, total: state.source.frameCount,
                                                fps: state.processingRate)
        {
            status += "  \(progress.percent)%, \(progress.secondsLeft) s left"
        }
        if state.isPaused {
            status += "  PAUSED"
        }
        if let guidance = state.guidance {
            status += "  > " + guidance
        }
        return status
    }

    /// The rows of the items that fit, scrolled to keep the selected one in view (shown reversed with `color`), and
    /// a line saying how many are hidden above and below.
    private static func itemLines(_ state: ListingState, columns: Columns, width: Int, height: Int,
                                  color: Bool) -> [String] {
        var lines: [String] = []
        let rowsAvailable = itemRows(height: height, items: state.items.count)
        let selectedIndex = state.items.firstIndex { $0.id == state.selected }
        let first = max(0, min((selectedIndex ?? 0) - rowsAvailable + 1, state.items.count - rowsAvailable))
        for item in state.items.dropFirst(first).prefix(rowsAvailable) {
            let age = max(0, state.currentTime - (state.addedAt[item.id] ?? state.currentTime))
            let center = item.bounds.center
            let confidence: Double
            switch item {
            case .barcode: confidence = 1
            case let .text(text): confidence = text.confidence
            }
            let row = columns.row(id: item.shortID, kind: item.kindName, value: ItemText.meaning(item),
                                  confidence: String(format: "%.2f", confidence),
                                  age: String(format: "%.1fs", age),
                                  position: "\(Int(center.x)),\(Int(center.y))")
            let selected = item.id == state.selected
            let marked = (selected ? ">" : " ") + fit(row, width - 1)
            lines.append(selected && color ? "\u{1B}[7m" + pad(marked, width) + "\u{1B}[0m" : marked)
        }
        let hidden = (above: first, below: max(0, state.items.count - first - rowsAvailable))
        if hidden.above + hidden.below > 0 {
            lines.append(fit(" … \(hidden.above) more above, \(hidden.below) more below (↑/↓ to scroll)", width))
        }
        return lines
    }

    static func fit(_ text: String, _ width: Int) -> String {
        TerminalColumns.cut(text, to: width)
    }

    static func pad(_ text: String, _ width: Int) -> String {
        TerminalColumns.pad(text, to: width)
    }

    /// Column widths for a terminal `width` wide: the value takes what the fixed columns leave.
    private struct Columns {
        let value: Int

        init(width: Int) {
            value = max(width - 1 - (8 + 1 + 10 + 1 + 1 + 4 + 1 + 6 + 1 + 9), 8)
        }

        func row(id: String, kind: String, value text: String, confidence: String, age: String,
                 position: String) -> String {
            [pad(fit(id, 8), 8), pad(fit(kind, 10), 10), pad(fit(text, value), value), pad(confidence, 4),
             pad(fit(age, 6), 6), fit(position, 9)].joined(separator: " ")
        }
    }
}

/// Where `--preview`'s picture goes: `columns` x `rows` cells from the top row, the first in column `left` (0-based:
/// centred).
struct PreviewArea: Equatable {
    let columns: Int
    let rows: Int
    let left: Int
}

/// One redraw of the live listing: where `--preview`'s picture goes (`TerminalPreview.grid` draws it there, and
/// only when it changed), and the listing's lines under it.
struct ListingScreen {
    /// nil when the picture is not shown.
    var preview: PreviewArea?
    /// The listing's lines, the first on 0-based row `listingTop`.
    var lines: [String]
    var listingTop = 0
}
