import Foundation
import Testing
import LiveScanScenes

/// zbarimg's closing line on standard error, for a person at a terminal: what was found, in how many images or
/// frames. Not where standard error is a pipe or file, which a script keeps for failures.
@Suite struct SummaryLineTests {
    private let scratch: ScratchFolder

    init() throws {
        scratch = try ScratchFolder()
    }

    @Test func aTerminalGetsTheClosingLine() throws {
        let images = [try scratch.qrStill("a.png", payload: "A"), try scratch.qrStill("b.png", payload: "B")]
        let livescan = try #require(Livescan.executable).path
        let screen = try Shell.runInTerminal([livescan, "scan", "--types", "qr"] + images)
        let lines = screen.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n").map(String.init)
        #expect(lines == ["qr:A", "qr:B", "scanned 2 barcode symbols from 2 images"], "\(lines)")
        let text = try Shell.runInTerminal([livescan, "scan", "--types", "qr,text", images[0]])
        #expect(text.contains("scanned 1 barcode symbol and 0 text lines from 1 image"), "\(text)")
        let quiet = try Shell.runInTerminal([livescan, "scan", "-q", images[0]])
        #expect(quiet.isEmpty, "\(quiet)")
    }

    @Test func aPipeGetsNoClosingLine() throws {
        let result = try Livescan.run(["scan", "--types", "qr", try scratch.qrStill("c.png", payload: "C")])
        #expect(result.outputLines == ["qr:C"] && result.standardError.isEmpty, "\(result.standardError)")
    }
}
