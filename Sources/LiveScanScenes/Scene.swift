import Foundation

/// Barcode symbology names as the ground truth spells them. zxing-cpp's writer can draw all but `microqr`,
/// `maxicode`, `databar` and `databarExpanded`: rendering those fails with `SceneError.unsupported`.
package enum SceneSymbology: String, CaseIterable, Sendable, Codable {
    case qr, microqr, datamatrix, aztec, pdf417, maxicode
    case ean13, ean8, upca, upce, code128, code39, code93, codabar, itf, databar
    case databarExpanded = "databar-expanded"

    /// Whether the symbology is a 1-D (linear) code, whose bar height the scene chooses.
    package var isLinear: Bool {
        switch self {
        case .qr, .microqr, .datamatrix, .aztec, .pdf417, .maxicode: false
        default: true
        }
    }
}

/// A colour with 8-bit channels.
package struct SceneColor: Hashable, Sendable {
    /// Red, 0...255.
    package var red: UInt8
    /// Green, 0...255.
    package var green: UInt8
    /// Blue, 0...255.
    package var blue: UInt8

    /// The colour (`red`, `green`, `blue`).
    package init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// A grey of `level` (0 black ... 255 white).
    package init(gray level: UInt8) {
        self.init(red: level, green: level, blue: level)
    }

    /// Black, 0/0/0.
    package static let black = SceneColor(gray: 0)
    /// White, 255/255/255.
    package static let white = SceneColor(gray: 255)
}

/// The typefaces a text line can use: DejaVu, from Debian's fonts-dejavu-core (Latin, Greek, Cyrillic, Arabic), and
/// for Chinese, Japanese and Korean WenQuanYi Micro Hei, from Debian's fonts-wqy-microhei.
package enum SceneFont: String, CaseIterable, Sendable {
    case sans = "DejaVuSans.ttf"
    case sansBold = "DejaVuSans-Bold.ttf"
    case serif = "DejaVuSerif.ttf"
    case mono = "DejaVuSansMono.ttf"
    case cjk = "wqy-microhei.ttc"

    /// The font file, where Debian 12's package installs it.
    package var path: String {
        self == .cjk ? "/usr/share/fonts/truetype/wqy/\(rawValue)" : "/usr/share/fonts/truetype/dejavu/\(rawValue)"
    }
}

/// What an item shows.
package enum SceneContent: Hashable, Sendable {
    /// A barcode drawn black on white with a quiet zone. `moduleSize` is the width of one module (the narrowest bar
    /// of a 1-D code) in pixels; `barHeight` is the bar height of a 1-D code in pixels and is ignored for 2-D codes.
    case barcode(symbology: SceneSymbology, payload: String, moduleSize: Double, barHeight: Double = 0)
    /// One horizontal line of text; `pixelHeight` is the FreeType font height (em size) in pixels.
    case text(transcript: String, pixelHeight: Int, font: SceneFont = .sans)

    /// "barcode" or "text", as the ground truth spells it.
    package var kind: String {
        switch self {
        case .barcode: "barcode"
        case .text: "text"
        }
    }
}

/// Where an item is: its centre at frame 0 plus a constant drift per frame. An item may start outside the image and
/// drift in, or drift out; it is in a frame's ground truth whenever some of it is inside the image.
package struct SceneTrajectory: Hashable, Sendable {
    /// The centre at frame 0, in pixels.
    package var start: ScenePoint
    /// The motion per frame, in pixels.
    package var velocity: SceneVector

    /// A trajectory through `start` at frame 0; default: standing still.
    package init(start: ScenePoint, velocity: SceneVector = .zero) {
        self.start = start
        self.velocity = velocity
    }

    /// A trajectory that is at `point` in frame `frame`.
    package init(at point: ScenePoint, frame: Int, velocity: SceneVector) {
        self.init(
            start: ScenePoint(x: point.x - velocity.dx * Double(frame), y: point.y - velocity.dy * Double(frame)),
            velocity: velocity)
    }

    /// The centre in frame `frame`.
    package func center(frame: Int) -> ScenePoint {
        ScenePoint(x: start.x + velocity.dx * Double(frame), y: start.y + velocity.dy * Double(frame))
    }
}

/// A label printed behind a text line, as on shelves, parcels and boards: a filled rectangle around the line's ink
/// and, optionally, a frame line at its edge. Scanners must read the line, not the label's edge or frame.
package struct SceneLabel: Hashable, Sendable {
    /// The label's colour.
    package var fill: SceneColor
    /// A printed frame along the label's edge; nil for none.
    package var frame: SceneColor?
    /// The frame line's width in pixels.
    package var frameWidth: Int
    /// The label's margin around the ink, in text heights (pixel heights of the font).
    package var margin: Double

    /// A label; default: no frame, a margin of 0.35 text heights.
    package init(fill: SceneColor, frame: SceneColor? = nil, frameWidth: Int = 2, margin: Double = 0.35) {
        self.fill = fill
        self.frame = frame
        self.frameWidth = frameWidth
        self.margin = margin
    }
}

/// One barcode or text line with a stable ground-truth identity.
package struct SceneItem: Hashable, Sendable {
    /// The ground-truth identity, e.g. "qr-1"; unique within a scene.
    package var id: String
    /// The barcode or text line, with its size.
    package var content: SceneContent
    /// Where its centre is in each frame.
    package var trajectory: SceneTrajectory
    /// Rotation of a barcode in degrees, clockwise as seen in the image; text lines are always horizontal.
    package var rotation: Double
    /// Bars and modules of a barcode, glyphs of a text line. Default near-black.
    package var ink: SceneColor
    /// Text lines: the label behind the line; nil draws the line straight on the background.
    package var label: SceneLabel?

    /// An item; default: upright, near-black ink, no label.
    package init(
        id: String, content: SceneContent, trajectory: SceneTrajectory, rotation: Double = 0,
        ink: SceneColor = SceneColor(gray: 20), label: SceneLabel? = nil
    ) {
        self.id = id
        self.content = content
        self.trajectory = trajectory
        self.rotation = rotation
        self.ink = ink
        self.label = label
    }

    /// A barcode item.
    package static func barcode(
        _ id: String, _ symbology: SceneSymbology, _ payload: String, moduleSize: Double, barHeight: Double = 0,
        at center: ScenePoint, velocity: SceneVector = .zero, rotation: Double = 0
    ) -> SceneItem {
        SceneItem(
            id: id,
            content: .barcode(symbology: symbology, payload: payload, moduleSize: moduleSize, barHeight: barHeight),
            trajectory: SceneTrajectory(start: center, velocity: velocity), rotation: rotation, ink: .black)
    }

    /// A text item.
    package static func text(
        _ id: String, _ transcript: String, pixelHeight: Int, font: SceneFont = .sans, at center: ScenePoint,
        velocity: SceneVector = .zero, ink: SceneColor = SceneColor(gray: 25), label: SceneLabel? = nil
    ) -> SceneItem {
        SceneItem(
            id: id, content: .text(transcript: transcript, pixelHeight: pixelHeight, font: font),
            trajectory: SceneTrajectory(start: center, velocity: velocity), ink: ink, label: label)
    }
}

/// A solid rectangle drawn over everything during `frames`: a hand or another object hiding what is behind it.
package struct SceneOccluder: Hashable, Sendable {
    /// Where it is, in pixels; it does not move.
    package var rect: SceneRect
    /// The frames in which the occluder is present.
    package var frames: Range<Int>
    /// Its solid colour; default a skin-like brown.
    package var color: SceneColor

    /// An occluder over `rect` during `frames`.
    package init(rect: SceneRect, frames: Range<Int>, color: SceneColor = SceneColor(red: 150, green: 120, blue: 105)) {
        self.rect = rect
        self.frames = frames
        self.color = color
    }
}

/// The surface the items lie on: a paper-like texture with optional stray lines. It does not move.
package struct SceneBackground: Hashable, Sendable {
    /// The mean colour.
    package var color: SceneColor
    /// Peak deviation of the texture from `color`, 0...128; 0 is a flat colour.
    package var contrast: Int
    /// Soft blotches in the texture.
    package var blotchCount: Int
    /// Thin random lines across the image, drawn under the items.
    package var strayLineCount: Int
    /// The mean colour of the stray lines.
    package var strayLineColor: SceneColor

    /// A background; default: flat `color`, no stray lines.
    package init(
        color: SceneColor, contrast: Int = 0, blotchCount: Int = 0, strayLineCount: Int = 0,
        strayLineColor: SceneColor = SceneColor(gray: 110)
    ) {
        self.color = color
        self.contrast = contrast
        self.blotchCount = blotchCount
        self.strayLineCount = strayLineCount
        self.strayLineColor = strayLineColor
    }

    /// Flat white.
    package static let white = SceneBackground(color: .white)
    /// Light paper with a faint texture.
    package static let paper = SceneBackground(color: SceneColor(red: 236, green: 232, blue: 224), contrast: 14,
                                              blotchCount: 60)
}

/// A complete synthetic scene: the same scene and seed always render the same pixels and ground truth.
package struct Scene: Hashable, Sendable {
    /// A short name, e.g. the preset's.
    package var name: String
    /// Frame width in pixels.
    package var width: Int
    /// Frame height in pixels.
    package var height: Int
    /// Frames per second of a written video and of the ground truth.
    package var fps: Double
    /// The number of frames; 1 for a still.
    package var frameCount: Int
    /// The static surface behind the items.
    package var background: SceneBackground
    /// Drawn in order; later items would cover earlier ones, but presets never let items overlap.
    package var items: [SceneItem]
    /// Rectangles drawn over the items in some frames.
    package var occluders: [SceneOccluder]
    /// Standard deviation of the Gaussian sensor noise added to every frame, in 8-bit levels; 0 for none.
    package var noiseSigma: Double
    /// Standard deviation of the Gaussian blur (defocus) applied to every frame before the noise; 0 for none.
    package var blurSigma: Double
    /// Seeds the background texture, the stray lines and the per-frame noise.
    package var seed: UInt64
    /// A hand holding the camera: every item is offset, frame by frame, along a smooth random path of up to this
    /// many pixels each way (reproducible from `seed`); 0 for a camera on a stand.
    package var shake: Double

    /// A scene; default: one frame at 30 fps on white, no noise, no blur, seed 1.
    package init(
        name: String, width: Int, height: Int, fps: Double = 30, frameCount: Int = 1,
        background: SceneBackground = .white, items: [SceneItem] = [], occluders: [SceneOccluder] = [],
        noiseSigma: Double = 0, blurSigma: Double = 0, seed: UInt64 = 1, shake: Double = 0
    ) {
        self.name = name
        self.width = width
        self.height = height
        self.fps = fps
        self.frameCount = frameCount
        self.background = background
        self.items = items
        self.occluders = occluders
        self.noiseSigma = noiseSigma
        self.blurSigma = blurSigma
        self.seed = seed
        self.shake = shake
    }

    /// The hand's offset in frame `frame`: two slow sines per axis (periods of about 1.3 s and 0.4 s at 30 fps),
    /// phases from the seed, as hand tremor and sway add up.
    package func shakeOffset(frame: Int) -> SceneVector {
        guard shake > 0 else { return .zero }
        func phase(_ index: UInt64) -> Double {
            let bits: UInt64 = ((seed &+ index) &* 0x9E37_79B9_7F4A_7C15) >> 11
            return Double(bits) / Double(UInt64(1) << 53) * 2 * Double.pi
        }
        func wave(period: Double, phase: Double) -> Double { sin(2 * Double.pi * Double(frame) / period + phase) }
        let dx: Double = 0.65 * wave(period: 40, phase: phase(1)) + 0.35 * wave(period: 12, phase: phase(2))
        let dy: Double = 0.65 * wave(period: 46, phase: phase(3)) + 0.35 * wave(period: 11, phase: phase(4))
        return SceneVector(dx: shake * dx, dy: shake * dy)
    }
}
