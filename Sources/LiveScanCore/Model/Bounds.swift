import Foundation

/// A point in source pixels.
public struct Point: Hashable, Sendable, Codable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// Euclidean distance in pixels.
    public func distance(to other: Point) -> Double {
        ((x - other.x) * (x - other.x) + (y - other.y) * (y - other.y)).squareRoot()
    }
}

/// The four corners of a recognized item in source pixels, as VisionKit's `RecognizedItem.Bounds`.
public struct Bounds: Hashable, Sendable {
    public var topLeft: Point
    public var topRight: Point
    public var bottomRight: Point
    public var bottomLeft: Point

    public init(topLeft: Point, topRight: Point, bottomRight: Point, bottomLeft: Point) {
        self.topLeft = topLeft
        self.topRight = topRight
        self.bottomRight = bottomRight
        self.bottomLeft = bottomLeft
    }

    /// An axis-aligned rectangle.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(topLeft: Point(x: x, y: y), topRight: Point(x: x + width, y: y),
                  bottomRight: Point(x: x + width, y: y + height), bottomLeft: Point(x: x, y: y + height))
    }

    /// The corners in the order topLeft, topRight, bottomRight, bottomLeft.
    public var corners: [Point] { [topLeft, topRight, bottomRight, bottomLeft] }

    /// The same quad with its corners named from the one `index` places on (0...3, in `corners` order): 2 names
    /// the corners of the quad read upside down.
    package func cornersNamed(from index: Int) -> Bounds {
        let points = corners
        return Bounds(topLeft: points[index % 4], topRight: points[(index + 1) % 4],
                      bottomRight: points[(index + 2) % 4], bottomLeft: points[(index + 3) % 4])
    }

    /// Quarter turns clockwise (0...3, y down) of the top side's direction, topLeft to topRight, to the nearest:
    /// 0 for a line of text written rightwards, 1 downwards, 2 upside down, 3 upwards.
    package var quarterTurns: Int {
        let angle = atan2(topRight.y - topLeft.y, topRight.x - topLeft.x)
        return (Int((angle / (.pi / 2)).rounded()) + 4) % 4
    }

    /// The quad turned `quarterTurns` quarter turns anticlockwise about the origin (y down): turned back from a
    /// picture turned that far clockwise.
    package func turnedBack(quarterTurns: Int) -> Bounds {
        func turned(_ point: Point) -> Point {
            switch (quarterTurns % 4 + 4) % 4 {
            case 1: return Point(x: point.y, y: -point.x)
            case 2: return Point(x: -point.x, y: -point.y)
            case 3: return Point(x: -point.y, y: point.x)
            default: return point
            }
        }
        return Bounds(topLeft: turned(topLeft), topRight: turned(topRight), bottomRight: turned(bottomRight),
                      bottomLeft: turned(bottomLeft))
    }

    // Without arrays: the tracker asks every pair of items for these each frame (a page of 160 lines spent 43 % of
    // its tracking time allocating the corners for `boundingBox`).
    public var center: Point {
        Point(x: (((topLeft.x + topRight.x) + bottomRight.x) + bottomLeft.x) / 4,
              y: (((topLeft.y + topRight.y) + bottomRight.y) + bottomLeft.y) / 4)
    }

    /// The axis-aligned box around the corners: (minX, minY, maxX, maxY).
    public var boundingBox: (minX: Double, minY: Double, maxX: Double, maxY: Double) {
        (Swift.min(Swift.min(topLeft.x, topRight.x), Swift.min(bottomRight.x, bottomLeft.x)),
         Swift.min(Swift.min(topLeft.y, topRight.y), Swift.min(bottomRight.y, bottomLeft.y)),
         Swift.max(Swift.max(topLeft.x, topRight.x), Swift.max(bottomRight.x, bottomLeft.x)),
         Swift.max(Swift.max(topLeft.y, topRight.y), Swift.max(bottomRight.y, bottomLeft.y)))
    }

    /// The height of the bounding box: the size of a text line, the scale for distances.
    public var height: Double { boundingBox.maxY - boundingBox.minY }
    public var width: Double { boundingBox.maxX - boundingBox.minX }
    public var diagonal: Double { (width * width + height * height).squareRoot() }

    /// The largest distance any corner moved between `self` and `other`.
    public func largestCornerMove(to other: Bounds) -> Double {
        zip(corners, other.corners).map { $0.distance(to: $1) }.max() ?? 0
    }

    /// Intersection over union of the two bounding boxes.
    public func intersectionOverUnion(_ other: Bounds) -> Double {
        let overlap = overlapArea(with: other)
        let union = width * height + other.width * other.height - overlap
        return union > 0 ? overlap / union : 0
    }

    /// The share of this bounding box that lies inside `other`'s (0 for an empty box).
    public func share(coveredBy other: Bounds) -> Double {
        let area = width * height
        return area > 0 ? overlapArea(with: other) / area : 0
    }

    /// Whether the bounding boxes share some area (the least that `intersectionOverUnion` or `share` above 0 takes).
    package func overlaps(_ other: Bounds) -> Bool {
        overlapArea(with: other) > 0
    }

    private func overlapArea(with other: Bounds) -> Double {
        let a = boundingBox, b = other.boundingBox
        return max(0, min(a.maxX, b.maxX) - max(a.minX, b.minX)) * max(0, min(a.maxY, b.maxY) - max(a.minY, b.minY))
    }

    /// The same shape moved by (dx, dy).
    public func offsetBy(dx: Double, dy: Double) -> Bounds {
        func moved(_ point: Point) -> Point { Point(x: point.x + dx, y: point.y + dy) }
        return Bounds(topLeft: moved(topLeft), topRight: moved(topRight), bottomRight: moved(bottomRight),
                      bottomLeft: moved(bottomLeft))
    }
}

/// A quad's sides, and the same quad with its corners renamed or narrowed: as the readers of text lines ask for them.
extension Bounds {
    /// The quad's mean width (along its top and bottom sides) and mean height.
    private var meanSides: (width: Double, height: Double) {
        ((topLeft.distance(to: topRight) + bottomLeft.distance(to: bottomRight)) / 2,
         (topLeft.distance(to: bottomLeft) + topRight.distance(to: bottomRight)) / 2)
    }

    /// Whether the quad stands: its left side at least 1.5 times its top side, as a box of a line written up or
    /// down the picture is named (a line crop that tall is turned a quarter before it is read, `cutLine`).
    package var isStanding: Bool {
        let sides = meanSides
        return sides.height >= 1.5 * sides.width
    }

    /// The shorter of the quad's mean width and mean height.
    package var shortSide: Double {
        let sides = meanSides
        return min(sides.width, sides.height)
    }

    /// The longer of the quad's mean width and mean height.
    package var longSide: Double {
        let sides = meanSides
        return max(sides.width, sides.height)
    }

    /// This quad's corners named so that its top side runs as `other`'s does (of the four namings, the one whose
    /// top side points most nearly the same way).
    package func cornersNamed(along other: Bounds) -> Bounds {
        func direction(_ quad: Bounds) -> (dx: Double, dy: Double) {
            (quad.topRight.x - quad.topLeft.x, quad.topRight.y - quad.topLeft.y)
        }
        let wanted = direction(other)
        return (0..<4).map { cornersNamed(from: $0) }.max { a, b in
            let (da, db) = (direction(a), direction(b))
            return da.dx * wanted.dx + da.dy * wanted.dy < db.dx * wanted.dx + db.dy * wanted.dy
        }!
    }

    /// The quad with its short sides shortened to `share` of their length about the long axis: a text box
    /// narrowed across its line, the line's direction and length kept.
    package func narrowedAcross(to share: Double) -> Bounds {
        let across = topLeft.distance(to: bottomLeft) + topRight.distance(to: bottomRight)
        let along = topLeft.distance(to: topRight) + bottomLeft.distance(to: bottomRight)
        func toward(_ a: Point, _ b: Point) -> (Point, Point) {
            let middle = Point(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2)
            return (Point(x: middle.x + (a.x - middle.x) * share, y: middle.y + (a.y - middle.y) * share),
                    Point(x: middle.x + (b.x - middle.x) * share, y: middle.y + (b.y - middle.y) * share))
        }
        if across <= along {
            let (newTopLeft, newBottomLeft) = toward(topLeft, bottomLeft)
            let (newTopRight, newBottomRight) = toward(topRight, bottomRight)
            return Bounds(topLeft: newTopLeft, topRight: newTopRight, bottomRight: newBottomRight,
                          bottomLeft: newBottomLeft)
        }
        let (newTopLeft, newTopRight) = toward(topLeft, topRight)
        let (newBottomLeft, newBottomRight) = toward(bottomLeft, bottomRight)
        return Bounds(topLeft: newTopLeft, topRight: newTopRight, bottomRight: newBottomRight,
                      bottomLeft: newBottomLeft)
    }
}

/// An upright rectangle of whole pixels: a part of a frame to read.
public struct PixelRect: Hashable, Sendable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The smallest rectangle of whole pixels holding all of `bounds`.
    public init(enclosing bounds: Bounds) {
        let box = bounds.boundingBox
        let left = Int(box.minX.rounded(.down)), top = Int(box.minY.rounded(.down))
        self.init(x: left, y: top, width: Int(box.maxX.rounded(.up)) - left, height: Int(box.maxY.rounded(.up)) - top)
    }

    /// The part inside a `width` x `height` picture (empty when none is).
    public func clipped(toWidth width: Int, height: Int) -> PixelRect {
        let left = max(x, 0), top = max(y, 0)
        let right = min(x + self.width, width), bottom = min(y + self.height, height)
        return PixelRect(x: left, y: top, width: max(right - left, 0), height: max(bottom - top, 0))
    }
}
