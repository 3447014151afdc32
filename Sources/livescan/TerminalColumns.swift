/// Text measured and cut in terminal columns, for the listing and the report table: East Asian wide
/// characters take two columns, so counting characters would misalign a table.
enum TerminalColumns {
    /// `text` cut to `width` terminal columns, ending in `…` when cut.
    static func cut(_ text: String, to width: Int) -> String {
        guard self.width(text) > width else { return text }
        var kept = ""
        var used = 0
        for character in text {
            let characterWidth = self.width(character)
            if used + characterWidth > width - 1 { break }
            kept.append(character)
            used += characterWidth
        }
        return kept + "…"
    }

    /// The widths of a table's columns, `headers` over `rows`, in `width` terminal columns with two spaces between
    /// columns: each as wide as its widest cell, but `flexible` (a value, a path) only as wide as the others leave
    /// room for, and never under `narrowest`.
    static func tableWidths(headers: [String], rows: [[String]], width: Int, flexible: Int, narrowest: Int) -> [Int] {
        var widths = headers.map { self.width($0) }
        for row in rows {
            for (column, cell) in row.enumerated() {
                widths[column] = max(widths[column], self.width(cell))
            }
        }
        let others = widths.enumerated().filter { $0.offset != flexible }.map(\.element).reduce(0, +)
        let room = width - others - 2 * (headers.count - 1)
        widths[flexible] = max(min(widths[flexible], room), narrowest)
        return widths
    }

    /// One row of such a table: each cell padded to its column's width, those of `rightAligned` (numbers) on the
    /// left, words on the right; the row's trailing spaces dropped.
    static func tableRow(_ cells: [String], widths: [Int], rightAligned: Set<Int>) -> String {
        let padded = cells.enumerated().map { column, cell in
            let padding = String(repeating: " ", count: max(0, widths[column] - width(cell)))
            return rightAligned.contains(column) ? padding + cell : cell + padding
        }
        var text = padded.joined(separator: "  ")
        while text.hasSuffix(" ") { text.removeLast() }
        return text
    }

    static func width(_ text: String) -> Int {
        text.reduce(0) { $0 + width($1) }
    }

    /// Terminal columns of one character: 2 for East Asian wide and fullwidth characters and emoji, else 1.
    /// An approximation of wcwidth(3) good enough to keep the columns aligned.
    static func width(_ character: Character) -> Int {
        guard let scalar = character.unicodeScalars.first else { return 0 }
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
             0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
             0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }

    /// `text` padded with spaces to `width` columns (never cut).
    static func pad(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - self.width(text)))
    }
}
