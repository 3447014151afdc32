internal import CBridge
@testable import LiveScan
import LiveScanScenes

/// What one CB_Barcode_read of a rendered frame returned, copied out before the array is freed.
struct CAPIRead {
    var status: UInt32
    var texts: [String]
    var symbologies: [Symbology?]
}

/// Reads `rendered` through the C API directly (CB_Image_new, CB_Barcode_read, CB_Barcodes_free), as a C caller
/// would: at balanced's knobs, with or without the any-angle read.
func readThroughCAPI(_ rendered: RenderedFrame, anyAngle: Bool) throws -> CAPIRead {
    var image: OpaquePointer?
    let made = rendered.pixels.withUnsafeBufferPointer { pixels in
        CB_Image_new(pixels.baseAddress, Int32(rendered.width), Int32(rendered.height), 3, Int32(rendered.width * 3),
                     &image)
    }
    guard made == CB_OK else {
        return CAPIRead(status: made.rawValue, texts: [], symbologies: [])
    }
    defer { CB_Image_delete(image) }
    var options = CB_BarcodeOptions()
    options.try_harder = 1
    options.try_second_chances = 1
    options.try_rotate = 1
    options.max_dimension = 1920
    options.try_any_angle = anyAngle ? 1 : 0
    var barcodes: UnsafeMutablePointer<CB_Barcode>?
    var count = 0
    let status = CB_Barcode_read(image, &options, &barcodes, &count)
    defer { CB_Barcodes_free(barcodes, count) }
    var read = CAPIRead(status: status.rawValue, texts: [], symbologies: [])
    for index in 0..<count {
        let barcode = barcodes![index]
        read.texts.append(String(decoding: UnsafeRawBufferPointer(start: barcode.text, count: barcode.text_length),
                                 as: UTF8.self))
        read.symbologies.append(Symbology(formatFlag: barcode.format))
    }
    return read
}

/// A read's text and the scan lines that read it alike (`CB_Barcode.line_count`).
struct CAPILineRead: Equatable {
    var text: String
    var lineCount: Int
}

/// Reads `image` through CB_Barcode_read at balanced's knobs with the region options given (`region`,
/// `try_second_chances`, `along_picture_lines`), as a C caller would; the status and what was read, copied out before
/// the array is freed.
func readThroughCAPI(_ image: FrameImage, region: PixelRect?, secondChances: Bool,
                     alongPictureLines: Bool) -> (status: UInt32, reads: [CAPILineRead]) {
    var options = CB_BarcodeOptions()
    options.try_harder = 1
    options.try_rotate = 1
    options.max_dimension = 1920
    options.try_second_chances = secondChances ? 1 : 0
    options.along_picture_lines = alongPictureLines ? 1 : 0
    if let region {
        options.region = CB_Rect(x: Int32(region.x), y: Int32(region.y), width: Int32(region.width),
                                 height: Int32(region.height))
    }
    var barcodes: UnsafeMutablePointer<CB_Barcode>?
    var count = 0
    let status = CB_Barcode_read(image.handle, &options, &barcodes, &count)
    defer { CB_Barcodes_free(barcodes, count) }
    let reads = (0..<count).map { index in
        let barcode = barcodes![index]
        let text = String(decoding: UnsafeRawBufferPointer(start: barcode.text, count: barcode.text_length),
                          as: UTF8.self)
        return CAPILineRead(text: text, lineCount: Int(barcode.line_count))
    }
    return (status.rawValue, reads)
}
