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
    ///
    /// Rows and columns are the text's own: when most lines of text run down, up or upside down (a page
    /// photographed turned), the items are ordered as they lie in the picture turned back.
    func sortedInReadingOrder() -> [RecognizedItem] {
        let texts = filter { if case .text = $0 { true } else { false } }
        let (turns, lines) = (1...3).map { turns in (turns, texts.count(where: { $0.bounds.quarterTurns == turns })) }
            .max { $0.1 < $1.1 }!
        guard 2 * lines > texts.count else {
            return sortedUpright()
        }
        // Turning back and forth only swaps and negates coordinates: the bounds come back exactly.
        return map { $0.withBounds($0.bounds.turnedBack(quarterTurns: turns)) }.sortedUpright()
            .map { $0.withBounds($0.bounds.turnedBack(quarterTurns: 4 - turns)) }
    }

    /// `sortedInReadingOrder` for lines of text that run rightwards.
    private func sortedUpright() -> [RecognizedItem] {
        guard count > 1 else {
            return self
        }
        if let columns = textColumns() {
            return columns.flatMap { $0.sortedUpright() }
        }
        let rows = split(at: .horizontal)
        if rows.count > 1 {
            return Self.bandsOfColumns(rows).flatMap { $0.sortedUpright() }
        }
        let columns = split(at: .vertical)
        if columns.count > 1 {
            return columns.flatMap { $0.sortedUpright() }
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

    /// The items as columns of text, left to right, when they are that: gutters split them into parts of at least
    /// two lines each (`splitAtGutters`), the items are lines (on average at least three times as wide as tall;
    /// codes in a grid are not), and each gutter is narrower than a quarter of the columns beside it (a receipt's
    /// prices, far to the right of their items, are read along their rows). nil otherwise.
    private func textColumns() -> [[RecognizedItem]]? {
        let (parts, wholly) = splitAtGutters()
        guard parts.count > 1, parts.allSatisfy({ $0.count >= 2 }) else {
            return nil
        }
        let aspect = map { $0.bounds.width / Swift.max($0.bounds.height, 1) }.reduce(0, +) / Double(count)
        guard aspect >= 3 else {
            return nil
        }
        // Measured on the lines wholly inside each part: a caption set across the gutter is not the column.
        let extents = wholly.map { part in
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

    /// The items split at the gutters between columns, left to right, and in each part the items wholly inside
    /// it. A gutter is a vertical strip with at least two items wholly on each side that at most one item in
    /// eight crosses, each of them level with lines on both sides: on a page, a caption may be set across a
    /// gutter, and the detector may join two lines level with each other across a narrow one; neither makes the
    /// columns one. (A headline above the columns is level with none: it is cut off first, as a row.) An item
    /// crossing a gutter goes to the side its centre is on. Fewer than eight items tolerate no crossing: a strip
    /// that crosses none, as `split(at: .vertical)` finds. `tolerated`: how many may cross instead; `levelOnly`
    /// false: whether or not they are level with lines on both sides.
    private func splitAtGutters(tolerating tolerated: Int? = nil, levelOnly: Bool = true)
        -> (parts: [[RecognizedItem]], wholly: [[RecognizedItem]])
    {
        let boxes = map(\.bounds.boundingBox)
        let candidates = GutterCandidates(boxes: boxes, allowed: tolerated ?? count / 8, levelOnly: levelOnly)
        // Candidate cuts: each item's right edge. A run of consecutive candidates that qualify is one gutter;
        // its cut is the candidate fewest items cross, moved to the middle of the empty space it leaves.
        let endingAt = Dictionary(grouping: indices, by: { boxes[$0].maxX })
        var cuts: [Double] = []
        var best: (crossing: Int, cut: Double)?
        var previousEdge = -Double.infinity
        for edge in Set(candidates.rightEdges).sorted() {
            defer { previousEdge = edge }
            // An item wholly between this candidate and the last is a column of its own: the gutter before it ends.
            if let found = best, endingAt[edge]!.contains(where: { boxes[$0].minX >= previousEdge }) {
                cuts.append(found.cut)
                best = nil
            }
            if let gutter = candidates.gutter(at: edge) {
                if best == nil || gutter.crossing < best!.crossing {
                    best = gutter
                }
            } else if let found = best {
                cuts.append(found.cut)
                best = nil
            }
        }
        if let found = best {
            cuts.append(found.cut)
        }
        var parts = [[RecognizedItem]](repeating: [], count: cuts.count + 1)
        var wholly = parts
        for (item, box) in zip(self, boxes) {
            let part = cuts.firstIndex { (box.minX + box.maxX) / 2 < $0 } ?? cuts.count
            parts[part].append(item)
            if !cuts.contains(where: { box.minX < $0 && $0 < box.maxX }) {
                wholly[part].append(item)
            }
        }
        // Between two gutters, only items crossing one: no column there, and so no gutters at all.
        if wholly.contains(where: \.isEmpty) {
            return ([self], [self])
        }
        return (parts, wholly)
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
            // The most crossing lines any run from `start` tolerates, level or not (a line is level with both sides
            // only once rows beside it join the run): once even that many leave no gutter, a longer run seldom has
            // one. Runs are tried one row longer each time; without this stop, ordering 160 lines in four columns
            // took 47 ms instead of 1.
            let mostTolerated = rows[start...].reduce(0) { $0 + $1.count } / 8
            for next in (start + 1)..<rows.count {
                candidate += rows[next]
                if candidate.splitAtGutters(tolerating: mostTolerated, levelOnly: false).parts.count < 2 {
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

/// The items' boxes as candidate gutters see them (`splitAtGutters`): their left and right edges sorted, so that the
/// items left of, right of and across a candidate are counted, not listed (the tracker orders every frame's items, a
/// page's lines among them).
private struct GutterCandidates {
    typealias Box = (minX: Double, minY: Double, maxX: Double, maxY: Double)
    let boxes: [Box]
    /// How many items may cross a gutter, and whether each must be level with lines on both sides.
    let allowed: Int
    let levelOnly: Bool
    let rightEdges: [Double]
    let leftEdges: [Double]

    init(boxes: [Box], allowed: Int, levelOnly: Bool) {
        self.boxes = boxes
        self.allowed = allowed
        self.levelOnly = levelOnly
        rightEdges = boxes.map(\.maxX).sorted()
        leftEdges = boxes.map(\.minX).sorted()
    }

    /// The gutter whose left side is the vertical line at `edge`: how many items cross it and where it cuts (the
    /// middle of the empty space right of it); nil when it is no gutter.
    func gutter(at edge: Double) -> (crossing: Int, cut: Double)? {
        let firstRight = Self.firstIndex(in: leftEdges, notBelow: edge)
        let (left, right) = (Self.firstIndex(in: rightEdges, notBelow: edge.nextUp), boxes.count - firstRight)
        let crossing = boxes.count - left - right
        guard crossing <= allowed && left >= 2 && right >= 2 else {
            return nil
        }
        if crossing > 0 && levelOnly {
            let leftSide = verticalExtent { $0.maxX <= edge }
            let rightSide = verticalExtent { $0.minX >= edge }
            let crossingAreLevel = boxes.filter { $0.minX < edge && edge < $0.maxX }.allSatisfy { box in
                [leftSide, rightSide].allSatisfy { box.minY < $0.maxY && $0.minY < box.maxY }
            }
            guard crossingAreLevel else {
                return nil
            }
        }
        return (crossing, (edge + leftEdges[firstRight]) / 2)
    }

    private func verticalExtent(_ included: (Box) -> Bool) -> (minY: Double, maxY: Double) {
        let chosen = boxes.filter(included)
        return (chosen.map(\.minY).min()!, chosen.map(\.maxY).max()!)
    }

    private static func firstIndex(in sorted: [Double], notBelow value: Double) -> Int {
        var (low, high) = (0, sorted.count)
        while low < high {
            let middle = (low + high) / 2
            (low, high) = sorted[middle] < value ? (middle + 1, high) : (low, middle)
        }
        return low
    }
}
