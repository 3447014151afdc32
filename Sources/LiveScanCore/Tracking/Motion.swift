/// How an item's centre moves: a constant velocity measured between sightings, smoothed so that one jittery
/// box does not throw the prediction off. The tracker counts time in media seconds, the change-gated barcode
/// reader in frames; the model does not mind which.
package struct Motion: Sendable, Equatable {
    /// Pixels per unit of time.
    private(set) var velocity = Point(x: 0, y: 0)
    private var isMeasured = false

    package init() {}

    /// The centre went from `old` to `new` in `elapsed` units of time.
    package mutating func observe(from old: Point, to new: Point, elapsed: Double) {
        guard elapsed > 0 else { return }
        let measured = Point(x: (new.x - old.x) / elapsed, y: (new.y - old.y) / elapsed)
        velocity = isMeasured ? Point(x: 0.5 * velocity.x + 0.5 * measured.x, y: 0.5 * velocity.y + 0.5 * measured.y)
            : measured
        isMeasured = true
    }

    /// How far the centre moves in `elapsed` units of time.
    package func step(after elapsed: Double) -> (dx: Double, dy: Double) {
        let elapsed = max(0, elapsed)
        return (velocity.x * elapsed, velocity.y * elapsed)
    }

    /// `bounds` carried on for `elapsed` units of time.
    package func predicted(_ bounds: Bounds, after elapsed: Double) -> Bounds {
        let (dx, dy) = step(after: elapsed)
        return bounds.offsetBy(dx: dx, dy: dy)
    }
}
