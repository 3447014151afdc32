import LiveScan
internal import SceneRender

/// One rendered frame: `height` rows of `width` packed 8-bit BGR pixels, no padding.
package struct RenderedFrame: Hashable, Sendable {
    /// Pixels across.
    package let width: Int
    /// Pixels down.
    package let height: Int
    /// `width * height * 3` bytes, blue first.
    package let pixels: [UInt8]

    /// A frame from packed BGR rows.
    package init(width: Int, height: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }
}

/// A single rendered picture with its scene and ground truth, from `SceneRenderer.still`.
package struct RenderedStill: Sendable {
    /// The one-frame scene that was rendered; give it to a `SceneRenderer` to write it as a file.
    package let scene: Scene
    /// The pixels.
    package let frame: RenderedFrame
    /// The one-frame ground truth.
    package let truth: GroundTruth
    /// Where the one item is.
    package let bounds: SceneQuad
}

/// Renders the frames of a `Scene` (SceneRender: OpenCV, zxing-cpp's writer, FreeType) and derives its ground truth
/// from the same geometry the drawing uses. Encodes every barcode and loads every font once, at `init`.
/// Not thread-safe: use one renderer per thread.
package final class SceneRenderer {
    /// The scene being rendered.
    package let scene: Scene

    private let barcodes: [String: EncodedBarcode]
    private let textSizes: [String: (width: Int, height: Int)]
    private let fonts: [SceneFont: Font]
    private let background: Canvas
    private var work: Canvas?

    /// Checks the scene, encodes its barcodes, measures its text and paints its background.
    /// Throws `SceneError.invalidScene` for a malformed scene (items whose footprints overlap are not an error
    /// here), `.unsupported` for a symbology zxing-cpp's writer cannot draw, `.io` for a missing font.
    package init(scene: Scene) throws {
        try Self.validate(scene)
        self.scene = scene
        var barcodes: [String: EncodedBarcode] = [:]
        var fonts: [SceneFont: Font] = [:]
        var textSizes: [String: (width: Int, height: Int)] = [:]
        for item in scene.items {
            switch item.content {
            case .barcode(let symbology, let payload, _, _):
                barcodes[item.id] = try EncodedBarcode(symbology: symbology, payload: payload)
            case .text(let transcript, let pixelHeight, let face):
                let font = try fonts[face] ?? Font(path: face.path)
                fonts[face] = font
                textSizes[item.id] = try font.measure(transcript, pixelHeight: pixelHeight)
            }
        }
        self.barcodes = barcodes
        self.fonts = fonts
        self.textSizes = textSizes
        background = try Canvas(width: scene.width, height: scene.height, color: scene.background.color)
        try paintBackground()
    }

    // MARK: Geometry and ground truth

    /// The item's corners in `frame`: the barcode's modules without quiet zone, or the text's ink box.
    package func bounds(of item: SceneItem, frame: Int) -> SceneQuad {
        let path = item.trajectory.center(frame: frame), hand = scene.shakeOffset(frame: frame)
        let center = ScenePoint(x: path.x + hand.dx, y: path.y + hand.dy)
        switch item.content {
        case .barcode(_, _, let moduleSize, let barHeight):
            guard let barcode = barcodes[item.id] else {
                return SceneQuad(x: center.x, y: center.y, width: 0, height: 0)
            }
            let width = Double(barcode.columns) * moduleSize
            let height = barcode.isLinear ? barHeight : Double(barcode.rows) * moduleSize
            return SceneQuad(center: center, width: width, height: height, degrees: item.rotation)
        case .text:
            let size = textSizes[item.id] ?? (0, 0)
            // SR_Canvas_draw_text places the ink box at whole pixels; rounding here keeps truth and pixels equal.
            let left = (center.x - Double(size.width) / 2).rounded()
            let top = (center.y - Double(size.height) / 2).rounded()
            return SceneQuad(x: left, y: top, width: Double(size.width), height: Double(size.height))
        }
    }

    /// The area an item needs to itself: a barcode with its quiet zone, a text line with a margin of a fifth of its
    /// height. Items whose footprints overlap would disturb each other's decoding.
    package func footprint(of item: SceneItem, frame: Int) -> SceneQuad {
        let quad = bounds(of: item, frame: frame)
        switch item.content {
        case .barcode(let symbology, _, let moduleSize, _):
            return quad.expanded(by: Self.quietZone(symbology) * moduleSize)
        case .text(_, let pixelHeight, _):
            return quad.expanded(by: Double(pixelHeight) * max(item.label?.margin ?? 0, 0.2))
        }
    }

    /// Where every item at least partly inside frame `frame` is, and whether a scanner should see it.
    package func placements(frame: Int) -> [GroundTruth.Placement] {
        let present = scene.occluders.filter { $0.frames.contains(frame) }.map(\.rect.quad)
        return scene.items.compactMap { item in
            let quad = bounds(of: item, frame: frame)
            guard quad.overlapsImage(width: scene.width, height: scene.height) else {
                return nil
            }
            let visible = quad.isInside(width: scene.width, height: scene.height)
                && !present.contains { $0.overlaps(quad) }
            return GroundTruth.Placement(item: item.id, bounds: quad, visible: visible)
        }
    }

    /// The ground truth of frames `frames` (default: the whole scene), renumbered from 0; renders nothing.
    package func groundTruth(frames: Range<Int>? = nil) -> GroundTruth {
        let frames = frames ?? 0..<scene.frameCount
        let items = scene.items.map { item -> GroundTruth.Item in
            switch item.content {
            case .barcode(let symbology, let payload, _, _):
                GroundTruth.Item(
                    id: item.id, kind: item.content.kind, symbology: symbology.rawValue,
                    payload: Self.decodedPayload(symbology, payload))
            case .text(let transcript, _, _):
                GroundTruth.Item(id: item.id, kind: item.content.kind, transcript: transcript)
            }
        }
        return GroundTruth(
            width: scene.width, height: scene.height, fps: scene.fps, frameCount: frames.count, items: items,
            frames: frames.map(placements(frame:)))
    }

    // MARK: Rendering

    /// Renders frame `frame` (0-based, below `scene.frameCount`).
    package func render(frame: Int) throws -> RenderedFrame {
        let canvas = try draw(frame: frame)
        return RenderedFrame(width: scene.width, height: scene.height, pixels: try canvas.pixels())
    }

    /// Renders frame `frame` into an image file whose extension picks the format (.png, .jpg, .bmp; cv::imwrite).
    package func writeImage(frame: Int = 0, to path: String) throws {
        try draw(frame: frame).write(to: path)
    }

    /// A label's fill, then its frame along the fill's edge.
    private func draw(_ label: SceneLabel, around quad: SceneQuad, pixelHeight: Int, on canvas: Canvas,
                      item: String) throws {
        let margin = Double(pixelHeight) * label.margin
        let left = Int((quad.topLeft.x - margin).rounded()), top = Int((quad.topLeft.y - margin).rounded())
        let right = Int((quad.bottomRight.x + margin).rounded()), bottom = Int((quad.bottomRight.y + margin).rounded())
        func fill(_ x: Int, _ y: Int, _ width: Int, _ height: Int, _ color: SceneColor) throws {
            let rect = SR_Rect(x: Int32(x), y: Int32(y), width: Int32(width), height: Int32(height))
            try check(SR_Canvas_fill_rect(canvas.handle, rect, color.native), "cannot draw the label of \(item)")
        }
        try fill(left, top, right - left, bottom - top, label.fill)
        if let frame = label.frame {
            let line = label.frameWidth
            try fill(left, top, right - left, line, frame)
            try fill(left, bottom - line, right - left, line, frame)
            try fill(left, top, line, bottom - top, frame)
            try fill(right - line, top, line, bottom - top, frame)
        }
    }

    /// Renders every frame into a video file and returns the FourCC used; the extension picks the codec
    /// (.mp4/.mkv/.mov: H.264 "avc1", else "mp4v"; .avi: Motion JPEG "MJPG"). `progress` gets each frame index
    /// after it is written.
    @discardableResult
    package func writeVideo(to path: String, progress: ((Int) -> Void)? = nil) throws -> String {
        do {
            let writer = try LiveScan.VideoWriter(path: path, fps: scene.fps, width: scene.width,
                                                  height: scene.height)
            for frame in 0..<scene.frameCount {
                let pixels = try draw(frame: frame).pixels()
                try writer.write(FrameImage(pixels: pixels, width: scene.width, height: scene.height, channels: 3))
                progress?(frame)
            }
            try writer.close()
            return writer.fourcc
        } catch let error as ScanError {
            throw SceneError.io(error.description)
        }
    }

    /// Draws `frame` into the reused work canvas: background, items, occluders, then blur and noise as a camera
    /// would add them (optics before sensor).
    private func draw(frame: Int) throws -> Canvas {
        guard (0..<scene.frameCount).contains(frame) else {
            throw SceneError.invalidScene("frame \(frame) is outside 0..<\(scene.frameCount)")
        }
        let canvas = try work ?? background.clone()
        work = canvas
        try canvas.copy(from: background)
        for item in scene.items {
            guard footprint(of: item, frame: frame).overlapsImage(width: scene.width, height: scene.height) else {
                continue
            }
            let quad = bounds(of: item, frame: frame)
            switch item.content {
            case .barcode(let symbology, _, _, _):
                guard let barcode = barcodes[item.id] else {
                    continue
                }
                var symbol = quad.native
                var style = SR_BarcodeStyle(
                    ink: item.ink.native, paper: SceneColor.white.native,
                    quiet_zone: Float(Self.quietZone(symbology)))
                try check(
                    SR_Canvas_draw_barcode(canvas.handle, barcode.handle, &symbol, &style), "cannot draw \(item.id)")
            case .text(let transcript, let pixelHeight, let face):
                guard let font = fonts[face] else {
                    continue
                }
                if let label = item.label {
                    try draw(label, around: quad, pixelHeight: pixelHeight, on: canvas, item: item.id)
                }
                try check(
                    SR_Canvas_draw_text(
                        canvas.handle, font.handle, transcript, Int32(pixelHeight), item.ink.native,
                        Float(quad.topLeft.x), Float(quad.topLeft.y), nil),
                    "cannot draw \(item.id)")
            }
        }
        for occluder in scene.occluders where occluder.frames.contains(frame) {
            let rect = SR_Rect(
                x: Int32(occluder.rect.x), y: Int32(occluder.rect.y), width: Int32(occluder.rect.width),
                height: Int32(occluder.rect.height))
            try check(SR_Canvas_fill_rect(canvas.handle, rect, occluder.color.native), "cannot draw an occluder")
        }
        try check(SR_Canvas_blur(canvas.handle, scene.blurSigma), "cannot blur")
        // Each frame gets its own noise, reproducible from the scene seed.
        let noiseSeed = (scene.seed &+ UInt64(frame) &+ 1) &* 0x9E37_79B9_7F4A_7C15
        try check(SR_Canvas_add_noise(canvas.handle, scene.noiseSigma, noiseSeed), "cannot add noise")
        return canvas
    }

    private func paintBackground() throws {
        let paper = scene.background
        if paper.contrast > 0 || paper.blotchCount > 0 {
            var texture = SR_Texture(
                base: paper.color.native, contrast: Int32(paper.contrast), blotch_count: Int32(paper.blotchCount),
                seed: scene.seed)
            try check(SR_Canvas_draw_texture(background.handle, nil, &texture), "cannot paint the background")
        }
        if paper.strayLineCount > 0 {
            try check(
                SR_Canvas_draw_stray_lines(
                    background.handle, Int32(paper.strayLineCount), paper.strayLineColor.native, scene.seed &+ 1),
                "cannot draw stray lines")
        }
    }

    // MARK: Rules

    /// Quiet zone in modules: what the symbology specifications ask for (QR 4, linear 10; DataMatrix, Aztec and
    /// PDF417 need less, 2 leaves a margin).
    static func quietZone(_ symbology: SceneSymbology) -> Double {
        switch symbology {
        case .qr, .maxicode: 4
        case .microqr, .datamatrix, .aztec, .pdf417: 2
        default: 10
        }
    }

    /// The payload a decoder reports: EAN/UPC payloads given without their check digit get it appended, as
    /// zxing-cpp's writer appends it; Codabar keeps its start/stop letters, in capitals, as zxing-cpp 3's reader
    /// reports them.
    static func decodedPayload(_ symbology: SceneSymbology, _ payload: String) -> String {
        let lengthWithoutCheck: Int
        switch symbology {
        case .ean13: lengthWithoutCheck = 12
        case .ean8, .upce: lengthWithoutCheck = 7
        case .upca: lengthWithoutCheck = 11
        case .codabar:
            let guards: Set<Character> = ["A", "B", "C", "D", "a", "b", "c", "d"]
            guard payload.count >= 2, let first = payload.first, let last = payload.last, guards.contains(first),
                guards.contains(last)
            else {
                return payload
            }
            return first.uppercased() + payload.dropFirst().dropLast() + last.uppercased()
        default: return payload
        }
        let digits = payload.compactMap { $0.wholeNumberValue }
        guard digits.count == payload.count, digits.count == lengthWithoutCheck else {
            return payload
        }
        return payload + String(gtinCheckDigit(digits))
    }

    /// The GS1 mod-10 check digit of `digits` (weights 3, 1, ... from the right).
    static func gtinCheckDigit(_ digits: [Int]) -> Int {
        let sum = digits.reversed().enumerated().reduce(0) { $0 + $1.element * ($1.offset % 2 == 0 ? 3 : 1) }
        return (10 - sum % 10) % 10
    }

    private static func validate(_ scene: Scene) throws {
        func require(_ condition: Bool, _ message: String) throws {
            if !condition {
                throw SceneError.invalidScene("scene '\(scene.name)': \(message)")
            }
        }
        try require((16...16384).contains(scene.width) && (16...16384).contains(scene.height),
                    "width and height must be in 16...16384")
        try require(scene.fps > 0 && scene.fps <= 1000, "fps must be in (0, 1000]")
        try require(scene.frameCount >= 1, "frameCount must be at least 1")
        try require((0...255).contains(scene.noiseSigma), "noiseSigma must be in 0...255")
        try require((0...100).contains(scene.blurSigma), "blurSigma must be in 0...100")
        try require((0...128).contains(scene.background.contrast), "background contrast must be in 0...128")
        try require(Set(scene.items.map(\.id)).count == scene.items.count, "item ids must be unique")
        for item in scene.items {
            switch item.content {
            case .barcode(let symbology, _, let moduleSize, let barHeight):
                try require(moduleSize > 0 && moduleSize <= 1000, "\(item.id): moduleSize must be in (0, 1000]")
                try require(!symbology.isLinear || (barHeight > 0 && barHeight <= 10000),
                            "\(item.id): a linear code needs a barHeight in (0, 10000]")
            case .text(let transcript, let pixelHeight, _):
                try require((4...1000).contains(pixelHeight), "\(item.id): pixelHeight must be in 4...1000")
                try require(!transcript.isEmpty, "\(item.id): empty transcript")
            }
        }
        for occluder in scene.occluders {
            try require(occluder.rect.width > 0 && occluder.rect.height > 0, "occluders need a positive size")
        }
    }
}

extension SceneRenderer {
    /// One barcode on a white background with `margin` pixels around its quiet zone, for recognition tests.
    /// `barHeight` applies to linear codes only.
    package static func still(
        symbology: SceneSymbology, payload: String, moduleSize: Double = 4, barHeight: Double = 80,
        rotation: Double = 0, margin: Int = 40
    ) throws -> RenderedStill {
        let item = SceneItem.barcode(
            "\(symbology.rawValue)-1", symbology, payload, moduleSize: moduleSize, barHeight: barHeight,
            at: ScenePoint(x: 0, y: 0), rotation: rotation)
        return try still(item: item, margin: margin)
    }

    /// One line of text on a white background with `margin` pixels around its ink, for recognition tests.
    package static func still(text: String, pixelHeight: Int = 32, font: SceneFont = .sans, margin: Int = 40)
        throws -> RenderedStill
    {
        try still(item: .text("text-1", text, pixelHeight: pixelHeight, font: font, at: ScenePoint(x: 0, y: 0)),
                  margin: margin)
    }

    /// Measures `item` centred on the origin, then renders it centred on a canvas just large enough.
    private static func still(item: SceneItem, margin: Int) throws -> RenderedStill {
        guard margin >= 0 else {
            throw SceneError.invalidScene("margin must not be negative")
        }
        let probe = try SceneRenderer(scene: Scene(name: "probe", width: 16, height: 16, items: [item]))
        let box = probe.footprint(of: item, frame: 0).boundingBox
        let spanX = box.maxX - box.minX, spanY = box.maxY - box.minY
        // Even sizes, so the picture can also be written as a 4:2:0 video.
        let width = 2 * ((Int(spanX.rounded(.up)) + 2 * margin + 1) / 2)
        let height = 2 * ((Int(spanY.rounded(.up)) + 2 * margin + 1) / 2)
        var placed = item
        placed.trajectory = SceneTrajectory(start: ScenePoint(x: Double(width) / 2, y: Double(height) / 2))
        let scene = Scene(name: "still", width: max(16, width), height: max(16, height), items: [placed])
        let renderer = try SceneRenderer(scene: scene)
        return RenderedStill(
            scene: scene, frame: try renderer.render(frame: 0), truth: renderer.groundTruth(),
            bounds: renderer.bounds(of: placed, frame: 0))
    }
}
