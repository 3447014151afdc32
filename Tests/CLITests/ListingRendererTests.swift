import Foundation
import Testing
@testable import livescan
import LiveScan

@Suite struct ListingRendererTests {
    let source = SourceInfo(name: "shelf.mp4", width: 1280, height: 720, framesPerSecond: 30, frameCount: 300)

    func barcode(_ payload: String, id: Int, x: Double = 100) -> RecognizedItem {
        .barcode(.init(id: UUID(uuidString: String(format: "%08X-0000-4000-8000-000000000000", id))!,
                       bounds: Bounds(x: x, y: 50, width: 80, height: 80), payloadStringValue: payload,
                       payloadData: Data(payload.utf8), symbology: .qr, frameIndex: 0, time: 0))
    }

    @Test func rendersHeaderRowsAndFooterWithinTheTerminal() {
        var state = ListingState(source: source)
        state.framesProcessed = 42
        state.processingRate = 29.5
        state.items = [barcode("https://example.com/item/4711", id: 0xABCDEF01),
                       barcode(String(repeating: "long payload ", count: 20), id: 2, x: 400)]
        state.addedAt = [state.items[0].id: 1.0]
        state.currentTime = 2.5
        state.selected = state.items[0].id
        let lines = ListingRenderer.render(state, width: 80, height: 24, color: false)
        #expect(lines.count == 24)
        #expect(lines.allSatisfy { $0.count <= 80 })
        #expect(lines[0] == "LiveScan  shelf.mp4  1280x720 @ 30 fps")
        // A file's length is known: how far the scan is and the seconds left at its rate (42 of 300 frames at 29.5).
        #expect(lines[1] == "frames 42 (dropped 0)  29.5 fps  items 2 (2 barcode, 0 text)  14%, 9 s left")
        // The titles stand over their columns: one column for the selection mark first, as in every row.
        #expect(lines[2].hasPrefix(" ID       KIND       VALUE"))
        #expect(lines[2].firstRange(of: "VALUE")?.lowerBound.utf16Offset(in: lines[2])
                == lines[3].firstRange(of: "https")?.lowerBound.utf16Offset(in: lines[3]))
        #expect(lines[3] == ">abcdef01 qr         https://example.com/item/4711         1.00 1.5s   140,90")
        #expect(lines[4].hasPrefix(" 00000002 qr         long payload long payload"))
        #expect(lines[4].contains("…"))
        #expect(lines[23] == ListingRenderer.footerKeys)
    }

    @Test func hostilePayloadIsShownEscapedInTheListing() {
        var state = ListingState(source: source)
        state.items = [barcode("\u{1B}]52;c;aGk=\u{07}\u{1B}[2J", id: 1)]
        let lines = ListingRenderer.render(state, width: 100, height: 10, color: true)
        #expect(!lines.joined().contains("\u{1B}]"))
        #expect(!lines.joined().contains("\u{07}"))
        #expect(lines[3].contains("\\e]52;c;aGk=\\x07\\e[2J"))
    }

    @Test func listingShowsWhatAPayloadMeansAndHidesWiFiPasswords() {
        var state = ListingState(source: source)
        state.items = [barcode("WIFI:S:HomeNet;T:WPA;P:hunter2-secret;;", id: 1)]
        let lines = ListingRenderer.render(state, width: 100, height: 10, color: false)
        #expect(!lines.joined().contains("hunter2-secret"))
        #expect(lines[3].contains("HomeNet"))
    }

    @Test func guidanceIsShownInTheHeader() {
        var state = ListingState(source: source)
        state.guidance = ScanGuidance.holdStill.message
        let lines = ListingRenderer.render(state, width: 120, height: 10, color: false)
        #expect(lines[1].hasSuffix("> hold still: the picture is blurred"))
    }

    @Test func selectionStaysInViewWhenItemsOverflow() {
        var state = ListingState(source: source)
        state.items = (1...40).map { barcode("item \($0)", id: $0, x: Double($0)) }
        state.selected = state.items[35].id
        let lines = ListingRenderer.render(state, width: 80, height: 24, color: false)
        #expect(lines.count == 24)
        #expect(lines.contains { $0.hasPrefix(">00000024") })
        // 18 rows fit: items 19...36 are shown, and a line says what is hidden.
        #expect(lines.contains(" … 18 more above, 4 more below (↑/↓ to scroll)"), "\(lines)")
        #expect(lines.filter { $0.hasPrefix(" 000000") || $0.hasPrefix(">000000") }.count == 18)
    }

    @Test func colourOnlyMarksTheSelectionWhenAllowed() {
        var state = ListingState(source: source)
        state.items = [barcode("a", id: 1)]
        state.selected = state.items[0].id
        #expect(ListingRenderer.render(state, width: 80, height: 24, color: true)[3].hasPrefix("\u{1B}[7m"))
        #expect(!ListingRenderer.render(state, width: 80, height: 24, color: false).joined().contains("\u{1B}"))
    }

    @Test func keysParse() {
        #expect(Terminal.parseKeys([0x1B, 0x5B, 0x41]) == [.up])
        #expect(Terminal.parseKeys([0x1B, 0x4F, 0x42]) == [.down])
        #expect(Terminal.parseKeys([0x0D]) == [.enter])
        #expect(Terminal.parseKeys([0x71]) == [.character("q")])
        #expect(Terminal.parseKeys([0x1B]) == [])
    }

    /// Page Up and Down, Home and End, as xterm, rxvt and the Linux console send them, move the selection by a
    /// screen's rows or to the ends, kept within the list.
    @Test func pageKeysMoveTheSelectionByAScreenOrToTheEnds() {
        #expect(Terminal.parseKeys([0x1B, 0x5B, 0x35, 0x7E, 0x1B, 0x5B, 0x36, 0x7E]) == [.pageUp, .pageDown])
        #expect(Terminal.parseKeys([0x1B, 0x5B, 0x48, 0x1B, 0x4F, 0x46, 0x1B, 0x5B, 0x31, 0x7E, 0x1B, 0x5B, 0x34, 0x7E,
                                    0x1B, 0x5B, 0x37, 0x7E, 0x1B, 0x5B, 0x38, 0x7E])
                == [.home, .end, .home, .end, .home, .end])
        let ids = (0..<50).map { _ in UUID() }
        let page = ListingRenderer.itemRows(height: 24, items: ids.count)
        #expect(page == 18)
        #expect(ListingState.selection(after: .pageDown, in: ids, selected: ids[0], page: page) == ids[18])
        #expect(ListingState.selection(after: .pageDown, in: ids, selected: ids[40], page: page) == ids[49])
        #expect(ListingState.selection(after: .pageUp, in: ids, selected: ids[10], page: page) == ids[0])
        #expect(ListingState.selection(after: .end, in: ids, selected: ids[3], page: page) == ids[49])
        #expect(ListingState.selection(after: .home, in: ids, selected: ids[30], page: page) == ids[0])
        #expect(ListingState.selection(after: .down, in: [], selected: nil, page: page) == nil)
        // The page the renderer scrolls by is the rows it shows items in: the selection a page down is on screen.
        var state = ListingState(source: source)
        state.items = (0..<50).map { barcode("code \($0)", id: $0 + 1) }
        let shown = state.items.map(\.id)
        state.selected = ListingState.selection(after: .pageDown, in: shown, selected: shown[0], page: page)
        #expect(ListingRenderer.render(state, width: 80, height: 24, color: false).contains { $0.contains("code 18") })
    }

    /// A held arrow key, fast typing and a paste reach the listing in one read: every key in it counts.
    @Test func keysThatArriveTogetherAreAllParsed() {
        let heldDown: [UInt8] = [0x1B, 0x5B, 0x42, 0x1B, 0x5B, 0x42, 0x1B, 0x4F, 0x42]
        #expect(Terminal.parseKeys(heldDown) == [.down, .down, .down])
        #expect(Terminal.parseKeys(Array("ps".utf8) + [0x0D]) == [.character("p"), .character("s"), .enter])
        // Sequences the listing does not know (F5, F7, a modified arrow) are skipped whole: their parameters are not
        // typed characters.
        let unknown: [UInt8] = [0x1B, 0x5B, 0x31, 0x35, 0x7E, 0x1B, 0x5B, 0x31, 0x38, 0x7E, 0x1B, 0x5B, 0x31, 0x3B,
                                0x35, 0x41, 0x71]
        #expect(Terminal.parseKeys(unknown) == [.character("q")])
        #expect(Terminal.parseKeys([0x1B, 0x5B, 0x41, 0x71, 0x0A]) == [.up, .character("q"), .enter])
    }
}
