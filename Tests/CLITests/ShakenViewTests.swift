import Foundation
import Testing
import LiveScan
import LiveScanScenes

/// A camera shake blurs the whole view past reading for a moment: the labels in it are still there, and each keeps
/// its one identity through the blur (`ViewClarity`), as VisionKit's items do when the phone shakes.
@Suite(.serialized) struct ShakenViewTests {
    let folder: URL
    /// Owns `folder`: it goes with this test.
    private let scratch: ScratchFolder

    init() throws {
        scratch = try ScratchFolder()
        folder = scratch.url
    }

    /// Two labels on a textured desk, shaking by a few pixels, with the sensor's noise, at 25 fps: frames 0-19
    /// sharp, 20-39 blurred past reading (0.8 s, more than the 0.5 s grace period), 40-59 sharp again; an H.264
    /// video.
    private func clip() throws -> String {
        let items: [SceneItem] = [
            .text("label-1", "Order 4711 ships today", pixelHeight: 40, at: ScenePoint(x: 420, y: 220)),
            .text("label-2", "Batch 2024 Lot 88", pixelHeight: 36, at: ScenePoint(x: 820, y: 500)),
        ]
        let background = SceneBackground(color: SceneColor(gray: 200), contrast: 24, blotchCount: 6)
        func renderer(blur: Double) throws -> SceneRenderer {
            try SceneRenderer(scene: Scene(name: "shaken", width: 1280, height: 720, fps: 25, frameCount: 60,
                                           background: background, items: items, noiseSigma: 2, blurSigma: blur,
                                           seed: 5, shake: 3))
        }
        let sharp = try renderer(blur: 0), blurred = try renderer(blur: 9)
        let path = folder.appendingPathComponent("shaken.mp4").path
        let writer = try VideoWriter(path: path, fps: 25, width: 1280, height: 720)
        for index in 0..<60 {
            let rendered = try ((20..<40).contains(index) ? blurred : sharp).render(frame: index)
            try writer.write(FrameImage(pixels: rendered.pixels, width: rendered.width, height: rendered.height,
                                        channels: 3))
        }
        try writer.close()
        return path
    }

    @Test func eachLabelKeepsItsIdentityThroughTheBlur() throws {
        let source = try clip()
        let log = folder.appendingPathComponent("shaken.jsonl")
        let result = try Livescan.run(["scan", "--types", "text", "--events", log.path, source])
        #expect(result.status == 0, "\(result.standardError)")
        let events = try eventLog(at: log).compactMap { line -> (event: String, id: String, frame: Int)? in
            guard let event = line["event"] as? String, ["add", "remove"].contains(event),
                  line["kind"] as? String == "text", let id = line["id"] as? String, let frame = line["frame"] as? Int
            else { return nil }
            return (event, id, frame)
        }
        let adds = try eventLog(at: log).filter { $0["event"] as? String == "add" && $0["kind"] as? String == "text" }
        for label in ["Order 4711 ships today", "Batch 2024 Lot 88"] {
            let ids = Set(adds.filter { $0["transcript"] as? String == label }.compactMap { $0["id"] as? String })
            #expect(ids.count == 1, "\(label): \(adds.map { ($0["frame"] ?? "", $0["transcript"] ?? "") })")
            // Present to the end: removed only by the scan's end, in its last frame.
            let removes = events.filter { $0.event == "remove" && ids.contains($0.id) }
            #expect(removes.allSatisfy { $0.frame == 59 }, "\(label): \(events)")
        }
    }
}
