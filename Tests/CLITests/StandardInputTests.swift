import Foundation
import Testing
import LiveScanScenes

/// `livescan scan -` reads one image from standard input, as `zbarimg -` would be asked to: a pipe from another
/// tool (`curl ... | livescan scan -`). It was taken for a video file named `-`.
@Suite struct StandardInputTests {
    private let scratch: ScratchFolder

    init() throws {
        scratch = try ScratchFolder()
    }

    @Test func anImageOnStandardInputIsScanned() throws {
        let livescan = try #require(Livescan.executable).path
        let png = try scratch.qrStill("in.png", payload: "FROM-STDIN")
        let redirected = try Shell.run("exec \"$0\" scan --types qr - < \"$1\"", arguments: [livescan, png])
        #expect(redirected.status == 0, "\(redirected.standardError)")
        #expect(redirected.outputLines == ["qr:FROM-STDIN"])
        let jpeg = scratch.path("in.jpg")
        try SceneRenderer(scene: SceneRenderer.still(symbology: .qr, payload: "PIPED").scene).writeImage(to: jpeg)
        let piped = try Shell.run("cat \"$1\" | \"$0\" scan --types qr --names -", arguments: [livescan, jpeg])
        #expect(piped.outputLines == ["-: qr:PIPED"], "\(piped.standardError)")
    }

    @Test func nothingOrNoImageOnStandardInputIsOneErrorLine() throws {
        let livescan = try #require(Livescan.executable).path
        let empty = try Shell.run("exec \"$0\" scan - < /dev/null", arguments: [livescan])
        #expect(empty.status == 1 && empty.errorLines == ["Error: -: no image: it is empty"], "\(empty.errorLines)")
        let text = try Shell.run("echo hello | \"$0\" scan -", arguments: [livescan])
        #expect(text.status == 1 && text.errorLines == ["Error: -: not a readable image (corrupt or not an image)"])
        let mixed = try Livescan.run(["scan", "-", try scratch.qrStill("other.png")])
        #expect(mixed.status == 2 && mixed.errorLines.first?.contains("give it alone") == true)
    }
}
