extension Array where Element == RecognizedItem {
    /// The order a person reads a scene or a page in: rows top to bottom, left to right within a row, and
    /// columns of text one after the other rather than line by line across them.
    ///
    /// A recursive XY cut: the items are split where a horizontal strip crosses none of them (rows, top to
    /// bottom), else where a vertical strip does (columns, left to right), and each part is ordered the same
    /// way. The lines of two columns are never level with each other, so no horizontal strip runs between
    /// them, while the gutter is a vertical one. Items no strip separates are ordered by their tops (within
    /// half the smaller height of each other: one row, left to right).
    func sortedInReadingOrder() -> [RecognizedItem] {
        guard count > 1 else {
            return self
        }
        for strip in [EmptyStrip.horizontal, .vertical] {
            let parts = split(at: strip)
            if parts.count > 1 {
                return parts.flatMap { $0.sortedInReadingOrder() }
            }
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
