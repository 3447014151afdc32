import Foundation
import Testing
@testable import LiveScanCore
import LiveScanTestSupport

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

    /// A small word on a shaken sign, last seen moving up 2.5 px a frame (the shake's speed), is read again after a
    /// blur and the frames a detector turn takes, 11 px below where it was last seen: the shake took the view back.
    /// It keeps its id: a line is looked for, by its reading, where it was as well as where its motion would take it
    /// (there, 43 px off: past a line height and a half and half its width). Another word read there is another item.
    @Test func aWordReadAgainWhereItWasAfterAShakeKeepsItsId() throws {
        func word(_ text: String, y: Double) -> Observation {
            .text(text, confidence: 0.9, bounds: Bounds(x: 182, y: y, width: 26, height: 10))
        }
        for (again, items) in [("NEW", 1), ("OLD", 2)] {
            var run = try Run()
            run.feed((0...17).map { [word("NEW", y: 478 - 2.5 * Double($0))] })
            run.feed(Array(repeating: [], count: 2), startingAt: 18)
            run.feed(Array(repeating: [], count: 15), startingAt: 20, viewObscured: true)
            run.feed(Array(repeating: [], count: 10), startingAt: 35)
            run.feed([[word(again, y: 447.5)], [word(again, y: 447)]], startingAt: 45)
            #expect(Set(run.added.map(\.item.id)).count == items, "\(again): added at \(run.added.map(\.frame))")
            #expect(run.removed.isEmpty && run.tracker.items.count == items)
        }
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
        // Lines of a page repeat words, and a line can read as a stretch of its neighbour (tesseract's phototest):
        // half a row apart, each is a line of its own.
        let upper = Observation.text("over the lazy fox. The quick brown dog", confidence: 0.9,
                                     bounds: Bounds(x: 100, y: 100, width: 480, height: 30))
        let lower = Observation.text("the lazy fox. The quick brown dog jumped", confidence: 0.9,
                                     bounds: Bounds(x: 100, y: 115, width: 500, height: 30))
        #expect([upper, lower].withoutPiecesOfLines() == [upper, lower])
    }

    /// A line entering from the frame's left edge at 6 px a frame, 20 px a character: seen first as its last
    /// characters, each reading is the visible stretch, and the box grows with it. One item, whose transcript
    /// grows to the whole line; no stub is left behind.
    @Test func aLineEnteringFromTheEdgeIsOneItemWhoseTranscriptGrows() throws {
        let whole = "Batch 2024 Lot 88"
        var run = try Run()
        var frames: [[Observation]] = []
        for frame in 0..<70 {
            let right = 40 + 6 * Double(frame)
            let visible = min(whole.count, Int(right / 20))
            let reading = String(whole.suffix(visible))
            let width = Double(visible) * 20
            frames.append([.text(reading, confidence: 0.9, bounds: Bounds(x: right - width, y: 200, width: width,
                                                                          height: 34))])
        }
        run.feed(frames)
        #expect(run.added.count == 1, "\(run.added.map(\.item.value))")
        #expect(run.tracker.items.map(\.value) == [whole])
        #expect(run.updated.map(\.item.value).contains("Lot 88"))
    }

    /// The same line leaving over the edge: the readings of what is left in view are pieces of it, not votes
    /// against it; the item keeps reading as the whole line, with one id.
    @Test func aLineLeavingKeepsItsWholeReading() throws {
        let whole = "Batch 2024 Lot 88"
        var run = try Run()
        var frames: [[Observation]] = []
        for frame in 0..<60 {
            let left = 900 + 4 * Double(frame)
            let visible = min(whole.count, Int((1280 - left) / 20))
            let width = Double(visible) * 20
            let reading = String(whole.prefix(visible))
            frames.append([.text(reading, confidence: 0.95, bounds: Bounds(x: left, y: 200, width: width, height: 34))])
        }
        run.feed(frames)
        #expect(run.added.count == 1, "\(run.added.map(\.item.value))")
        #expect(run.tracker.items.map(\.value) == [whole])
    }

    /// A word found on its own and read with one character wrong ("Gate 3." for "Gate 3 ") is still a piece of
    /// its line: it lies inside the line's box and reads as a stretch of it.
    @Test func aPieceReadWithAFlickerIsStillAPiece() {
        let lineBox = Bounds(x: 600, y: 620, width: 360, height: 40)
        let wordBox = Bounds(x: 600, y: 620, width: 190, height: 40)
        #expect(SameItem.isPiece("Gate 3.", at: wordBox, of: "Gate 3 Dock 19", at: lineBox))
        #expect(partSimilarity("Gate 3.", in: "Gate 3 Dock 19") > 0.85)
        #expect(partSimilarity("Dock 19", in: "Gate 3 Dock 19") == 1)
        // Another line's text, or the same text elsewhere, is not.
        #expect(!SameItem.isPiece("Keep dry", at: wordBox, of: "Gate 3 Dock 19", at: lineBox))
        #expect(!SameItem.isPiece("Gate 3", at: wordBox.offsetBy(dx: 0, dy: 80), of: "Gate 3 Dock 19", at: lineBox))
    }
}
