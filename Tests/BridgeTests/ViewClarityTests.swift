import Foundation
import Testing
@testable import LiveScan
import LiveScanScenes

/// `ViewClarity` on rendered pixels: a scene shaking as a hand holds it stays clear; the same scene blurred past
/// reading is obscured; its labels and codes leaving the view, the background's texture still there, is not blur;
/// a cut to another view starts afresh.
/// A textured desk with labels and a code on it, shaking by a few pixels; `blur`: its frames blurred as a fast shake
/// blurs them; `items`: whether the labels and the code are on it.
func shakenDesk(blur: Double = 0, items: Bool = true) throws -> SceneRenderer {
    let placed: [SceneItem] = [
        .text("label-1", "Aisle 7 Shelf B", pixelHeight: 34, at: ScenePoint(x: 400, y: 200)),
        .text("label-2", "Batch 2024 Lot 88", pixelHeight: 30, at: ScenePoint(x: 880, y: 520)),
        .barcode("code-1", .qr, "LIVESCAN-CLARITY", moduleSize: 6, at: ScenePoint(x: 940, y: 220)),
    ]
    let background = SceneBackground(color: SceneColor(gray: 150), contrast: 40, blotchCount: 8, strayLineCount: 12)
    return try SceneRenderer(scene: Scene(name: "desk", width: 1280, height: 720, frameCount: 40,
                                          background: background, items: items ? placed : [], noiseSigma: 2,
                                          blurSigma: blur, seed: 4, shake: 3))
}

@Suite struct ViewClarityTests {
    @Test func aShakesBlurIsObscuredAndItemsLeavingAreNot() throws {
        let sharp = try shakenDesk(), blurred = try shakenDesk(blur: 8), bare = try shakenDesk(items: false)
        var clarity = ViewClarity()
        for index in 0..<12 {
            #expect(try !clarity.isObscured(frame(sharp.render(frame: index), index: index)), "sharp frame \(index)")
        }
        var blurredFrames = clarity
        for index in 12..<20 {
            #expect(try blurredFrames.isObscured(frame(blurred.render(frame: index), index: index)),
                    "blurred frame \(index)")
        }
        // The labels and the code gone, the desk as it was: content left the view, which was not blurred.
        var emptied = clarity
        for index in 12..<20 {
            #expect(try !emptied.isObscured(frame(bare.render(frame: index), index: index)), "emptied frame \(index)")
        }
    }

    /// A cut to another view (a flat grey wall after the desk) is no blur, though it has less detail: its cells are
    /// judged against the new view's own.
    @Test func aCutStartsANewReference() throws {
        let sharp = try shakenDesk()
        var clarity = ViewClarity()
        for index in 0..<10 {
            _ = try clarity.isObscured(frame(sharp.render(frame: index), index: index))
        }
        let wall = try FrameImage(pixels: [UInt8](repeating: 90, count: 1280 * 720), width: 1280, height: 720,
                                  channels: 1)
        #expect(try !clarity.isObscured(Frame(image: wall, index: 10, time: 0)))
    }
}
