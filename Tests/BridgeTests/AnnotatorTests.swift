import Foundation
import Testing
@testable import LiveScan
import LiveScanScenes

@Suite struct AnnotatorTests {
    @Test func probe() throws {
        let scene = Scene(name: "probe", width: 640, height: 360, fps: 25, frameCount: 1, background: .paper,
                          items: [.barcode("qr", .qr, "https://livescan.example/a", moduleSize: 4, at: ScenePoint(x: 150, y: 150)),
                                  .barcode("c128", .code128, "PARCEL-0042-XY", moduleSize: 2, barHeight: 50, at: ScenePoint(x: 420, y: 250)),
                                  .barcode("ean", .ean13, "4006381333931", moduleSize: 2, barHeight: 50, at: ScenePoint(x: 450, y: 100), rotation: 10)])
        let r = try SceneRenderer(scene: scene)
        let f = try frame(r.render(frame: 0))
        let found = try ZXingBarcodeDetector().detect(in: f)
        for o in found { print(o.symbology!, o.bounds.corners) }
        for item in scene.items { print(item.id, r.bounds(of: item, frame: 0)) }
        let items = found.map { RecognizedItem.barcode(.init(id: UUID(), bounds: $0.bounds, payloadStringValue: $0.payloadStringValue, payloadData: $0.payloadData ?? Data(), symbology: $0.symbology!, frameIndex: 0, time: 0)) }
        try Annotator.snapshot(frame: f, items: items, to: "/tmp/annot/probe.png")
        let back = try FrameImage(contentsOf: "/tmp/annot/probe.png")
        let again = try ZXingBarcodeDetector().detect(in: Frame(image: back, index: 0, time: 0))
        print("again", again.map { $0.symbology! })
    }
}
