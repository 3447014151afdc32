import Foundation
import Testing
import LiveScanScenes

/// The committed tracking baseline (Fixtures/tracking-baseline.json), checked on every `make test`: presets with
/// what footage from another generator showed going wrong (a shaking hand, labels with frames and neighbours,
/// linear codes; text lines entering and leaving over the frame's edge, read a piece at a time), scanned at the
/// default quality level, keep one id per item and read every item exactly.
@Suite(.serialized) struct TrackingBaselineTests {
    struct Baseline: Decodable {
        let items: Int
        let idsPerItem: Int
        let ghosts: Int
        let exact: Int

        enum CodingKeys: String, CodingKey {
            case items, ghosts, exact
            case idsPerItem = "ids_per_item"
        }
    }

    static func baseline(_ preset: ScenePreset) throws -> Baseline {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/tracking-baseline.json")
        let all = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]
        let entry = try #require(all?[preset.rawValue])
        return try JSONDecoder().decode(Baseline.self, from: JSONSerialization.data(withJSONObject: entry))
    }

    @Test(arguments: [ScenePreset.handheldLabels, .trackingText, .trackingMixed])
    func everyItemKeepsOneIdentity(_ preset: ScenePreset) throws {
        let baseline = try Self.baseline(preset)
        let scratch = try ScratchFolder()
        defer { withExtendedLifetime(scratch) {} }  // the folder stays until the test is done with it
        let folder = scratch.url
        let video = folder.appendingPathComponent("\(preset.rawValue).mp4")
        let renderer = try SceneRenderer(scene: preset.scene)
        try renderer.writeVideo(to: video.path)
        let printed = renderer.groundTruth().items.compactMap { $0.payload ?? $0.transcript }
        #expect(printed.count == baseline.items)

        let events = folder.appendingPathComponent("\(preset.rawValue).jsonl")
        let result = try Livescan.run(["scan", "--quality", "balanced", "--events", events.path, video.path])
        #expect(result.status == 0, "\(result.standardError)")
        var lastValue: [String: String] = [:]
        for line in try eventLog(at: events) {
            if let id = line["id"] as? String, let value = (line["payload"] ?? line["transcript"]) as? String {
                lastValue[id] = value
            }
        }
        for value in printed {
            let ids = lastValue.filter { $0.value == value }.count
            #expect(ids >= 1, "\(value) was never read exactly")
            #expect(ids <= baseline.idsPerItem, "\(value) got \(ids) ids")
        }
        let exact = Set(lastValue.values).intersection(printed).count
        #expect(exact >= baseline.exact)
        let ghosts = lastValue.values.filter { !printed.contains($0) }
        #expect(ghosts.count <= baseline.ghosts, "ghosts: \(ghosts)")
    }
}
