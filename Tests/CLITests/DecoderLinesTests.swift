import Foundation
import Testing
import LiveScanScenes

/// A damaged image gets LiveScan's own one `Error:` line on stderr, never the lines libpng and libjpeg print
/// themselves under OpenCV ("libpng error: Read Error", "Corrupt JPEG data: premature end of data segment").
@Suite struct DecoderLinesTests {
    let folder: URL
    /// Owns `folder`: it goes with this test.
    private let scratch: ScratchFolder

    init() throws {
        scratch = try ScratchFolder()
        folder = scratch.url
    }

    /// A rendered QR still written as `name`, cut to `fraction` of its bytes, with `ending` appended.
    private func cutStill(_ name: String, fraction: Double = 0.5, ending: [UInt8] = []) throws -> String {
        let image = try scratch.qrStill(name, payload: "cut")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: image))
        try (bytes.prefix(Int(Double(bytes.count) * fraction)) + ending).write(to: URL(fileURLWithPath: image))
        return image
    }

    @Test func aTruncatedPNGGivesOneLine() throws {
        let image = try cutStill("cut.png")
        let result = try Livescan.run(["scan", image])
        #expect(result.status == 1)
        #expect(result.errorLines == ["Error: \(image): the file is truncated (cut short)"])
    }

    @Test func aTruncatedJPEGGivesOneLine() throws {
        let image = try cutStill("cut.jpg")
        let result = try Livescan.run(["scan", image])
        #expect(result.errorLines == ["Error: \(image): the file is truncated (cut short); what decoded was scanned"])
    }

    /// Cut, then closed with an end-of-image marker: libjpeg warns that the scan data ended early.
    @Test func aJPEGWhoseDataEndsEarlyPrintsNoLibraryLine() throws {
        let image = try cutStill("closed.jpg", ending: [0xFF, 0xD9])
        let result = try Livescan.run(["scan", image])
        #expect(result.errorLines.filter { !$0.hasPrefix("Error: ") } == [])
    }

    /// An image sequence is read by OpenCV's imread, which gives libpng the file itself ("libpng error: Read Error").
    @Test func aTruncatedFrameOfAnImageSequenceGivesOneLine() throws {
        let whole = scratch.path("shot_001.png")
        try SceneRenderer(scene: SceneRenderer.still(symbology: .qr, payload: "whole").scene).writeImage(to: whole)
        try FileManager.default.copyItem(atPath: try cutStill("cut.png"), toPath: scratch.path("shot_002.png"))
        try FileManager.default.copyItem(atPath: whole, toPath: scratch.path("shot_003.png"))
        let result = try Livescan.run(["scan", scratch.path("shot_%03d.png")])
        #expect(result.status == 1)
        #expect(result.errorLines.count == 1)
        #expect(result.errorLines.allSatisfy { $0.hasPrefix("Error: ") })
    }
}
