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
    init(_ quad: CB_Quad) {
        let xs = [quad.x.0, quad.x.1, quad.x.2, quad.x.3].map(Double.init)
        let ys = [quad.y.0, quad.y.1, quad.y.2, quad.y.3].map(Double.init)
        self.init(topLeft: Point(x: xs[0], y: ys[0]), topRight: Point(x: xs[1], y: ys[1]),
                  bottomRight: Point(x: xs[2], y: ys[2]), bottomLeft: Point(x: xs[3], y: ys[3]))
    }
}
