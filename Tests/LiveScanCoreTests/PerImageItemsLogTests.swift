import Foundation
import Testing
@testable import LiveScanCore

/// The log of a scan of several images names each change's file, once per line, and reads it back.
@Suite struct PerImageItemsLogTests {
    let item = RecognizedItem.barcode(.init(
        id: UUID(uuidString: "6F1D3C1E-0000-4000-8000-000000000002")!,
        bounds: Bounds(x: 1, y: 2, width: 10, height: 20),
        payloadStringValue: "PARCEL", payloadData: Data("PARCEL".utf8), symbology: .qr, frameIndex: 1, time: 1))

    func object(_ line: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    @Test func aChangeNamesItsFileUnlessTheFileIsTheSource() throws {
        let changes = ScanChanges(frameIndex: 1, time: 1, added: [item], file: "labels/2.png")
        let line = try #require(EventLog.changeLines(changes, source: "labels").first)
        #expect(line.hasPrefix(#"{"event":"add","frame":1,"time":1,"file":"labels/2.png","id":"#))
        let asSource = try object(EventLog.changeLines(changes, source: "labels/2.png")[0])
        #expect(asSource["file"] == nil)
        let fromVideo = ScanChanges(frameIndex: 1, time: 1, added: [item])
        let video = try object(EventLog.changeLines(fromVideo, source: "v.mp4")[0])
        #expect(video["file"] == nil)
    }

    @Test func theReaderAndTheReportKeepTheFile() throws {
        let changes = ScanChanges(frameIndex: 1, time: 1, added: [item], file: "labels/2.png")
        let lines = EventLog.changeLines(changes, source: "labels")
            + EventLog.changeLines(ScanChanges(frameIndex: 1, time: 1, removed: [item], file: "labels/2.png"),
                                   source: "labels")
        let reader = EventLogReader(data: Data(lines.joined(separator: "\n").utf8))
        #expect(reader.records.map(\.file) == ["labels/2.png", "labels/2.png"])
        #expect(EventLogReport(reader).items.map(\.file) == ["labels/2.png"])
    }
}
