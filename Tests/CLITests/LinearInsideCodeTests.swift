import Foundation
import Testing
import LiveScan
import LiveScanScenes

/// A linear code cannot be printed inside another symbol: what reads as one inside a decoded QR code is a run of
/// its modules. The demo's QR codes, moving, read as two-digit ITF codes from slivers four pixels wide when ITF was
/// asked for (`itf:94`, `itf:73`).
@Suite struct LinearInsideCodeTests {
    private let scratch: ScratchFolder

    init() throws {
        scratch = try ScratchFolder()
    }

    @Test(arguments: ["balanced", "accurate"])
    func noLinearCodeIsReadInsideAQRCode(quality: String) throws {
        let video = scratch.path("demo.mp4")
        _ = try SceneRenderer(scene: ScenePreset.demo.scene).writeVideo(to: video)
        let result = try Livescan.run(["scan", video, "--types", "itf,qr", "--quality", quality])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(!result.outputLines.isEmpty && result.outputLines.allSatisfy { $0.hasPrefix("qr:") },
                "\(result.outputLines)")
    }
}
