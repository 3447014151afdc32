extension Array where Element == RecognizedItem {
    /// The order a person reads a scene or a page in: rows top to bottom, left to right within a row, and
    /// columns of text one after the other rather than line by line across them.
    ///
    /// A recursive XY cut: the items are split where a horizontal strip crosses none of them (rows, top to
    /// bottom), else where a vertical strip does (columns, left to right), and each part is ordered the same
    /// way. Items no strip separates are ordered by their tops (within half the smaller height of each other:
    /// one row, left to right). Typeset columns often keep their lines level with each other's, so that a strip
    /// runs between every two rows of the page: consecutive rows that a narrow gutter cuts alike are one band of
    /// text columns (`textColumns`), read column by column.
    func sortedInReadingOrder() -> [RecognizedItem] {
        guard count > 1 else {
            return self
        }
        if let columns = textColumns() {
            return columns.flatMap { $0.sortedInReadingOrder() }
        }
        let rows = split(at: .horizontal)
        if rows.count > 1 {
            return Self.bandsOfColumns(rows).flatMap { $0.sortedInReadingOrder() }
        }
        let columns = split(at: .vertical)
        if columns.count > 1 {
            return columns.flatMap { $0.sortedInReadingOrder() }
        }
        return sorted { a, b in
            let rowTolerance = Swift.min(a.bounds.height, b.bounds.height) / 2
            let (ay, by) = (a.bounds.boundingBox.minY, b.bounds.boundingBox.minY)
            if abs(ay - by) > rowTolerance {
                return ay < by
            }
            return a.bounds.boundingBox.minX < b.bounds.boundingBox.minX
        }
    }

    /// The items as columns of text, left to right, when they are that: vertical strips split them into parts of
    /// at least two lines each, the items are lines (on average at least three times as wide as tall; codes in a
    /// grid are not), and each gutter is narrower than a quarter of the columns beside it (a receipt's prices,
    /// far to the right of their items, are read along their rows). nil otherwise.
    private func textColumns() -> [[RecognizedItem]]? {
        let parts = split(at: .vertical)
        guard parts.count > 1, parts.allSatisfy({ $0.count >= 2 }) else {
            return nil
        }
        let aspect = map { $0.bounds.width / Swift.max($0.bounds.height, 1) }.reduce(0, +) / Double(count)
        guard aspect >= 3 else {
            return nil
        }
        let extents = parts.map { part in
            (minX: part.map(\.bounds.boundingBox.minX).min()!, maxX: part.map(\.bounds.boundingBox.maxX).max()!)
        }
        for (left, right) in zip(extents, extents.dropFirst()) {
            let gutter = right.minX - left.maxX
            let narrower = Swift.min(left.maxX - left.minX, right.maxX - right.minX)
            if gutter >= 0.25 * narrower {
                return nil
            }
        }
        return parts
    }

    /// `rows` (top to bottom) with each run of consecutive rows that together form text columns joined into one
    /// band; rows that form none stay as they are.
    private static func bandsOfColumns(_ rows: [[RecognizedItem]]) -> [[RecognizedItem]] {
        var bands: [[RecognizedItem]] = []
        var start = 0
        while start < rows.count {
            // The longest run from `start` that reads as columns; a single row when none does.
            var end = start + 1
            var band = rows[start]
            var candidate = band
            for next in (start + 1)..<rows.count {
                candidate += rows[next]
                // Items only ever close gutters: once a row crosses all of them, no longer run has one.
                if candidate.split(at: .vertical).count < 2 {
                    break
                }
                if candidate.textColumns() != nil {
                    band = candidate
                    end = next + 1
                }
            }
            bands.append(band)
            start = end
        }
        return bands
    }

    /// The items in groups that strips of this direction separate: rows top to bottom, or columns left to
    /// right. One group when no such strip runs between them.
    private func split(at strip: EmptyStrip) -> [[RecognizedItem]] {
        let spans = map { item -> (start: Double, end: Double, item: RecognizedItem) in
            let box = item.bounds.boundingBox
            return strip == .horizontal ? (box.minY, box.maxY, item) : (box.minX, box.maxX, item)
        }.sorted { $0.start < $1.start }
        var groups: [[RecognizedItem]] = []
        var reach = -Double.infinity
        for span in spans {
            if groups.isEmpty || span.start >= reach {
                groups.append([])
            }
            groups[groups.count - 1].append(span.item)
            reach = Swift.max(reach, span.end)
        }
        return groups
    }
}

/// A strip of the frame that no item crosses.
private enum EmptyStrip {
    case horizontal, vertical
}
