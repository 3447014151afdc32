import Foundation
import Testing
@testable import LiveScan

/// What makes two observations one item, in one frame and across frames.
@Suite struct SameItemTests {
    /// A hand shakes the camera: a line that reads as it did and jumps 90 px (over two line heights, past the
    /// position gate) keeps its id, since two labels that read the same cannot overlap; a line that reads
    /// otherwise at the same place is a new item.
    @Test func aLineThatReadsTheSameKeepsItsIdThroughAShake() throws {
        var run = try Run()
        let jumps: [Double] = [0, 0, 90, 90, -10, -10, 80, 80]
        run.feed(jumps.map { [line("batch coach order invoice", x: 300 + $0, y: 200 + $0 / 3)] })
        #expect(run.added.count == 1)
        #expect(run.removed.isEmpty)

        var other = try Run()
        other.feed([[line("batch coach order invoice", x: 300, y: 200)],
                    [line("batch coach order invoice", x: 300, y: 200)],
                    [line("platform ticket boarding", x: 390, y: 230)],
                    [line("platform ticket boarding", x: 390, y: 230)]])
        #expect(other.added.count == 2)
    }

    /// The same reading a full line-width away is a second label, not the first one moved.
    @Test func aTwinLabelALineWidthAwayIsItsOwnItem() throws {
        var run = try Run()
        run.feed([[line("FRAGILE", x: 100, y: 100)], [line("FRAGILE", x: 100, y: 100), line("FRAGILE", x: 420, y: 100)],
                  [line("FRAGILE", x: 100, y: 100), line("FRAGILE", x: 420, y: 100)]])
        #expect(run.added.count == 2)
    }

    /// zxing-cpp 1.4 can return a linear code twice from rows it did not merge: one code, one observation.
    /// Twins side by side, which do not overlap, stay two.
    @Test func repeatedReadsOfOneCodeAreOne() {
        let once = code("LOT-7731", x: 100, y: 100, symbology: .code128)
        let again = code("LOT-7731", x: 102, y: 101, symbology: .code128)
        let twin = code("LOT-7731", x: 400, y: 100, symbology: .code128)
        let other = code("LOT-7732", x: 101, y: 100, symbology: .code128)
        #expect([once, again, twin, other].withoutRepeatedCodes() == [once, twin, other])
    }

    /// A word the locator also found on its own inside its line is a piece of the line; two neighbouring lines
    /// of a page, whose boxes overlap a little, are both kept.
    @Test func piecesOfALineAreNotLinesOfTheirOwn() {
        let whole = Observation.text("batch coach order invoice", confidence: 0.95,
                                     bounds: Bounds(x: 100, y: 100, width: 300, height: 30))
        let word = Observation.text("invoice", confidence: 0.9, bounds: Bounds(x: 310, y: 102, width: 90, height: 28))
        #expect([word, whole].withoutPiecesOfLines() == [whole])
        let first = Observation.text("The quick brown dog jumped over the", confidence: 0.9,
                                     bounds: Bounds(x: 100, y: 100, width: 500, height: 30))
        let second = Observation.text("lazy fox. The quick brown dog jumped", confidence: 0.9,
                                      bounds: Bounds(x: 100, y: 118, width: 500, height: 30))
        #expect([first, second].withoutPiecesOfLines() == [first, second])
    }
}
