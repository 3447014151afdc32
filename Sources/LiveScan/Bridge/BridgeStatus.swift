internal import CBridge

/// The message CBridge left for the last failed call on this thread.
func bridgeLastError() -> String {
    String(cString: CB_last_error())
}

/// Throws `failure(message)` unless `status` is CB_OK.
func check(_ status: CB_Status, _ failure: (String) -> ScanError) throws {
    guard status == CB_OK else {
        throw failure(bridgeLastError())
    }
}

extension CB_Quad {
    init(_ bounds: Bounds) {
        let corners = bounds.corners
        self.init(x: (Float(corners[0].x), Float(corners[1].x), Float(corners[2].x), Float(corners[3].x)),
                  y: (Float(corners[0].y), Float(corners[1].y), Float(corners[2].y), Float(corners[3].y)))
    }
}

extension Bounds {
    /// The quad's mean width (along its top and bottom sides) and mean height.
    private var meanSides: (width: Double, height: Double) {
        ((topLeft.distance(to: topRight) + bottomLeft.distance(to: bottomRight)) / 2,
         (topLeft.distance(to: bottomLeft) + topRight.distance(to: bottomRight)) / 2)
    }

    /// The shorter of the quad's mean width and mean height.
    var shortSide: Double {
        let sides = meanSides
        return min(sides.width, sides.height)
    }

    /// The longer of the quad's mean width and mean height.
    var longSide: Double {
        let sides = meanSides
        return max(sides.width, sides.height)
    }

    /// This quad's corners named so that its top side runs as `other`'s does (of the four namings, the one whose
    /// top side points most nearly the same way).
    func cornersNamed(along other: Bounds) -> Bounds {
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
    func narrowedAcross(to share: Double) -> Bounds {
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

    init(_ quad: CB_Quad) {
        let xs = [quad.x.0, quad.x.1, quad.x.2, quad.x.3].map(Double.init)
        let ys = [quad.y.0, quad.y.1, quad.y.2, quad.y.3].map(Double.init)
        self.init(topLeft: Point(x: xs[0], y: ys[0]), topRight: Point(x: xs[1], y: ys[1]),
                  bottomRight: Point(x: xs[2], y: ys[2]), bottomLeft: Point(x: xs[3], y: ys[3]))
    }
}
