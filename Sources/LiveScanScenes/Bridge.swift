internal import SceneRender

/// Why a scene could not be rendered or written.
package enum SceneError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The scene itself is wrong: overlapping items, a size out of range, contents a symbology cannot encode.
    case invalidScene(String)
    /// zxing-cpp's writer cannot draw the symbology, or no codec writes the file extension.
    case unsupported(String)
    /// A file could not be read or written.
    case io(String)
    /// OpenCV, FreeType or zxing-cpp failed unexpectedly.
    case engine(String)

    /// The message alone, for an `Error: ...` line.
    package var description: String {
        switch self {
        case .invalidScene(let message), .unsupported(let message), .io(let message), .engine(let message): message
        }
    }
}

/// Turns a SceneRender status into a thrown `SceneError` carrying `SR_last_error()`, after `context` when the C
/// message alone would not say which item or file failed.
func check(_ status: SR_Status, _ context: @autoclosure () -> String? = nil) throws {
    guard status != SR_OK else {
        return
    }
    let detail = String(cString: SR_last_error())
    let message = context().map { "\($0): \(detail)" } ?? detail
    switch status {
    case SR_INVALID_ARGUMENT: throw SceneError.invalidScene(message)
    case SR_UNSUPPORTED: throw SceneError.unsupported(message)
    case SR_IO_FAILED: throw SceneError.io(message)
    default: throw SceneError.engine(message)
    }
}

extension SceneColor {
    var native: SR_Color { SR_Color(blue: blue, green: green, red: red) }
}

extension SceneQuad {
    var native: SR_Quad {
        let points = corners
        return SR_Quad(
            x: (Float(points[0].x), Float(points[1].x), Float(points[2].x), Float(points[3].x)),
            y: (Float(points[0].y), Float(points[1].y), Float(points[2].y), Float(points[3].y)))
    }
}

extension SceneSymbology {
    var format: SR_Format {
        switch self {
        case .qr: SR_FORMAT_QRCODE
        case .microqr: SR_FORMAT_MICROQRCODE
        case .datamatrix: SR_FORMAT_DATAMATRIX
        case .aztec: SR_FORMAT_AZTEC
        case .pdf417: SR_FORMAT_PDF417
        case .maxicode: SR_FORMAT_MAXICODE
        case .ean13: SR_FORMAT_EAN13
        case .ean8: SR_FORMAT_EAN8
        case .upca: SR_FORMAT_UPCA
        case .upce: SR_FORMAT_UPCE
        case .code128: SR_FORMAT_CODE128
        case .code39: SR_FORMAT_CODE39
        case .code93: SR_FORMAT_CODE93
        case .codabar: SR_FORMAT_CODABAR
        case .itf: SR_FORMAT_ITF
        case .databar: SR_FORMAT_DATABAR
        case .databarExpanded: SR_FORMAT_DATABAR_EXPANDED
        }
    }
}

/// Owns an `SR_Canvas`.
final class Canvas {
    let handle: OpaquePointer

    init(width: Int, height: Int, color: SceneColor) throws {
        var made: OpaquePointer?
        try check(
            SR_Canvas_new(Int32(width), Int32(height), color.native, &made), "cannot make a \(width)x\(height) canvas")
        guard let made else {
            throw SceneError.engine("SR_Canvas_new returned no canvas")
        }
        handle = made
    }

    private init(handle: OpaquePointer) {
        self.handle = handle
    }

    deinit {
        SR_Canvas_delete(handle)
    }

    var width: Int { Int(SR_Canvas_width(handle)) }
    var height: Int { Int(SR_Canvas_height(handle)) }

    func clone() throws -> Canvas {
        var made: OpaquePointer?
        try check(SR_Canvas_clone(handle, &made), "cannot copy a canvas")
        guard let made else {
            throw SceneError.engine("SR_Canvas_clone returned no canvas")
        }
        return Canvas(handle: made)
    }

    func copy(from source: Canvas) throws {
        try check(SR_Canvas_copy_from(handle, source.handle), "cannot copy a canvas")
    }

    func pixels() throws -> [UInt8] {
        let count = width * height * 3
        var bytes = [UInt8](repeating: 0, count: count)
        try bytes.withUnsafeMutableBufferPointer { buffer in
            try check(SR_Canvas_copy_pixels(handle, buffer.baseAddress, count), "cannot copy pixels")
        }
        return bytes
    }

    func write(to path: String) throws {
        try check(SR_Canvas_write(handle, path))
    }
}

/// Owns an `SR_Barcode`: one symbol encoded once, drawn in every frame.
final class EncodedBarcode {
    let handle: OpaquePointer
    /// Modules across and down; `rows` is 1 for linear codes.
    let columns: Int
    let rows: Int
    let isLinear: Bool

    init(symbology: SceneSymbology, payload: String) throws {
        var made: OpaquePointer?
        let bytes = Array(payload.utf8)
        try bytes.withUnsafeBufferPointer { buffer in
            try buffer.withMemoryRebound(to: CChar.self) {
                try check(SR_Barcode_new(symbology.format, $0.baseAddress, $0.count, &made), symbology.rawValue)
            }
        }
        guard let made else {
            throw SceneError.engine("SR_Barcode_new returned no barcode")
        }
        handle = made
        var info = SR_BarcodeInfo()
        let status = SR_Barcode_info(made, &info)
        guard status == SR_OK else {
            SR_Barcode_delete(made)
            throw SceneError.engine("SR_Barcode_info failed: \(String(cString: SR_last_error()))")
        }
        columns = Int(info.columns)
        rows = Int(info.rows)
        isLinear = info.is_linear != 0
    }

    deinit {
        SR_Barcode_delete(handle)
    }
}

/// Owns an `SR_Font`.
final class Font {
    let handle: OpaquePointer

    init(path: String) throws {
        var made: OpaquePointer?
        try check(SR_Font_new(path, &made),
                  "missing scene font \(path) (Debian packages fonts-dejavu-core, fonts-wqy-microhei)")
        guard let made else {
            throw SceneError.engine("SR_Font_new returned no font")
        }
        handle = made
    }

    deinit {
        SR_Font_delete(handle)
    }

    /// The tight ink box of `text` at `pixelHeight`.
    func measure(_ text: String, pixelHeight: Int) throws -> (width: Int, height: Int) {
        var width: Int32 = 0, height: Int32 = 0
        try check(SR_Font_measure(handle, text, Int32(pixelHeight), &width, &height), "cannot measure '\(text)'")
        return (Int(width), Int(height))
    }
}
