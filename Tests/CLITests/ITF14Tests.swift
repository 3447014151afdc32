import Foundation
import Testing
import LiveScanScenes

/// `--types itf14` is Vision's ITF-14: an ITF of exactly 14 digits whose last is the GS1 mod-10 check digit. It
/// was read as `itf` of any length and check, so the slivers inside a QR code that read as `itf:94` passed it.
@Suite struct ITF14Tests {
    private let scratch: ScratchFolder

    init() throws {
        scratch = try ScratchFolder()
    }

    /// Three ITF symbols: a valid ITF-14 (check digit 5), the same 13 digits with a wrong check digit, ten digits.
    private func stills() throws -> [String] {
        try [("valid.png", "00012345678905"), ("wrong-check.png", "00012345678901"), ("ten.png", "0123456789")]
            .map { name, payload in
                let image = scratch.path(name)
                try SceneRenderer(scene: SceneRenderer.still(symbology: .itf, payload: payload, moduleSize: 3).scene)
                    .writeImage(to: image)
                return image
            }
    }

    @Test func itf14IsFourteenDigitsWithAValidCheckDigit() throws {
        let images = try stills()
        let itf14 = try Livescan.run(["scan", "--types", "itf14"] + images)
        #expect(itf14.status == 0, "\(itf14.standardError)")
        #expect(itf14.outputLines == ["itf14:00012345678905"])
        // Vision's spelling, in its own case, is the same symbology.
        let vision = try Livescan.run(["scan", "--types", "ITF14", images[1]])
        #expect(vision.status == 4 && vision.outputLines.isEmpty, "\(vision.outputLines)")
    }

    @Test func plainITFStillReadsEveryITF() throws {
        let itf = try Livescan.run(["scan", "--types", "itf"] + (try stills()))
        #expect(itf.outputLines == ["itf:00012345678905", "itf:00012345678901", "itf:0123456789"])
        let both = try Livescan.run(["scan", "--types", "itf,itf14"] + (try stills()))
        #expect(both.outputLines == itf.outputLines)
    }
}
