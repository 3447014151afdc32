import Foundation

/// What a scene contains, frame by frame: the answer a scanner's output is scored against.
///
/// JSON (written with sorted keys; a barcode item has `symbology` and `payload`, a text item has `transcript`):
///
///     {"width":1280,"height":720,"fps":30,"frame_count":300,
///      "items":[{"id":"qr-1","kind":"barcode","symbology":"qr","payload":"https://example.com"},
///               {"id":"text-1","kind":"text","transcript":"Aisle 7 Shelf B"}],
///      "frames":[[{"item":"qr-1","bounds":[[x,y],[x,y],[x,y],[x,y]],"visible":true}, ...], ...]}
///
/// - `frames[i]` lists, in `items` order, every item whose symbol or ink is at least partly inside frame `i`.
/// - `bounds` are the corners topLeft, topRight, bottomRight, bottomLeft of the item itself, in continuous pixel
///   coordinates (pixel (i, j) covers [i, i+1) x [j, j+1)), rounded to 1/1000 pixel; they may lie outside the image.
///   For a barcode they enclose the modules without the quiet zone; for text, the tight box of the glyph ink.
/// - `visible` is true when the item lies entirely inside the frame and no occluder present in that frame
///   intersects it: the items a scanner should report in that frame.
/// - `symbology` uses `SceneSymbology`'s names: qr, microqr, datamatrix, aztec, pdf417, maxicode, ean13, ean8, upca,
///   upce, code128, code39, code93, codabar, itf, databar, databar-expanded.
package struct GroundTruth: Codable, Hashable, Sendable {
    /// One item of the scene, as a scanner should report it.
    package struct Item: Codable, Hashable, Sendable {
        /// The stable ground-truth identity, e.g. "qr-1".
        package var id: String
        /// "barcode" or "text".
        package var kind: String
        /// For barcodes: a `SceneSymbology` raw value.
        package var symbology: String?
        /// For barcodes: the encoded text. For EAN/UPC, with the check digit.
        package var payload: String?
        /// For text lines: the rendered text.
        package var transcript: String?

        /// An item; give `symbology` and `payload` for a barcode, `transcript` for text.
        package init(id: String, kind: String, symbology: String? = nil, payload: String? = nil,
                    transcript: String? = nil) {
            self.id = id
            self.kind = kind
            self.symbology = symbology
            self.payload = payload
            self.transcript = transcript
        }
    }

    /// Where one item is in one frame.
    package struct Placement: Codable, Hashable, Sendable {
        /// The `Item.id`.
        package var item: String
        /// Four `[x, y]` corners: topLeft, topRight, bottomRight, bottomLeft.
        package var bounds: [[Double]]
        /// Entirely inside the frame and not intersecting an occluder present in the frame.
        package var visible: Bool

        /// A placement; the bounds are rounded to 1/1000 pixel.
        package init(item: String, bounds: SceneQuad, visible: Bool) {
            self.item = item
            self.bounds = bounds.corners.map { [Self.rounded($0.x), Self.rounded($0.y)] }
            self.visible = visible
        }

        /// The bounds as a quad.
        package var quad: SceneQuad? {
            guard bounds.count == 4, bounds.allSatisfy({ $0.count == 2 }) else {
                return nil
            }
            let points = bounds.map { ScenePoint(x: $0[0], y: $0[1]) }
            return SceneQuad(topLeft: points[0], topRight: points[1], bottomRight: points[2], bottomLeft: points[3])
        }

        private static func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
    }

    /// Frame width in pixels.
    package var width: Int
    /// Frame height in pixels.
    package var height: Int
    /// Frames per second.
    package var fps: Double
    /// The number of frames, equal to `frames.count`.
    package var frameCount: Int
    /// Every item of the scene, in drawing order, whether or not it is ever inside the image.
    package var items: [Item]
    /// `frames[i]`: the placements in frame `i`.
    package var frames: [[Placement]]

    enum CodingKeys: String, CodingKey {
        case width, height, fps
        case frameCount = "frame_count"
        case items, frames
    }

    /// Ground truth from its parts.
    package init(width: Int, height: Int, fps: Double, frameCount: Int, items: [Item], frames: [[Placement]]) {
        self.width = width
        self.height = height
        self.fps = fps
        self.frameCount = frameCount
        self.items = items
        self.frames = frames
    }

    /// Compact JSON, UTF-8, keys sorted so the same scene always gives the same bytes, slashes unescaped so URLs
    /// read as written.
    package func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// Writes `jsonData()` to `path`; `SceneError.io` when the file cannot be written.
    package func write(to path: String) throws {
        do {
            try jsonData().write(to: URL(fileURLWithPath: path))
        } catch {
            throw SceneError.io("cannot write ground truth '\(path)': \(error.localizedDescription)")
        }
    }

    /// Reads a ground-truth file; `SceneError.io` when it is missing or not ground truth.
    package static func read(from path: String) throws -> GroundTruth {
        do {
            return try JSONDecoder().decode(GroundTruth.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw SceneError.io("cannot read ground truth '\(path)': \(error)")
        }
    }
}
