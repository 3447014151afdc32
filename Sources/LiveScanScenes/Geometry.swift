import Foundation

/// A point in continuous pixel coordinates: the origin is the top-left corner of the top-left pixel, x grows
/// to the right and y downwards, so pixel (i, j) covers [i, i+1) x [j, j+1).
package struct ScenePoint: Hashable, Sendable {
    /// Pixels from the left edge.
    package var x: Double
    /// Pixels from the top edge.
    package var y: Double

    /// The point (`x`, `y`).
    package init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// A motion per frame, in pixels.
package struct SceneVector: Hashable, Sendable {
    /// Pixels to the right per frame.
    package var dx: Double
    /// Pixels downwards per frame.
    package var dy: Double

    /// The motion (`dx`, `dy`) per frame.
    package init(dx: Double, dy: Double) {
        self.dx = dx
        self.dy = dy
    }

    /// No motion.
    package static let zero = SceneVector(dx: 0, dy: 0)
}

/// An axis-aligned rectangle in integer pixels.
package struct SceneRect: Hashable, Sendable {
    /// The left edge.
    package var x: Int
    /// The top edge.
    package var y: Int
    /// Pixels across.
    package var width: Int
    /// Pixels down.
    package var height: Int

    /// The rectangle from (`x`, `y`), `width` x `height` pixels.
    package init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The same rectangle as a quad.
    package var quad: SceneQuad {
        SceneQuad(x: Double(x), y: Double(y), width: Double(width), height: Double(height))
    }
}

/// Four corners of an upright symbol or text line wherever it lies in the image: topLeft, topRight, bottomRight,
/// bottomLeft of the item itself (after a rotation, `topLeft` is still the symbol's own top-left corner).
package struct SceneQuad: Hashable, Sendable {
    /// The item's own top-left corner.
    package var topLeft: ScenePoint
    /// The item's own top-right corner.
    package var topRight: ScenePoint
    /// The item's own bottom-right corner.
    package var bottomRight: ScenePoint
    /// The item's own bottom-left corner.
    package var bottomLeft: ScenePoint

    /// A quad from its four corners.
    package init(topLeft: ScenePoint, topRight: ScenePoint, bottomRight: ScenePoint, bottomLeft: ScenePoint) {
        self.topLeft = topLeft
        self.topRight = topRight
        self.bottomRight = bottomRight
        self.bottomLeft = bottomLeft
    }

    /// An axis-aligned quad.
    package init(x: Double, y: Double, width: Double, height: Double) {
        self.init(
            topLeft: ScenePoint(x: x, y: y), topRight: ScenePoint(x: x + width, y: y),
            bottomRight: ScenePoint(x: x + width, y: y + height), bottomLeft: ScenePoint(x: x, y: y + height))
    }

    /// A `width` x `height` rectangle centred on `center`, turned by `degrees` clockwise as seen in the image.
    package init(center: ScenePoint, width: Double, height: Double, degrees: Double) {
        let radians = degrees * .pi / 180
        let cosine = cos(radians), sine = sin(radians)
        func corner(_ u: Double, _ v: Double) -> ScenePoint {
            // With y pointing down, this standard rotation turns clockwise on screen.
            ScenePoint(x: center.x + u * cosine - v * sine, y: center.y + u * sine + v * cosine)
        }
        let halfWidth = width / 2, halfHeight = height / 2
        self.init(
            topLeft: corner(-halfWidth, -halfHeight), topRight: corner(halfWidth, -halfHeight),
            bottomRight: corner(halfWidth, halfHeight), bottomLeft: corner(-halfWidth, halfHeight))
    }

    /// topLeft, topRight, bottomRight, bottomLeft.
    package var corners: [ScenePoint] { [topLeft, topRight, bottomRight, bottomLeft] }

    /// The mean of the corners.
    package var center: ScenePoint {
        ScenePoint(x: corners.map(\.x).reduce(0, +) / 4, y: corners.map(\.y).reduce(0, +) / 4)
    }

    /// The smallest axis-aligned box holding the corners.
    package var boundingBox: (minX: Double, minY: Double, maxX: Double, maxY: Double) {
        let xs = range(of: corners.map(\.x)), ys = range(of: corners.map(\.y))
        return (xs.lower, ys.lower, xs.upper, ys.upper)
    }

    /// The quad moved by `offset`.
    package func offset(by offset: SceneVector) -> SceneQuad {
        func move(_ point: ScenePoint) -> ScenePoint { ScenePoint(x: point.x + offset.dx, y: point.y + offset.dy) }
        return SceneQuad(
            topLeft: move(topLeft), topRight: move(topRight), bottomRight: move(bottomRight),
            bottomLeft: move(bottomLeft))
    }

    /// The quad grown outwards by `margin` pixels on every side, keeping its orientation.
    package func expanded(by margin: Double) -> SceneQuad {
        let across = unit(from: topLeft, to: topRight), down = unit(from: topLeft, to: bottomLeft)
        func push(_ point: ScenePoint, _ alongAcross: Double, _ alongDown: Double) -> ScenePoint {
            ScenePoint(
                x: point.x + margin * (alongAcross * across.dx + alongDown * down.dx),
                y: point.y + margin * (alongAcross * across.dy + alongDown * down.dy))
        }
        return SceneQuad(
            topLeft: push(topLeft, -1, -1), topRight: push(topRight, 1, -1), bottomRight: push(bottomRight, 1, 1),
            bottomLeft: push(bottomLeft, -1, 1))
    }

    /// Whether every corner lies inside `width` x `height` (edges included).
    package func isInside(width: Int, height: Int) -> Bool {
        corners.allSatisfy { $0.x >= 0 && $0.y >= 0 && $0.x <= Double(width) && $0.y <= Double(height) }
    }

    /// Whether the two convex quads share some area (touching edges do not count). Separating-axis test.
    package func overlaps(_ other: SceneQuad) -> Bool {
        !(hasSeparatingAxis(from: self, other) || hasSeparatingAxis(from: other, self))
    }

    /// Whether the quad shares some area with the `width` x `height` image.
    package func overlapsImage(width: Int, height: Int) -> Bool {
        overlaps(SceneQuad(x: 0, y: 0, width: Double(width), height: Double(height)))
    }
}

private func unit(from start: ScenePoint, to end: ScenePoint) -> SceneVector {
    let dx = end.x - start.x, dy = end.y - start.y
    let length = (dx * dx + dy * dy).squareRoot()
    return length > 0 ? SceneVector(dx: dx / length, dy: dy / length) : .zero
}

/// True when one of `first`'s edge normals separates the two quads' projections.
private func hasSeparatingAxis(from first: SceneQuad, _ second: SceneQuad) -> Bool {
    let points = first.corners
    for index in 0..<4 {
        let start = points[index], end = points[(index + 1) % 4]
        let normal = (x: -(end.y - start.y), y: end.x - start.x)
        let project = { (point: ScenePoint) in point.x * normal.x + point.y * normal.y }
        let firstRange = range(of: first.corners.map(project)), secondRange = range(of: second.corners.map(project))
        // A tolerance keeps quads that merely share an edge (rounding noise) apart.
        let tolerance = 1e-9 * max(1, abs(normal.x) + abs(normal.y))
        if firstRange.upper <= secondRange.lower + tolerance || secondRange.upper <= firstRange.lower + tolerance {
            return true
        }
    }
    return false
}

private func range(of values: [Double]) -> (lower: Double, upper: Double) {
    values.reduce((lower: Double.infinity, upper: -Double.infinity)) { (min($0.lower, $1), max($0.upper, $1)) }
}
