import Foundation
import Testing
import LiveScanScenes

/// `--languages` with another script than Latin: a printed line in each, rendered on paper as a still image, is read
/// whole. Chinese and Japanese are read by the learned line recogniser beside Tesseract (its dictionary holds their
/// characters; `LearnedLineReader.languages`); Korean, Russian and Arabic by Tesseract alone, whose words in Korean
/// are a word's syllables: the line keeps Tesseract's own spacing, not a space between every word it reports.
@Suite(.serialized) struct ScriptTests {
    let folder: URL
    /// Owns `folder`: it goes with this test.
    private let scratch: ScratchFolder

    init() throws {
        scratch = try ScratchFolder()
        folder = scratch.url
    }

    /// What `livescan scan` reads in one line of `text` rendered in `font` and scanned with `--languages language`.
    private func read(_ text: String, font: SceneFont, language: String) throws -> [String] {
        let scene = Scene(name: "script", width: 960, height: 200, fps: 30, frameCount: 1, background: .paper,
                          items: [.text("text-1", text, pixelHeight: 48, font: font, at: ScenePoint(x: 480, y: 100))],
                          noiseSigma: 2, seed: 3)
        let image = folder.appendingPathComponent("\(language).png").path
        try SceneRenderer(scene: scene).writeImage(to: image)
        let result = try Livescan.run(["scan", "--types", "text", "--languages", language, "--raw", image])
        #expect(result.status == 0, "\(language): \(result.standardError)")
        return result.outputLines
    }

    @Test(arguments: [
        ("東京駅の南口で会いましょう", SceneFont.cjk, "ja-JP"),
        ("欢迎来到北京图书馆", SceneFont.cjk, "zh-Hans"),
        ("서울역에서 만나요", SceneFont.cjk, "ko-KR"),
        ("Добро пожаловать домой", SceneFont.sans, "ru-RU"),
        ("مرحبا بكم في المكتبة", SceneFont.sans, "ar"),
    ])
    func aPrintedLineIsReadInItsScript(text: String, font: SceneFont, language: String) throws {
        #expect(try read(text, font: font, language: language) == [text])
    }
}
