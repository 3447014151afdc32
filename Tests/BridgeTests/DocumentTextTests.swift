import Foundation
import Testing
@testable import LiveScan
import LiveScanScenes

/// Pages and receipts through the learned detector: their lines in reading order, and their poorly read words kept.
@Suite struct DocumentTextTests {
    /// A rendered page, a headline over two columns of eight lines level with each other, scanned as an image
    /// file end to end: every line read exactly, the headline first, then each column top to bottom. Also the page
    /// photographed turned a quarter either way or upside down (no orientation tag): its lines are read the right
    /// way round and in the same order (before, a page turned anticlockwise or upside down read as nothing).
    @Test(arguments: [0, 1, 2, 3])
    func aPageOfTwoColumnsIsReadColumnByColumn(clockwiseQuarterTurns: Int) throws {
        _ = try sharedTextDetector.get()
        let headline = "Harbour Notes"
        let left = ["Boats leave at nine", "from the north pier", "and come back late", "when the wind drops",
                    "Tickets are sold on", "the quay every day", "cash or card only", "children travel free"]
        let right = ["The old lighthouse", "opens for visitors", "from April to June", "climb the stairs to",
                     "see the whole bay", "bring warm clothes", "the top is windy", "and often wet too"]
        // Columns about 270 pixels wide, 40 apart.
        var items = [SceneItem.text("headline", headline, pixelHeight: 40, at: ScenePoint(x: 330, y: 70))]
        for (column, lines) in [(180.0, left), (490.0, right)] {
            for (row, line) in lines.enumerated() {
                items.append(.text("\(Int(column))-\(row)", line, pixelHeight: 26,
                                   at: ScenePoint(x: column, y: 170 + 52 * Double(row))))
            }
        }
        var page = try SceneRenderer(scene: Scene(name: "page", width: 680, height: 620, items: items)).render(frame: 0)
        for _ in 0..<clockwiseQuarterTurns {
            page = turnedClockwise(page)
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("livescan-page-\(UUID()).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try FrameImage(pixels: page.pixels, width: page.width, height: page.height, channels: 3).write(to: path)
        let read = try valuesAdded(scanning: path, for: [.text()], recognizesMultipleItems: true)
        #expect(read == [headline] + left + right, "read \(read)")
    }

    /// `frame` turned a quarter clockwise.
    private func turnedClockwise(_ frame: RenderedFrame) -> RenderedFrame {
        let (width, height) = (frame.height, frame.width)
        var pixels = [UInt8](repeating: 0, count: frame.pixels.count)
        for y in 0..<frame.height {
            for x in 0..<frame.width {
                let from = (y * frame.width + x) * 3, to = (x * width + (width - 1 - y)) * 3
                pixels[to..<to + 3] = frame.pixels[from..<from + 3]
            }
        }
        return RenderedFrame(width: width, height: height, pixels: pixels)
    }

    /// One frame's readings judged together: a scene's boxes must read confidently and lose their poor words; in a
    /// document (`DetectedLineJudge.documentLineCount` boxes read confidently) every plausible reading is kept whole.
    @Test func aDocumentKeepsItsPoorlyReadWords() {
        func reading(_ words: [(String, Double)], y: Double) -> DetectedLineReading {
            DetectedLineReading(region: Bounds(x: 0, y: y, width: 400, height: 30),
                                words: words.map {
                                    DetectedLineReading.Word(text: $0.0, confidence: $0.1,
                                                             bounds: Bounds(x: 0, y: y, width: 400, height: 30))
                                })
        }
        let poorWord = reading([("TOTAL", 0.9), ("SALES", 0.9), ("INCLUSIVE", 0.3), ("GST", 0.9)], y: 0)
        let poorLine = reading([("LOT", 0.4), ("34817", 0.45)], y: 40)
        let garbage = reading([("|", 0.2), ("~", 0.1)], y: 80)
        func lines(_ readings: [DetectedLineReading]) -> [String] {
            DetectedLineJudge(minimumConfidence: 0.55, minimumWordConfidence: 0.5).lines(of: readings)
                .compactMap(\.transcript)
        }
        #expect(lines([poorWord, poorLine, garbage]) == ["TOTAL SALES GST"])
        // With the line of a poor word, `documentLineCount` boxes read confidently.
        let count = DetectedLineJudge.documentLineCount - 1
        let clear = (0..<count).map { reading([("item", 0.9), ("\($0)", 0.9)], y: 120 + 40 * Double($0)) }
        #expect(lines([poorWord, poorLine, garbage] + clear)
            == ["TOTAL SALES INCLUSIVE GST", "LOT 34817"] + (0..<count).map { "item \($0)" })
        // One confident box fewer, and it is a scene again.
        #expect(lines([poorWord, poorLine, garbage] + clear.dropLast())
            == ["TOTAL SALES GST"] + (0..<count - 1).map { "item \($0)" })
    }
}
