@testable import LiveScan
import Foundation
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

extension RenderedFrame {
    /// The picture turned by `degrees` (clockwise on screen) about its centre on a white canvas large enough to
    /// hold it, sampled bilinearly as a camera's optics would blur it.
    func turned(by degrees: Double) -> RenderedFrame {
        let (cosine, sine) = (cos(degrees * .pi / 180), sin(degrees * .pi / 180))
        let newWidth = Int((Double(width) * abs(cosine) + Double(height) * abs(sine)).rounded(.up)) + 2
        let newHeight = Int((Double(width) * abs(sine) + Double(height) * abs(cosine)).rounded(.up)) + 2
        var out = [UInt8](repeating: 255, count: newWidth * newHeight * 3)
        let (centreX, centreY) = (Double(width) / 2, Double(height) / 2)
        let (newCentreX, newCentreY) = (Double(newWidth) / 2, Double(newHeight) / 2)
        for y in 0..<newHeight {
            for x in 0..<newWidth {
                // Where this pixel comes from in the picture: turned back by the angle.
                let (dx, dy) = (Double(x) + 0.5 - newCentreX, Double(y) + 0.5 - newCentreY)
                let sourceX = cosine * dx + sine * dy + centreX - 0.5, sourceY = -sine * dx + cosine * dy + centreY - 0.5
                let (x0, y0) = (Int(sourceX.rounded(.down)), Int(sourceY.rounded(.down)))
                guard x0 >= 0, y0 >= 0, x0 + 1 < width, y0 + 1 < height else { continue }
                let (fx, fy) = (sourceX - Double(x0), sourceY - Double(y0))
                for channel in 0..<3 {
                    let at = { (px: Int, py: Int) in Double(pixels[(py * width + px) * 3 + channel]) }
                    let top = at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx
                    let bottom = at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx
                    out[(y * newWidth + x) * 3 + channel] = UInt8((top * (1 - fy) + bottom * fy).rounded())
                }
            }
        }
        return RenderedFrame(width: newWidth, height: newHeight, pixels: out)
    }

    /// The columns from `left` on (a picture cut off at its left edge).
    func cut(fromColumn left: Int) -> RenderedFrame {
        let newWidth = width - left
        var out = [UInt8]()
        out.reserveCapacity(newWidth * height * 3)
        for y in 0..<height {
            out += pixels[((y * width + left) * 3)..<((y + 1) * width * 3)]
        }
        return RenderedFrame(width: newWidth, height: height, pixels: out)
    }
}

/// The values of the items a `DataScanner` looking for `types` adds while it scans the image file at `path`, in
/// the order they were added; throws what stopped the scan.
func valuesAdded(scanning path: String, for types: Set<RecognizedDataType>, recognizesMultipleItems: Bool = false)
    throws -> [String]
{
    final class Added: DataScannerDelegate, @unchecked Sendable {
        let lock = NSLock()
        var values: [String] = []
        var failure: ScanError?
        func dataScanner(_ dataScanner: DataScanner, didAdd addedItems: [RecognizedItem], allItems: [RecognizedItem]) {
            lock.withLock { values += addedItems.map(\.value) }
        }
        func dataScanner(_ dataScanner: DataScanner, becameUnavailableWithError error: ScanError) {
            lock.withLock { failure = error }
        }
    }
    let added = Added()
    let scanner = DataScanner(recognizedDataTypes: types, recognizesMultipleItems: recognizesMultipleItems)
    scanner.delegate = added
    try scanner.startScanning(ImageSource(path: path))
    scanner.waitUntilFinished()
    if let failure = added.lock.withLock({ added.failure }) {
        throw failure
    }
    return added.lock.withLock { added.values }
}
