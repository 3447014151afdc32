import Foundation
import Testing
import LiveScanScenes

/// `--languages` takes BCP-47 tags as VisionKit does: `en-US`, `en-GB` and `en` are Tesseract's `eng`, and a scan
/// given one reads exactly as one given `eng` (the learned line reader on beside Tesseract). The start line says
/// both what was typed and what it was read as.
@Suite(.serialized) struct LanguageTagTests {
    let folder: URL
    /// Owns `folder`: it goes with this test.
    private let scratch: ScratchFolder

    init() throws {
        scratch = try ScratchFolder()
        folder = scratch.url
    }

    /// Two printed lines on paper: a still image, so the learned detector finds them and, in English, the learned
    /// reader reads them beside Tesseract (its vote is in each line's confidence).
    private func textImage() throws -> String {
        let scene = Scene(
            name: "lines", width: 800, height: 260, fps: 30, frameCount: 1, background: .paper,
            items: [.text("text-1", "Order 4711 ships today", pixelHeight: 36, at: ScenePoint(x: 400, y: 80)),
                    .text("text-2", "Aisle 7 Shelf B", pixelHeight: 36, at: ScenePoint(x: 400, y: 180))],
            noiseSigma: 2, seed: 3)
        let path = folder.appendingPathComponent("lines.png").path
        try SceneRenderer(scene: scene).writeImage(to: path)
        return path
    }

    /// The start line's config and every change's kind, transcript, confidence and bounds (ids are fresh each run).
    private func scan(_ image: String, languages: String) throws -> (config: [String: Any], changes: [String]) {
        let log = folder.appendingPathComponent("\(languages).jsonl")
        let result = try Livescan.run(["scan", "--types", "text", "--languages", languages, "--events", log.path, image])
        #expect(result.status == 0, "\(result.standardError)")
        let lines = try eventLog(at: log)
        let changes = lines.dropFirst().filter { $0["event"] as? String != "end" }.map { line in
            ["event", "transcript", "confidence", "bounds"].map { "\(line[$0] ?? "-")" }.joined(separator: " ")
        }
        return (lines.first?["config"] as? [String: Any] ?? [:], changes)
    }

    @Test func englishTagsReadExactlyAsEng() throws {
        let image = try textImage()
        let eng = try scan(image, languages: "eng")
        #expect(eng.changes.count == 4, "\(eng.changes)")  // two adds, two removes
        #expect(eng.config["languages"] as? [String] == ["eng"])
        #expect(eng.config["languages_requested"] as? [String] == ["eng"])
        for tag in ["en-US", "en-GB", "en"] {
            let tagged = try scan(image, languages: tag)
            #expect(tagged.changes == eng.changes, "\(tag)")
            #expect(tagged.config["languages"] as? [String] == ["eng"], "\(tag)")
            #expect(tagged.config["languages_requested"] as? [String] == [tag], "\(tag)")
        }
    }

    @Test func theStartLineGivesTheLanguagesAsReadAndAsTyped() throws {
        let image = try textImage()
        // Not given: English, and no requested list.
        let log = folder.appendingPathComponent("default.jsonl")
        #expect(try Livescan.run(["scan", "--types", "qr", "--events", log.path, image]).status == 4)  // nothing found
        let config = try eventLog(at: log).first?["config"] as? [String: Any] ?? [:]
        #expect(config["languages"] as? [String] == ["eng"])
        #expect(config["languages_requested"] == nil)
        // Tesseract's `+` and BCP-47 tags together, each language once; the list as typed beside it.
        let mixed = folder.appendingPathComponent("mixed.jsonl")
        _ = try Livescan.run(["scan", "--types", "qr", "--languages", "en-US,eng+deu,de-AT", "--events", mixed.path,
                              image])
        let mixedConfig = try eventLog(at: mixed).first?["config"] as? [String: Any] ?? [:]
        #expect(mixedConfig["languages"] as? [String] == ["eng", "deu"])
        #expect(mixedConfig["languages_requested"] as? [String] == ["en-US", "eng+deu", "de-AT"])
    }
}
