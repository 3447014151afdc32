import Foundation
import Testing
import LiveScanScenes

/// `--once` prints the first item found as line output would print it: a code as soon as it is read, a text line
/// once it has settled (`FindingLines.settled`). It printed the first reading of a line entering from the frame's
/// edge, a piece of it (`text:Bat`).
@Suite struct OnceTests {
    private let scratch: ScratchFolder

    init() throws {
        scratch = try ScratchFolder()
    }

    /// A line drifting in over the left edge, read first as its last characters; with a code standing still when
    /// `code` is given.
    private func enteringVideo(_ name: String, code: String? = nil) throws -> String {
        var items: [SceneItem] = [.text("text-1", "Batch 2024 Lot 88", pixelHeight: 34, at: ScenePoint(x: -120, y: 60),
                                        velocity: SceneVector(dx: 4, dy: 0))]
        if let code {
            items.append(.barcode("qr-1", .qr, code, moduleSize: 4, at: ScenePoint(x: 520, y: 150)))
        }
        let scene = Scene(name: "entering", width: 640, height: 220, fps: 30, frameCount: 120, background: .paper,
                          items: items, noiseSigma: 2, seed: 11)
        let video = scratch.path(name)
        try SceneRenderer(scene: scene).writeVideo(to: video)
        return video
    }

    @Test func onceWaitsForATextLineToSettle() throws {
        let video = try enteringVideo("entering.mp4")
        let result = try Livescan.run(["scan", "--types", "text", "--once", video])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.outputLines == ["text:Batch 2024 Lot 88"])
    }

    @Test func onceStillPrintsACodeAsSoonAsItIsRead() throws {
        let video = try enteringVideo("code.mp4", code: "ONCE-QR")
        let events = scratch.path("code.jsonl")
        let result = try Livescan.run(["scan", "--once", "--events", events, video])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.outputLines == ["qr:ONCE-QR"])
        // It stopped at the code: long before the video's 120 frames.
        let end = try #require(try eventLog(at: URL(fileURLWithPath: events)).last)
        #expect(end["event"] as? String == "end" && (end["frame"] as? Int ?? 999) < 30, "\(end)")
    }
}
