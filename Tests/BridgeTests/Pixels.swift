import LiveScan
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
    let a = Array(read), b = Array(truth)
    var previous = Array(0...b.count)
    for i in 1...max(a.count, 1) where !a.isEmpty {
        var current = [i] + [Int](repeating: 0, count: b.count)
        for j in 1...max(b.count, 1) where !b.isEmpty {
            current[j] = min(previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1), previous[j] + 1, current[j - 1] + 1)
        }
        previous = current
    }
    return a.isEmpty ? 1 : Double(previous[b.count]) / Double(max(b.count, 1))
}

/// The text recognizer every test shares: one Tesseract start is ~0.15 s.
let sharedTextRecognizer: TesseractTextRecognizer? = try? TesseractTextRecognizer()
