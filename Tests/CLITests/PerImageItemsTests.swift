import Foundation
import Testing
import LiveScan
import LiveScanScenes

/// Each image of a folder, and each image argument, has its own items: a line where the image before had one is
/// another line, the same code in two photos is two findings, and the log and `--names` say which file is which.
@Suite struct PerImageItemsTests {
    let folder: URL
    /// Owns `folder`: it goes with this test.
    private let scratch: ScratchFolder

    init() throws {
        scratch = try ScratchFolder()
        folder = scratch.url
    }

    /// A shipping label: name, street, town and order number above a QR code, always at the same places, as a
    /// batch of labels printed from one template is.
    struct Label {
        var lines: [String]
        var code: String

        var scene: Scene {
            let lineItems = lines.enumerated().map { index, line in
                SceneItem.text("line-\(index)", line, pixelHeight: 30,
                               at: ScenePoint(x: 320, y: 50 + 55 * Double(index)))
            }
            return Scene(name: "label", width: 640, height: 480, items: lineItems + [
                .barcode("qr", .qr, code, moduleSize: 5, at: ScenePoint(x: 320, y: 365)),
            ])
        }

        /// What `livescan scan` prints for it, one line per item.
        var findings: [String] { lines.map { "text:" + $0 } + ["qr:" + code] }
    }

    static let labels = [
        Label(lines: ["Alice Martin", "12 Rose Street", "Leeds LS2 7EW", "Order 40211"], code: "PARCEL-40211"),
        Label(lines: ["Bruno Keller", "88 Lake Road", "Bath BA1 2QH", "Order 40212"], code: "PARCEL-40212"),
        Label(lines: ["Chloe Dubois", "5 Mill Lane", "York YO1 9HX", "Order 40213"], code: "PARCEL-40213"),
    ]

    /// The labels written as `1.png`, `2.png`, ... into `subfolder`; their paths in order.
    private func writeLabels(_ labels: [Label], into subfolder: String) throws -> [String] {
        let target = folder.appendingPathComponent(subfolder)
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        return try labels.enumerated().map { index, label in
            let path = target.appendingPathComponent("\(index + 1).png").path
            try SceneRenderer(scene: label.scene).writeImage(to: path)
            return path
        }
    }

    @Test func everyLineOfEveryImageOfAFolderIsPrinted() throws {
        _ = try writeLabels(Self.labels, into: "labels")
        let result = try Livescan.run(["scan", folder.appendingPathComponent("labels").path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.outputLines.sorted() == Self.labels.flatMap(\.findings).sorted(),
                "\(result.outputLines)")
    }

    @Test func theSameCodeInTwoConsecutiveImagesIsPrintedTwice() throws {
        var second = Self.labels[1]
        second.code = Self.labels[0].code
        _ = try writeLabels([Self.labels[0], second], into: "twice")
        let result = try Livescan.run(["scan", "--types", "qr", folder.appendingPathComponent("twice").path])
        #expect(result.outputLines == ["qr:PARCEL-40211", "qr:PARCEL-40211"], "\(result.outputLines)")
    }

    @Test func theLogTagsTheChangesOfEachImageWithItsFile() throws {
        let paths = try writeLabels(Self.labels, into: "logged")
        let events = folder.appendingPathComponent("labels.jsonl")
        let result = try Livescan.run(["scan", "--types", "qr", "--events", events.path,
                                       folder.appendingPathComponent("logged").path])
        #expect(result.status == 0, "\(result.standardError)")
        let log = try eventLog(at: events)
        let changes = log.filter { ["add", "update", "remove"].contains($0["event"] as? String) }
        // Each image: its code added and removed in its own frame, tagged with its file; nothing updated.
        #expect(changes.map { $0["event"] as? String ?? "" } == ["add", "remove", "add", "remove", "add", "remove"])
        #expect(changes.map { $0["file"] as? String ?? "" } == paths.flatMap { [$0, $0] })
        #expect(changes.map { $0["frame"] as? Int ?? -1 } == [0, 0, 1, 1, 2, 2])
        #expect(Set(changes.compactMap { $0["id"] as? String }).count == 3)
        #expect(log.first?["file"] == nil && log.last?["file"] == nil)
    }

    @Test func aSingleImageNeedsNoFileOnItsChanges() throws {
        let paths = try writeLabels([Self.labels[0]], into: "one")
        let events = folder.appendingPathComponent("one.jsonl")
        #expect(try Livescan.run(["scan", "--types", "qr", "--events", events.path, paths[0]]).status == 0)
        let log = try eventLog(at: events)
        #expect(log.first?["source"] as? String == paths[0])
        #expect(log.count == 4 && log.allSatisfy { $0["file"] == nil }, "\(log)")
    }

    @Test func namesPrefixEachLineWithItsFile() throws {
        let paths = try writeLabels(Self.labels, into: "named")
        let result = try Livescan.run(["scan", "--names", "--types", "qr", folder.appendingPathComponent("named").path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.outputLines == zip(paths, Self.labels).map { "\($0): qr:\($1.code)" }, "\(result.outputLines)")
        let raw = try Livescan.run(["scan", "--names", "--raw", "--types", "qr", paths[1]])
        #expect(raw.outputLines == ["\(paths[1]): PARCEL-40212"])
    }

    @Test func severalImageArgumentsWithEventsGiveOneLog() throws {
        let paths = try writeLabels(Self.labels, into: "arguments")
        let events = folder.appendingPathComponent("arguments.jsonl")
        let result = try Livescan.run(["scan", "--types", "qr", "--events", events.path] + paths)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.outputLines == Self.labels.map { "qr:" + $0.code })
        let log = try eventLog(at: events)
        #expect(log.filter { $0["event"] as? String == "start" }.count == 1)
        #expect(log.filter { $0["event"] as? String == "end" }.count == 1)
        #expect(log.first?["event"] as? String == "start" && log.last?["event"] as? String == "end")
        #expect(log.first?["source"] as? String == folder.appendingPathComponent("arguments").path)
        #expect(log.last?["frames_processed"] as? Int == 3)
        let adds = log.filter { $0["event"] as? String == "add" }
        #expect(adds.map { $0["file"] as? String ?? "" } == paths)
        #expect(adds.map { $0["payload"] as? String ?? "" } == Self.labels.map(\.code))
    }

    @Test func severalImageArgumentsWithAnnotateDrawTheLastImage() throws {
        let paths = try writeLabels(Self.labels, into: "drawn")
        let annotated = folder.appendingPathComponent("drawn.png")
        let result = try Livescan.run(["scan", "--types", "qr", "--annotate", annotated.path] + paths)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try FrameImage(contentsOf: annotated.path).width == 640)
    }

    @Test func aMissingImageAmongArgumentsIsReportedAndTheOthersLogged() throws {
        let paths = try writeLabels(Array(Self.labels.prefix(2)), into: "gap")
        let missing = folder.appendingPathComponent("gap/missing.png").path
        let events = folder.appendingPathComponent("gap.jsonl")
        let result = try Livescan.run(["scan", "--types", "qr", "--events", events.path, paths[0], missing, paths[1]])
        #expect(result.status == 1)
        #expect(result.outputLines == ["qr:PARCEL-40211", "qr:PARCEL-40212"])
        #expect(result.errorLines.count == 1 && result.errorLines[0].hasPrefix("Error: ")
                && result.errorLines[0].contains("missing.png"), "\(result.errorLines)")
        let log = try eventLog(at: events)
        #expect(log.filter { $0["event"] as? String == "add" }.map { $0["file"] as? String ?? "" } == paths)
    }

    @Test func severalVideosWithEventsAreRefusedWithTheReason() throws {
        let result = try Livescan.run(["scan", "--events", folder.appendingPathComponent("v.jsonl").path,
                                       "a.mp4", "b.mp4"])
        #expect(result.status == 2)
        #expect(result.errorLines.first?.hasPrefix("Error: --events records one scan") == true, "\(result.errorLines)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("v.jsonl").path))
    }
}
