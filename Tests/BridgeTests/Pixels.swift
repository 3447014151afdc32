@testable import LiveScan
import LiveScanScenes

/// A LiveScan frame holding a rendered picture.
func frame(_ rendered: RenderedFrame, index: Int = 0) throws -> Frame {
    let image = try FrameImage(pixels: rendered.pixels, width: rendered.width, height: rendered.height, channels: 3)
    return Frame(image: image, index: index, time: 0)
}

func bounds(_ quad: SceneQuad) -> Bounds {
    Bounds(topLeft: Point(x: quad.topLeft.x, y: quad.topLeft.y), topRight: Point(x: quad.topRight.x, y: quad.topRight.y),
           bottomRight: Point(x: quad.bottomRight.x, y: quad.bottomRight.y),
           bottomLeft: Point(x: quad.bottomLeft.x, y: quad.bottomLeft.y))
}

/// Character error rate: edit distance over the length of the truth.
func characterErrorRate(_ read: String, truth: String) -> Double {
    Double(editDistance(read, truth)) / Double(max(truth.count, 1))
}

/// The text recognizer every test shares: one Tesseract start is ~0.15 s.
let sharedTextRecognizer: TesseractTextRecognizer? = try? TesseractTextRecognizer()
