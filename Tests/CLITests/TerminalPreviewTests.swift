import Foundation
import Testing
@testable import livescan
import LiveScan

/// `--preview`'s picture on real decoded pixels: CBridge's downscale (`FrameImage.resizedRGBPixels`), the half
/// blocks and their colours, the outlines and short ids, the 256-colour palette, when it is off, and that only the
/// cells that changed are written again.
@Suite struct TerminalPreviewTests {
    let white = RGBColor(red: 255, green: 255, blue: 255)
    let red = RGBColor(red: 255, green: 0, blue: 0)

    /// A `width` x `height` white picture with `rectangles` (x, y, width, height, BGR) painted in, written as a PNG
    /// and decoded again: the pixels as a scan would have them.
    func decodedPicture(width: Int, height: Int,
                        rectangles: [(x: Int, y: Int, width: Int, height: Int, bgr: [UInt8])]) throws -> FrameImage {
        var pixels = [UInt8](repeating: 255, count: width * height * 3)
        for rectangle in rectangles {
            for y in rectangle.y..<(rectangle.y + rectangle.height) {
                for x in rectangle.x..<(rectangle.x + rectangle.width) {
                    pixels.replaceSubrange((3 * (y * width + x))..<(3 * (y * width + x) + 3), with: rectangle.bgr)
                }
            }
        }
        let scratch = try ScratchFolder()
        let path = scratch.path("picture.png")
        try FrameImage(pixels: pixels, width: width, height: height, channels: 3).write(to: path)
        return try FrameImage(contentsOf: path)
    }

    func picture(of image: FrameImage, width: Int, height: Int, items: [RecognizedItem] = []) throws -> PreviewPicture {
        PreviewPicture(width: width, height: height, rgb: try image.resizedRGBPixels(width: width, height: height),
                       frameIndex: 0, frameWidth: image.width, frameHeight: image.height, items: items)
    }

    func barcode(_ id: Int, _ bounds: Bounds) -> RecognizedItem {
        .barcode(.init(id: UUID(uuidString: String(format: "%08X-0000-4000-8000-000000000000", id))!, bounds: bounds,
                       payloadStringValue: "\u{1B}[2Jhostile", payloadData: Data(), symbology: .qr, frameIndex: 0,
                       time: 0))
    }

    func text(_ id: Int, _ bounds: Bounds) -> RecognizedItem {
        .text(.init(id: UUID(uuidString: String(format: "%08X-0000-4000-8000-000000000000", id))!, bounds: bounds,
                    transcript: "Order 4711", confidence: 0.9, frameIndex: 0, time: 0))
    }

    /// CBridge averages the pixels each thumbnail pixel covers (INTER_AREA, not the nearest pixel) and gives them in
    /// RGB order (OpenCV holds BGR).
    @Test func theDownscaleIsAreaMeansInRGBOrder() throws {
        // Left half red, right half blue: 40 pixels into 3, the middle one half of each.
        let image = try decodedPicture(width: 40, height: 20, rectangles: [(0, 0, 20, 20, [0, 0, 255]),
                                                                          (20, 0, 20, 20, [255, 0, 0])])
        let rgb = try image.resizedRGBPixels(width: 3, height: 1)
        #expect(Array(rgb[0..<3]) == [255, 0, 0])
        #expect(Array(rgb[6..<9]) == [0, 0, 255])
        #expect(abs(Int(rgb[3]) - 128) <= 1 && rgb[4] == 0 && abs(Int(rgb[5]) - 128) <= 1, "\(rgb)")
        #expect(throws: ScanError.self) { try image.resizedRGBPixels(width: 0, height: 1) }
    }

    /// Each cell is two pixels: `▀` in the upper one's colour over the lower one's.
    @Test func halfBlocksShowTheUpperPixelOverTheLower() throws {
        // 64x32 into 16x8 pixels (4 to 1): the red band at y 12...15 is picture row 3, the lower half of cell row 1.
        let image = try decodedPicture(width: 64, height: 32, rectangles: [(16, 12, 16, 4, [0, 0, 255])])
        let grid = TerminalPreview.grid(try picture(of: image, width: 16, height: 8), regionOfInterest: nil,
                                        columns: 16, rows: 4)
        #expect(grid[5, 1] == PreviewCell(glyph: "▀", foreground: white, background: red))
        #expect(grid[3, 1] == PreviewCell(glyph: "▀", foreground: white, background: white))
        #expect(grid[5, 0] == PreviewCell(glyph: "▀", foreground: white, background: white))
        // Colours are set where they change: after four white cells, only the background.
        #expect(grid.lines(.trueColor)[1] == "\u{1B}[0;38;2;255;255;255;48;2;255;255;255m▀▀▀▀\u{1B}[48;2;255;0;0m▀▀▀▀"
            + "\u{1B}[48;2;255;255;255m▀▀▀▀▀▀▀▀\u{1B}[0m", "\(grid.lines(.trueColor)[1].debugDescription)")
        // The grid is wider than the picture (right after a resize): the rest is blank.
        let wide = TerminalPreview.grid(try picture(of: image, width: 16, height: 8), regionOfInterest: nil,
                                        columns: 20, rows: 5)
        #expect(wide[17, 1] == .blank && wide[3, 4] == .blank)
    }

    /// Items are outlined in `--annotate`'s colours, where their quads are, with their short ids above; the region
    /// of interest in light blue. Nothing of an item's value is drawn.
    @Test func itemsAreOutlinedInTheirColoursWithTheirShortIDs() throws {
        let image = try decodedPicture(width: 128, height: 64, rectangles: [])
        // Half size: the code's quad is picture pixels 16...32 x 8...24, cells 16...32 x rows 4...12.
        let code = barcode(0xABCDEF01, Bounds(x: 32, y: 16, width: 32, height: 32))
        let line = text(0x12345678, Bounds(x: 80, y: 40, width: 40, height: 12))
        let grid = TerminalPreview.grid(try picture(of: image, width: 64, height: 32, items: [code, line]),
                                        regionOfInterest: Bounds(x: 0, y: 0, width: 128, height: 64),
                                        columns: 64, rows: 16)
        let green = TerminalPreview.barcodeColor, orange = TerminalPreview.textColor
        // The top side, picture row 8, is the upper pixel of cell row 4; the left side is column 16 all the way down.
        for column in 16...32 {
            #expect(grid[column, 4].foreground == green, "column \(column)")
        }
        for row in 5..<12 {
            #expect(grid[16, row].foreground == green && grid[16, row].background == green, "row \(row)")
            #expect(grid[32, row].foreground == green, "row \(row)")
            #expect(grid[24, row].foreground == white, "inside the quad, row \(row)")
        }
        #expect(grid[16, 12].foreground == green)
        #expect(String((16..<24).map { grid[$0, 3].glyph }) == "abcdef01")
        #expect(grid[16, 3].foreground == TerminalPreview.labelInk && grid[16, 3].background == green)
        // The text line: picture 40...60 x 20...26; its top side is row 10's upper pixel, its id above it.
        #expect(grid[50, 10].foreground == orange && grid[50, 13].foreground == orange)
        #expect(String((40..<48).map { grid[$0, 9].glyph }) == "12345678")
        // The region of interest is the whole frame: its sides are the picture's edges, the last column and row too.
        #expect(grid[0, 8].foreground == TerminalPreview.regionColor)
        #expect(grid[63, 8].foreground == TerminalPreview.regionColor)
        #expect(grid[8, 15].background == TerminalPreview.regionColor)
        let drawn = grid.lines(.trueColor).joined()
        #expect(drawn.contains("38;2;40;200;80") && !drawn.contains("hostile") && !drawn.contains("Order"))
    }

    /// A quad partly or wholly outside the frame costs nothing and draws only what is inside.
    @Test func quadsOutsideThePictureAreCut() throws {
        let image = try decodedPicture(width: 64, height: 32, rectangles: [])
        let items = [barcode(1, Bounds(x: -1e9, y: 4, width: 2e9, height: 8)),
                     barcode(2, Bounds(x: 200, y: 200, width: 10, height: 10)),
                     barcode(3, Bounds(x: .nan, y: 20, width: 4, height: 4))]
        let grid = TerminalPreview.grid(try picture(of: image, width: 64, height: 32, items: items),
                                        regionOfInterest: nil, columns: 64, rows: 16)
        // The first spans the picture: its top and bottom sides, rows 4 and 12, are green across it.
        #expect((0..<64).allSatisfy { grid[$0, 2].foreground == TerminalPreview.barcodeColor })
        #expect((0..<64).allSatisfy { grid[$0, 6].foreground == TerminalPreview.barcodeColor })
        #expect(grid[10, 10].foreground == white)
        // Only the first has its id drawn: the others have nothing in view.
        let glyphs = String(grid.cells.map(\.glyph))
        #expect(glyphs.contains("00000001") && !glyphs.contains("00000002") && !glyphs.contains("00000003"))
    }

    /// The 256-colour palette: the xterm cube or the grey ramp, whichever is nearer; `COLORTERM` picks the mode.
    @Test func palette256MapsToTheXtermCubeAndGreys() {
        #expect(PreviewColorMode.paletteIndex(red) == 196)
        #expect(PreviewColorMode.paletteIndex(RGBColor(red: 0, green: 0, blue: 0)) == 16)
        #expect(PreviewColorMode.paletteIndex(white) == 231)
        #expect(PreviewColorMode.paletteIndex(RGBColor(red: 128, green: 128, blue: 128)) == 244)
        #expect(PreviewColorMode.paletteIndex(TerminalPreview.barcodeColor) == 41)
        #expect(PreviewColorMode.paletteIndex(TerminalPreview.textColor) == 208)
        #expect(PreviewColorMode.palette256.parameters(TerminalPreview.barcodeColor, background: true) == "48;5;41")
        #expect(PreviewColorMode(environment: ["COLORTERM": "truecolor"]) == .trueColor)
        #expect(PreviewColorMode(environment: ["COLORTERM": "24bit"]) == .trueColor)
        #expect(PreviewColorMode(environment: [:]) == .palette256)
        #expect(PreviewColorMode(environment: ["COLORTERM": "yes"]) == .palette256)
        var grid = PreviewGrid(columns: 2, rows: 1)
        grid[0, 0] = PreviewCell(glyph: "▀", foreground: TerminalPreview.barcodeColor, background: red)
        #expect(grid.lines(.palette256)[0] == "\u{1B}[0;38;5;41;48;5;196m▀\u{1B}[0m \u{1B}[0m")
    }

    /// The colours are `--annotate`'s, which CBridge/Annotate.cpp keeps: an annotated frame holds each exactly
    /// (its labels are filled with them).
    @Test func theColoursAreAnnotatesColours() throws {
        let image = try decodedPicture(width: 640, height: 360, rectangles: [])
        let frame = Frame(image: image, index: 0, time: 0)
        let annotated = try Annotator.annotatedImage(
            frame: frame, items: [barcode(1, Bounds(x: 100, y: 100, width: 120, height: 120)),
                                  text(2, Bounds(x: 300, y: 250, width: 200, height: 40))],
            regionOfInterest: Bounds(x: 20, y: 20, width: 600, height: 320))
        let rgb = try annotated.resizedRGBPixels(width: 640, height: 360)
        let colours = Set(stride(from: 0, to: rgb.count, by: 3).map {
            RGBColor(red: rgb[$0], green: rgb[$0 + 1], blue: rgb[$0 + 2])
        })
        for colour in [TerminalPreview.barcodeColor, TerminalPreview.textColor, TerminalPreview.regionColor] {
            #expect(colours.contains(colour), "\(colour) is not --annotate's")
        }
    }

    /// Off without colour and on a terminal under 40x20; shown, it keeps the frame's shape and 13 lines of listing.
    @Test func theLayoutFitsTheTerminalOrSaysWhyNot() {
        func layout(_ width: Int, _ height: Int, color: Bool = true) -> TerminalPreview.Layout {
            TerminalPreview.layout(terminalWidth: width, terminalHeight: height, frameWidth: 1280, frameHeight: 720,
                                   color: color)
        }
        #expect(layout(120, 50) == .shown(columns: 120, rows: 34))
        // Height-bound: 80x24 leaves 11 rows, 22 pixels tall, 39 wide.
        #expect(layout(80, 24) == .shown(columns: 39, rows: 11))
        #expect(layout(40, 20) == .shown(columns: 25, rows: 7))
        #expect(layout(39, 50) == .off(reason: "terminal under 40x20"))
        #expect(layout(120, 19) == .off(reason: "terminal under 40x20"))
        #expect(layout(120, 50, color: false) == .off(reason: "NO_COLOR"))
    }

    /// The listing under the picture, or alone with a note in its footer.
    @Test func theScreenPutsTheListingUnderThePicture() throws {
        var state = ListingState(source: SourceInfo(name: "cam", width: 1280, height: 720, framesPerSecond: 30,
                                                    frameCount: nil))
        state.showsPreview = true
        let shown = ListingRenderer.screen(state, width: 120, height: 50, color: true)
        #expect(shown.preview == PreviewArea(columns: 120, rows: 34, left: 0))
        #expect(shown.listingTop == 34 && shown.lines.count == 16)
        #expect(shown.lines.last == ListingRenderer.footerKeys)
        #expect(ListingRenderer.listingHeight(state, width: 120, height: 50, color: true) == 16)
        let centred = ListingRenderer.screen(state, width: 80, height: 24, color: true)
        #expect(centred.preview == PreviewArea(columns: 39, rows: 11, left: 20) && centred.lines.count == 13)
        let noColor = ListingRenderer.screen(state, width: 120, height: 50, color: false)
        #expect(noColor.preview == nil)
        try #require(noColor.lines.count == 50)
        #expect(noColor.lines[48] == "preview off: NO_COLOR", "\(noColor.lines)")
        // The last key's message follows the note.
        state.message = "saved livescan-snapshot-7.png"
        let small = ListingRenderer.screen(state, width: 60, height: 19, color: true)
        try #require(small.lines.count == 19)
        #expect(small.preview == nil)
        #expect(small.lines[17] == "preview off: terminal under 40x20  saved livescan-snapshot-…")
        state.showsPreview = false
        #expect(ListingRenderer.screen(state, width: 120, height: 50, color: false).lines[48]
            == "saved livescan-snapshot-7.png")
    }

    /// A redraw writes only the cells that changed (a run of them after one cursor move); a colour within the
    /// tolerance in 24 bits, or on the same palette entry, is left as drawn.
    @Test func onlyChangedCellsAreWrittenAgain() {
        var grid = PreviewGrid(columns: 10, rows: 3)
        for row in 0..<3 {
            for column in 0..<10 {
                grid[column, row] = PreviewCell(glyph: "▀", foreground: white, background: white)
            }
        }
        let first = grid.updates(from: nil, mode: .trueColor, top: 0, left: 5)
        #expect(first.output.components(separatedBy: "▀").count - 1 == 30)
        #expect(first.output.hasPrefix("\u{1B}[1;1H\u{1B}[0m\u{1B}[K\u{1B}[1;6H"))
        #expect(grid.updates(from: first.shown, mode: .trueColor, top: 0, left: 5).output.isEmpty)

        var changed = grid
        changed[3, 1].background = red
        changed[5, 1].background = red
        changed[7, 2].foreground = RGBColor(red: 250, green: 251, blue: 255)
        let update = changed.updates(from: first.shown, mode: .trueColor, top: 2, left: 5)
        // Cells 3...5 of row 1 (screen row 4, columns 9...11) in one run; the near-white cell is left.
        #expect(update.output == "\u{1B}[4;9H\u{1B}[0;38;2;255;255;255;48;2;255;0;0m▀\u{1B}[48;2;255;255;255m▀"
            + "\u{1B}[48;2;255;0;0m▀\u{1B}[0m", "\(update.output.debugDescription)")
        #expect(update.shown[7, 2].foreground == white && update.shown[5, 1].background == red)
        changed[7, 2].foreground = RGBColor(red: 240, green: 255, blue: 255)
        #expect(changed.updates(from: update.shown, mode: .trueColor, top: 2, left: 5).output.hasPrefix("\u{1B}[5;13H"))
        #expect(changed.updates(from: update.shown, mode: .palette256, top: 2, left: 5).output.isEmpty)
        // Another size is a fresh start: everything is written.
        #expect(PreviewGrid(columns: 9, rows: 3).updates(from: first.shown, mode: .trueColor, top: 0, left: 0).output
            .contains("\u{1B}[3;1H"))
    }
}

/// `--preview` where it cannot apply: refused (one `Error:` line, the usage, exit 2) with the options that turn the
/// listing off, with `--out` and for images; where only the terminal lacks, the scan runs as without it.
@Suite struct PreviewOptionTests {
    private let scratch: ScratchFolder

    init() throws {
        scratch = try ScratchFolder()
    }

    @Test func optionsThatTurnTheListingOffRefuseIt() throws {
        let turningOff: [([String], String)] = [
            (["--no-listing"], "--no-listing"), (["--raw"], "--raw"), (["--once"], "--once"), (["-1"], "--once"),
            (["--changes"], "--changes"), (["-q"], "--quiet"), (["--events", "-"], "--events -"),
        ]
        for (arguments, option) in turningOff {
            do {
                _ = try ScanOptions(["--preview"] + arguments + ["clip.mp4"])
                Issue.record("--preview \(arguments) was accepted")
            } catch let error as UsageError {
                #expect(error.message == "--preview draws in the live listing, which \(option) turns off")
            }
        }
        #expect(try ScanOptions(["--preview", "--events", "log.jsonl", "clip.mp4"]).preview)
        let result = try Livescan.run(["scan", "--preview", "--raw", "clip.mp4"])
        #expect(result.status == 2 && result.standardOutput.isEmpty)
        #expect(result.errorLines == ["Error: --preview draws in the live listing, which --raw turns off",
                                      ScanOption.usageLine, "See 'livescan --help'."])
        let archive = try Livescan.run(["scan", "--out", scratch.path("logs"), "--preview", "clip.mp4"])
        #expect(archive.status == 2)
        #expect(archive.errorLines.first == "Error: --preview does not go with --out: an archive scan shows no listing")
    }

    @Test func imagesRefuseIt() throws {
        let image = try scratch.qrStill("still.png")
        let result = try Livescan.run(["scan", "--preview", image])
        #expect(result.status == 2 && result.standardOutput.isEmpty)
        #expect(result.errorLines.first == "Error: --preview applies to a video file or a camera or a stream only, "
            + "and \(image) is an image or a folder of images")
    }

    /// No terminal, no listing: the scan prints its lines as without `--preview`, and says nothing of it.
    @Test func withoutATerminalItChangesNothing() throws {
        let video = scratch.url.appendingPathComponent(try TerminalPreviewTmuxTests.video(in: scratch.url)).path
        let plain = try Livescan.run(["scan", "--types", "qr", video])
        let previewed = try Livescan.run(["scan", "--preview", "--types", "qr", video])
        #expect(previewed.status == 0 && previewed.standardError.isEmpty, "\(previewed.standardError)")
        #expect(previewed.outputLines == plain.outputLines && previewed.outputLines.count == 2)
        #expect(!previewed.standardOutput.contains("\u{1B}"))
    }
}

