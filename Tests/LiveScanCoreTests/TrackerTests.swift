import Foundation
import Testing
@testable import LiveScanCore
import LiveScanTestSupport

/// Runs the tracker over per-frame observations at 30 fps and collects every change with its frame.
struct Run {
    var tracker: Tracker
    var added: [(frame: Int, item: RecognizedItem)] = []
    var updated: [(frame: Int, item: RecognizedItem)] = []
    var removed: [(frame: Int, item: RecognizedItem)] = []

    init(configuration: TrackerConfiguration = TrackerConfiguration()) throws {
        tracker = try Tracker(configuration: configuration)
    }

    mutating func feed(_ frames: [[Observation]], startingAt first: Int = 0, viewObscured: Bool = false) {
        for (offset, observations) in frames.enumerated() {
            let frame = first + offset
            let changes = tracker.update(observations, frame: frame, time: Double(frame) / 30,
                                         viewObscured: viewObscured)
            added += changes.added.map { (frame, $0) }
            updated += changes.updated.map { (frame, $0) }
            removed += changes.removed.map { (frame, $0) }
        }
    }
}

@Suite struct TrackerTests {
    @Test func clearBarcodeIsAddedOnFirstSighting() throws {
        var run = try Run()
        run.feed([[code("A", x: 100, y: 100)]])
        #expect(run.added.count == 1)
        #expect(run.added.first?.frame == 0)
        #expect(run.tracker.items.map(\.value) == ["A"])
    }

    @Test func jitterDoesNotUpdate() throws {
        var run = try Run()
        let offsets: [Double] = [0, 1.5, -1.2, 0.8, -1.5, 1.0, 0, -0.7, 1.4, -1.1]
        run.feed(offsets.map { [code("A", x: 100 + $0, y: 100 - $0)] })
        #expect(run.added.count == 1)
        #expect(run.updated.isEmpty)
    }

    @Test func realMoveUpdates() throws {
        var run = try Run()
        run.feed((0..<5).map { [code("A", x: 100 + Double($0) * 10, y: 100)] })
        #expect(run.added.count == 1)
        #expect(run.updated.count == 4)
        #expect(run.updated.allSatisfy { $0.item.id == run.added[0].item.id })
    }

    @Test func shortOcclusionKeepsTheID() throws {
        var run = try Run()
        // Seen 10 frames, hidden 8 frames (0.27 s < 0.5 s grace), seen again 10 frames.
        run.feed((0..<10).map { _ in [code("A", x: 100, y: 100)] })
        run.feed(Array(repeating: [], count: 8), startingAt: 10)
        run.feed((0..<10).map { _ in [code("A", x: 100, y: 100)] }, startingAt: 18)
        #expect(run.added.count == 1)
        #expect(run.removed.isEmpty)
        #expect(run.tracker.items.map(\.id) == [run.added[0].item.id])
    }

    @Test func longAbsenceRemovesAfterTheGracePeriod() throws {
        var run = try Run()
        run.feed([[code("A", x: 100, y: 100)]])
        run.feed(Array(repeating: [], count: 30), startingAt: 1)
        #expect(run.removed.count == 1)
        // Unseen since t=0; removed at the first frame more than 0.5 s later: frame 16 (0.533 s).
        #expect(run.removed.first?.frame == 16)
        #expect(run.removed.first?.item.id == run.added.first?.item.id)
        #expect(run.tracker.items.isEmpty)
    }

    /// A camera shake blurs the view past reading for a second: nothing is seen, nothing left. Those frames take
    /// no grace period off the items, which keep their ids when seen again; the same second unseen in a clear
    /// view ends them. After the blur the grace period counts again.
    @Test func aBlurredViewTakesNoGracePeriodOff() throws {
        var held = try Run()
        held.feed((0..<10).map { _ in [code("A", x: 100, y: 100)] })
        held.feed(Array(repeating: [], count: 30), startingAt: 10, viewObscured: true)
        #expect(held.removed.isEmpty)
        #expect(held.tracker.items.map(\.id) == [held.added[0].item.id])
        held.feed((0..<5).map { _ in [code("A", x: 100, y: 100)] }, startingAt: 40)
        #expect(held.added.count == 1 && held.removed.isEmpty)
        // Unseen in clear frames after it: removed a grace period (0.5 s) after the last sighting, at frame 44 +
        // 16, the obscured frames before that sighting forgotten.
        held.feed(Array(repeating: [], count: 20), startingAt: 45)
        #expect(held.removed.map(\.frame) == [60])

        var gone = try Run()
        gone.feed((0..<10).map { _ in [code("A", x: 100, y: 100)] })
        gone.feed(Array(repeating: [], count: 30), startingAt: 10)
        gone.feed((0..<5).map { _ in [code("A", x: 100, y: 100)] }, startingAt: 40)
        #expect(gone.removed.map(\.frame) == [25])
        #expect(gone.added.count == 2 && gone.added[0].item.id != gone.added[1].item.id)
    }

    /// A shake moves the view and takes it back: an item moving across the view before the blur is looked for where
    /// it was last seen, not carried on through the blur at its speed (600 px/s for a second would put it past the
    /// tracker's gate, 3 diagonals of the code), and keeps its id.
    @Test func aBlurredViewIsNoTimeToMoveOn() throws {
        var run = try Run()
        run.feed((0..<10).map { [code("A", x: 100 + 20 * Double($0), y: 100)] })
        run.feed(Array(repeating: [], count: 30), startingAt: 10, viewObscured: true)
        run.feed([[code("A", x: 280, y: 100)]], startingAt: 40)
        #expect(run.added.count == 1 && run.removed.isEmpty, "added \(run.added.map(\.frame)), removed \(run.removed)")
        #expect(run.tracker.items.map(\.id) == [run.added[0].item.id])
    }

    /// The track decides its own transitions: tentative until enough sightings, confirmed while seen, lost (still
    /// an item) while unseen within the grace period, removed after it; a tentative track ends unreported.
    @Test func aTrackGoesThroughItsStates() throws {
        let configuration = TrackerConfiguration()
        var text = Track(id: UUID(), observation: line("EXIT", x: 0, y: 0), frame: 0, time: 0)
        #expect(text.state == .tentative && !text.isReported)
        #expect(text.wasSeen(configuration) == nil)  // one reading of a line is not enough
        #expect(text.wasMissed(at: 0.6, configuration) == nil)
        #expect(text.state == .removed)

        var barcode = Track(id: UUID(), observation: code("A", x: 0, y: 0), frame: 0, time: 0)
        guard case .added(let added)? = barcode.wasSeen(configuration) else {
            Issue.record("a decoded code is added at its first sighting")
            return
        }
        #expect(barcode.state == .confirmed && added.id == barcode.id)
        #expect(barcode.wasMissed(at: 0.2, configuration) == nil)
        #expect(barcode.state == .lost && barcode.isReported)
        barcode.absorb(code("A", x: 0, y: 0), frame: 9, time: 0.3)
        #expect(barcode.wasSeen(configuration) == nil)  // back where it was: nothing to update
        #expect(barcode.state == .confirmed)
        #expect(barcode.wasMissed(at: 0.7, configuration) == nil)
        guard case .removed(let removed)? = barcode.wasMissed(at: 0.81, configuration) else {
            Issue.record("a code unseen for longer than the grace period is removed")
            return
        }
        #expect(barcode.state == .removed && removed.id == barcode.id)
    }

    @Test func twinPayloadsSideBySideAreTwoItems() throws {
        var run = try Run()
        run.feed((0..<30).map { step in
            let dx = Double(step) * 3
            return [code("SAME", x: 100 + dx, y: 200), code("SAME", x: 400 + dx, y: 200)]
        })
        #expect(run.added.count == 2)
        #expect(run.removed.isEmpty)
        let ids = Set(run.added.map(\.item.id))
        #expect(ids.count == 2)
        // Each identity stays on its own side: the left one's updates are all left of the right one's.
        let left = run.added.min { $0.item.bounds.center.x < $1.item.bounds.center.x }!.item.id
        for (_, item) in run.updated {
            #expect((item.id == left) == (item.bounds.center.x < 350 + 90))
        }
    }

    @Test func fastMovingCodeKeepsItsID() throws {
        var run = try Run()
        // 60 px code moving 45 px a frame: 0.53 diagonals per frame, plus two missed frames.
        var frames: [[Observation]] = (0..<20).map { [code("FAST", x: 50 + Double($0) * 45, y: 300, size: 60)] }
        frames[7] = []
        frames[8] = []
        run.feed(frames)
        #expect(run.added.count == 1)
        #expect(run.removed.isEmpty)
        #expect(Set(run.updated.map(\.item.id)) == [run.added[0].item.id])
    }

    @Test func differentPayloadAtTheSamePlaceIsANewItem() throws {
        var run = try Run()
        run.feed([[code("A", x: 100, y: 100)], [code("B", x: 100, y: 100)]])
        #expect(run.added.map(\.item.value) == ["A", "B"])
    }

    @Test func ocrFlickerStaysOneItem() throws {
        var run = try Run()
        run.feed((0..<30).map { step in
            [line(step % 3 == 2 ? "HELL0 WORLD" : "HELLO WORLD", x: 100 + Double(step % 2), y: 100)]
        })
        #expect(run.added.count == 1)
        #expect(run.tracker.items.map(\.value) == ["HELLO WORLD"])
        #expect(run.updated.allSatisfy { $0.item.id == run.added[0].item.id })
    }

    @Test func votesWeighConfidence() throws {
        var run = try Run()
        // Two low-confidence misreadings cannot outvote one confident reading... twice.
        run.feed([[line("Aisle 7", x: 0, y: 0, confidence: 0.9)], [line("Aisle 1", x: 0, y: 0, confidence: 0.3)],
                  [line("Aisle 1", x: 0, y: 0, confidence: 0.3)], [line("Aisle 7", x: 0, y: 0, confidence: 0.9)]])
        #expect(run.tracker.items.map(\.value) == ["Aisle 7"])
    }

    @Test func singleTextReadingIsNotAdded() throws {
        var run = try Run()
        run.feed([[line("noise", x: 10, y: 10)]] + Array(repeating: [], count: 20))
        #expect(run.added.isEmpty)
        #expect(run.removed.isEmpty)
    }

    /// A line already seen in an earlier frame before it reached the tracker (a detector's box found again since its
    /// turn's frame) is confirmed by that sighting: it is added in its first frame here, not its second.
    @Test func aLineSeenInEarlierFramesIsAddedAtOnce() throws {
        var run = try Run()
        var followed = line("Aisle 7", x: 10, y: 10)
        followed.earlierSightings = 1
        run.feed([[followed], [followed]])
        #expect(run.added.map(\.frame) == [0])
        var fresh = try Run()
        fresh.feed([[line("Aisle 7", x: 10, y: 10)], [line("Aisle 7", x: 10, y: 10)]])
        #expect(fresh.added.map(\.frame) == [1])
    }

    @Test func differentLinesStaySeparate() throws {
        var run = try Run()
        run.feed((0..<5).map { _ in [line("Order 4711", x: 100, y: 100), line("Aisle 7 Shelf B", x: 100, y: 160)] })
        #expect(run.added.count == 2)
        #expect(Set(run.tracker.items.map(\.value)) == ["Order 4711", "Aisle 7 Shelf B"])
    }

    @Test func removeAllEndsEveryConfirmedItem() throws {
        var run = try Run()
        run.feed([[code("A", x: 0, y: 0), code("B", x: 200, y: 0), line("tentative", x: 0, y: 300)]])
        var tracker = run.tracker
        let final = tracker.removeAll()
        #expect(Set(final.removed.map(\.value)) == ["A", "B"])
        #expect(tracker.items.isEmpty)
    }

    @Test func itemsAreInReadingOrder() throws {
        var run = try Run()
        run.feed([[code("bottom", x: 0, y: 400), code("top-right", x: 300, y: 10), code("top-left", x: 0, y: 0)]])
        #expect(run.tracker.items.map(\.value) == ["top-left", "top-right", "bottom"])
    }

    /// Two columns of lines, not level with each other, under a headline: the headline, then each column top to
    /// bottom. Read row by row, the columns' lines would alternate (left 1, right 1, left 2...).
    @Test func columnsAreReadOneAfterTheOther() throws {
        var run = try Run()
        let headline = Observation.text("Headline", confidence: 0.9, bounds: Bounds(x: 0, y: 0, width: 700, height: 60))
        let left = (0..<4).map { line("left \($0)", x: 0, y: 100 + 50 * Double($0)) }
        let right = (0..<4).map { line("right \($0)", x: 400, y: 125 + 50 * Double($0)) }
        run.feed((0..<5).map { _ in [headline] + right + left })
        #expect(run.tracker.items.map(\.value) == ["Headline"] + (0..<4).map { "left \($0)" } + (0..<4).map { "right \($0)" })
        // A grid is read row by row: strips run between its rows, so they are cut first.
        var grid = try Run()
        grid.feed([[code("b2", x: 200, y: 200), code("a2", x: 200, y: 0), code("b1", x: 0, y: 200), code("a1", x: 0, y: 0)]])
        #expect(grid.tracker.items.map(\.value) == ["a1", "a2", "b1", "b2"])
    }

    /// Typeset columns whose lines are level with each other's (a magazine page): a strip runs between every two
    /// rows, and read row by row the columns alternate. Rows that a narrow gutter cuts alike are one band, read
    /// column by column. A receipt's prices, far to the right of their items, stay with their rows.
    @Test func levelColumnsAreReadOneAfterTheOther() throws {
        var run = try Run()
        let headline = Observation.text("Headline", confidence: 0.9, bounds: Bounds(x: 0, y: 0, width: 620, height: 60))
        let left = (0..<4).map { line("left \($0)", x: 0, y: 100 + 50 * Double($0)) }
        let right = (0..<4).map { line("right \($0)", x: 320, y: 100 + 50 * Double($0)) }
        let footer = Observation.text("Footer", confidence: 0.9, bounds: Bounds(x: 0, y: 400, width: 620, height: 40))
        run.feed((0..<5).map { _ in [footer, headline] + right + left })
        #expect(run.tracker.items.map(\.value)
            == ["Headline"] + (0..<4).map { "left \($0)" } + (0..<4).map { "right \($0)" } + ["Footer"])

        var receipt = try Run()
        let items = (0..<3).map { line("item \($0)", x: 0, y: 50 * Double($0)) }
        let prices = (0..<3).map { index in
            Observation.text("\(index).00", confidence: 0.9,
                             bounds: Bounds(x: 600, y: 50 * Double(index), width: 100, height: 40))
        }
        receipt.feed((0..<5).map { _ in prices + items })
        #expect(receipt.tracker.items.map(\.value) == ["item 0", "0.00", "item 1", "1.00", "item 2", "2.00"])
    }

    /// On a magazine page the detector joins two level lines across a narrow gutter, and a caption is set across
    /// it: neither makes the columns one. Read across the gutter, the columns' lines alternated (pages 8071_093
    /// and 8087_054: CER 0.508 and 0.436, against 0.112 and 0.083 read column by column).
    @Test func aFewLinesAcrossAGutterLeaveTheColumns() throws {
        var run = try Run()
        let headline = Observation.text("Headline", confidence: 0.9, bounds: Bounds(x: 0, y: 0, width: 620, height: 60))
        let left = (0..<8).filter { $0 != 3 }.map { line("left \($0)", x: 0, y: 100 + 50 * Double($0)) }
        let right = (0..<8).filter { $0 != 3 }.map { line("right \($0)", x: 320, y: 100 + 50 * Double($0)) }
        let joined = Observation.text("left 3 right 3", confidence: 0.9,
                                      bounds: Bounds(x: 0, y: 250, width: 610, height: 40))
        run.feed((0..<5).map { _ in right + [joined, headline] + left })
        #expect(run.tracker.items.map(\.value) == ["Headline", "left 0", "left 1", "left 2", "left 3 right 3"]
            + (4..<8).map { "left \($0)" } + [0, 1, 2, 4, 5, 6, 7].map { "right \($0)" })
    }

    /// A page photographed turned: its lines run down (a quarter clockwise) or up, or it is upside down. Rows and
    /// columns are the text's own, so it reads as the page does upright: headline, left column, right column.
    @Test(arguments: [1, 2, 3])
    func aTurnedPageIsReadInItsOwnRowsAndColumns(clockwiseQuarterTurns: Int) throws {
        func turned(_ point: Point) -> Point {
            var point = point
            for _ in 0..<clockwiseQuarterTurns {
                point = Point(x: 1000 - point.y, y: point.x)
            }
            return point
        }
        func text(_ transcript: String, x: Double, y: Double, width: Double) -> Observation {
            let upright = Bounds(x: x, y: y, width: width, height: 40)
            return .text(transcript, confidence: 0.9, bounds: Bounds(
                topLeft: turned(upright.topLeft), topRight: turned(upright.topRight),
                bottomRight: turned(upright.bottomRight), bottomLeft: turned(upright.bottomLeft)))
        }
        var run = try Run()
        let headline = text("Headline", x: 0, y: 0, width: 620)
        let left = (0..<4).map { text("left \($0)", x: 0, y: 100 + 50 * Double($0), width: 300) }
        let right = (0..<4).map { text("right \($0)", x: 320, y: 100 + 50 * Double($0), width: 300) }
        run.feed((0..<5).map { _ in right + [headline] + left })
        #expect(run.tracker.items.map(\.value) == ["Headline"] + (0..<4).map { "left \($0)" } + (0..<4).map { "right \($0)" })
    }

    @Test func invalidConfigurationNamesTheParameter() {
        #expect(throws: ScanError.invalidParameter(parameter: "gracePeriod", reason: "must be 0...86400 seconds")) {
            _ = try Tracker(configuration: TrackerConfiguration(gracePeriod: -1))
        }
        // Far too large is as wrong as negative: 1e20 seconds once overflowed an Int conversion.
        for configuration in [TrackerConfiguration(gracePeriod: 1e20), TrackerConfiguration(updateDistance: 1e20),
                              TrackerConfiguration(barcodeGate: 1e20), TrackerConfiguration(textGate: .infinity)] {
            #expect(throws: ScanError.self) { _ = try Tracker(configuration: configuration) }
        }
        #expect(throws: ScanError.self) {
            _ = try Tracker(configuration: TrackerConfiguration(textSimilarity: 2))
        }
    }
}

@Suite struct TranscriptSimilarityTests {
    @Test func editDistanceSimilarity() {
        #expect(transcriptSimilarity("HELLO", "HELLO") == 1)
        #expect(transcriptSimilarity("HELLO", "HELL0") == 0.8)
        #expect(transcriptSimilarity("", "") == 1)
        #expect(transcriptSimilarity("abc", "") == 0)
        #expect(transcriptSimilarity("kitten", "sitting") == 1 - 3.0 / 7)
    }
}
