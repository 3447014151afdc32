/// The named, deterministic scenes the demo, the tests and the tracking benchmark use. Every preset keeps QR modules
/// at 4 px or more, 1-D narrow bars at 2 px or more, text ink at least 24 px tall, and no two items' footprints
/// (`SceneRenderer.footprint(of:frame:)`) overlap inside the image. Every visible code decodes with
/// zxing-cpp (1.4 when they were laid out, and 3.1) on the still PNGs; layouts stay as they were, so benchmark
/// figures stay comparable.
package enum ScenePreset: String, CaseIterable, Sendable {
    case demo
    case still720
    case still1080
    case trackingBarcodes = "tracking-barcodes"
    case trackingText = "tracking-text"
    case trackingMixed = "tracking-mixed"
    case handheldLabels = "handheld-labels"
    case liveView = "live-view"

    /// One line for `livescan-scenes list`.
    package var summary: String {
        switch self {
        case .demo: "1280x720, 30 fps, 4 s: 3 QR, EAN-13, Code 128, 3 text lines drifting slowly; mild noise"
        case .still720: "one 1280x720 frame: 3 QR, EAN-13, Code 128, 6 text lines on light paper"
        case .still1080: "one 1920x1080 frame: 12 codes (6 QR, DataMatrix, PDF417, 2 Code 128, 2 EAN-13), various sizes"
        case .trackingBarcodes:
            "1280x720, 30 fps, 10 s: codes entering and leaving, identical twin QR, a fast QR, an occluded EAN-13"
        case .trackingText:
            "1280x720, 30 fps, 10 s: 6 text lines on cluttered paper, one entering, one leaving, one occluded"
        case .trackingMixed: "1280x720, 30 fps, 10 s: codes and text together, entering, leaving, occluded"
        case .handheldLabels:
            "1280x720, 30 fps, 5 s: a hand-held pan with shake over labels (framed, pale, monospace, two side by "
                + "side), 2 QR, a slow Code 128 and an EAN-13 on textured ground"
        case .liveView:
            "640x360, 30 fps, 15 s: a URL QR and a QR holding markup (`markupPayload`), drifting slowly: what the live "
                + "view must show as text"
        }
    }

    /// The scene.
    package var scene: Scene {
        switch self {
        case .demo: Self.makeDemo()
        case .still720: Self.makeStill720()
        case .still1080: Self.makeStill1080()
        case .trackingBarcodes: Self.makeTrackingBarcodes()
        case .trackingText: Self.makeTrackingText()
        case .trackingMixed: Self.makeTrackingMixed()
        case .handheldLabels: Self.makeHandheldLabels()
        case .liveView: Self.makeLiveView()
        }
    }

    /// The live-view preset's second code: markup that would run script if a page inserted it as HTML.
    package static let markupPayload =
        #"<img src=x onerror="document.title='pwned'"><script>document.title='pwned'</script>"#

    /// The live-view preset's first code.
    package static let liveViewURL = "https://livescan.example/view"

    private static func makeLiveView() -> Scene {
        Scene(name: "live-view", width: 640, height: 360, fps: 30, frameCount: 450, background: .paper,
              items: [
                  .barcode("qr-url", .qr, liveViewURL, moduleSize: 4, at: point(170, 180), velocity: velocity(0.1, 0)),
                  .barcode("qr-markup", .qr, markupPayload, moduleSize: 4, at: point(470, 180),
                           velocity: velocity(-0.1, 0)),
              ],
              noiseSigma: 2, seed: 5)
    }

    /// Light paper with a visible texture and pencil-grey stray lines: edges everywhere for a text localiser to
    /// reject, yet light enough (about 160...240 on 230) that a correctly cropped line still binarises cleanly.
    private static let clutteredPaper = SceneBackground(
        color: SceneColor(red: 232, green: 228, blue: 218), contrast: 22, blotchCount: 120, strayLineCount: 40,
        strayLineColor: SceneColor(gray: 200))

    private static func point(_ x: Double, _ y: Double) -> ScenePoint { ScenePoint(x: x, y: y) }
    private static func velocity(_ dx: Double, _ dy: Double) -> SceneVector { SceneVector(dx: dx, dy: dy) }

    private static func makeDemo() -> Scene {
        Scene(
            name: "demo", width: 1280, height: 720, fps: 30, frameCount: 120, background: .paper,
            items: [
                .text("text-1", "LIVESCAN DEMO", pixelHeight: 52, font: .sansBold, at: point(640, 62),
                      velocity: velocity(0.15, 0.05)),
                .barcode("qr-1", .qr, "https://example.com/livescan/demo", moduleSize: 5, at: point(220, 255),
                         velocity: velocity(0.4, 0.15)),
                .barcode("qr-2", .qr, "Hello from LiveScan", moduleSize: 5, at: point(640, 265),
                         velocity: velocity(-0.2, 0.2), rotation: 8),
                .barcode("qr-3", .qr, "https://example.org/p?id=4711", moduleSize: 5, at: point(1060, 255),
                         velocity: velocity(-0.4, 0.1)),
                .barcode("ean13-1", .ean13, "4006381333931", moduleSize: 3, barHeight: 110, at: point(330, 490),
                         velocity: velocity(0.3, -0.1)),
                .barcode("code128-1", .code128, "LS-2024-0042", moduleSize: 2.5, barHeight: 110,
                         at: point(920, 490), velocity: velocity(-0.3, -0.1)),
                .text("text-2", "Order 4711 ships today", pixelHeight: 36, at: point(360, 655),
                      velocity: velocity(0.25, -0.05)),
                .text("text-3", "Aisle 7 Shelf B", pixelHeight: 36, at: point(980, 655),
                      velocity: velocity(-0.25, -0.05)),
            ],
            noiseSigma: 2, blurSigma: 0.5, seed: 1)
    }

    private static func makeStill720() -> Scene {
        Scene(
            name: "still720", width: 1280, height: 720, fps: 30, frameCount: 1, background: .paper,
            items: [
                .barcode("qr-1", .qr, "https://example.com/livescan", moduleSize: 5, at: point(213, 150)),
                .barcode("qr-2", .qr, "LiveScan still 720p", moduleSize: 5, at: point(640, 150), rotation: 7),
                .barcode("qr-3", .qr, "WIFI:S:LiveScan;T:WPA;P:not-a-secret;;", moduleSize: 5,
                         at: point(1067, 150)),
                .barcode("ean13-1", .ean13, "5901234123457", moduleSize: 3, barHeight: 100, at: point(330, 370)),
                .barcode("code128-1", .code128, "LS-720-0001", moduleSize: 2.5, barHeight: 100,
                         at: point(950, 370)),
                .text("text-1", "Invoice 2024-0815", pixelHeight: 34, at: point(330, 515)),
                .text("text-2", "Fragile Handle With Care", pixelHeight: 34, at: point(950, 515)),
                .text("text-3", "Batch 42 Lot 7", pixelHeight: 34, font: .serif, at: point(330, 595)),
                .text("text-4", "Best before 12 Dec 2025", pixelHeight: 34, at: point(950, 595)),
                .text("text-5", "Aisle 7 Shelf B", pixelHeight: 40, font: .sansBold, at: point(330, 672)),
                .text("text-6", "Scan me first", pixelHeight: 34, font: .mono, at: point(950, 672)),
            ],
            seed: 2)
    }

    private static func makeStill1080() -> Scene {
        Scene(
            name: "still1080", width: 1920, height: 1080, fps: 30, frameCount: 1, background: .paper,
            items: [
                // zxing-cpp 1.4's ReadBarcodes returned at most one DataMatrix per frame, and only one crossing the
                // frame's horizontal centre line: the single DataMatrix sits on the middle row (3.1 reads several).
                .barcode("qr-1", .qr, "https://example.com/1080/a", moduleSize: 6, at: point(240, 180)),
                .barcode("ean13-1", .ean13, "4006381333931", moduleSize: 3, barHeight: 120, at: point(720, 180)),
                .barcode("qr-2", .qr, "small QR 1080", moduleSize: 4, at: point(1200, 180)),
                .barcode("code128-1", .code128, "LS-1080-0001", moduleSize: 2.5, barHeight: 120,
                         at: point(1680, 180)),
                .barcode("datamatrix-1", .datamatrix, "DM-1080-ALPHA", moduleSize: 8, at: point(240, 540)),
                .barcode("qr-3", .qr, "https://example.com/1080/big", moduleSize: 8, at: point(720, 540),
                         rotation: 12),
                .barcode("pdf417-1", .pdf417, "PDF417 1080", moduleSize: 3, at: point(1200, 540)),
                .barcode("qr-4", .qr, "https://example.com/1080/turned", moduleSize: 5, at: point(1680, 540),
                         rotation: 20),
                .barcode("code128-2", .code128, "0123456789", moduleSize: 2, barHeight: 90, at: point(240, 900)),
                .barcode("ean13-2", .ean13, "5901234123457", moduleSize: 2.5, barHeight: 100, at: point(720, 900)),
                .barcode("qr-5", .qr, "BIG", moduleSize: 10, at: point(1200, 900)),
                .barcode("qr-6", .qr, "Plain text QR in a crowded frame", moduleSize: 5, at: point(1680, 900),
                         rotation: -6),
            ],
            seed: 3)
    }

    private static func makeTrackingBarcodes() -> Scene {
        Scene(
            name: "tracking-barcodes", width: 1280, height: 720, fps: 30, frameCount: 300, background: .paper,
            items: [
                // Crosses the top band right to left at 18 px/frame, roughly frames 100...185.
                SceneItem(
                    id: "qr-fast",
                    content: .barcode(symbology: .qr, payload: "FAST-MOVER-18PX", moduleSize: 5),
                    trajectory: SceneTrajectory(at: point(1400, 90), frame: 100, velocity: velocity(-18, 0)),
                    ink: .black),
                // Enters from the left edge, crosses the middle band and leaves on the right.
                .barcode("qr-enter", .qr, "https://example.com/enters-left", moduleSize: 5, at: point(-110, 300),
                         velocity: velocity(5.5, 0)),
                // Two identical payloads side by side, moving together: identity must come from position.
                .barcode("qr-twin-1", .qr, "SAME-PAYLOAD-TWIN", moduleSize: 5, at: point(300, 520),
                         velocity: velocity(0.9, -0.2)),
                .barcode("qr-twin-2", .qr, "SAME-PAYLOAD-TWIN", moduleSize: 5, at: point(470, 520),
                         velocity: velocity(0.9, -0.2)),
                // Hidden by the occluder in frames 150..<156.
                .barcode("ean13-1", .ean13, "4006381333931", moduleSize: 3, barHeight: 90, at: point(1020, 520),
                         velocity: velocity(0.1, 0)),
                // Leaves over the right edge, roughly frames 100...280.
                .barcode("code128-1", .code128, "LEAVING-RIGHT", moduleSize: 2.5, barHeight: 70,
                         at: point(800, 660), velocity: velocity(2.5, 0)),
                // Enters from the left edge in the bottom band. (Not Code 39: zxing-cpp 1.4 read its own writer's
                // 1:2 wide-to-narrow Code 39 unreliably once noise and blur were added.)
                .barcode("ean8-1", .ean8, "96385074", moduleSize: 3, barHeight: 70, at: point(-150, 660),
                         velocity: velocity(1.5, 0)),
            ],
            occluders: [SceneOccluder(rect: SceneRect(x: 870, y: 460, width: 340, height: 120), frames: 150..<156)],
            noiseSigma: 4, blurSigma: 0.8, seed: 4)
    }

    private static func makeTrackingText() -> Scene {
        Scene(
            name: "tracking-text", width: 1280, height: 720, fps: 30, frameCount: 300, background: clutteredPaper,
            items: [
                .text("text-1", "Warehouse 12 North", pixelHeight: 48, font: .sansBold, at: point(640, 70),
                      velocity: velocity(0.2, 0)),
                // Enters from the left edge; fully inside from about frame 160.
                .text("text-2", "Order 4711 ships today", pixelHeight: 36, at: point(-250, 190),
                      velocity: velocity(3, 0)),
                // Hidden by the occluder in frames 120..<126.
                .text("text-3", "Aisle 7 Shelf B", pixelHeight: 40, at: point(400, 310),
                      velocity: velocity(0.3, 0.1)),
                // Leaves over the right edge, gone by about frame 215.
                .text("text-4", "Batch 2024 Lot 88", pixelHeight: 34, at: point(900, 420),
                      velocity: velocity(2.5, 0)),
                .text("text-5", "Keep dry and cool", pixelHeight: 32, font: .serif, at: point(350, 530),
                      velocity: velocity(0.4, -0.05)),
                .text("text-6", "Gate 3 Dock 19", pixelHeight: 44, font: .mono, at: point(900, 640),
                      velocity: velocity(-0.5, 0)),
            ],
            occluders: [SceneOccluder(rect: SceneRect(x: 220, y: 275, width: 440, height: 95), frames: 120..<126)],
            noiseSigma: 4, blurSigma: 0.8, seed: 5)
    }

    private static func makeTrackingMixed() -> Scene {
        Scene(
            name: "tracking-mixed", width: 1280, height: 720, fps: 30, frameCount: 300, background: clutteredPaper,
            items: [
                .text("text-1", "Mixed scene 42", pixelHeight: 40, font: .sansBold, at: point(640, 50),
                      velocity: velocity(0.1, 0)),
                .barcode("qr-1", .qr, "https://example.com/mixed/1", moduleSize: 5, at: point(180, 200),
                         velocity: velocity(0.3, 0.05)),
                // PDF417 rather than DataMatrix: zxing-cpp 1.4 found DataMatrix only across the frame's centre line.
                .barcode("pdf417-1", .pdf417, "PDF-MIXED-7", moduleSize: 3, at: point(520, 200),
                         velocity: velocity(0, 0.1)),
                .text("text-2", "Order 4711 ships today", pixelHeight: 32, at: point(950, 200),
                      velocity: velocity(-0.2, 0)),
                .text("text-3", "Aisle 7 Shelf B", pixelHeight: 36, at: point(200, 380), velocity: velocity(0.1, 0)),
                // Enters from the right edge.
                .barcode("qr-2", .qr, "ENTER-RIGHT-QR", moduleSize: 5, at: point(1400, 380),
                         velocity: velocity(-3, 0)),
                // Hidden by the occluder in frames 200..<206.
                .barcode("ean13-1", .ean13, "9780201379624", moduleSize: 3, barHeight: 90, at: point(330, 560),
                         velocity: velocity(0.2, 0)),
                // Leaves over the right edge.
                .barcode("code128-1", .code128, "MIX-128-LEAVE", moduleSize: 2.5, barHeight: 80,
                         at: point(900, 560), velocity: velocity(2, 0)),
                // Enters from the left edge.
                .text("text-4", "Batch 2024 Lot 88", pixelHeight: 34, at: point(-200, 680),
                      velocity: velocity(2.5, 0)),
            ],
            occluders: [SceneOccluder(rect: SceneRect(x: 170, y: 490, width: 380, height: 140), frames: 200..<206)],
            noiseSigma: 4, blurSigma: 0.8, seed: 8)
    }

    /// What footage from another generator showed LiveScan getting wrong: a hand that shakes the camera while it
    /// pans, text on printed labels whose edges and frames are not text, two labels side by side on one row, a
    /// monospace line on a pale label, and linear codes read at whichever rows a scan hit.
    private static func makeHandheldLabels() -> Scene {
        let pan = velocity(-1.2, 0.3)
        let pale = SceneLabel(fill: SceneColor(red: 226, green: 238, blue: 222))
        let framed = SceneLabel(fill: SceneColor(gray: 248), frame: SceneColor(gray: 30), frameWidth: 2)
        let lavender = SceneLabel(fill: SceneColor(red: 222, green: 220, blue: 244))
        let cream = SceneLabel(fill: SceneColor(red: 246, green: 238, blue: 214))
        return Scene(
            name: "handheld-labels", width: 1280, height: 720, fps: 30, frameCount: 150,
            background: SceneBackground(color: SceneColor(red: 150, green: 140, blue: 150), contrast: 60,
                                        blotchCount: 400, strayLineCount: 60, strayLineColor: SceneColor(gray: 90)),
            items: [
                .barcode("qr-1", .qr, "https://example.net/shelf/17", moduleSize: 5, at: point(200, 170),
                         velocity: pan),
                .barcode("qr-2", .qr, "BIN-0042-C", moduleSize: 5, at: point(1080, 160), velocity: pan),
                .barcode("code128-1", .code128, "LOT-7731", moduleSize: 3, barHeight: 60, at: point(1000, 420),
                         velocity: velocity(-0.4, 0.1)),
                .barcode("ean13-1", .ean13, "4006381333931", moduleSize: 3, barHeight: 80, at: point(260, 430),
                         velocity: pan),
                .text("text-1", "WAREHOUSE CARD", pixelHeight: 30, font: .sansBold, at: point(620, 120),
                      velocity: pan, label: framed),
                .text("text-2", "batch 2024 lot 88", pixelHeight: 28, font: .mono, at: point(640, 300),
                      velocity: pan, label: pale),
                .text("text-3", "fragile handle", pixelHeight: 28, font: .serif, at: point(470, 590),
                      velocity: pan, label: lavender),
                // A second label on the same row, about one text height to the right of the first.
                .text("text-4", "due today", pixelHeight: 28, at: point(672, 590), velocity: pan, label: cream),
            ],
            noiseSigma: 4, blurSigma: 0.9, seed: 13, shake: 10)
    }
}
