import Foundation
import Testing
import LiveScan
import LiveScanScenes

/// Text that changes where it stands (slides, a display, a label replaced in place) is a new value: the item
/// says what is on screen now, not what was there before.
@Suite(.serialized) struct TextChangesInPlaceTests {
    let folder: URL
    /// Owns `folder`: it goes with this test.
    private let scratch: ScratchFolder

    init() throws {
        scratch = try ScratchFolder()
        folder = scratch.url
    }

    /// A clip of `parts`, each a set of lines shown for `frames` frames, every line where the same line of the
    /// other parts stands: an image sequence (`f_%04d.png`, read as a video at one frame a second).
    private func clip(_ parts: [[String]], frames: Int) throws -> String {
        var index = 0
        for lines in parts {
            let items = lines.enumerated().map { row, line in
                SceneItem.text("line-\(row)", line, pixelHeight: row == 0 ? 48 : 34,
                               at: ScenePoint(x: 640, y: 200 + Double(row) * 150))
            }
            let scene = Scene(name: "slides", width: 1280, height: 720, fps: 25, frameCount: frames,
                              background: .white, items: items, noiseSigma: 2, seed: 3)
            let renderer = try SceneRenderer(scene: scene)
            for frame in 0..<frames {
                try renderer.writeImage(frame: frame, to: folder.appendingPathComponent(
                    String(format: "f_%04d.png", index)).path)
                index += 1
            }
        }
        return folder.appendingPathComponent("f_%04d.png").path
    }

    private func textEvents(_ log: URL) throws -> [(event: String, id: String, transcript: String, frame: Int)] {
        try eventLog(at: log).compactMap { line in
            guard let event = line["event"] as? String, ["add", "update", "remove"].contains(event),
                  line["kind"] as? String == "text", let id = line["id"] as? String,
                  let transcript = line["transcript"] as? String, let frame = line["frame"] as? Int
            else { return nil }
            return (event, id, transcript, frame)
        }
    }

    /// `Batch 2024 Lot 88` turning into `Batch 2025 Lot 99` at frame 45: the item is updated to the new
    /// transcript within a few frames, and keeps saying it to the end.
    @Test func aLabelReplacedInPlaceIsUpdated() throws {
        let source = try clip([["Batch 2024 Lot 88"], ["Batch 2025 Lot 99"]], frames: 45)
        let log = folder.appendingPathComponent("label.jsonl")
        let result = try Livescan.run(["scan", "--types", "text", "--events", log.path, source])
        #expect(result.status == 0, "\(result.standardError)")
        let events = try textEvents(log)
        let said = events.filter { $0.event != "remove" }
        #expect(said.first?.transcript == "Batch 2024 Lot 88", "\(events)")
        let changed = try #require(said.first { $0.transcript == "Batch 2025 Lot 99" }, "\(events)")
        #expect(changed.frame >= 45 && changed.frame <= 45 + 10, "\(events)")
        // What it says at the end is the new label.
        #expect(said.last?.transcript == "Batch 2025 Lot 99", "\(events)")
    }

    /// Three slides, a title and a body line each at the same places: all six lines are reported, each while its
    /// slide is on screen.
    @Test func everySlideOfAVideoIsReported() throws {
        let slides = [["Quarterly Review", "Revenue grew in every region"],
                      ["Next Steps", "Hire two engineers for the lab"],
                      ["Questions", "Write to the team any time"]]
        let source = try clip(slides, frames: 40)
        let log = folder.appendingPathComponent("slides.jsonl")
        let result = try Livescan.run(["scan", "--types", "text", "--events", log.path, source])
        #expect(result.status == 0, "\(result.standardError)")
        let events = try textEvents(log).filter { $0.event != "remove" }
        for (number, slide) in slides.enumerated() {
            for line in slide {
                let shown = events.filter { $0.transcript == line }
                #expect(!shown.isEmpty, "\(line): \(events)")
                #expect(shown.allSatisfy { $0.frame >= number * 40 && $0.frame < (number + 1) * 40 },
                        "\(line): \(events)")
            }
        }
        let lines = try Livescan.run(["scan", "--types", "text", source]).outputLines
        #expect(Set(lines) == Set(slides.joined().map { "text:" + $0 }), "\(lines)")
    }
}
